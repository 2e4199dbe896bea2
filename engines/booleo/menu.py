"""bOOleO's menus: the hand's card kinds (or the answer to a claim), then the slots, start
cards or gates for the chosen card or challenge, split into rows when a step would hold
more than the menu limit. Functions of the rules' state; ``BooleoState.menu`` calls
``choices``."""

from __future__ import annotations

from collections import Counter

from engines.base import (
    Choice,
    Message,
    follow_menu,
    not_in_menu,
)
from engines.booleo.cards import (
    CARD_BY_TOKEN,
    CARD_TOKENS,
    MENU_LIMIT,
    NO_PLACE_MARK,
    NOT_CARD,
    slot_name,
)
from engines.booleo.rules import BooleoRules
from engines.cards.pyramid import (
    Pyramid,
    Slot,
    card_label,
    input_values,
    position_of,
    pyramid_slots,
)


def choices(state: BooleoRules, player: int, path: tuple[str, ...]) -> list[Choice]:
    """The options after ``path`` (``GameState.menu``)."""
    state._check_turn(player)
    return follow_menu(path, 3, lambda: _top_menu(state, player),
                       lambda steps: _submenu(state, player, steps))


def _top_menu(state: BooleoRules, player: int) -> list[Choice]:
    hand = state.hands[player]
    if state.phase == "claim":
        return [Choice("C", "Challenge"), Choice("OK", "Accept", "accept")]
    counts = Counter(hand)
    kinds = list(dict.fromkeys(hand))
    labels = {card: card_label(card) + (f" ×{counts[card]}" if counts[card] > 1 else "")
              for card in kinds}
    if state.phase == "discard":
        options = [Choice(CARD_TOKENS[c],
                          Message("booleo.menu.discard", "Discard {card}", card=labels[c]),
                          f"discard {c}")
                   for c in kinds]
    else:
        # A card that fits nowhere stays offered (its step holds its discard), marked.
        fitting = state.fitting_cards(player)
        options = [Choice(CARD_TOKENS[c], labels[c] if fitting is None or c in fitting
                          else f"{NO_PLACE_MARK} {labels[c]}") for c in kinds]
        if state._challenge_targets(player):
            options.append(Choice("C", "Challenge"))
    if not hand:
        options.append(Choice("P", "Pass", "pass"))
    return options


def _submenu(state: BooleoRules, player: int, path: tuple[str, ...]) -> list[Choice]:
    head = path[0]
    if head == "C":
        opponent = 1 - player
        pyramid = state.pyramids[opponent]
        row = state.row(opponent)
        slots = ([s for s in pyramid_slots(state.n) if s in pyramid] if state.phase == "claim"
                 else state._challenge_targets(player))
        options = [(slot, Choice(f"{slot[0]}{slot[1]}",
                                 f"{slot_name(slot)} {card_label(pyramid[slot])}"
                                 f" ({_inputs_text(pyramid, row, slot)})",
                                 f"challenge {slot_name(slot)}")) for slot in slots]
        return _paged(options, None, path[1:])
    card = CARD_BY_TOKEN[head]
    discard = Choice("D", "Discard", f"discard {card}")
    if card == NOT_CARD:
        if len(path) > 1:
            raise not_in_menu()
        row = state.row(player)
        flips = []
        for pos in range(1, state.n + 1):
            cancel = (state.pending is not None
                      and position_of(state.n, player, state.pending[0]) == pos)
            label = (Message("booleo.menu.cancel_flip", "{pos}: cancel the flip", pos=pos)
                     if cancel else f"{pos}: {row[pos - 1]}→{1 - row[pos - 1]}")
            flips.append(Choice(str(pos), label, f"NOT {pos}"))
        return [*flips, discard]
    pyramid = state.resolved_pyramids()[0][player]
    row = state.row(player)
    options = []
    for slot, old in state._targets(pyramid, card):
        label = f"{slot_name(slot)} ({_inputs_text(pyramid, row, slot)})"
        if old is not None:
            # The inputs are the old gate's, so the slot and what goes are enough.
            label = Message("booleo.menu.replaces", "{slot} replaces {card}",
                            slot=slot_name(slot), card=card_label(old))
        options.append((slot, Choice(f"{slot[0]}{slot[1]}", label,
                                     f"{card} {slot_name(slot)}")))
    return _paged(options, discard, path[1:])


def _inputs_text(pyramid: Pyramid, row: list[int], slot: Slot) -> str:
    return " ".join("-" if v is None else str(v) for v in input_values(pyramid, row, slot))


def _paged(options: list[tuple[Slot, Choice]], extra: Choice | None,
           rest: tuple[str, ...]) -> list[Choice]:
    """Options as one step, or rows first when there are more than the menu limit."""
    tail = [extra] if extra is not None else []
    if len(options) + len(tail) <= MENU_LIMIT:
        if rest:
            raise not_in_menu()
        return [c for _, c in options] + tail
    rows = list(dict.fromkeys(slot[0] for slot, _ in options))
    if not rest:
        return [Choice(f"R{r}", Message("booleo.menu.row", "Row {row}", row=r))
                for r in rows] + tail
    if len(rest) > 1 or rest[0] not in {f"R{r}" for r in rows}:
        raise not_in_menu()
    return [c for slot, c in options if f"R{slot[0]}" == rest[0]]
