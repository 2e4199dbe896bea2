"""Boolean Rithmomachia explained: which of a player's pieces the opponent could capture
with their next move, and by what equation (a hint).

The opponent's every legal move is tried on a copy of the board, and the capture finder
the engine announces captures with (``capture_equations``) names the equation, so a hint
reads exactly like the capture would when it happens.
"""

from __future__ import annotations

from engines.base import JSON
from engines.rithmomachia import RithmomachiaState as State
from engines.rithmomachia import capture_equations, generate_moves, move_parts, move_text
from engines.rithmomachia_board import CELL_NAMES, EMPTY, bits, owner_of, value_of

# A hint lists the threats to at most this many pieces; each with its first equation.
MOST_THREATS = 6


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


def hint(state: State, seat: int) -> JSON:
    """The threats to ``seat``'s pieces, and how many there are in all."""
    if state.outcome() is not None or seat not in state.to_move():
        raise ValueError("not this seat's turn")
    found = threats(state, seat)
    return {"game": "rithmomachia", "kind": "threats", "threats": found[:MOST_THREATS],
            "count": len(found)}
