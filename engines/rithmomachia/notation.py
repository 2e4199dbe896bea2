"""Boolean Rithmomachia's notation: typed cells, moves and placements to their numbers, and
placements and a shape's steps to text."""

from __future__ import annotations

import re

from engines.base import (
    Action,
    InvalidMove,
    Message,
)
from engines.rithmomachia.board import (
    CELL_BY_NAME,
    CELL_NAMES,
    SHAPE_STEPS,
    STEP_WORDS,
    bits,
)

EXPECTED = Message("rithmomachia.expected",
                   "a move like '2b3-3c4' (level, file and rank of your piece, then of its "
                   "destination); a Pyramid landing on a piece adds where that piece goes: "
                   "'1c3-2c3-3c3'")
EXPECTED_PLACE = Message("rithmomachia.expected_place",
                         "a placement like 'place 0101 1b2' (one of your values, then a free "
                         "cell of its shape on your level)")
_CELL = r"([0-9])\s*([a-z])\s*([0-9])"
_MOVE_RE = re.compile(rf"(?:move\s*)?{_CELL}(?:\s*(?:-|x|>|→|:|to|,)?\s*{_CELL}){{1,2}}")
_CELL_RE = re.compile(_CELL)
_PLACE_RE = re.compile(r"(?:place|put|p)?\s*(?:0b)?([01]{4}|[0-9]{1,2})\s*"
                       r"(?:@|at|on|in|to|-|>|→|:)?\s*" + _CELL)


def parse_cell(level: str, file: str, rank: str) -> int:
    name = f"{level}{file}{rank}"
    cell = CELL_BY_NAME.get(name)
    if cell is None:
        raise InvalidMove("rithmomachia.error.bad_cell",
                          "There is no cell {cell}: levels are 1–4, files a–d, ranks 1–4 "
                          "(like 2b3).", cell=name)
    return cell


def parse_move_cells(text: str) -> list[int]:
    """The two or three cells of a typed move; raises ``InvalidMove`` with what is expected."""
    words = " ".join(text.strip().lower().split())
    if not words:
        raise InvalidMove("rithmomachia.error.empty", "Type {expected}.", expected=EXPECTED)
    if _MOVE_RE.fullmatch(words) is None:
        raise InvalidMove("rithmomachia.error.bad_move", "Expected {expected}, not '{got}'.",
                          expected=EXPECTED, got=text.strip()[:30])
    return [parse_cell(*m.groups()) for m in _CELL_RE.finditer(words.removeprefix("move"))]


def parse_placement(text: str) -> tuple[int, int]:
    words = " ".join(text.strip().lower().split())
    match = _PLACE_RE.fullmatch(words)
    if match is None:
        raise InvalidMove("rithmomachia.error.bad_placement", "Expected {expected}, not '{got}'.",
                          expected=EXPECTED_PLACE, got=text.strip()[:30])
    raw = match.group(1)
    value = int(raw, 2) if len(raw) == 4 else int(raw)
    if value > 15:
        raise InvalidMove("rithmomachia.error.bad_value",
                          "Values run from 0 to 15 (0000 to 1111), not {value}.", value=raw)
    return value, parse_cell(*match.groups()[1:])


def placement_text(value: int, cell: int) -> Action:
    return f"place {bits(value)} {CELL_NAMES[cell]}"


def _steps_text(shape: int) -> Message:
    """How a shape steps, as words a translation can join in its own way."""
    words = [w for k, w in STEP_WORDS.items() if SHAPE_STEPS[shape] & k]
    if len(words) == 2:
        return Message("rithmomachia.steps.two", "{first} or {second}",
                       first=words[0], second=words[1])
    return Message("rithmomachia.steps.three", "{first}, {second} or {third}",
                   first=words[0], second=words[1], third=words[2])
