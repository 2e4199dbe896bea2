"""Digitalo's menus: the hand's card kinds (or the answer to a last-move flip), then the
positions or bit cards for the chosen card, with the discard where it is allowed.
Functions of the rules' state; ``DigitaloState.menu`` calls ``choices``."""

from collections import Counter

from engines.base import (
    Choice,
    Message,
    follow_menu,
    not_in_menu,
)
from engines.cards.pyramid import (
    card_label,
    input_values,
    open_slots,
)
from engines.digitalo.cards import (
    CARD_BY_TOKEN,
    CARD_TOKENS,
    INVERTER,
    NO_PLACE_MARK,
    position_at,
)
from engines.digitalo.rules import DigitaloRules


def choices(state: DigitaloRules, player: int, path: tuple[str, ...]) -> list[Choice]:
    """The options after ``path`` (``GameState.menu``)."""
    state._check_turn(player)
    return follow_menu(path, 2, lambda: _top_menu(state, player),
                       lambda steps: _submenu(state, player, steps))


def _top_menu(state: DigitaloRules, player: int) -> list[Choice]:
    hand = state.hands[player]
    if state.phase == "answer":
        counter = ([Choice("C", Message("digitalo.menu.counter_flip", "Counter the flip"),
                           "counter")] if INVERTER in hand else [])
        return [*counter, Choice("OK", "Accept the flip", "accept")]
    counts = Counter(hand)
    placeable = state._placeable_now(player)
    fitting = state._fitting_of(player, placeable)
    # A card that fits nowhere is marked; unless it may be discarded (its step holds
    # the discard), nothing under it can be played, so it is also unavailable.
    discard = state._may_discard_given(placeable)
    return [Choice(CARD_TOKENS[card],
                   ("" if card in fitting else f"{NO_PLACE_MARK} ") + card_label(card)
                   + (f" ×{counts[card]}" if counts[card] > 1 else ""),
                   unavailable=None if card in fitting or discard else Message(
                       "digitalo.menu.no_place",
                       "{card} fits nowhere on your pyramid now: no slot has inputs "
                       "its gate turns into {output}.", card=card_label(card),
                       output=card[-1]))
            for card in dict.fromkeys(hand)]


def _submenu(state: DigitaloRules, player: int, path: tuple[str, ...]) -> list[Choice]:
    if len(path) > 1:
        raise not_in_menu()
    card = CARD_BY_TOKEN[path[0]]
    tail = ([Choice("D", "Discard", f"discard {card}")] if state.may_discard(player)
            else [])
    if card == INVERTER:
        row = state.row(player)
        options = []
        for pos in range(1, state.n + 1):
            action = state._inverter_action(player, pos)
            label = (Message("digitalo.menu.undo_flip", "{pos}: undo the flip", pos=pos)
                     if action == "counter" else f"{pos}: {row[pos - 1]}→{1 - row[pos - 1]}")
            options.append(Choice(str(pos), label, action))
        return options + tail
    pyramid = state.resolved_pyramids()[0][player]
    row = state.row(player)
    options = []
    for slot in open_slots(pyramid, state.n):
        a, b = input_values(pyramid, row, slot)
        pos = position_at(state.n, slot)
        options.append(Choice(str(pos), f"{pos} ({a} {b})", f"{card} {pos}"))
    return options + tail
