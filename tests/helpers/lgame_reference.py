"""A deliberately naive second implementation of the L-game rules, for testing the engine.

Nothing here comes from ``engines.lgame``: the pieces are Python sets of ``(file, rank)``
cells (both counted from 0, so ``a1`` is ``(0, 0)`` and ``d4`` is ``(3, 3)``), the eight
L orientations are made by rotating and mirroring one base shape, and moves are found by
brute force. It is slow on purpose; it is meant to be obviously right, not fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

Cell = tuple[int, int]
Piece = frozenset[Cell]

SIZE = 4
BOARD: frozenset[Cell] = frozenset((f, r) for f in range(SIZE) for r in range(SIZE))
FILES = "abcd"

# The letter L: a leg of three cells going up from the origin and a foot to the right.
BASE_L: Piece = frozenset({(0, 0), (0, 1), (0, 2), (1, 0)})


# --- names --------------------------------------------------------------------------------


def cell_name(cell: Cell) -> str:
    return f"{FILES[cell[0]]}{cell[1] + 1}"


def parse_cell(name: str) -> Cell:
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in FILES or name[1] not in "1234":
        raise ValueError(f"not a cell: {name!r}")
    return FILES.index(name[0]), int(name[1]) - 1


def cells(names: Iterable[str]) -> frozenset[Cell]:
    return frozenset(parse_cell(n) for n in names)


def names(piece: Iterable[Cell]) -> list[str]:
    return sorted(cell_name(c) for c in piece)


# --- shapes -------------------------------------------------------------------------------


def rotate(shape: Iterable[Cell]) -> Piece:
    """A quarter turn counter-clockwise about the origin."""
    return frozenset((-y, x) for x, y in shape)


def mirror(shape: Iterable[Cell]) -> Piece:
    """Reflection in the vertical axis."""
    return frozenset((-x, y) for x, y in shape)


def normalise(shape: Iterable[Cell]) -> Piece:
    """Shift a shape so that its lowest file and lowest rank are both 0."""
    shape = list(shape)
    low_x = min(x for x, _ in shape)
    low_y = min(y for _, y in shape)
    return frozenset((x - low_x, y - low_y) for x, y in shape)


def orientations() -> set[Piece]:
    """Every shape reachable from the base L by rotating and mirroring, found by closure."""
    found = {normalise(BASE_L)}
    frontier = [normalise(BASE_L)]
    while frontier:
        shape = frontier.pop()
        for image in (normalise(rotate(shape)), normalise(mirror(shape))):
            if image not in found:
                found.add(image)
                frontier.append(image)
    return found


def placements() -> list[Piece]:
    """Every way to lay an L on the empty board, by sliding each orientation around."""
    result = set()
    for shape in orientations():
        for dx in range(-SIZE, SIZE + 1):
            for dy in range(-SIZE, SIZE + 1):
                moved = frozenset((x + dx, y + dy) for x, y in shape)
                if moved <= BOARD:
                    result.add(moved)
    return sorted(result, key=lambda p: sorted(p))


PLACEMENTS: list[Piece] = placements()

_STEPS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def placement_from_name(corner: str, leg: str, foot: str) -> Piece | None:
    """Read ``c4 S W`` the way the spec describes it: from the corner cell the long leg runs
    in direction ``leg`` (three cells, the corner included) and the foot sits next to the
    corner on side ``foot``. ``None`` when that is not an L on the board."""
    x, y = parse_cell(corner)
    dx, dy = _STEPS[leg.upper()]
    fx, fy = _STEPS[foot.upper()]
    if dx * fx + dy * fy != 0:  # the foot must stand at right angles to the leg
        return None
    piece = frozenset({(x, y), (x + dx, y + dy), (x + 2 * dx, y + 2 * dy), (x + fx, y + fy)})
    return piece if piece <= BOARD and piece in PLACEMENTS else None


def placement_code(piece: Piece) -> str:
    """The compact name (``c4SW``) of a placement, found by trying every name."""
    found = [f"{corner}{leg}{foot}"
             for corner in (cell_name(c) for c in sorted(BOARD))
             for leg in _STEPS for foot in _STEPS
             if placement_from_name(corner, leg, foot) == piece]
    if len(found) != 1:
        raise ValueError(f"{names(piece)} has names {found}")
    return found[0]


# --- symmetry -----------------------------------------------------------------------------


def _turn(cell: Cell) -> Cell:
    x, y = cell
    return SIZE - 1 - y, x


def _flip(cell: Cell) -> Cell:
    x, y = cell
    return SIZE - 1 - x, y


def board_symmetries() -> list[Callable[[Cell], Cell]]:
    """The 8 symmetries of the square: 4 turns, each with and without a flip.

    Returned as lookup tables wrapped in functions, built by composing the two generators."""
    tables: list[dict[Cell, Cell]] = []
    for flips in range(2):
        for turns in range(4):
            table = {}
            for cell in BOARD:
                image = cell
                for _ in range(flips):
                    image = _flip(image)
                for _ in range(turns):
                    image = _turn(image)
                table[cell] = image
            tables.append(table)
    return [table.__getitem__ for table in tables]


SYMMETRIES = board_symmetries()


# --- positions and moves ------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A whole position: X's cells, O's cells, the neutral cells and the player to move."""

    x: Piece
    o: Piece
    neutrals: frozenset[Cell]
    turn: int  # 0 for X, 1 for O

    @property
    def mover(self) -> Piece:
        return self.x if self.turn == 0 else self.o

    @property
    def waiter(self) -> Piece:
        return self.o if self.turn == 0 else self.x

    def relative(self) -> Relative:
        return Relative(self.mover, self.waiter, self.neutrals)


