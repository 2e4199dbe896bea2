"""Digitalo's views: the public view and a seat's (its hand), the previous round's result
drawable like the live pyramids."""


from engines.base import (
    JSON,
    NotYourTurn,
)
from engines.cards.pyramid import (
    Slot,
    fits_inputs,
    inactive_gates,
    is_gate_card,
    is_invalid,
    open_slots,
    pyramid_slots,
    reading,
)
from engines.digitalo.cards import (
    INVERTER,
    SEATS,
    TARGET,
    binary,
    gate_copies,
    gate_view,
    slot_at,
)
from engines.digitalo.rules import NAME, DigitaloRules
from engines.json_copy import copy_json


class DigitaloViews(DigitaloRules):
    """The views of a Digitalo state."""

    def _gate_view(self, seat: int, slot: Slot, inactive: set[Slot]) -> JSON:
        return gate_view(self.pyramids[seat], self.row(seat), self.n, slot, inactive)

    def _last_round_view(self) -> JSON | None:
        """The previous round's result, with its final pyramids drawable like the live ones:
        ``rows`` (each seat's reading of its final bit row) and ``gates`` (per seat, as in
        the view's ``pyramids``). A stored result without a well-formed bit row and
        pyramids (written by hand, or by an older version) is handed over as it is."""
        if not self.round_results:
            return None
        last = copy_json(self.round_results[-1])
        n, bits, placed = self.n, last.get("bit_row"), last.get("pyramids")
        if not (isinstance(bits, list) and len(bits) == n and all(b in (0, 1) for b in bits)
                and isinstance(placed, list) and len(placed) == SEATS
                and all(isinstance(p, dict) for p in placed)):
            return last
        try:
            pyramids = [{slot_at(n, int(position)): str(card) for position, card in p.items()}
                        for p in placed]
        except ValueError:
            return last
        if not all(is_gate_card(card) for p in pyramids for card in p.values()):
            return last
        rows = [reading(bits, seat) for seat in range(SEATS)]
        last["rows"] = rows
        last["gates"] = [
            [gate_view(p, row, n, s, inactive_gates(p, n)) for s in pyramid_slots(n) if s in p]
            for p, row in zip(pyramids, rows, strict=True)]
        # The move limit can end a round while an inverter is pending: the bit row is
        # flipped, the gates it would have felled still stand. Named, so that no board
        # prints them as if they computed.
        last["unfit"] = [self._positions(s for s in p if is_invalid(p, row, s, fits_inputs))
                         for p, row in zip(pyramids, rows, strict=True)]
        return last

    def view(self, player: int | None) -> JSON:
        if player is not None and player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        n = self.n
        pyramids = []
        for seat in range(SEATS):
            inactive = inactive_gates(self.pyramids[seat], n)
            pyramids.append([self._gate_view(seat, s, inactive) for s in pyramid_slots(n)
                             if s in self.pyramids[seat]])
        view: JSON = {
            "game": NAME,
            "viewer": player,
            "options": dict(self.options),
            "bits": n,
            "bit_row": list(self.bits),
            "rows": [self.row(seat) for seat in range(SEATS)],
            "pyramids": pyramids,
            "open": [self._positions(open_slots(p, n)) for p in self.pyramids],
            "pyramid_size": self.size,
            "hand_sizes": [len(hand) for hand in self.hands],
            "draw_pile": len(self.draw),
            "discard_pile": len(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            "gate_copies": gate_copies(self.options),
            "inverters": self.options["inverter_cards"] if self.options["inverters"] else 0,
            "inverters_seen": self.discard.count(INVERTER),
            "pending": self._pending_view(),
            "round": self.round,
            "round_starter": self.starter,
            "first_player": self.first,
            "scores": list(self.scores),
            "scores_binary": [binary(s) for s in self.scores],
            "target": TARGET,
            "target_binary": binary(TARGET),
            "moves": list(self.moves),
            "max_moves": self.options["max_moves"],
            "max_rounds": self.options["max_rounds"],
            "to_move": self.turn if self._outcome is None else None,
            "phase": self.phase,
            "completer": self.completer,
            "last_round": self._last_round_view(),
            "rounds": [{k: r[k] for k in ("round", "reason", "winner", "points")}
                       for r in self.round_results],
            "last_events": copy_json(self.last_events),
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }
        if player is not None:
            view["seat"] = player
            view["hand"] = list(self.hands[player])
            view["fits"] = self.fitting_cards(player)
        return view
