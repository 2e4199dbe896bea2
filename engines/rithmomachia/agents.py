"""Computer players for Boolean Rithmomachia (``engines/rithmomachia/__init__.py``).

* ``easy`` plays a random legal move, but takes the biggest capture it can (random among
  equal ones), and never a move that lets the opponent take every Pyramid it has left in one
  move (``sensible_move``). While the pieces are placed it places at random.
* ``medium`` plays ``easy``'s move on a share ``MEDIUM_SLIPS`` of its moves and ``strong``'s
  search cut at depth 2 on the others.
* ``strong`` searches: negamax alpha-beta with iterative deepening, a transposition table,
  captures first in the move order, then killer moves and the history heuristic. The
  evaluation counts Pyramids, pieces and value (the three victories, each also scored as a
  lead), and Pyramid safety: a leaf where the opponent, to move, can capture a Pyramid of the
  side that just moved costs most of that Pyramid. The check is lazy: leaves are tried best
  first and stop as soon as no later one can beat the best checked one. Game ends inside the
  search (no Pyramid, no move, the move limit, a threefold repetition at the root) score the
  victories as the game would. While placing it uses the standard set-up.

Time: ``budget_seconds`` (default 2.0) bounds the wall time of a decision. The clock is read
at every node (a node costs at most a few milliseconds), the search stops at 90% of the
budget, and a new iteration starts only when the last one, grown by the observed growth from
iteration to iteration (3 to 8 times), would still fit. ``node_limit`` stops the search after
that many nodes instead, which is deterministic (for tests); with both, the first limit
reached stops it. An iteration cut short still counts for the root moves it finished: the
previous best move is searched first, so any move that beats it at the new depth is better.
``last_depth``, ``last_nodes`` (interior nodes and scored leaves) and ``last_score`` describe
the last decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Literal

from engines.base import Action, Agent, GameState, NotYourTurn, check_level
from engines.rithmomachia.board import (
    CELLS,
    EMPTY,
    PYRAMID,
    REACH,
    REACH_MASK,
    SHAPE_OF,
    STANDARD_LAYOUT,
    coords,
)
from engines.rithmomachia.equations import Rules, captures, occupancy
from engines.rithmomachia.moves import generate_moves, move_text, position_key
from engines.rithmomachia.notation import placement_text
from engines.rithmomachia.rules import LEVELS
from engines.rithmomachia.state import RithmomachiaState

WEIGHT_PYRAMID = 500
WEIGHT_PIECE = 100
WEIGHT_VALUE = 6
WEIGHT_VICTORY = 150
WIN = 1_000_000
SAFETY = 0.8  # share of a Pyramid's worth lost when the opponent can take it next move
MAX_DEPTH = 64
EXACT, LOWER, UPPER = 0, 1, 2

# What a capture of a value is worth to the capturer: a Pyramid leaves the field, any other
# piece changes sides (one piece and its value less for one side, more for the other).
GAIN = tuple(WEIGHT_PYRAMID + WEIGHT_PIECE + WEIGHT_VALUE * v if v in (0, 15)
             else 2 * (WEIGHT_PIECE + WEIGHT_VALUE * v) for v in range(16))
SAFETY_COST = int(SAFETY * GAIN[0])
# Cells within one step of a cell, the cell included.
AROUND = tuple(mask | 1 << cell for cell, mask in enumerate(REACH_MASK[PYRAMID]))
# Cells within two steps of a cell.
NEAR = tuple(sum(1 << b for b in range(CELLS)
                 if max(abs(p - q) for p, q in zip(coords(a), coords(b), strict=True)) <= 2)
             for a in range(CELLS))

# Material as (pyramids, pieces, value) of White, then of Black.
Material = tuple[int, int, int, int, int, int]
# A move with its capture mask, the worth of the capture and the Pyramids it takes.
Scored = tuple[int, int, int, int]


class OutOfTime(Exception):
    """The budget (or the node limit) ran out in the middle of an iteration."""


def material(board: list[int]) -> Material:
    m = [0] * 6
    for c in board:
        if c:
            v = (c - 1) & 15
            side = 3 * ((c - 1) >> 4)
            m[side] += v in (0, 15)
            m[side + 1] += 1
            m[side + 2] += v
    return m[0], m[1], m[2], m[3], m[4], m[5]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def static_score(m: Material) -> int:
    """White's advantage: weighted material plus a bonus per victory led."""
    dp, dn, dv = m[0] - m[3], m[1] - m[4], m[2] - m[5]
    return (WEIGHT_PYRAMID * dp + WEIGHT_PIECE * dn + WEIGHT_VALUE * dv
            + WEIGHT_VICTORY * (_sign(dp) + _sign(dn) + _sign(dv)))


