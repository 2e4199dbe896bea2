"""Boolean Rithmomachia's field and pieces: the 64 cells of the 4×4×4 board and their
names, how each shape steps, the pieces' values, owners and labels, the standard set-up.

Shared by the rules (``engines.rithmomachia``), the computer players, the analysis and
the board as buttons (``engines.rithmomachia.grid``), which must not import the rules that
show it.
"""

from __future__ import annotations

from engines.base import JSON, Message

HOME_LEVEL = (0, 3)
FILES = "abcd"
CELLS = 64
EMPTY = 0

# --- geometry -------------------------------------------------------------------------------

ORTHOGONAL, DIAGONAL, TRIAGONAL = 1, 2, 4
PYRAMID, CIRCLE, TRIANGLE, SQUARE = 0, 1, 2, 3
SHAPE_NAMES = (Message("rithmomachia.shape.pyramid", "Pyramid"),
               Message("rithmomachia.shape.circle", "Circle"),
               Message("rithmomachia.shape.triangle", "Triangle"),
               Message("rithmomachia.shape.square", "Square"))
# Per owner, by shape index: hollow for White, filled for Black, as the boards print them.
SHAPE_SYMBOLS = (("◇", "○", "△", "□"), ("◆", "●", "▲", "■"))
SHAPE_STEPS = (ORTHOGONAL | DIAGONAL | TRIAGONAL, ORTHOGONAL | DIAGONAL, DIAGONAL | TRIAGONAL,
               ORTHOGONAL | TRIAGONAL)
STEP_WORDS = {ORTHOGONAL: Message("rithmomachia.step.orthogonal", "orthogonal"),
              DIAGONAL: Message("rithmomachia.step.diagonal", "diagonal"),
              TRIAGONAL: Message("rithmomachia.step.triagonal", "triagonal")}
SHAPE_OF = tuple(bin(v).count("1") % 4 for v in range(16))


def coords(cell: int) -> tuple[int, int, int]:
    """(level, file, rank), each 0..3."""
    return cell >> 4, (cell >> 2) & 3, cell & 3


def cell_at(level: int, file: int, rank: int) -> int:
    return level << 4 | file << 2 | rank


CELL_NAMES = tuple(f"{z + 1}{FILES[x]}{y + 1}" for z, x, y in map(coords, range(CELLS)))
CELL_BY_NAME = {name: cell for cell, name in enumerate(CELL_NAMES)}


def _step_kind(a: int, b: int) -> int:
    changed = [abs(p - q) for p, q in zip(coords(a), coords(b), strict=True)]
    if max(changed) != 1:
        return 0
    return (ORTHOGONAL, DIAGONAL, TRIAGONAL)[sum(changed) - 1]


STEP_KIND = bytes(_step_kind(a, b) for a in range(CELLS) for b in range(CELLS))
# REACH[shape][cell]: the cells a piece of that shape steps to, in cell order; REACH_MASK the
# same as bit masks.
REACH = tuple(tuple(tuple(b for b in range(CELLS) if STEP_KIND[a * CELLS + b] & steps)
                    for a in range(CELLS)) for steps in SHAPE_STEPS)
REACH_MASK = tuple(tuple(sum(1 << b for b in cells) for cells in shape) for shape in REACH)

STANDARD_LAYOUT = (  # [rank][file]
    (0b1110, 0b0001, 0b0010, 0b1101),
    (0b0011, 0b0000, 0b0101, 0b0110),
    (0b1001, 0b1010, 0b1111, 0b1100),
    (0b1011, 0b0100, 0b1000, 0b0111),
)
LAYOUT_SHAPES = tuple(tuple(SHAPE_OF[v] for v in row) for row in STANDARD_LAYOUT)


def bits(value: int) -> str:
    return format(value, "04b")


def code_of(owner: int, value: int) -> int:
    """A board entry: 0 is empty, 1 + owner*16 + value a piece."""
    return 1 + (owner << 4) + value


def owner_of(code: int) -> int:
    return (code - 1) >> 4


def value_of(code: int) -> int:
    return (code - 1) & 15


def is_pyramid(value: int) -> bool:
    return value in (0, 15)


def piece_info(value: int) -> JSON:
    return {"value": value, "bits": bits(value), "shape": SHAPE_NAMES[SHAPE_OF[value]].lower()}


def piece_label(value: int, cell: int | None = None, owner: int = 0) -> str:
    label = f"{SHAPE_SYMBOLS[owner][SHAPE_OF[value]]}{bits(value)}"
    return label if cell is None else f"{label} {CELL_NAMES[cell]}"


def code_label(code: int) -> str:
    """The label of the piece a board code holds, with its owner's glyph."""
    return piece_label(value_of(code), owner=owner_of(code))


def standard_board() -> list[int]:
    board = [EMPTY] * CELLS
    for owner, level in enumerate(HOME_LEVEL):
        for rank, row in enumerate(STANDARD_LAYOUT):
            for file, value in enumerate(row):
                board[cell_at(level, file, rank)] = code_of(owner, value)
    return board
