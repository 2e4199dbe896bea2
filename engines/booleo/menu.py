"""bOOleO's menus: the hand's card kinds (or the answer to a claim), then the slots, start
cards or gates for the chosen card or challenge, split into rows when a step would hold
more than the menu limit."""

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
    LESSONS as LESSONS,  # the referee's lessons, shared with Digitalo
)
from engines.cards.pyramid import (
    Pyramid,
    Slot,
    card_label,
    input_values,
    position_of,
    pyramid_slots,
)


class BooleoMenus(BooleoRules):
    """The menus of a bOOleO state."""

    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        self._check_turn(player)
        return follow_menu(path, 3, lambda: self._top_menu(player),
                           lambda steps: self._submenu(player, steps))

    def _top_menu(self, player: int) -> list[Choice]:
        hand = self.hands[player]
        if self.phase == "claim":
            return [Choice("C", "Challenge"), Choice("OK", "Accept", "accept")]
        counts = Counter(hand)
        kinds = list(dict.fromkeys(hand))
        labels = {card: card_label(card) + (f" ×{counts[card]}" if counts[card] > 1 else "")
                  for card in kinds}
        if self.phase == "discard":
            choices = [Choice(CARD_TOKENS[c],
                              Message("booleo.menu.discard", "Discard {card}", card=labels[c]),
                              f"discard {c}")
                       for c in kinds]
        else:
            # A card that fits nowhere stays offered (its step holds its discard), marked.
            fitting = self.fitting_cards(player)
            choices = [Choice(CARD_TOKENS[c], labels[c] if fitting is None or c in fitting
                              else f"{NO_PLACE_MARK} {labels[c]}") for c in kinds]
            if self._challenge_targets(player):
                choices.append(Choice("C", "Challenge"))
        if not hand:
            choices.append(Choice("P", "Pass", "pass"))
        return choices

    def _submenu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        head = path[0]
        if head == "C":
            opponent = 1 - player
            pyramid = self.pyramids[opponent]
            row = self.row(opponent)
            slots = ([s for s in pyramid_slots(self.n) if s in pyramid] if self.phase == "claim"
                     else self._challenge_targets(player))
            options = [(slot, Choice(f"{slot[0]}{slot[1]}",
                                     f"{slot_name(slot)} {card_label(pyramid[slot])}"
                                     f" ({self._inputs_text(pyramid, row, slot)})",
                                     f"challenge {slot_name(slot)}")) for slot in slots]
            return self._paged(options, None, path[1:])
        card = CARD_BY_TOKEN[head]
        discard = Choice("D", "Discard", f"discard {card}")
        if card == NOT_CARD:
            if len(path) > 1:
                raise not_in_menu()
            row = self.row(player)
            choices = []
            for pos in range(1, self.n + 1):
                cancel = (self.pending is not None
                          and position_of(self.n, player, self.pending[0]) == pos)
                label = (Message("booleo.menu.cancel_flip", "{pos}: cancel the flip", pos=pos)
                         if cancel else f"{pos}: {row[pos - 1]}→{1 - row[pos - 1]}")
                choices.append(Choice(str(pos), label, f"NOT {pos}"))
            return [*choices, discard]
        pyramid = self.resolved_pyramids()[0][player]
        row = self.row(player)
        options = []
        for slot, old in self._targets(pyramid, card):
            label = f"{slot_name(slot)} ({self._inputs_text(pyramid, row, slot)})"
            if old is not None:
                # The inputs are the old gate's, so the slot and what goes are enough.
                label = Message("booleo.menu.replaces", "{slot} replaces {card}",
                                slot=slot_name(slot), card=card_label(old))
            options.append((slot, Choice(f"{slot[0]}{slot[1]}", label,
                                         f"{card} {slot_name(slot)}")))
        return self._paged(options, discard, path[1:])

    @staticmethod
    def _inputs_text(pyramid: Pyramid, row: list[int], slot: Slot) -> str:
        return " ".join("-" if v is None else str(v) for v in input_values(pyramid, row, slot))

    @staticmethod
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