def final_score(m: Material, ply: int) -> int:
    """White's result when the game ends here: the victories decide, sooner is better."""
    lead = _sign(m[0] - m[3]) + _sign(m[1] - m[4]) + _sign(m[2] - m[5])
    if lead == 0:
        return 0
    return _sign(lead) * (WIN + 1000 * abs(lead) - ply)


# Seconds from any fixed start; the wall clock in play, a fake one in tests.
Clock = Callable[[], float]



def take_captured(board: list[int], captured: int, player: int, m: Material,
                  taken: list[tuple[int, int]] | None = None) -> tuple[Material, int]:
    """``player``'s captures (the mask ``captured``) applied to ``board`` in place: a
    Pyramid (value 0 or 15) removed, any other piece turned over to ``player``. Returns the
    material after them and the mask of the pieces turned over (now ``player``'s); each
    captured cell and its code before are appended to ``taken`` when given, to restore it.
    The one place captures change a search's board (``Search.child``, the puzzle tactics'
    replies in place)."""
    mat = list(m)
    me, them = 3 * player, 3 - 3 * player
    turned = 0
    while captured:
        low = captured & -captured
        captured ^= low
        cell = low.bit_length() - 1
        code = board[cell]
        value = (code - 1) & 15
        if taken is not None:
            taken.append((cell, code))
        mat[them + 1] -= 1
        mat[them + 2] -= value
        if value == 0 or value == 15:
            mat[them] -= 1
            board[cell] = EMPTY
        else:
            mat[me + 1] += 1
            mat[me + 2] += value
            board[cell] = code + 16 if code <= 16 else code - 16
            turned |= low
    return (mat[0], mat[1], mat[2], mat[3], mat[4], mat[5]), turned

