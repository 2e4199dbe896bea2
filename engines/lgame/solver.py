"""The L-game solved: positions as integer keys (the mover's L, the other L, the neutral
pair), their symmetries and canonical form, successors and predecessors, the retrograde
solution (``solve``), the process-wide solved tables (``solved_table``), the start
position and the figures ``python -m engines lgame solve`` prints."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from engines.base import (
    JSON,
)
from engines.lgame.board import (
    CELLS,
    FULL_BOARD,
    PLACEMENT_BY_CODE,
    PLACEMENT_BY_MASK,
    PLACEMENTS,
    SIZE,
    cells_of,
    l_moves,
    parse_cell,
)

NEUTRAL_PAIRS = [(1 << a) | (1 << b) for a in range(CELLS) for b in range(a + 1, CELLS)]
PAIR_INDEX = {mask: i for i, mask in enumerate(NEUTRAL_PAIRS)}
PAIR_COUNT = len(NEUTRAL_PAIRS)
KEY_SPACE = len(PLACEMENTS) * len(PLACEMENTS) * PAIR_COUNT

# The 8 symmetries of the square, as maps (x, y) -> (x', y').
_SYMMETRY_MAPS = (
    lambda x, y: (x, y),
    lambda x, y: (SIZE - 1 - y, x),
    lambda x, y: (SIZE - 1 - x, SIZE - 1 - y),
    lambda x, y: (y, SIZE - 1 - x),
    lambda x, y: (SIZE - 1 - x, y),
    lambda x, y: (x, SIZE - 1 - y),
    lambda x, y: (y, x),
    lambda x, y: (SIZE - 1 - y, SIZE - 1 - x),
)


def _map_mask(mask: int, symmetry: int) -> int:
    result = 0
    for cell in cells_of(mask):
        nx, ny = _SYMMETRY_MAPS[symmetry](cell % SIZE, cell // SIZE)
        result |= 1 << (ny * SIZE + nx)
    return result


PLACEMENT_SYMMETRY = [[PLACEMENT_BY_MASK[_map_mask(p.mask, s)] for p in PLACEMENTS]
                      for s in range(8)]
PAIR_SYMMETRY = [[PAIR_INDEX[_map_mask(m, s)] for m in NEUTRAL_PAIRS] for s in range(8)]


def position_key(mover: int, other: int, pair: int) -> int:
    """Index of a position seen from the player to move: their L, the other L, the neutrals."""
    return (mover * len(PLACEMENTS) + other) * PAIR_COUNT + pair


def split_key(key: int) -> tuple[int, int, int]:
    rest, pair = divmod(key, PAIR_COUNT)
    mover, other = divmod(rest, len(PLACEMENTS))
    return mover, other, pair


def canonical_key(key: int) -> int:
    """The smallest key among the 8 symmetric images, naming the position's class."""
    mover, other, pair = split_key(key)
    return min(position_key(PLACEMENT_SYMMETRY[s][mover], PLACEMENT_SYMMETRY[s][other],
                            PAIR_SYMMETRY[s][pair]) for s in range(8))


def neutral_results(neutrals: int, occupied: int, sudden_death: bool) -> list[int]:
    """Every neutral-pair mask reachable after the L move, ``neutrals`` itself included."""
    if sudden_death:
        free = FULL_BOARD & ~occupied
        return [m for m in NEUTRAL_PAIRS if m & free == m]
    empty = FULL_BOARD & ~occupied & ~neutrals
    results = [neutrals]
    for source in cells_of(neutrals):
        for target in cells_of(empty):
            results.append(neutrals & ~(1 << source) | 1 << target)
    return results


def successors(key: int, sudden_death: bool) -> Iterator[int]:
    """Positions (seen by the next player) reachable in one move; each appears once."""
    mover, other, pair = split_key(key)
    neutrals = NEUTRAL_PAIRS[pair]
    other_mask = PLACEMENTS[other].mask
    for target in l_moves(mover, other, neutrals):
        occupied = other_mask | PLACEMENTS[target].mask
        for result in neutral_results(neutrals, occupied, sudden_death):
            yield position_key(other, target, PAIR_INDEX[result])


def predecessors(key: int, sudden_death: bool) -> Iterator[int]:
    """Positions from which one move reaches ``key``; each appears once.

    In ``key`` the mover's L stood still during the last move and the other L is the one
    that moved, so a predecessor has the roles swapped back.
    """
    still, moved, pair = split_key(key)
    neutrals_after = NEUTRAL_PAIRS[pair]
    occupied = PLACEMENTS[still].mask | PLACEMENTS[moved].mask
    # Reversing the neutral step is the same relation as making it: one neutral (or, in
    # sudden death, any) going back to a cell that both Ls leave free.
    for before in neutral_results(neutrals_after, occupied, sudden_death):
        blocked = PLACEMENTS[still].mask | before
        for p in PLACEMENTS:
            if p.index != moved and not p.mask & blocked:
                yield position_key(p.index, still, PAIR_INDEX[before])


