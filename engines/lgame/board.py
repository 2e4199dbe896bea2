"""The L-game's board: its sixteen squares, their names, and the 48 places an L can stand.

Shared by the rules (``engines.lgame``), their solver and analysis, and the board as
buttons (``engines.lgame.grid``), which must not import the rules that show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from engines.base import Message

SIZE = 4
CELLS = SIZE * SIZE
FULL_BOARD = (1 << CELLS) - 1
FILES = "abcd"

DIRECTIONS: dict[str, tuple[int, int]] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


CELL_NAMES = [f"{FILES[cell % SIZE]}{cell // SIZE + 1}" for cell in range(CELLS)]
CELL_BY_NAME = {name: cell for cell, name in enumerate(CELL_NAMES)}


def cell_name(cell: int) -> str:
    return CELL_NAMES[cell]


def parse_cell(text: str) -> int | None:
    return CELL_BY_NAME.get(text)


def cells_of(mask: int) -> list[int]:
    """Set bits of ``mask``, lowest first (cheaper than testing all 16 on sparse masks)."""
    cells = []
    while mask:
        lowest = mask & -mask
        cells.append(lowest.bit_length() - 1)
        mask ^= lowest
    return cells


def mask_names(mask: int) -> list[str]:
    return [cell_name(cell) for cell in cells_of(mask)]


@dataclass(frozen=True)
class Placement:
    index: int
    corner: int
    leg: str
    foot: str
    mask: int

    @cached_property
    def code(self) -> str:
        """Compact form used in canonical actions and button payloads: ``a1NE``."""
        return f"{cell_name(self.corner)}{self.leg}{self.foot}"

    @cached_property
    def notation(self) -> str:
        return f"{cell_name(self.corner)} {self.leg} {self.foot}"

    @cached_property
    def cell_names(self) -> list[str]:
        return mask_names(self.mask)

    @cached_property
    def menu_label(self) -> str:
        """The squares the L covers, file by file (``L on c4 d2 d3 d4``): what a player
        sees on the board, where the notation's corner and directions need the rules."""
        cells = sorted(self.cell_names)
        return Message("lgame.menu.place", "L on {cells}", cells=" ".join(cells))


def _build_placements() -> list[Placement]:
    placements: list[Placement] = []
    for corner in range(CELLS):
        x, y = corner % SIZE, corner // SIZE
        for leg, (dx, dy) in DIRECTIONS.items():
            for foot, (fx, fy) in DIRECTIONS.items():
                if (dx == 0) == (fx == 0):  # the foot must stand at right angles to the leg
                    continue
                squares = [(x, y), (x + dx, y + dy), (x + 2 * dx, y + 2 * dy), (x + fx, y + fy)]
                if all(0 <= sx < SIZE and 0 <= sy < SIZE for sx, sy in squares):
                    mask = sum(1 << (sy * SIZE + sx) for sx, sy in squares)
                    placements.append(Placement(len(placements), corner, leg, foot, mask))
    return placements


PLACEMENTS = _build_placements()
PLACEMENT_BY_MASK = {p.mask: p.index for p in PLACEMENTS}
PLACEMENT_BY_CODE = {p.code: p.index for p in PLACEMENTS}


# (index, mask) of every placement: plain tuples read faster than the dataclass's attributes
# in l_moves, which the rules, the solver and the menus call for every position.
_INDEXED_MASKS = tuple((p.index, p.mask) for p in PLACEMENTS)


def l_moves(mover: int, other: int, neutrals: int) -> list[int]:
    """Placements the mover's L may go to: anywhere it fits, except where it already is."""
    blocked = PLACEMENTS[other].mask | neutrals
    return [index for index, mask in _INDEXED_MASKS if index != mover and not mask & blocked]