class Search:
    """One decision's search. A position is the engine's board list with the occupancy masks
    of the side to move and of the other side."""

    def __init__(self, rules: Rules, push: bool, plies_left: int, deadline: float | None,
                 node_limit: int | None, clock: Clock = time.perf_counter) -> None:
        self.rules = rules
        self.clock = clock
        self.push = push
        self.plies_left = plies_left
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.leaves = 0
        self.tt: dict[bytes, tuple[int, int, int, int]] = {}
        self.killers = [[0, 0] for _ in range(MAX_DEPTH + 2)]
        self.history: dict[int, int] = {}

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise OutOfTime
        if self.deadline is not None and self.clock() > self.deadline:
            raise OutOfTime

    def gain(self, board: list[int], mine: int, theirs: int, move: int,
             player: int) -> tuple[int, int, int]:
        """The capture mask, its worth to ``player`` and the Pyramids it takes, found on
        ``board`` in place (the board is left as it was)."""
        source, dest, push = move & 63, (move >> 6) & 63, (move >> 12) - 1
        piece, occupant = board[source], board[dest]
        mine = mine & ~(1 << source) | 1 << dest
        board[source] = EMPTY
        saved = EMPTY
        if push >= 0:
            saved = board[push]
            board[push] = occupant
            if (occupant - 1) >> 4 == player:
                mine |= 1 << push
            else:
                theirs = theirs & ~(1 << dest) | 1 << push
        board[dest] = piece
        captured = captures(board, mine, theirs, dest, self.rules)
        worth = taken = 0
        mask = captured
        while mask:
            low = mask & -mask
            mask ^= low
            v = (board[low.bit_length() - 1] - 1) & 15
            worth += GAIN[v]
            taken += v == 0 or v == 15
        board[dest] = occupant
        if push >= 0:
            board[push] = saved
        board[source] = piece
        return captured, worth, taken

    def child(self, board: list[int], mine: int, theirs: int, move: int, player: int,
              captured: int, m: Material) -> tuple[list[int], int, int, Material]:
        """The position after ``move`` with its known captures applied, and the masks of the
        side to move there (the opponent) and of the mover."""
        after = board.copy()
        source, dest, push = move & 63, (move >> 6) & 63, (move >> 12) - 1
        mine = mine & ~(1 << source) | 1 << dest
        after[source] = EMPTY
        if push >= 0:
            occupant = board[dest]
            after[push] = occupant
            if (occupant - 1) >> 4 == player:
                mine |= 1 << push
            else:
                theirs = theirs & ~(1 << dest) | 1 << push
        after[dest] = board[source]
        if not captured:
            return after, theirs, mine, m
        m, turned = take_captured(after, captured, player, m)
        return after, theirs & ~captured, mine | turned, m

    def reachable(self, board: list[int], mine: int, theirs: int) -> tuple[int, int]:
        """Where a move of the side occupying ``mine`` must end to capture anything: next to
        an enemy piece (NOT, compiling), or next to an own piece that reaches one (filtering);
        and, for a push of an own piece (which may then serve as Y), within two steps of an
        enemy piece."""
        close = far = 0
        pieces = theirs
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            cell = low.bit_length() - 1
            close |= AROUND[cell]
            far |= NEAR[cell]
        pieces = mine
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            cell = low.bit_length() - 1
            if REACH_MASK[SHAPE_OF[(board[cell] - 1) & 15]][cell] & theirs:
                close |= AROUND[cell]
        return close, far

    def pyramid_threatened(self, board: list[int], attacker: int, mine: int,
                           theirs: int, needed: int = 1) -> bool:
        """Whether ``attacker`` (occupying ``mine``) has a move that captures a Pyramid of the
        other side (``needed`` of them in the same move: with the other side's Pyramid count,
        whether it can take them all and end the game)."""
        pyramids = 0
        pieces = theirs
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            if (board[low.bit_length() - 1] - 1) & 15 in (0, 15):
                pyramids |= low
        if not pyramids:
            return False
        close, far = self.reachable(board, mine, pyramids)
        occupied = mine | theirs
        pieces = mine
        push = self.push
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            source = low.bit_length() - 1
            shape = SHAPE_OF[(board[source] - 1) & 15]
            reach = REACH_MASK[shape][source]
            dests = reach & close & ~occupied
            if shape == PYRAMID and push:
                dests |= reach & occupied & far
            while dests:
                dlow = dests & -dests
                dests ^= dlow
                dest = dlow.bit_length() - 1
                if not occupied & dlow:
                    if self.gain(board, mine, theirs, source | dest << 6,
                                 attacker)[2] >= needed:
                        return True
                    continue
                for target in REACH[PYRAMID][dest]:
                    if (target == source or not board[target]) and self.gain(
                            board, mine, theirs, source | dest << 6 | (target + 1) << 12,
                            attacker)[2] >= needed:
                        return True
        return False

    def ordered(self, board: list[int], mine: int, theirs: int, player: int, ply: int,
                tt_move: int) -> list[Scored]:
        """Every move with its capture mask, worth and Pyramids taken: the table's move
        first, then by worth, killers, history. Captures are looked for only where
        ``reachable`` allows them."""
        close, far = self.reachable(board, mine, theirs)
        far &= mine  # a push of an enemy piece ends next to it, so it is close already
        scored = []
        killers = self.killers[ply]
        history = self.history
        for move in generate_moves(board, player, self.push):
            dest = (move >> 6) & 63
            if close >> dest & 1 or (move >> 12 and far >> dest & 1):
                captured, worth, taken = self.gain(board, mine, theirs, move, player)
            else:
                captured = worth = taken = 0
            if move == tt_move:
                key = 1 << 40
            else:
                key = worth << 24
                if move == killers[0] or move == killers[1]:
                    key += 1 << 22
                key += min(history.get(move, 0), (1 << 22) - 1)
            scored.append((key, (move, captured, worth, taken)))
        scored.sort(key=lambda s: s[0], reverse=True)
        return [entry for _, entry in scored]

    def negamax(self, board: list[int], mine: int, theirs: int, player: int, depth: int,
                alpha: int, beta: int, ply: int, m: Material) -> int:
        """The value of the position for ``player`` (to move), ``ply`` plies below the root."""
        self.tick()
        # Near the move limit a position's value depends on the plies left, so they count.
        key = bytes(board) + bytes((player, min(self.plies_left - ply, 64)))
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth and (e_flag == EXACT or (e_flag == LOWER and e_score >= beta)
                                     or (e_flag == UPPER and e_score <= alpha)):
                return e_score
        moves = self.ordered(board, mine, theirs, player, ply, tt_move)
        sign = 1 if player == 0 else -1
        if not moves:
            return sign * final_score(m, ply)
        if depth <= 1:
            return self.frontier(board, mine, theirs, player, moves, alpha, beta, ply, m)
        alpha_start = alpha
        best, best_move = -WIN * 2, 0
        last = ply + 1 >= self.plies_left
        them = 3 - 3 * player
        for move, captured, _, _ in moves:
            after, to_move, other, child_m = self.child(board, mine, theirs, move, player,
                                                        captured, m)
            if last or child_m[them] == 0:
                score = sign * final_score(child_m, ply + 1)
            else:
                score = -self.negamax(after, to_move, other, 1 - player, depth - 1, -beta,
                                      -alpha, ply + 1, child_m)
            if score > best:
                best, best_move = score, move
            if score > alpha:
                alpha = score
            if alpha >= beta:
                if not captured:
                    killers = self.killers[ply]
                    if killers[0] != move:
                        killers[1], killers[0] = killers[0], move
                    self.history[move] = self.history.get(move, 0) + depth * depth
                break
        flag = EXACT if alpha_start < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (depth, best, flag, best_move)
        return best

    def frontier(self, board: list[int], mine: int, theirs: int, player: int,
                 moves: list[Scored], alpha: int, beta: int, ply: int, m: Material) -> int:
        """Depth 1: each move's static value, less the Pyramid it leaves en prise. Moves come
        best worth first (after the table's move), and the safety check only lowers a value,
        so the loop stops at the first move that cannot beat the best one."""
        sign = 1 if player == 0 else -1
        them = 3 - 3 * player
        best = -WIN * 2
        last = ply + 1 >= self.plies_left
        for move, captured, _, taken in moves:
            if last or (taken and taken >= m[them]):  # the game ends with this move
                child_m = self.child(board, mine, theirs, move, player, captured, m)[3]
                self.leaves += 1
                best = max(best, sign * final_score(child_m, ply + 1))
                if best >= beta:
                    return best
        if last:
            return best
        base = sign * static_score(m)
        for i, (move, captured, worth, taken) in enumerate(moves):
            if taken and taken >= m[them]:
                continue
            score = base + worth
            if score <= best:
                if i == 0:
                    continue
                break
            self.leaves += 1
            if score > alpha:  # below alpha the unchecked value is a valid upper bound
                after, to_move, other, _ = self.child(board, mine, theirs, move, player,
                                                      captured, m)
                if self.pyramid_threatened(after, 1 - player, to_move, other):
                    score -= SAFETY_COST
            best = max(best, score)
            if best >= beta:
                return best
        return best


