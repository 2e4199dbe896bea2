"""The L-game's computer players: ``easy`` (a safe move, or the squeeze), the middle levels
that blunder plausibly, and ``perfect`` from the solved table (``engines/lgame/solver.py``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import ClassVar

from engines.base import (
    Action,
    Agent,
    GameState,
    NotYourTurn,
    check_level,
)
from engines.lgame.board import (
    CELLS,
    PLACEMENTS,
    cells_of,
    l_moves,
)
from engines.lgame.rules import (
    LGameRules,
)
from engines.lgame.solver import (
    LOSS,
    PAIR_INDEX,
    UNKNOWN,
    neutral_results,
    position_key,
    solved_table,
)

LEVELS = ("easy", "medium", "strong", "perfect")


def _scored_moves(state: LGameRules) -> list[tuple[tuple[int, int], int, int]]:
    """Each legal move as (placement, neutrals after), with the value and distance of the
    position it leaves the opponent. Notation is built only for the move finally chosen."""
    table = solved_table(state.sudden_death)
    player = state.turn
    other = state.ls[1 - player]
    other_mask = PLACEMENTS[other].mask
    scored = []
    for target in l_moves(state.ls[player], other, state.neutrals):
        occupied = other_mask | PLACEMENTS[target].mask
        for result in neutral_results(state.neutrals, occupied, state.sudden_death):
            key = position_key(other, target, PAIR_INDEX[result])
            scored.append(((target, result), table.value[key], table.distance[key]))
    return scored


def perfect_preference(value: int, distance: int) -> tuple[int, int]:
    """Sort key over the opponent's resulting position: leave them lost (soonest), else drawn,
    else won for them as late as possible."""
    if value == LOSS:
        return (0, distance)
    if value == UNKNOWN:
        return (1, 0)
    return (2, -distance)


# For each placement, the masks of every other placement: where that L could go.
_ELSEWHERE = tuple(tuple(q.mask for q in PLACEMENTS if q.index != p.index) for p in PLACEMENTS)


@lru_cache(maxsize=1 << 16)
def _loses_in_one(other: int, target: int, result: int, sudden_death: bool) -> bool:
    """True when, after the mover's L goes to ``target`` and the neutrals to ``result``, the
    opponent (whose L is ``other``) has a move that leaves the mover stuck (no placement
    left for its L): a move that throws the game. Cached: positions recur across games."""
    for reply in l_moves(other, target, result):
        reply_mask = PLACEMENTS[reply].mask
        # The mover's placements the opponent's L leaves free; the neutrals must block all.
        open_to_mover = [mask for mask in _ELSEWHERE[target] if not mask & reply_mask]
        if not open_to_mover:
            return True
        occupied = PLACEMENTS[target].mask | reply_mask
        for after in neutral_results(result, occupied, sudden_death):
            if all(mask & after for mask in open_to_mover):
                return True
    return False


# For each cell, the placements (as bits of a 48-bit set) that cover it; for a piece's mask,
# the union over its cells. They let the squeeze count the opponent's free placements with a
# few integer operations per move instead of 47 mask tests, which keeps ``easy`` quick.
_COVERING = tuple(sum(1 << p.index for p in PLACEMENTS if p.mask >> cell & 1)
                  for cell in range(CELLS))


@cache
def _covered_placements(mask: int) -> int:
    """The placements that overlap ``mask``, as a set of placement bits."""
    covered = 0
    for cell in cells_of(mask):
        covered |= _COVERING[cell]
    return covered


_ALL_PLACEMENT_BITS = (1 << len(PLACEMENTS)) - 1


def placements_left(other: int, target: int, neutrals_after: int) -> int:
    """How many places the opponent's L (now on ``other``) can move to after the mover's L
    goes to ``target`` and the neutrals end on ``neutrals_after``; 0 means the move wins."""
    free = _ALL_PLACEMENT_BITS & ~(1 << other) & ~_covered_placements(
        PLACEMENTS[target].mask | neutrals_after)
    return free.bit_count()


def _all_moves(state: LGameRules) -> list[tuple[int, int]]:
    player = state.turn
    other_mask = PLACEMENTS[state.ls[1 - player]].mask
    return [(target, result)
            for target in l_moves(state.ls[player], state.ls[1 - player], state.neutrals)
            for result in neutral_results(state.neutrals, other_mask | PLACEMENTS[target].mask,
                                          state.sudden_death)]


def sensible_move(state: LGameRules, rng: random.Random) -> tuple[int, int]:
    """A random move that does not lose at once when some move avoids that: moves are tried
    in a random order and the first safe one is played (no solved table, so it costs about
    a millisecond on the event loop)."""
    moves = _all_moves(state)
    rng.shuffle(moves)
    for target, result in moves:
        if not _loses_in_one(state.ls[1 - state.turn], target, result, state.sudden_death):
            return target, result
    return moves[0]


def squeeze_moves(state: LGameRules) -> list[tuple[int, int]]:
    """The moves that leave the opponent's L the fewest places to go, among the moves that
    do not lose at once (all moves when every one does): the plan a player without the
    solved table can see, to cramp the opponent until they are stuck. It takes a win in one
    (no place left) and is no table lookup, so ``easy`` stays quick.

    Moves are checked for safety in order of how few places they leave, so the costly check
    runs only until the fewest a safe move leaves is known."""
    other = state.ls[1 - state.turn]
    by_places: dict[int, list[tuple[int, int]]] = {}
    for target, result in _all_moves(state):
        by_places.setdefault(placements_left(other, target, result), []).append((target, result))
    for places in sorted(by_places):
        safe = [(target, result) for target, result in by_places[places]
                if not _loses_in_one(other, target, result, state.sudden_death)]
        if safe:
            return safe
    return by_places[min(by_places)]


def table_moves(state: LGameRules) -> list[tuple[int, int]]:
    """The moves the solved table ranks best (``perfect_preference``)."""
    scored = _scored_moves(state)
    best = min(perfect_preference(value, distance) for _, value, distance in scored)
    return [move for move, value, distance in scored
            if perfect_preference(value, distance) == best]


class LGameAgent(Agent):
    """The ladder. Every move a level makes is one of three kinds, and the levels differ
    only in how often they use each:

    * the solved table's best move (``table_moves``): wins whenever the position allows,
      else holds the draw;
    * the squeeze (``squeeze_moves``): a safe move that leaves the opponent's L the fewest
      places, which is safe one move ahead and usually sound, but walks into deeper traps;
    * any safe move (``sensible_move``): random among the moves that do not lose at once.

    A move is the table's with probability ``TABLE_SHARES[level]``, else the squeeze with
    probability ``SQUEEZE_SHARES[level]``, else any safe move. ``easy`` never uses the table
    (it stays a quick level) and ``perfect`` always does; ``strong`` and ``medium`` blunder
    only through the squeeze or a safe move, never by a move that loses at once.
    """

    # Tuned with ``benchmarks/ladder.py lgame --deals 100`` (200 games a pair): with seed 1
    # medium vs easy 77.0%, strong vs medium 80.0%, perfect vs strong 76.2% (seed 2: 77.7%,
    # 79.2%, 77.5%; ``docs/ai.md``). Against ``perfect`` a level can only draw or lose, so
    # ``strong``'s 20% of squeezes set how often it survives the move limit (about half its
    # games). ``medium``'s table share moves its two steps in opposite directions: 0.35 gave
    # 82% above easy and 76% below strong (seed 1).
    TABLE_SHARES: ClassVar[Mapping[str, float]] = {
        "easy": 0.0, "medium": 0.3, "strong": 0.8, "perfect": 1.0}
    SQUEEZE_SHARES: ClassVar[Mapping[str, float]] = {
        "easy": 0.6, "medium": 0.9, "strong": 1.0, "perfect": 0.0}

    def choose(self, state: GameState, player: int) -> Action:
        assert isinstance(state, LGameRules)
        if state.turn != player or state.outcome() is not None:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")
        table_share = self.TABLE_SHARES[self.level]
        # ``perfect`` draws nothing but its tie-break, so its games replay as they always did.
        if table_share >= 1.0 or (table_share > 0.0 and self.rng.random() < table_share):
            pool = table_moves(state)
        elif self.rng.random() < self.SQUEEZE_SHARES[self.level]:
            pool = squeeze_moves(state)
        else:
            return state._encode(*sensible_move(state, self.rng))
        placement, neutrals_after = self.rng.choice(pool)
        return state._encode(placement, neutrals_after)


def make_agent(level: str, rng: random.Random) -> LGameAgent:
    check_level(level, LEVELS)
    return LGameAgent(level, rng)
