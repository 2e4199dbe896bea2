"""Hints for the card games (bOOleO, Digitalo): the strong computer's move, with a one-line
reason a learner can check on the board.

The strong agents plan from ``view(seat)`` alone, never from the other hand or the draw
pile, so their move gives nothing hidden away. The reason is worked out on a copy of the
game after the move, from public facts only: the player's pyramid, and what a pending flip
would remove from each pyramid.
"""

from __future__ import annotations

import random

from engines import booleo
from engines.base import JSON, Event, GameState, Message
from engines.booleo.notation import parse_move
from engines.digitalo import notation as digitalo_notation
from engines.registry import get_game, make_agent


def _gates(view: JSON, seat: int) -> int:
    return len(view["pyramids"][seat])


def _would_remove(view: JSON, seat: int) -> int:
    pending = view.get("pending") or {}
    removes = pending.get("would_remove") or [[], []]
    return len(removes[seat])


def reason(state: GameState, seat: int, action: str) -> Message:
    """Why ``action`` is good for ``seat``, in a sentence of public facts."""
    module = get_game(state.game_name)
    parse = parse_move if state.game_name == booleo.NAME else digitalo_notation.parse_move
    kind = parse(action).kind
    trial = module.State.from_dict(state.to_dict())
    before = state.view(seat)
    events = trial.apply(seat, action)
    after = trial.view(None)
    size = int(after["pyramid_size"])
    if kind == "gate":
        return _gate_reason(events, after, seat, size)
    if _won(events, seat, "game_over"):
        return Message("hint.card.wins_game", "It wins the game.")
    if _won(events, seat, "round_over"):
        return Message("hint.card.wins_round", "It wins the round.")
    if kind in ("not", "inverter") and after.get("pending"):
        return Message("hint.card.flip",
                       "The flip would remove {theirs} of your opponent's gates and {mine} "
                       "of yours.", theirs=_would_remove(after, 1 - seat),
                       mine=_would_remove(after, seat))
    if kind in ("not", "inverter", "counter"):
        return Message("hint.card.cancel",
                       "It stops the pending flip, which would remove {mine} of your gates.",
                       mine=_would_remove(before, seat))
    if kind == "challenge":
        return Message("hint.card.challenge",
                       "That gate does not give what its inputs make: challenge it.")
    if kind == "discard":
        return Message("hint.card.discard",
                       "No card in your hand helps your pyramid more than keeping the others.")
    if kind == "accept":
        return Message("hint.card.accept", "Nothing you hold can answer it any better.")
    return Message("hint.card.other", "The strong computer would play this.")


def _won(events: list[Event], seat: int, kind: str) -> bool:
    """Whether ``events`` hold a ``game_over`` or ``round_over`` that ``seat`` won."""
    return any(e.get("type") == kind and (seat in e.get("winners", ()) or e.get("winner") == seat)
               for e in events)


def _gate_reason(events: list[Event], after: JSON, seat: int, size: int) -> Message:
    """What a gate card does for its player's pyramid. A gate that completes the pyramid
    is told by what it brings about: the pyramids after a won Digitalo round are the next
    round's, empty, so counting them would say '0 of 6 gates'."""
    if _won(events, seat, "game_over"):
        return Message("hint.card.completes_game",
                       "It completes your pyramid, which wins the game.")
    if _won(events, seat, "round_over"):
        return Message("hint.card.completes_round",
                       "It completes your pyramid, which wins the round.")
    gates = _gates(after, seat)
    if gates == size:
        # bOOleO without a referee: the opponent may still challenge one of its gates.
        return Message("hint.card.completes", "It completes your pyramid.")
    return Message("hint.card.gate", "It builds your pyramid: {gates} of {size} gates.",
                   gates=gates, size=size)


def hint(state: GameState, seat: int, seed: int = 0) -> JSON:
    """The strong agent's move for ``seat`` and its reason."""
    if state.outcome() is not None or seat not in state.to_move():
        raise ValueError("not this seat's turn")
    module = get_game(state.game_name)
    action = make_agent(module.NAME, "strong", random.Random(seed)).choose(state, seat)
    return {"game": state.game_name, "kind": "card", "action": action,
            "text": state.action_text(action), "reason": reason(state, seat, action)}
