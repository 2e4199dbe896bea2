"""bOOleO's storage: a state to JSON and back, with every stored field checked and the whole
checked against what the rules could have produced. Functions of the rules' state;
``BooleoState.to_dict`` and ``from_dict`` call them."""

from __future__ import annotations

from collections import Counter
from typing import TypeVar

from engines.base import (
    JSON,
    StateError,
)
from engines.booleo.cards import (
    COPIES,
    HAND_SIZE,
    NOT_CARD,
    PHASES,
    SEATS,
    deck_cards,
    is_invalid,
    parse_slot_name,
    slot_name,
    sort_cards,
)
from engines.booleo.rules import LATER_OPTIONS, NAME, BooleoRules
from engines.cards.pyramid import (
    inputs_below,
    pyramid_size,
    pyramid_slots,
    reading,
    slot_exists,
)
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

Loaded = TypeVar("Loaded", bound=BooleoRules)


def to_dict(state: BooleoRules) -> JSON:
    """The state as JSON (``GameState.to_dict``)."""
    # Every part is built fresh here except the options and events the state keeps,
    # which alone need a deep copy (``engines.json_copy``).
    return {
        "game": NAME,
        "schema": state.schema_version,
        "options": copy_json(state.options),
        "seed": state.seed,
        "start": list(state.bits),
        "nots": list(state.nots),
        "hands": [list(hand) for hand in state.hands],
        "draw": list(state.draw),
        "discard": list(state.discard),
        "pyramids": [{slot_name(s): p[s] for s in pyramid_slots(state.n) if s in p}
                     for p in state.pyramids],
        "first": state.first,
        "turn": state.turn,
        "turns": state.turns,
        "phase": state.phase,
        "challenged": state.challenged,
        "claimant": state.claimant,
        "pending": None if state.pending is None else {"card": state.pending[0],
                                                      "by": state.pending[1]},
        "reshuffles": state.reshuffles,
        "actions": list(state.actions),
        "last_events": copy_json(state.last_events),
        "outcome": copy_json(state._outcome.to_dict()) if state._outcome else None,
    }


def from_dict(cls: type[Loaded], data: JSON) -> Loaded:
    """A ``cls`` state from what ``to_dict`` wrote, every field checked
    (``GameState.from_dict``)."""
    return load_checked("bOOleO", data, lambda checked: _load(cls, checked))


def _load(cls: type[Loaded], data: JSON) -> Loaded:
    options = check_header(data, NAME, cls.schema_version, "bOOleO")
    state = cls(options, checked_int(data["seed"], "seed"))
    # Every stored option as the canonical set has it; an option added after the game
    # was saved (``danger``, a learner's aid the rules ignore) takes its default.
    stored = data["options"]
    if (not isinstance(stored, dict) or set(stored) - set(state.options)
            or any(state.options[key] != value for key, value in stored.items())
            or set(state.options) - set(stored) - LATER_OPTIONS):
        raise StateError("options are not complete")
    n = state.n
    state.bits = checked_int_list(data["start"], "start", n, 0, 1)
    state.nots = checked_int_list(data["nots"], "nots", n, 0, COPIES)
    known = set(deck_cards(state.extended))
    state.hands = [checked_cards(h, known, "a hand")
                   for h in checked_list(data["hands"], "hands", SEATS)]
    if any(hand != sort_cards(hand) or len(hand) > HAND_SIZE + 1 for hand in state.hands):
        raise StateError("hands are sorted and hold at most 5 cards")
    state.draw = checked_cards(data["draw"], known, "the draw pile")
    state.discard = checked_cards(data["discard"], known, "the discard pile")
    state.pyramids = []
    for raw in checked_list(data["pyramids"], "pyramids", SEATS):
        if not isinstance(raw, dict):
            raise StateError("a pyramid is an object of slot: card")
        pyramid = {parse_slot_name(k): v for k, v in raw.items()}
        if any(not slot_exists(n, s) for s in pyramid) or any(
                c not in known or c == NOT_CARD for c in pyramid.values()):
            raise StateError("a pyramid holds gate cards on its own slots")
        state.pyramids.append(pyramid)
    state.first = checked_int(data["first"], "first", 0, 1)
    state.turn = checked_int(data["turn"], "turn", 0, 1)
    state.turns = checked_int(data["turns"], "turns", 0, None)
    state.reshuffles = checked_int(data["reshuffles"], "reshuffles", 0, None)
    if data["phase"] not in PHASES or not isinstance(data["challenged"], bool):
        raise StateError("bad phase")
    state.phase, state.challenged = data["phase"], data["challenged"]
    state.claimant = (None if data["claimant"] is None
                      else checked_int(data["claimant"], "claimant", 0, 1))
    pending = data["pending"]
    state.pending = None if pending is None else (
        checked_int(pending["card"], "pending card", 1, n),
        checked_int(pending["by"], "pending by", 0, 1))
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


def _validate(state: BooleoRules) -> None:
    """Every card exactly once; pyramids that the rules could have produced."""
    n = state.n
    everywhere = Counter(state.draw) + Counter(state.discard) + Counter(state.hands[0]) \
        + Counter(state.hands[1]) + Counter({NOT_CARD: sum(state.nots)})
    for pyramid in state.pyramids:
        everywhere += Counter(pyramid.values())
    if everywhere != Counter(deck_cards(state.extended)):
        raise StateError("the cards do not add up to the deck")
    over = state._outcome is not None
    if state.pending is not None:
        card, by = state.pending
        if state.nots[card - 1] < 1 or (by == state.turn and not over):
            raise StateError("a pending flip lies on a card without NOT, or is the mover's")
    if (state.phase == "claim") != (state.claimant is not None):
        raise StateError("a claim needs a claimant and the claim phase")
    if state.claimant is not None and (
            len(state.pyramids[state.claimant]) != pyramid_size(n)
            or (state.claimant == state.turn and not over) or state.referee):
        raise StateError("only a complete pyramid of the other player is claimed")
    if state.phase == "claim" and state.pending is not None:
        raise StateError("a claim cannot have a pending flip")
    bits = list(state.bits)
    if state.pending is not None:
        bits[state.pending[0] - 1] ^= 1  # as the gates were laid, before the flip
    for seat, pyramid in enumerate(state.pyramids):
        for slot in pyramid:
            present = 2 if slot[0] == 1 else sum(b in pyramid for b in inputs_below(slot))
            if present < (1 if state.inactive else 2):
                raise StateError(f"gate {slot_name(slot)} has lost its inputs")
            if state.referee and is_invalid(pyramid, reading(bits, seat), n, slot):
                raise StateError(f"gate {slot_name(slot)} is invalid with the referee on")
