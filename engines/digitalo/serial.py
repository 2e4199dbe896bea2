"""Digitalo's storage: a state to JSON and back, with every stored field checked and the
whole checked against what the rules could have produced. Functions of the rules' state;
``DigitaloState.to_dict`` and ``from_dict`` call them."""

from collections import Counter
from typing import TypeVar

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
from engines.digitalo.rules import LATER_OPTIONS, NAME, ROUND_ENDINGS, DigitaloRules
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

Loaded = TypeVar("Loaded", bound=DigitaloRules)


def to_dict(state: DigitaloRules) -> JSON:
    """The state as JSON (``GameState.to_dict``)."""
    n = state.n
    # Every part is built fresh here except the options, results and events the state
    # keeps, which alone need a deep copy (``engines.json_copy``).
    return {
        "game": NAME,
        "schema": state.schema_version,
        "options": copy_json(state.options),
        "seed": state.seed,
        "round": state.round,
        "first": state.first,
        "starter": state.starter,
        "bits": list(state.bits),
        "hands": [list(hand) for hand in state.hands],
        "draw": list(state.draw),
        "discard": list(state.discard),
        "pyramids": [{str(position_at(n, s)): p[s] for s in pyramid_slots(n) if s in p}
                     for p in state.pyramids],
        "turn": state.turn,
        "moves": list(state.moves),
        "phase": state.phase,
        "completer": state.completer,
        "pending": None if state.pending is None else {"bit": state.pending[0],
                                                      "by": state.pending[1]},
        "scores": list(state.scores),
        "round_results": copy_json(state.round_results),
        "reshuffles": state.reshuffles,
        "actions": list(state.actions),
        "last_events": copy_json(state.last_events),
        "outcome": copy_json(state._outcome.to_dict()) if state._outcome else None,
    }


def from_dict(cls: type[Loaded], data: JSON) -> Loaded:
    """A ``cls`` state from what ``to_dict`` wrote, every field checked
    (``GameState.from_dict``)."""
    return load_checked("Digitalo", data, lambda checked: _load(cls, checked))


def _load(cls: type[Loaded], data: JSON) -> Loaded:
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
    _validate(state)
    return state


def _validate(state: DigitaloRules) -> None:
    """Every card exactly once; pyramids, phases and move counts the rules could have
    produced."""
    n = state.n
    everywhere = Counter(state.draw) + Counter(state.discard) + Counter(state.hands[0]) \
        + Counter(state.hands[1])
    for pyramid in state.pyramids:
        everywhere += Counter(pyramid.values())
    if everywhere != Counter(deck_cards(state.options)):
        raise StateError("the cards do not add up to the deck")
    over = state._outcome is not None
    # Between actions both hands hold 4; the action that ends the match draws nothing.
    if any(len(hand) not in ((HAND_SIZE - 1, HAND_SIZE) if over else (HAND_SIZE,))
           for hand in state.hands):
        raise StateError(f"both hands hold {HAND_SIZE} cards")
    # The round a match ended with is finished; one it was resigned or abandoned in is not.
    ended_round = state._outcome is not None and state._outcome.reason in ROUND_ENDINGS
    if len(state.round_results) != state.round - (0 if ended_round else 1):
        raise StateError("one result per finished round")
    if state.starter != (state.first if state.round % 2 == 1 else 1 - state.first):
        raise StateError("the first player alternates from round to round")
    if state.pending is not None and state.pending[1] == state.turn and not over:
        raise StateError("a pending flip is the other seat's")
    lead = state.moves[state.starter] - state.moves[1 - state.starter]
    if lead not in (0, 1):
        raise StateError("the round's first player moves first, then turns alternate")
    if (state.phase == "play") != (state.completer is None):
        raise StateError("a completer belongs to the last-move phases")
    if not over:
        _validate_turn(state, lead)
    bits = list(state.bits)
    if state.pending is not None:
        bits[state.pending[0] - 1] ^= 1  # as the gates were laid, before the flip
    for seat, pyramid in enumerate(state.pyramids):
        row = reading(bits, seat)
        for slot in pyramid:
            if slot[0] > 1 and all(below not in pyramid for below in
                                   ((slot[0] - 1, slot[1]), (slot[0] - 1, slot[1] + 1))):
                raise StateError(f"gate {position_at(n, slot)} has lost both inputs")
            if is_invalid(pyramid, row, slot, fits_inputs):
                raise StateError(f"gate {position_at(n, slot)} does not fit its inputs")
    if state.completer is not None and not over:
        if len(state.pyramids[state.completer]) != state.size:
            raise StateError("the completer's pyramid is complete")
        if complete(state.pyramids[1 - state.completer], n):
            raise StateError("with both pyramids complete the round is over")


def _validate_turn(state: DigitaloRules, lead: int) -> None:
    if state.phase == "answer":
        if (state.turn != state.completer or state.pending is None or lead != 0
                or state.pending[1] == state.completer):
            raise StateError("the completer answers the other's last-move flip")
    elif state.phase == "last move":
        if state.completer != state.starter or state.turn == state.completer or lead != 1 \
                or state.pending is not None:
            raise StateError("the last move belongs to the player who moved less")
    elif (state.turn == state.starter) != (lead == 0):
        raise StateError("turns alternate from the round's first player")
