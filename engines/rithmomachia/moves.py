"""Boolean Rithmomachia's moves as integers: their encoding and text, generating them,
making one (with its captures), the pieces' counts, the victories and the position key."""

from __future__ import annotations

import re

from engines.base import (
    JSON,
    Action,
)
from engines.rithmomachia.board import (
    CELL_NAMES,
    CELLS,
    EMPTY,
    PYRAMID,
    REACH,
    SHAPE_OF,
    is_pyramid,
    owner_of,
    value_of,
)
from engines.rithmomachia.equations import (
    Rules,
    captured_cells,
    captures,
)

SEATS = 2


def move_parts(move: int) -> tuple[int, int, int]:
    return move & 63, (move >> 6) & 63, (move >> 12) - 1


def encode_move(source: int, dest: int, push: int = -1) -> int:
    return source | dest << 6 | (push + 1) << 12


def move_text(move: int) -> Action:
    source, dest, push = move_parts(move)
    text = f"{CELL_NAMES[source]}-{CELL_NAMES[dest]}"
    return f"{text}-{CELL_NAMES[push]}" if push >= 0 else text


def generate_moves(board: list[int], player: int, push: bool) -> list[int]:
    """Every legal move of ``player``, in cell order of (from, to, push cell)."""
    moves: list[int] = []
    lo = 1 + (player << 4)
    hi = lo + 16
    for source in range(CELLS):
        c = board[source]
        if not lo <= c < hi:
            continue
        shape = SHAPE_OF[c - lo]
        for dest in REACH[shape][source]:
            if not board[dest]:
                moves.append(source | dest << 6)
            elif push and shape == PYRAMID:
                for target in REACH[PYRAMID][dest]:
                    if target == source or not board[target]:
                        moves.append(source | dest << 6 | (target + 1) << 12)
    return moves


def make_move(board: list[int], move: int, player: int, rules: Rules) -> tuple[list[int], int]:
    """The board after ``move`` and its captures (a new list), and the captured mask."""
    after = board.copy()
    source, dest, push = move & 63, (move >> 6) & 63, (move >> 12) - 1
    piece = after[source]
    after[source] = EMPTY
    if push >= 0:
        after[push] = after[dest]
    after[dest] = piece
    captured = captured_cells(after, player, dest, rules)
    mask = captured
    while mask:
        low = mask & -mask
        t = low.bit_length() - 1
        mask ^= low
        c = after[t]
        v = (c - 1) & 15
        after[t] = EMPTY if v == 0 or v == 15 else c + 16 if c <= 16 else c - 16
    return after, captured


def move_captures(board: list[int], move: int, player: int, rules: Rules,
                  masks: tuple[int, int]) -> int:
    """The captured mask of ``make_move(board, move, player, rules)``, the captures not
    made: ``masks`` is ``occupancy(board)``, worked out once for all the moves a menu
    labels with what they take, and moved along with the pieces here."""
    after = board.copy()
    source, dest, push = move & 63, (move >> 6) & 63, (move >> 12) - 1
    own, enemy = masks[player] & ~(1 << source), masks[1 - player]
    piece = after[source]
    after[source] = EMPTY
    if push >= 0:
        pushed = after[dest]
        after[push] = pushed
        if owner_of(pushed) == player:
            own = own & ~(1 << dest) | 1 << push
        else:
            enemy = enemy & ~(1 << dest) | 1 << push
    after[dest] = piece
    return captures(after, own | 1 << dest, enemy, dest, rules)


def counts(board: list[int]) -> list[JSON]:
    result = [{"pyramids": 0, "pieces": 0, "value": 0} for _ in range(SEATS)]
    for c in board:
        if c:
            side = result[owner_of(c)]
            side["pieces"] += 1
            side["value"] += value_of(c)
            side["pyramids"] += is_pyramid(value_of(c))
    return result


def victories(board: list[int]) -> JSON:
    """Who takes each victory (``None`` when level), and the verdict."""
    tally = counts(board)
    taken: dict[str, int | None] = {}
    for name, key in (("pyramid", "pyramids"), ("piece", "pieces"), ("value", "value")):
        a, b = tally[0][key], tally[1][key]
        taken[name] = None if a == b else (0 if a > b else 1)
    scores = [sum(1 for seat in taken.values() if seat == s) for s in range(SEATS)]
    winners: tuple[int, ...] = ()
    label = None
    if scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        winners = (winner,)
        label = ("simple", "compound", "perfect")[scores[winner] - 1]
    return {"winners": winners, "label": label, "victories": taken, "victory_counts": scores,
            "counts": tally}


_KEY_RE = re.compile(r"[01][.a-pA-P]{64}")


def position_key(board: list[int], turn: int) -> str:
    """The position and side to move as text: ``.`` empty, ``a``–``p`` White's values 0–15,
    ``A``–``P`` Black's."""
    return str(turn) + "".join("." if not c else chr((97 if c <= 16 else 65) + value_of(c))
                               for c in board)
