"""Hints for the card games (bOOleO, Digitalo): the strong computer's move, with a one-line
reason a learner can check on the board.

The strong agents plan from ``view(seat)`` alone, never from the other hand or the draw
pile, so their move gives nothing hidden away. The reason is worked out on a copy of the
game after the move, from public facts only: the player's pyramid, and what a pending flip
would remove from each pyramid.
"""

from __future__ import annotations

import random

from engines import booleo, digitalo
from engines.base import JSON, GameState, Message
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
    parse = booleo.parse_move if state.game_name == booleo.NAME else digitalo.parse_move
    kind = parse(action).kind
    trial = module.State.from_dict(state.to_dict())
    before = state.view(seat)
    trial.apply(seat, action)
    after = trial.view(None)
    size = int(after["pyramid_size"])
    if kind == "gate":
        return Message("hint.card.gate", "It builds your pyramid: {gates} of {size} gates.",
                       gates=_gates(after, seat), size=size)
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


def hint(state: GameState, seat: int, seed: int = 0) -> JSON:
    """The strong agent's move for ``seat`` and its reason."""
    if state.outcome() is not None or seat not in state.to_move():
        raise ValueError("not this seat's turn")
    module = get_game(state.game_name)
    action = make_agent(module.NAME, "strong", random.Random(seed)).choose(state, seat)
    return {"game": state.game_name, "kind": "card", "action": action,
            "text": state.action_text(action), "reason": reason(state, seat, action)}
