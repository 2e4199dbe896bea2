"""A plain, brute-force Boolean Rithmomachia, written apart from the engine.

It follows ``shared/rules/rithmomachia.md`` and the decisions in the engine's docstring, and
imports nothing from ``engines``. A position is a dict ``{"2b3": (owner, value)}``; cells are
tried by looping over every level, file and rank and every step (dl, df, dr) in -1..1, and
the equations are worked out bit by bit from the seed's truth table.
"""

from __future__ import annotations

from functools import cache
from typing import Any

Board = dict[str, tuple[int, int]]

LEVELS = "1234"
FILES = "abcd"
RANKS = "1234"
ALL_CELLS = [lvl + f + r for lvl in LEVELS for f in FILES for r in RANKS]

# The seed's table, one bit at a time: (x, y) -> result.
TRUTH = {
    "AND": {(0, 0): 0, (0, 1): 0, (1, 0): 0, (1, 1): 1},
    "OR": {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 1},
    "XOR": {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 0},
    "NAND": {(0, 0): 1, (0, 1): 1, (1, 0): 1, (1, 1): 0},
    "NOR": {(0, 0): 1, (0, 1): 0, (1, 0): 0, (1, 1): 0},
}
ALL_OPS = ("NOT", "AND", "OR", "XOR", "NAND", "NOR")

# The steps each shape may take, by how many coordinates change.
STEPS = {
    "circle": frozenset({1, 2}),
    "triangle": frozenset({2, 3}),
    "square": frozenset({1, 3}),
    "pyramid": frozenset({1, 2, 3}),
}

# The standard set-up as the engine's docstring draws it, rank 4 first, files a to d.
STANDARD_ROWS = [
    "1011 0100 1000 0111",
    "1001 1010 1111 1100",
    "0011 0000 0101 0110",
    "1110 0001 0010 1101",
]


def shape(value: int) -> str:
    ones = format(value, "04b").count("1")
    return {0: "pyramid", 1: "circle", 2: "triangle", 3: "square", 4: "pyramid"}[ones]


def to_xyz(cell: str) -> tuple[int, int, int]:
    return LEVELS.index(cell[0]), FILES.index(cell[1]), RANKS.index(cell[2])


def from_xyz(level: int, file: int, rank: int) -> str | None:
    if 0 <= level < 4 and 0 <= file < 4 and 0 <= rank < 4:
        return LEVELS[level] + FILES[file] + RANKS[rank]
    return None


@cache
def neighbours(cell: str, kinds: frozenset[int]) -> tuple[str, ...]:
    """Cells one step away whose step changes a number of coordinates listed in ``kinds``."""
    level, file, rank = to_xyz(cell)
    found = []
    for dl in (-1, 0, 1):
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                changed = (dl != 0) + (df != 0) + (dr != 0)
                if changed == 0 or changed not in kinds:
                    continue
                other = from_xyz(level + dl, file + df, rank + dr)
                if other is not None:
                    found.append(other)
    return tuple(found)


@cache
def reach_set(cell: str, value: int) -> frozenset[str]:
    return frozenset(neighbours(cell, STEPS[shape(value)]))


def reaches(cell: str, value: int, other: str) -> bool:
    return other in reach_set(cell, value)


@cache
def apply_op(op: str, x: int, y: int) -> int:
    result = 0
    for bit in range(4):
        a = (x >> bit) & 1
        b = (y >> bit) & 1
        result |= TRUTH[op][(a, b)] << bit
    return result


def not_of(x: int) -> int:
    result = 0
    for bit in range(4):
        if not (x >> bit) & 1:
            result |= 1 << bit
    return result


def standard_board() -> Board:
    board: Board = {}
    for row_index, row in enumerate(STANDARD_ROWS):
        rank = str(4 - row_index)
        for file, word in zip(FILES, row.split(), strict=True):
            board["1" + file + rank] = (0, int(word, 2))
            board["4" + file + rank] = (1, int(word, 2))
    return board


def board_of(data: dict[str, Any]) -> Board:
    """The position of a serialised engine state (``state.to_dict()``)."""
    return {cell: (owner, value) for cell, owner, value in data["pieces"]}