@dataclass(frozen=True)
class Relative:
    """A position seen from the player to move: their L, the other L, the neutrals."""

    mover: Piece
    other: Piece
    neutrals: frozenset[Cell]


def position_from_pieces(pieces: dict[str, list[str]], turn: int) -> Position:
    """Read a position from cell names, as in an engine view's ``pieces``."""
    return Position(cells(pieces["X"]), cells(pieces["O"]), cells(pieces["neutral"]), turn)


START = Position(
    x=cells(["b4", "c4", "c3", "c2"]),
    o=cells(["b3", "b2", "b1", "c1"]),
    neutrals=cells(["a4", "d1"]),
    turn=0,
)


def l_targets(mover: Piece, other: Piece, neutrals: frozenset[Cell]) -> list[Piece]:
    """Where the mover's L may go: a different placement clear of the other L and neutrals."""
    return [p for p in PLACEMENTS
            if p != mover and not p & other and not p & neutrals]


def neutral_outcomes(neutrals: frozenset[Cell], blocked: frozenset[Cell],
                     steps: int) -> set[frozenset[Cell]]:
    """Neutral sets reachable by up to ``steps`` single moves of a neutral to an empty cell."""
    reached = {neutrals}
    layer = {neutrals}
    for _ in range(steps):
        following = set()
        for current in layer:
            for source in current:
                for target in BOARD - blocked - current:
                    following.add((current - {source}) | {target})
        reached |= following
        layer = following
    return reached


def relative_moves(rel: Relative, sudden_death: bool) -> set[Relative]:
    """Every position (seen by the next player) one move can lead to."""
    result = set()
    for target in l_targets(rel.mover, rel.other, rel.neutrals):
        blocked = target | rel.other
        for after in neutral_outcomes(rel.neutrals, blocked, 2 if sudden_death else 1):
            result.add(Relative(rel.other, target, after))
    return result


def moves(pos: Position, sudden_death: bool) -> set[Position]:
    """Every position one legal move leads to (empty when the mover has lost)."""
    result = set()
    for nxt in relative_moves(pos.relative(), sudden_death):
        # In ``nxt`` the mover's new L is ``other`` and the one who waited moves next.
        if pos.turn == 0:
            result.add(Position(nxt.other, nxt.mover, nxt.neutrals, 1))
        else:
            result.add(Position(nxt.mover, nxt.other, nxt.neutrals, 0))
    return result


def perft(pos: Position, depth: int, sudden_death: bool) -> int:
    """Number of move sequences of length ``depth`` (distinct moves = distinct results)."""
    if depth == 0:
        return 1
    return sum(perft(nxt, depth - 1, sudden_death) for nxt in moves(pos, sudden_death))


def all_relatives() -> Iterator[Relative]:
    """Every legal arrangement with a player to move, seen from that player."""
    for mover in PLACEMENTS:
        for other in PLACEMENTS:
            if mover & other:
                continue
            free = BOARD - mover - other
            for pair in combinations(sorted(free), 2):
                yield Relative(mover, other, frozenset(pair))


def canonical(rel: Relative) -> tuple[tuple[Cell, ...], ...]:
    """The same name for all 8 images of a position under the board's symmetries."""
    images = []
    for sym in SYMMETRIES:
        images.append((
            tuple(sorted(sym(c) for c in rel.mover)),
            tuple(sorted(sym(c) for c in rel.other)),
            tuple(sorted(sym(c) for c in rel.neutrals)),
        ))
    return min(images)


# --- a slow, independent solve ------------------------------------------------------------

WIN, LOSS, DRAW = "win", "loss", "draw"


def solve(sudden_death: bool) -> tuple[dict[Relative, str], dict[Relative, int]]:
    """Value and distance to the end of every position, by repeated sweeps until stable.

    Sweep ``n`` decides exactly the positions whose result is ``n`` moves away, so that a
    won position takes the fastest win and a lost one the slowest loss."""
    everything = list(all_relatives())
    successors = {rel: relative_moves(rel, sudden_death) for rel in everything}
    value: dict[Relative, str] = {}
    distance: dict[Relative, int] = {}
    for rel in everything:
        if not successors[rel]:
            value[rel], distance[rel] = LOSS, 0
    sweep = 0
    while True:
        sweep += 1
        decided: dict[Relative, str] = {}
        for rel in everything:
            if rel in value:
                continue
            results = [value.get(nxt) for nxt in successors[rel]]
            if LOSS in results:
                decided[rel] = WIN
            elif all(r == WIN for r in results):
                decided[rel] = LOSS
        if not decided:
            break
        for rel, result in decided.items():
            value[rel], distance[rel] = result, sweep
    for rel in everything:
        value.setdefault(rel, DRAW)
    return value, distance
