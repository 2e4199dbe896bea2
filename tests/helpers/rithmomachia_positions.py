"""Small Rithmomachia positions for tests: a few pieces placed by cell, plus one Pyramid for
each side (the guards) so that a position is not over before it starts."""

from __future__ import annotations

from typing import Any

from engines.rithmomachia import RithmomachiaState, new_game
from engines.rithmomachia.board import CELL_BY_NAME, code_of
from engines.rithmomachia.moves import position_key

WHITE, BLACK = 0, 1
GUARDS = {"1a4": (WHITE, 0b1111), "4a4": (BLACK, 0b0000)}
Pieces = dict[str, tuple[int, int]]


def position(pieces: Pieces, turn: int = WHITE, guards: bool = True,
             **options: Any) -> RithmomachiaState:
    placed = {**(GUARDS if guards else {}), **pieces}
    data = new_game(options, 2, 7).to_dict()
    data["pieces"] = [[cell, owner, value] for cell, (owner, value) in sorted(placed.items())]
    data["turn"] = turn
    board = [0] * 64
    for cell, (owner, value) in placed.items():
        board[CELL_BY_NAME[cell]] = code_of(owner, value)
    data["history"] = [[position_key(board, turn), 1]]
    return RithmomachiaState.from_dict(data)