def sensible_move(state: RithmomachiaState, player: int, moves: list[int],
                  rng: random.Random) -> int:
    """``easy``'s move: random, but the biggest capture that is safe, and never a move after
    which the opponent can take every Pyramid the mover has left in one move (which ends the
    game with the Pyramid victory theirs), unless every move allows that. A move that takes
    the opponent's last Pyramids and wins is played at once. Moves are tried biggest capture
    first, otherwise in a random order, and the first that passes is played, so it stays
    cheap (``benchmarks/quick_levels.py``)."""
    search = Search(state.rules, state.push, 1, None, None)
    board = state.board
    masks = occupancy(board)
    mine, theirs = masks[player], masks[1 - player]
    m = material(board)
    sign = 1 if player == 0 else -1
    order = list(moves)
    rng.shuffle(order)
    gains = [(move, search.gain(board, mine, theirs, move, player)) for move in order]
    # The biggest capture first (a beginner grabs the most it sees): with a random capture
    # instead, medium scored 93.5% against easy; with the biggest, 74.0% [68.2, 79.8] (200
    # fast-budget games). The sort is stable: equal captures (and all non-captures, worth
    # 0) stay in random order.
    ranked = sorted(gains, key=lambda g: g[1][1], reverse=True)
    last = state.plies + 1 >= state.move_limit
    for move, (captured, _, _) in ranked:
        after, to_move, other, child_m = search.child(board, mine, theirs, move, player,
                                                      captured, m)
        if child_m[3 - 3 * player] == 0 or last:
            if sign * final_score(child_m, 1) > 0:
                return move
            continue
        if not search.pyramid_threatened(after, 1 - player, to_move, other,
                                         needed=child_m[3 * player]):
            return move
    return ranked[0][0]


