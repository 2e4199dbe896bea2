"""Digitalo's views: the public view and a seat's (its hand), the previous round's result
drawable like the live pyramids. Functions of the rules' state; ``DigitaloState.view``
calls ``view``."""


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


def _gate_view(state: DigitaloRules, seat: int, slot: Slot,
               inactive: set[Slot]) -> JSON:
    return gate_view(state.pyramids[seat], state.row(seat), state.n, slot, inactive)


def _last_round_view(state: DigitaloRules) -> JSON | None:
    """The previous round's result, with its final pyramids drawable like the live ones:
    ``rows`` (each seat's reading of its final bit row) and ``gates`` (per seat, as in
    the view's ``pyramids``). A stored result without a well-formed bit row and
    pyramids (written by hand, or by an older version) is handed over as it is."""
    if not state.round_results:
        return None
    last = copy_json(state.round_results[-1])
    n, bits, placed = state.n, last.get("bit_row"), last.get("pyramids")
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
    last["unfit"] = [state._positions(s for s in p if is_invalid(p, row, s, fits_inputs))
                     for p, row in zip(pyramids, rows, strict=True)]
    return last


def view(state: DigitaloRules, player: int | None) -> JSON:
    """What ``player`` (or the public, for None) sees (``GameState.view``)."""
    if player is not None and player not in (0, 1):
        raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
    n = state.n
    pyramids = []
    for seat in range(SEATS):
        inactive = inactive_gates(state.pyramids[seat], n)
        pyramids.append([_gate_view(state, seat, s, inactive) for s in pyramid_slots(n)
                         if s in state.pyramids[seat]])
    view: JSON = {
        "game": NAME,
        "viewer": player,
        "options": dict(state.options),
        "bits": n,
        "bit_row": list(state.bits),
        "rows": [state.row(seat) for seat in range(SEATS)],
        "pyramids": pyramids,
        "open": [state._positions(open_slots(p, n)) for p in state.pyramids],
        "pyramid_size": state.size,
        "hand_sizes": [len(hand) for hand in state.hands],
        "draw_pile": len(state.draw),
        "discard_pile": len(state.discard),
        "discard_top": state.discard[-1] if state.discard else None,
        "gate_copies": gate_copies(state.options),
        "inverters": state.options["inverter_cards"] if state.options["inverters"] else 0,
        "inverters_seen": state.discard.count(INVERTER),
        "pending": state._pending_view(),
        "round": state.round,
        "round_starter": state.starter,
        "first_player": state.first,
        "scores": list(state.scores),
        "scores_binary": [binary(s) for s in state.scores],
        "target": TARGET,
        "target_binary": binary(TARGET),
        "moves": list(state.moves),
        "max_moves": state.options["max_moves"],
        "max_rounds": state.options["max_rounds"],
        "to_move": state.turn if state._outcome is None else None,
        "phase": state.phase,
        "completer": state.completer,
        "last_round": _last_round_view(state),
        "rounds": [{k: r[k] for k in ("round", "reason", "winner", "points")}
                   for r in state.round_results],
        "last_events": copy_json(state.last_events),
        "outcome": state._outcome.to_dict() if state._outcome else None,
    }
    if player is not None:
        view["seat"] = player
        view["hand"] = list(state.hands[player])
        view["fits"] = state.fitting_cards(player)
    return view
