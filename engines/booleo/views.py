"""bOOleO's views: the public view and a seat's (its hand), each gate with its inputs.
Functions of the rules' state; ``BooleoState.view`` calls ``view``."""

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


def _gate_view(state: BooleoRules, seat: int, slot: Slot, inactive: set[Slot]) -> JSON:
    pyramid = state.pyramids[seat]
    card = pyramid[slot]
    a, b = input_values(pyramid, state.row(seat), slot)
    gate: JSON = {"slot": slot_name(slot), "card": card, "gate": gate_of(card),
                  "out": output_of(card), "inputs": [a, b]}
    if state.inactive:
        gate["inactive"] = slot in inactive
    return gate


def invalid_gates(state: BooleoRules) -> list[list[str]]:
    """Per seat, the slots of its gates that break the rules (shown once the game is over)."""
    return [[slot_name(s) for s in pyramid_slots(state.n) if s in state.pyramids[seat]
             and is_invalid(state.pyramids[seat], state.row(seat), state.n, s)]
            for seat in range(SEATS)]


def view(state: BooleoRules, player: int | None) -> JSON:
    """What ``player`` (or the public, for None) sees (``GameState.view``)."""
    if player is not None and player not in (0, 1):
        raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
    n = state.n
    pyramids = []
    for seat in range(SEATS):
        inactive = inactive_gates(state.pyramids[seat], n) if state.inactive else set()
        pyramids.append([_gate_view(state, seat, s, inactive) for s in pyramid_slots(n)
                         if s in state.pyramids[seat]])
    pending: JSON | None = None
    if state.pending is not None:
        card, by = state.pending
        _, removes = state.resolved_pyramids()
        pending = {"card": card, "positions": [position_of(n, s, card) for s in range(SEATS)],
                   "by": by, "would_remove": [[slot_name(s) for s, _ in r] for r in removes]}
    view: JSON = {
        "game": NAME,
        "viewer": player,
        "options": dict(state.options),
        "bits": n,
        "start_row": list(state.bits),
        "rows": [state.row(seat) for seat in range(SEATS)],
        "not_counts": [list(state.nots), list(reversed(state.nots))],
        "slot_bits": [state.slot_bit(seat) for seat in range(SEATS)],
        "pyramids": pyramids,
        "pyramid_size": pyramid_size(n),
        "hand_sizes": [len(hand) for hand in state.hands],
        "draw_pile": len(state.draw),
        "discard_pile": len(state.discard),
        "discard_top": state.discard[-1] if state.discard else None,
        "pending": pending,
        "to_move": state.turn if state._outcome is None else None,
        "phase": state.phase,
        "claimant": state.claimant,
        "challenged": state.challenged,
        "first_player": state.first,
        "turns": state.turns,
        "max_turns": state.options["max_turns"],
        "last_events": copy_json(state.last_events),
        "outcome": state._outcome.to_dict() if state._outcome else None,
    }
    if state._outcome is not None:
        view["invalid_gates"] = invalid_gates(state)
    if player is not None:
        view["seat"] = player
        view["hand"] = list(state.hands[player])
        fitting = state.fitting_cards(player)
        if fitting is not None:
            view["fits"] = fitting
    return view