def all_position_keys() -> Iterator[int]:
    for mover in PLACEMENTS:
        for other in PLACEMENTS:
            if mover.mask & other.mask:
                continue
            taken = mover.mask | other.mask
            for pair, neutrals in enumerate(NEUTRAL_PAIRS):
                if not neutrals & taken:
                    yield position_key(mover.index, other.index, pair)


UNKNOWN, WIN, LOSS = 0, 1, 2


@dataclass
class SolvedTable:
    """Value and distance of every position, from the point of view of the player to move.

    ``value[key]`` is WIN, LOSS or UNKNOWN (a draw: neither side can force a result), and
    ``distance[key]`` the number of single moves to the end under perfect play.
    """

    sudden_death: bool
    value: bytearray
    distance: bytearray
    valid: bytearray
    build_seconds: float

    def outcome_of(self, key: int) -> str:
        return {WIN: "win", LOSS: "loss"}.get(self.value[key], "draw")


def solve(sudden_death: bool = False) -> SolvedTable:
    """Retrograde analysis: lost-now positions first, then back one move at a time."""
    started = time.perf_counter()
    value = bytearray(KEY_SPACE)
    distance = bytearray(KEY_SPACE)
    valid = bytearray(KEY_SPACE)
    undecided_replies = [0] * KEY_SPACE
    per_l_move = PAIR_COUNT if sudden_death else 0
    frontier: deque[int] = deque()
    for key in all_position_keys():
        valid[key] = 1
        mover, other, pair = split_key(key)
        moves = len(l_moves(mover, other, NEUTRAL_PAIRS[pair]))
        if moves == 0:
            value[key] = LOSS
            frontier.append(key)
        else:
            # Each L move combines with every neutral outcome, all distinct: 1 + 2 * 6
            # single-neutral moves, or the 28 pairs of the 8 cells the Ls leave free.
            undecided_replies[key] = moves * (28 if per_l_move else 13)
    while frontier:
        key = frontier.popleft()
        steps = distance[key] + 1
        if value[key] == LOSS:
            for before in predecessors(key, sudden_death):
                if value[before] == UNKNOWN:
                    value[before] = WIN
                    distance[before] = steps
                    frontier.append(before)
        else:
            for before in predecessors(key, sudden_death):
                if value[before] == UNKNOWN:
                    undecided_replies[before] -= 1
                    if undecided_replies[before] == 0:
                        value[before] = LOSS
                        distance[before] = steps
                        frontier.append(before)
    return SolvedTable(sudden_death, value, distance, valid, time.perf_counter() - started)


_tables: dict[bool, SolvedTable] = {}
_tables_lock = threading.Lock()


def solved_table(sudden_death: bool = False) -> SolvedTable:
    """The solved table for a rule set, built on first use and then kept in memory."""
    table = _tables.get(sudden_death)
    if table is None:
        with _tables_lock:
            table = _tables.get(sudden_death)
            if table is None:
                table = solve(sudden_death)
                _tables[sudden_death] = table
    return table


START_X = PLACEMENT_BY_CODE["c4SW"]
START_O = PLACEMENT_BY_CODE["b1NE"]
def _cell(text: str) -> int:
    cell = parse_cell(text)
    assert cell is not None
    return cell


START_NEUTRALS = (1 << _cell("a4")) | (1 << _cell("d1"))
START_KEY = position_key(START_X, START_O, PAIR_INDEX[START_NEUTRALS])


def solve_statistics(sudden_death: bool = False) -> JSON:
    """The figures ``python -m engines lgame solve`` prints."""
    table = solved_table(sudden_death)
    classes: dict[int, int] = {}
    for key in all_position_keys():
        canonical = canonical_key(key)
        classes[canonical] = classes.get(canonical, 0) + 1
    lost_now = lost_later = won = drawn = 0
    for key in classes:
        mover, other, pair = split_key(key)
        if table.value[key] == LOSS:
            if l_moves(mover, other, NEUTRAL_PAIRS[pair]):
                lost_later += 1
            else:
                lost_now += 1
        elif table.value[key] == WIN:
            won += 1
        else:
            drawn += 1
    return {
        "rules": "sudden_death" if sudden_death else "standard",
        "positions": sum(classes.values()),
        "positions_up_to_symmetry": len(classes),
        "lost_now": lost_now,
        "lost_later": lost_later,
        "not_lost": len(classes) - lost_now - lost_later,
        "won": won,
        "drawn": drawn,
        "longest_loss": max(table.distance[k] for k in classes if table.value[k] == LOSS),
        "start_value": table.outcome_of(START_KEY),
        "solve_seconds": round(table.build_seconds, 4),
    }
