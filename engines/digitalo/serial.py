"""Digitalo's storage: a state to JSON and back, with every stored field checked and the
whole checked against what the rules could have produced."""

from collections import Counter
from typing import Self

from engines.base import (
    JSON,
    StateError,
)
from engines.cards.pyramid import (
    Pyramid,
    fits_inputs,
    is_invalid,
    pyramid_slots,
    reading,
)
from engines.digitalo.cards import (
    ALL_CARDS,
    GATE_CARDS,
    HAND_SIZE,
    PHASES,
    SEATS,
    complete,
    deck_cards,
    position_at,
    slot_at,
    sort_cards,
)
from engines.digitalo.rules import LATER_OPTIONS, NAME, DigitaloRules
from engines.json_copy import copy_json
from engines.state_checks import (
    check_header,
    checked_cards,
    checked_int,
    checked_int_list,
    checked_list,
    checked_outcome,
    load_checked,
)


class DigitaloStore(DigitaloRules):
    """The serialisation of a Digitalo state."""

    def to_dict(self) -> JSON:
        n = self.n
        # Every part is built fresh here except the options, results and events the state
        # keeps, which alone need a deep copy (``engines.json_copy``).
        return {
            "game": NAME,
            "schema": self.schema_version,
            "options": copy_json(self.options),
            "seed": self.seed,
            "round": self.round,
            "first": self.first,
            "starter": self.starter,
            "bits": list(self.bits),
            "hands": [list(hand) for hand in self.hands],
            "draw": list(self.draw),
            "discard": list(self.discard),
            "pyramids": [{str(position_at(n, s)): p[s] for s in pyramid_slots(n) if s in p}
                         for p in self.pyramids],
            "turn": self.turn,
            "moves": list(self.moves),
            "phase": self.phase,
            "completer": self.completer,
            "pending": None if self.pending is None else {"bit": self.pending[0],
                                                          "by": self.pending[1]},
            "scores": list(self.scores),
            "round_results": copy_json(self.round_results),
            "reshuffles": self.reshuffles,
            "actions": list(self.actions),
            "last_events": copy_json(self.last_events),
            "outcome": copy_json(self._outcome.to_dict()) if self._outcome else None,
        }

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        return load_checked("Digitalo", data, cls._load)

    @classmethod
    def _load(cls, data: JSON) -> Self:
        options = check_header(data, NAME, cls.schema_version, "Digitalo")
        state = cls(options, checked_int(data["seed"], "seed"))
        # Every stored option as the canonical set has it; an option added after the game
        # was saved (``danger``, a learner's aid the rules ignore) takes its default.
        stored = data["options"]
        if (not isinstance(stored, dict) or set(stored) - set(state.options)
                or any(state.options[key] != value for key, value in stored.items())
                or set(state.options) - set(stored) - LATER_OPTIONS):
            raise StateError("options are not complete")
        n = state.n
        state.round = checked_int(data["round"], "round", 1, state.options["max_rounds"])
        state.first = checked_int(data["first"], "first", 0, 1)
        state.starter = checked_int(data["starter"], "starter", 0, 1)
        state.bits = checked_int_list(data["bits"], "bits", n, 0, 1)
        known = set(ALL_CARDS)
        state.hands = [checked_cards(h, known, "a hand")
                       for h in checked_list(data["hands"], "hands", SEATS)]
        if any(hand != sort_cards(hand) for hand in state.hands):
            raise StateError("hands are sorted")
        state.draw = checked_cards(data["draw"], known, "the draw pile")
        state.discard = checked_cards(data["discard"], known, "the discard pile")
        state.pyramids = []
        for raw in checked_list(data["pyramids"], "pyramids", SEATS):
            if not isinstance(raw, dict):
                raise StateError("a pyramid is an object of position: card")
            pyramid: Pyramid = {}
            for key, card in raw.items():
                if not (isinstance(key, str) and key.isdigit()
                        and 1 <= int(key) <= state.size and card in GATE_CARDS):
                    raise StateError("a pyramid holds gate cards on its own positions")
                pyramid[slot_at(n, int(key))] = card
            state.pyramids.append(pyramid)
        state.turn = checked_int(data["turn"], "turn", 0, 1)
        state.moves = checked_int_list(data["moves"], "moves", SEATS, 0, state.options["max_moves"])
        if data["phase"] not in PHASES:
            raise StateError("bad phase")
        state.phase = data["phase"]
        state.completer = (None if data["completer"] is None
                           else checked_int(data["completer"], "completer", 0, 1))
        pending = data["pending"]
        state.pending = None if pending is None else (
            checked_int(pending["bit"], "pending bit", 1, n),
            checked_int(pending["by"], "pending by", 0, 1))
        state.scores = checked_int_list(data["scores"], "scores", SEATS, 0, None)
        results = data["round_results"]
        if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
            raise StateError("round_results must be a list of objects")
        state.round_results = copy_json(results)
        state.reshuffles = checked_int(data["reshuffles"], "reshuffles", 0, None)
        actions = data["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise StateError("actions must be a list of strings")
        state.actions = list(actions)
        events = data["last_events"]
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise StateError("last_events must be a list of objects")
        state.last_events = copy_json(events)
        state._outcome = checked_outcome(data["outcome"])
        state._validate()
        return state

    def _validate(self) -> None:
        """Every card exactly once; pyramids, phases and move counts the rules could have
        produced."""
        n = self.n
        everywhere = Counter(self.draw) + Counter(self.discard) + Counter(self.hands[0]) \
            + Counter(self.hands[1])
        for pyramid in self.pyramids:
            everywhere += Counter(pyramid.values())
        if everywhere != Counter(deck_cards(self.options)):
            raise StateError("the cards do not add up to the deck")
        over = self._outcome is not None
        # Between actions both hands hold 4; the action that ends the match draws nothing.
        if any(len(hand) not in ((HAND_SIZE - 1, HAND_SIZE) if over else (HAND_SIZE,))
               for hand in self.hands):
            raise StateError(f"both hands hold {HAND_SIZE} cards")
        if len(self.round_results) != self.round - (0 if over else 1):
            raise StateError("one result per finished round")
        if self.starter != (self.first if self.round % 2 == 1 else 1 - self.first):
            raise StateError("the first player alternates from round to round")
        if self.pending is not None and self.pending[1] == self.turn and not over:
            raise StateError("a pending flip is the other seat's")
        lead = self.moves[self.starter] - self.moves[1 - self.starter]
        if lead not in (0, 1):
            raise StateError("the round's first player moves first, then turns alternate")
        if (self.phase == "play") != (self.completer is None):
            raise StateError("a completer belongs to the last-move phases")
        if not over:
            self._validate_turn(lead)
        bits = list(self.bits)
        if self.pending is not None:
            bits[self.pending[0] - 1] ^= 1  # as the gates were laid, before the flip
        for seat, pyramid in enumerate(self.pyramids):
            row = reading(bits, seat)
            for slot in pyramid:
                if slot[0] > 1 and all(below not in pyramid for below in
                                       ((slot[0] - 1, slot[1]), (slot[0] - 1, slot[1] + 1))):
                    raise StateError(f"gate {position_at(n, slot)} has lost both inputs")
                if is_invalid(pyramid, row, slot, fits_inputs):
                    raise StateError(f"gate {position_at(n, slot)} does not fit its inputs")
        if self.completer is not None and not over:
            if len(self.pyramids[self.completer]) != self.size:
                raise StateError("the completer's pyramid is complete")
            if complete(self.pyramids[1 - self.completer], n):
                raise StateError("with both pyramids complete the round is over")

    def _validate_turn(self, lead: int) -> None:
        if self.phase == "answer":
            if (self.turn != self.completer or self.pending is None or lead != 0
                    or self.pending[1] == self.completer):
                raise StateError("the completer answers the other's last-move flip")
        elif self.phase == "last move":
            if self.completer != self.starter or self.turn == self.completer or lead != 1 \
                    or self.pending is not None:
                raise StateError("the last move belongs to the player who moved less")
        elif (self.turn == self.starter) != (lead == 0):
            raise StateError("turns alternate from the round's first player")
