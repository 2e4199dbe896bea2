"""Boolean Rithmomachia's equations: the operations that capture (``Rules``, ``rules_for``),
the board's occupancy and which pieces a move to a cell captures, with the equations that
do it (``capture_equations``, for the events and the analysis)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from engines.base import (
    JSON,
    InvalidMove,
)
from engines.rithmomachia.board import (
    CELL_NAMES,
    CELLS,
    PYRAMID,
    REACH,
    REACH_MASK,
    SHAPE_OF,
    bits,
    owner_of,
    value_of,
)

OPS = ("not", "and", "or", "xor", "nand", "nor")


BINARY: dict[str, Callable[[int, int], int]] = {
    "and": lambda x, y: x & y,
    "or": lambda x, y: x | y,
    "xor": lambda x, y: x ^ y,
    "nand": lambda x, y: ~(x & y) & 15,
    "nor": lambda x, y: ~(x | y) & 15,
}


@dataclass(frozen=True)
class Rules:
    """Capture tables for one set of enabled equations, so the search never calls an op:
    ``targets[x][y]`` is the mask of target values X and Y capture, ``need[x][t]`` the mask of
    Y values with which X captures a target of value t."""

    ops: tuple[str, ...]
    binary: tuple[str, ...]
    not_on: bool
    targets: tuple[tuple[int, ...], ...]
    need: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=64)
def rules_for(ops: tuple[str, ...]) -> Rules:
    binary = tuple(op for op in ops if op != "not")
    targets = tuple(tuple(sum(1 << v for v in {BINARY[op](x, y) for op in binary})
                          for y in range(16)) for x in range(16))
    need = tuple(tuple(sum(1 << y for y in range(16) if targets[x][y] >> t & 1)
                       for t in range(16)) for x in range(16))
    return Rules(ops, binary, "not" in ops, targets, need)


def normalise_ops(text: str) -> str:
    """The ``ops`` option in canonical form (the spec's order, comma separated)."""
    words = {w for w in re.split(r"[\s,;+/|&-]+", text.strip().lower()) if w}
    if words == {"all"}:
        words = set(OPS)
    unknown = sorted(words - set(OPS))
    if unknown or not words:
        raise InvalidMove("rithmomachia.error.ops",
                          "Option 'ops' is a non-empty list of {known}, not '{given}'.",
                          known=",".join(OPS), given=text[:40])
    return ",".join(op for op in OPS if op in words)


def iter_cells(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def occupancy(board: list[int]) -> tuple[int, int]:
    """The cells White and Black occupy, as masks."""
    white = black = 0
    for cell, c in enumerate(board):
        if c:
            if c <= 16:
                white |= 1 << cell
            else:
                black |= 1 << cell
    return white, black


def captures(board: list[int], own: int, enemy: int, dest: int, rules: Rules) -> int:
    """The mask of enemy cells captured when the piece on ``dest`` has just moved; ``board``
    is the position after the move (before any capture), ``own`` and ``enemy`` are the
    occupancy masks of the mover and of the other side there. Only occupied neighbours are
    looked at, so this is what the search calls."""
    xv = (board[dest] - 1) & 15
    reach = REACH_MASK[SHAPE_OF[xv]][dest]
    out = 0
    near = reach & enemy
    if near:
        need = rules.need[xv]
        not_value = xv ^ 15 if rules.not_on else -1
        helpers = own & ~(1 << dest)
        while near:
            low = near & -near
            near ^= low
            t = low.bit_length() - 1
            tv = (board[t] - 1) & 15
            if tv == not_value:
                out |= low
                continue
            wanted = need[tv]
            if wanted:  # compiling: an own Y next to the target that reaches it
                ys = helpers & REACH_MASK[PYRAMID][t]
                while ys:
                    ylow = ys & -ys
                    ys ^= ylow
                    y = ylow.bit_length() - 1
                    yv = (board[y] - 1) & 15
                    if wanted >> yv & 1 and REACH_MASK[SHAPE_OF[yv]][y] & low:
                        out |= low
                        break
    ys = reach & own
    if ys:  # filtering: through an own Y that X reaches
        targets = rules.targets[xv]
        while ys:
            ylow = ys & -ys
            ys ^= ylow
            y = ylow.bit_length() - 1
            yv = (board[y] - 1) & 15
            wanted = targets[yv]
            if wanted:
                ts = REACH_MASK[SHAPE_OF[yv]][y] & enemy & ~out
                while ts:
                    low = ts & -ts
                    ts ^= low
                    if wanted >> ((board[low.bit_length() - 1] - 1) & 15) & 1:
                        out |= low
    return out


def captured_cells(board: list[int], player: int, dest: int, rules: Rules) -> int:
    """``captures`` for ``player``'s move to ``dest``, occupancy worked out from the board."""
    masks = occupancy(board)
    return captures(board, masks[player], masks[1 - player], dest, rules)


def _operand(cell: int, value: int) -> JSON:
    return {"cell": CELL_NAMES[cell], "value": value, "bits": bits(value)}


def capture_equations(board: list[int], player: int, dest: int,
                      rules: Rules) -> dict[int, list[JSON]]:
    """Every equation that captures, per target cell: the announced, slow twin of
    ``captured_cells``, written as the spec reads (NOT, then compiling, then filtering)."""
    xv = value_of(board[dest])
    reach_x = REACH[SHAPE_OF[xv]][dest]
    found: dict[int, list[JSON]] = {}

    def enemy(cell: int) -> bool:
        return bool(board[cell]) and owner_of(board[cell]) != player

    def record(target: int, form: str, op: str, y: int | None) -> None:
        tv = value_of(board[target])
        operands = [_operand(dest, xv)]
        if y is None:
            text = f"NOT {bits(xv)} = {bits(tv)}"
        else:
            operands.append(_operand(y, value_of(board[y])))
            text = f"{bits(xv)} {op.upper()} {bits(value_of(board[y]))} = {bits(tv)}"
        found.setdefault(target, []).append(
            {"form": form, "op": op.upper(), "equation": text, "operands": operands})

    if rules.not_on:
        for t in reach_x:
            if enemy(t) and value_of(board[t]) == xv ^ 15:
                record(t, "not", "not", None)
    own = [c for c in range(CELLS) if c != dest and board[c] and owner_of(board[c]) == player]
    for y in own:
        yv = value_of(board[y])
        reach_y = REACH[SHAPE_OF[yv]][y]
        for t in reach_x:
            if enemy(t) and t in reach_y:
                for op in rules.binary:
                    if BINARY[op](xv, yv) == value_of(board[t]):
                        record(t, "compiling", op, y)
    for y in own:
        if y not in reach_x:
            continue
        yv = value_of(board[y])
        for t in REACH[SHAPE_OF[yv]][y]:
            if enemy(t):
                for op in rules.binary:
                    if BINARY[op](xv, yv) == value_of(board[t]):
                        record(t, "filtering", op, y)
    return dict(sorted(found.items()))