# Wall-time budget per decision of each searching level, in seconds (the bot's worker
# processes give them this; ``expert`` is the whole 2 s of the budget).
BUDGETS = {"medium": 0.25, "strong": 0.25, "expert": 2.0}
# The deepest iteration each level may search (``None``: as deep as its budget allows).
MAX_DEPTHS: dict[str, int | None] = {"medium": 2, "strong": None, "expert": None}
# Node counts that stand in for the budgets in the ladder's fast matches
# (``benchmarks/ladder.py --budget fast``): deterministic, and in the budgets' 1 : 8 ratio
# between ``strong`` and ``expert``. Measured (200 games each, seed 1, ``easy`` taking the
# biggest capture): strong vs medium 79.0% [73.1, 84.9]; expert vs strong 98.6% after the
# first 140 games (the whole pair did not finish in the time there was).
FAST_NODE_LIMITS = {"medium": 2_000, "strong": 500, "expert": 4_000}
# Levels that start another iteration whenever time is left, counting a cut-short one for
# the root moves it finished, instead of only when the whole iteration is predicted to fit:
# ``expert`` spends its whole budget.
USES_WHOLE_BUDGET = frozenset({"expert"})
SEARCHING = frozenset(BUDGETS)


class RithmomachiaAgent(Agent):
    """The ladder (see the module docstring): ``easy``, ``medium``, ``strong``, ``expert``.

    ``budget_seconds`` defaults to the level's ``BUDGETS`` entry; ``None`` leaves only
    ``node_limit`` (deterministic, for tests and the ladder's fast matches)."""

    # The share of ``medium``'s moves played as ``easy`` plays them: a learner's slips.
    # Measured (fast budgets, 200 games, seed 1): medium vs easy 74.0% [68.2, 79.8], strong
    # vs medium 79.0% [73.1, 84.9].
    MEDIUM_SLIPS = 0.5

    def __init__(self, level: str, rng: random.Random,
                 budget_seconds: float | Literal["level"] | None = "level",
                 node_limit: int | None = None, clock: Clock = time.perf_counter) -> None:
        super().__init__(level, rng)
        self.clock = clock
        self.budget_seconds = (BUDGETS.get(level) if budget_seconds == "level"
                               else budget_seconds)
        self.node_limit = node_limit
        self.max_depth = MAX_DEPTHS.get(level) or MAX_DEPTH
        self.last_nodes = 0
        self.last_depth = 0
        self.last_score = 0

    def choose(self, state: GameState, player: int) -> Action:
        assert isinstance(state, RithmomachiaState)
        if state.outcome() is not None or state.to_move() != [player]:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")
        if state.phase == "placement":
            return self._place(state, player)
        moves = state.moves()
        if self.level == "easy" or (self.level == "medium"
                                    and self.rng.random() < self.MEDIUM_SLIPS):
            return move_text(sensible_move(state, player, moves, self.rng))
        return move_text(self._search(state, player, moves))

    def _place(self, state: RithmomachiaState, player: int) -> Action:
        options = state.placements(player)
        if self.level in SEARCHING:
            for value, cell in options:
                _, file, rank = coords(cell)
                if STANDARD_LAYOUT[rank][file] == value:
                    return placement_text(value, cell)
        value, cell = self.rng.choice(options)
        return placement_text(value, cell)

    def _search(self, state: RithmomachiaState, player: int, moves: list[int]) -> int:
        started = self.clock()
        deadline = None
        if self.budget_seconds is not None:
            deadline = started + 0.9 * self.budget_seconds
        plies_left = state.move_limit - state.plies
        search = Search(state.rules, state.push, plies_left, deadline, self.node_limit,
                        self.clock)
        board = state.board
        m = material(board)
        masks = occupancy(board)
        mine, theirs = masks[player], masks[1 - player]
        sign = 1 if player == 0 else -1
        order = list(moves)
        self.rng.shuffle(order)  # ties go to a random move
        scored = []
        for move in order:
            captured, worth, _ = search.gain(board, mine, theirs, move, player)
            scored.append((worth, move, captured))
        scored.sort(key=lambda s: s[0], reverse=True)
        root = [(move, captured) for _, move, captured in scored]
        best_move = root[0][0]
        self.last_depth, self.last_score = 0, 0
        times: list[float] = []
        for depth in range(1, self.max_depth + 1):
            began = self.clock()
            if deadline is not None and times and self.level not in USES_WHOLE_BUDGET:
                growth = 8.0
                if len(times) > 1 and times[-2] > 0:
                    growth = min(8.0, max(3.0, times[-1] / times[-2]))
                if began + growth * times[-1] > deadline:
                    break  # the next iteration would not finish in time
            result = self._root(search, state, player, root, depth, m, sign)
            if result is None:
                break
            score, move, complete = result
            times.append(self.clock() - began)
            best_move, self.last_depth, self.last_score = move, depth, score
            root.sort(key=lambda r: r[0] != move)  # the best so far is tried first
            if not complete or abs(score) >= WIN // 2 or depth >= plies_left:
                break
        self.last_nodes = search.nodes + search.leaves
        return best_move

    def _root(self, search: Search, state: RithmomachiaState, player: int,
              root: list[tuple[int, int]], depth: int, m: Material,
              sign: int) -> tuple[int, int, bool] | None:
        """The best score and move at ``depth``, and whether every move was searched. When
        time runs out the moves searched so far still count (the previous best comes first);
        ``None`` when not even one was."""
        alpha, beta = -WIN * 2, WIN * 2
        best_move = -1
        last = state.plies + 1 >= state.move_limit
        masks = occupancy(state.board)
        try:
            for move, captured in root:
                after, to_move, other, child_m = search.child(
                    state.board, masks[player], masks[1 - player], move, player, captured, m)
                repeated = state.history.get(position_key(after, 1 - player), 0) >= 2
                if last or repeated or child_m[3 - 3 * player] == 0:
                    score = sign * final_score(child_m, 1)
                elif depth == 1:
                    search.tick()
                    score = sign * static_score(child_m)
                    if search.pyramid_threatened(after, 1 - player, to_move, other):
                        score -= SAFETY_COST
                else:
                    score = -search.negamax(after, to_move, other, 1 - player, depth - 1,
                                            -beta, -alpha, 1, child_m)
                if score > alpha:
                    alpha, best_move = score, move
        except OutOfTime:
            return None if best_move < 0 else (alpha, best_move, False)
        return alpha, best_move, True


def make_agent(level: str, rng: random.Random) -> RithmomachiaAgent:
    """A computer player at ``level`` as the bot makes it (the registry finds it through
    ``rithmomachia.INFO.agents``)."""
    check_level(level, LEVELS)
    return RithmomachiaAgent(level, rng)
