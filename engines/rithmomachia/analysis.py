"""Boolean Rithmomachia explained: which of a player's pieces the opponent could capture
with their next move, and by what equation (danger marks), and a move to make with why
(a hint).

The opponent's every legal move is tried on a copy of the board, and the capture finder
the engine announces captures with (``capture_equations``) names the equation, so a
threat reads exactly like the capture would when it happens. A hint is the strong
computer's move, told by what it takes (the engine's own capture events), whether it wins,
and how many of the player's pieces are open to capture before and after it.
"""

from __future__ import annotations

import random

from engines.base import JSON, Action, Event, Message
from engines.registry import make_agent
from engines.rithmomachia.board import (
    CELL_NAMES,
    EMPTY,
    STANDARD_LAYOUT,
    bits,
    coords,
    owner_of,
    value_of,
)
from engines.rithmomachia.equations import capture_equations
from engines.rithmomachia.moves import generate_moves, move_parts, move_text
from engines.rithmomachia.notation import parse_placement
from engines.rithmomachia.state import RithmomachiaState as State

# A hint lists the threats to at most this many pieces; each with its first equation.
MOST_THREATS = 6
WINS = Message("hint.rithmo.wins", "It wins the game.")


def threats(state: State, seat: int) -> list[JSON]:
    """``seat``'s pieces that the opponent could capture next move: ``{"target", "piece",
    "move", "equation"}`` per threatened piece (its cell now, its value in bits, one move
    that captures it and that capture's equation), sorted by cell."""
    if state.phase != "play" or seat not in (0, 1):
        return []
    board = state.board
    enemy = 1 - seat
    found: dict[int, JSON] = {}
    for move in generate_moves(board, enemy, state.push):
        source, dest, push = move_parts(move)
        moved = board.copy()
        moved[source] = EMPTY
        if push >= 0:
            moved[push] = moved[dest]
        moved[dest] = board[source]
        for target, equations in capture_equations(moved, enemy, dest, state.rules).items():
            # A piece pushed by the move is threatened where it was pushed from.
            origin = dest if push >= 0 and target == push else target
            if origin in found or not board[origin] or owner_of(board[origin]) != seat:
                continue
            found[origin] = {"target": CELL_NAMES[origin],
                             "piece": bits(value_of(board[origin])),
                             "move": move_text(move), "equation": equations[0]["equation"]}
    return [found[cell] for cell in sorted(found)]


def hint(state: State, seat: int, seed: int = 0) -> JSON:
    """The strong computer's move for ``seat`` and why (``reason``, a list of sentences),
    with the threats to ``seat``'s pieces now and how many there are in all."""
    if state.outcome() is not None or seat not in state.to_move():
        raise ValueError("not this seat's turn")
    action = make_agent("rithmomachia", "strong", random.Random(seed)).choose(state, seat)
    why = reason(state, seat, action)
    # A move that wins makes the pieces under threat beside the point.
    found = [] if any(part.key == WINS.key for part in why) else threats(state, seat)
    return {"game": "rithmomachia", "kind": "move", "action": action,
            "text": state.action_text(action), "reason": why,
            "threats": found[:MOST_THREATS], "count": len(found)}


def reason(state: State, seat: int, action: Action) -> list[Message]:
    """Why ``action`` is good for ``seat``: what it captures, that it wins, and how many of
    ``seat``'s pieces the opponent could capture next move after it, against now."""
    if state.phase == "placement":
        value, cell = parse_placement(action)
        _, file, rank = coords(cell)
        if STANDARD_LAYOUT[rank][file] == value:
            return [Message("hint.rithmo.standard_place",
                            "The standard set-up has this value here: a tried arrangement.")]
        return [Message("hint.rithmo.any_place",
                        "The standard place of every value left is taken; any free one "
                        "will do.")]
    trial = State.from_dict(state.to_dict())
    events = trial.apply(seat, action)
    said: list[Message] = []
    taken = _captures(events, seat)
    if taken:
        said.append(Message("hint.rithmo.captures", "It captures {captures}.",
                            captures="; ".join(taken)))
    if any(e.get("type") == "game_over" and seat in e.get("winners", ()) for e in events):
        return [*said, WINS]
    before, after = len(threats(state, seat)), len(threats(trial, seat))
    if after == 0:
        said.append(Message("hint.rithmo.safe_after",
                            "After it, none of your pieces can be captured next move."))
    else:
        said.append(Message("hint.rithmo.open_after",
                            "Your pieces open to capture next move: {after} after it, "
                            "{before} now.", after=after, before=before))
    return said


def _captures(events: list[Event], seat: int) -> list[str]:
    """``seat``'s captures among a move's events, each as its cell, value and equation:
    notation, the same in every language."""
    return [f"{e['target']} ({e['bits']}): {e['equation']}" for e in events
            if e.get("type") == "capture" and e.get("player") == seat]
