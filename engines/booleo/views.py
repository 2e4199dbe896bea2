"""bOOleO's views: the public view and a seat's (its hand), each gate with its inputs."""

from __future__ import annotations

from engines.base import (
    JSON,
    NotYourTurn,
)
from engines.booleo.cards import (
    SEATS,
    is_invalid,
    slot_name,
)
from engines.booleo.rules import NAME, BooleoRules
from engines.cards.pyramid import (
    LESSONS as LESSONS,  # the referee's lessons, shared with Digitalo
)
from engines.cards.pyramid import (
    Slot,
    gate_of,
    inactive_gates,
    input_values,
    output_of,
    position_of,
    pyramid_size,
    pyramid_slots,
)
from engines.json_copy import copy_json


class BooleoViews(BooleoRules):
    """The views of a bOOleO state."""

    def _gate_view(self, seat: int, slot: Slot, inactive: set[Slot]) -> JSON:
        pyramid = self.pyramids[seat]
        card = pyramid[slot]
        a, b = input_values(pyramid, self.row(seat), slot)
        gate: JSON = {"slot": slot_name(slot), "card": card, "gate": gate_of(card),
                      "out": output_of(card), "inputs": [a, b]}
        if self.inactive:
            gate["inactive"] = slot in inactive
        return gate

    def invalid_gates(self) -> list[list[str]]:
        return [[slot_name(s) for s in pyramid_slots(self.n) if s in self.pyramids[seat]
                 and is_invalid(self.pyramids[seat], self.row(seat), self.n, s)]
                for seat in range(SEATS)]

    def view(self, player: int | None) -> JSON:
        if player is not None and player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        n = self.n
        pyramids = []
        for seat in range(SEATS):
            inactive = inactive_gates(self.pyramids[seat], n) if self.inactive else set()
            pyramids.append([self._gate_view(seat, s, inactive) for s in pyramid_slots(n)
                             if s in self.pyramids[seat]])
        pending: JSON | None = None
        if self.pending is not None:
            card, by = self.pending
            _, removes = self.resolved_pyramids()
            pending = {"card": card, "positions": [position_of(n, s, card) for s in range(SEATS)],
                       "by": by, "would_remove": [[slot_name(s) for s, _ in r] for r in removes]}
        view: JSON = {
            "game": NAME,
            "viewer": player,
            "options": dict(self.options),
            "bits": n,
            "start_row": list(self.bits),
            "rows": [self.row(seat) for seat in range(SEATS)],
            "not_counts": [list(self.nots), list(reversed(self.nots))],
            "slot_bits": [self.slot_bit(seat) for seat in range(SEATS)],
            "pyramids": pyramids,
            "pyramid_size": pyramid_size(n),
            "hand_sizes": [len(hand) for hand in self.hands],
            "draw_pile": len(self.draw),
            "discard_pile": len(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            "pending": pending,
            "to_move": self.turn if self._outcome is None else None,
            "phase": self.phase,
            "claimant": self.claimant,
            "challenged": self.challenged,
            "first_player": self.first,
            "turns": self.turns,
            "max_turns": self.options["max_turns"],
            "last_events": copy_json(self.last_events),
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }
        if self._outcome is not None:
            view["invalid_gates"] = self.invalid_gates()
        if player is not None:
            view["seat"] = player
            view["hand"] = list(self.hands[player])
            fitting = self.fitting_cards(player)
            if fitting is not None:
                view["fits"] = fitting
        return view