def legal_moves(board: Board, player: int, push: bool) -> list[str]:
    """Every move in the engine's canonical notation, ``from-to`` or ``from-to-pushed``."""
    moves = []
    for source in ALL_CELLS:
        if source not in board or board[source][0] != player:
            continue
        value = board[source][1]
        for dest in neighbours(source, STEPS[shape(value)]):
            if dest not in board:
                moves.append(source + "-" + dest)
            elif push and shape(value) == "pyramid":
                for target in neighbours(dest, STEPS["pyramid"]):
                    # The Pyramid has left its cell, so that cell is free for the pushed piece.
                    if target not in board or target == source:
                        moves.append(source + "-" + dest + "-" + target)
    return moves


def moved(board: Board, action: str) -> tuple[Board, str]:
    """The position after the move itself, before captures, and the moved piece's cell."""
    cells = action.split("-")
    after = dict(board)
    piece = after.pop(cells[0])
    if len(cells) == 3:
        after[cells[2]] = after.pop(cells[1])
    after[cells[1]] = piece
    return after, cells[1]


def equations(board: Board, player: int, dest: str,
              ops: tuple[str, ...]) -> dict[str, list[tuple[str, str, str | None]]]:
    """Per captured cell, every (form, op, Y cell) that captures it; ``board`` is after the
    move and X stands on ``dest``."""
    x = board[dest][1]
    found: dict[str, list[tuple[str, str, str | None]]] = {}
    enemies = sorted(c for c in board if board[c][0] != player)
    helpers = sorted(c for c in board if board[c][0] == player and c != dest)
    for target in enemies:
        t = board[target][1]
        x_reaches = reaches(dest, x, target)
        if "NOT" in ops and x_reaches and t == not_of(x):
            found.setdefault(target, []).append(("not", "NOT", None))
        for helper in helpers:
            y = board[helper][1]
            if not reaches(helper, y, target):
                continue  # both forms need Y to reach the target
            compiling = x_reaches
            filtering = reaches(dest, x, helper)
            if not compiling and not filtering:
                continue
            for op in ops:
                if op == "NOT" or apply_op(op, x, y) != t:
                    continue
                if compiling:
                    found.setdefault(target, []).append(("compiling", op, helper))
                if filtering:
                    found.setdefault(target, []).append(("filtering", op, helper))
    return found


def play(board: Board, action: str, player: int,
         ops: tuple[str, ...]) -> tuple[Board, dict[str, list[tuple[str, str, str | None]]]]:
    """The position after ``action`` and its captures, and the captures' equations."""
    after, dest = moved(board, action)
    found = equations(after, player, dest, ops)
    for target in found:
        owner, value = after[target]
        if shape(value) == "pyramid":
            del after[target]
        else:
            after[target] = (1 - owner, value)
    return after, found


def tally(board: Board) -> list[dict[str, int]]:
    sides = [{"pyramids": 0, "pieces": 0, "value": 0} for _ in range(2)]
    for owner, value in board.values():
        sides[owner]["pieces"] += 1
        sides[owner]["value"] += value
        if shape(value) == "pyramid":
            sides[owner]["pyramids"] += 1
    return sides


def verdict(board: Board) -> tuple[list[int], str | None]:
    """Winners and the label (simple, compound, perfect) of a finished game."""
    sides = tally(board)
    wins = [0, 0]
    for key in ("pyramids", "pieces", "value"):
        if sides[0][key] > sides[1][key]:
            wins[0] += 1
        elif sides[1][key] > sides[0][key]:
            wins[1] += 1
    if wins[0] == wins[1]:
        return [], None
    winner = 0 if wins[0] > wins[1] else 1
    return [winner], ["simple", "compound", "perfect"][wins[winner] - 1]


def perft(board: Board, player: int, depth: int, push: bool,
          ops: tuple[str, ...] = ALL_OPS) -> tuple[int, int]:
    """Move sequences of ``depth`` plies, and how many of the last plies capture. A side
    that has lost its Pyramids ends the game, so nothing is counted below that."""
    moves = legal_moves(board, player, push)
    if depth == 1:
        captures = 0
        for action in moves:
            after, dest = moved(board, action)
            if equations(after, player, dest, ops):
                captures += 1
        return len(moves), captures
    total = captures = 0
    for action in moves:
        after, _ = play(board, action, player, ops)
        if any(side["pyramids"] == 0 for side in tally(after)):
            continue
        count, taking = perft(after, 1 - player, depth - 1, push, ops)
        total += count
        captures += taking
    return total, captures

