"""Short, exact tactics of Boolean Rithmomachia for its puzzles: captures, wins at once and
wins in two moves, worked out with the computer player's search primitives
(``engines.rithmomachia_agent.Search``: the capture finder ``gain``, the position after a
move ``child``, and ``pyramid_threatened``, whether a side can take a number of Pyramids
in one move).

Why a win is only a capture of the last Pyramids here: the puzzles are played with push on
(both of the bot's presets), and with push on a side that still has a Pyramid always has a
move (a Pyramid may step onto any neighbour, the cell it leaves taking the pushed piece),
so "no legal move" cannot end a puzzle's line; a puzzle's position starts with a fresh
history and ply count, so neither repetition nor the move limit can end a line of three
moves. What remains is a side without Pyramids, and then the three victories decide. The
tests check every answer again with the game's own ``apply`` and ``outcome``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain

from engines.rithmomachia import Rules, generate_moves, iter_cells, occupancy
from engines.rithmomachia_agent import AROUND, Material, Search, final_score, material
from engines.rithmomachia_board import PYRAMID, REACH, REACH_MASK, SHAPE_OF

# A search with no clock and no node limit: puzzles must be the same on any machine.
PLIES_LEFT = 200
# The playouts that lead to a puzzle's position: how often a side takes its biggest
# capture when it has one, and how many random moves it tries for one that keeps its
# Pyramids safe (``_playout_move``).
GREEDY = 0.5
SAFETY_TRIES = 6


@dataclass(frozen=True)
class Node:
    """A position during play: the board, the side to move, the occupancy masks of the
    side to move and of the other side, and both sides' material."""

    board: list[int]
    player: int
    mine: int
    theirs: int
    material: Material

    @property
    def ended(self) -> bool:
        """A side without Pyramids: the only ending a puzzle's line can reach."""
        return self.material[0] == 0 or self.material[3] == 0

    def pyramids(self, seat: int) -> int:
        return self.material[3 * seat]

    def result_for(self, seat: int) -> int:
        """1 when the three victories give ``seat`` the game now, -1 the other side, 0 a
        draw (``final_score``'s sign, as the game's ending scores them)."""
        score = final_score(self.material, 1) * (1 if seat == 0 else -1)
        return (score > 0) - (score < 0)


def node_of(board: list[int], player: int) -> Node:
    masks = occupancy(board)
    return Node(list(board), player, masks[player], masks[1 - player], material(board))


@dataclass(frozen=True)
class Taken:
    """What a move takes from the other side: Pyramids, pieces and value, the order of
    the three victories, compared in that order."""

    pyramids: int
    pieces: int
    value: int

    def key(self) -> tuple[int, int, int]:
        return (self.pyramids, self.pieces, self.value)

    def __bool__(self) -> bool:
        return self.pieces > 0


class Tactics:
    """Exact answers about one set of rules (the enabled equations, push on)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.search = Search(rules, True, PLIES_LEFT, None, None)

    def moves(self, node: Node) -> list[int]:
        return generate_moves(node.board, node.player, True)

    def after(self, node: Node, move: int) -> Node:
        """The position after ``move`` and its captures, the other side to move."""
        captured, _, _ = self.search.gain(node.board, node.mine, node.theirs, move,
                                          node.player)
        board, to_move, other, after = self.search.child(node.board, node.mine, node.theirs,
                                                         move, node.player, captured,
                                                         node.material)
        return Node(board, 1 - node.player, to_move, other, after)

    def taken(self, node: Node, move: int) -> Taken:
        """What ``move`` captures, from the material before and after it."""
        captured, _, _ = self.search.gain(node.board, node.mine, node.theirs, move,
                                          node.player)
        if not captured:
            return Taken(0, 0, 0)
        after = self.after(node, move).material
        them = 3 - 3 * node.player
        return Taken(*(node.material[them + i] - after[them + i] for i in range(3)))

    def can_take_all_pyramids(self, node: Node) -> bool:
        """Whether the side to move has a move that takes every Pyramid the other side
        has: the only way a move can end the game here."""
        return self.search.pyramid_threatened(node.board, node.player, node.mine,
                                              node.theirs, needed=node.pyramids(1 - node.player))

    def wins_now(self, node: Node, moves: Sequence[int] | None = None) -> list[int]:
        """Every move that ends the game with the side to move winning."""
        if not self.can_take_all_pyramids(node):
            return []
        return [move for move in (self.moves(node) if moves is None else moves)
                if self._wins(node, move)]

    def _wins(self, node: Node, move: int) -> bool:
        taken = self.search.gain(node.board, node.mine, node.theirs, move, node.player)[2]
        if taken < node.pyramids(1 - node.player):
            return False
        after = self.after(node, move)
        return after.ended and after.result_for(node.player) == 1

    def is_legal(self, node: Node, move: int) -> bool:
        """Whether ``move`` is one of the side to move's legal moves (the rule
        ``generate_moves`` follows, without listing every move)."""
        source, dest, push = move & 63, (move >> 6) & 63, (move >> 12) - 1
        code = node.board[source]
        if not code or (code - 1) >> 4 != node.player:
            return False
        shape = SHAPE_OF[(code - 1) & 15]
        if not REACH_MASK[shape][source] >> dest & 1:
            return False
        if push < 0:
            return not node.board[dest]
        return (shape == PYRAMID and bool(node.board[dest])
                and bool(REACH_MASK[PYRAMID][dest] >> push & 1)
                and (push == source or not node.board[push]))

    def a_win_now(self, node: Node, hints: Iterable[int] = ()) -> int | None:
        """One move that wins at once, the ``hints`` (moves that won in similar positions)
        tried first; None when there is none. Only moves that can capture are tried, as
        ``Search.pyramid_threatened`` bounds them: those ending next to an enemy Pyramid
        or next to an own piece that reaches one, and pushes within two steps of an enemy
        Pyramid (the pushed piece may then be the helper, or the Pyramid itself)."""
        for hint in hints:
            if self.is_legal(node, hint) and self._wins(node, hint):
                return hint
        pyramids = sum(1 << cell for cell in iter_cells(node.theirs)
                       if (node.board[cell] - 1) & 15 in (0, 15))
        close, far = self.search.reachable(node.board, node.mine, pyramids)
        occupied = node.mine | node.theirs
        pieces = node.mine
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            source = low.bit_length() - 1
            shape = SHAPE_OF[(node.board[source] - 1) & 15]
            reach = REACH_MASK[shape][source]
            for dest in iter_cells(reach & close & ~occupied):
                move = source | dest << 6
                if self._wins(node, move):
                    return move
            if shape != PYRAMID:
                continue
            for dest in iter_cells(reach & occupied & far):
                for target in REACH[PYRAMID][dest]:
                    move = source | dest << 6 | (target + 1) << 12
                    if (target == source or not node.board[target]) and self._wins(node, move):
                        return move
        return None

    def defence(self, node: Node, attacker: int, memory: Memory) -> int | None:
        """A reply of the side to move (the defender) after which ``attacker`` cannot win
        at once and the game has not ended in the attacker's favour; None when every
        reply loses. Replies that defended in ``memory`` are tried first; the attacker's
        wins met on the way are remembered, tried first in the next position."""
        remembered = [r for r in memory.defences if self.is_legal(node, r)]
        for reply in chain(remembered, self._replies_by_promise(node)):
            after = self.after(node, reply)
            if after.ended:
                if after.result_for(attacker) != 1:
                    memory.remember_defence(reply)
                    return reply
                continue
            win = self.a_win_now(after, memory.wins)
            if win is None:
                memory.remember_defence(reply)
                return reply
            memory.remember_win(win)
        return None

    def _replies_by_promise(self, node: Node) -> Iterator[int]:
        """The defender's replies, the likeliest defences first: moves of its own
        Pyramids (stepping out of reach, or pushing), then captures (of an attacker's
        piece, or of its last Pyramids), then moves onto or next to the cells of the
        attacker's threat (its winning move if the defender passed), then the rest. A
        defence is nearly always among the first, so it is found after a few replies
        instead of scores; the order never changes whether one is found."""
        replies = self.moves(node)
        rest = []
        for reply in replies:
            if (node.board[reply & 63] - 1) & 15 in (0, 15):
                yield reply
            else:
                rest.append(reply)
        quiet = []
        for reply in rest:
            if self.search.gain(node.board, node.mine, node.theirs, reply, node.player)[0]:
                yield reply
            else:
                quiet.append(reply)
        passed = Node(node.board, 1 - node.player, node.theirs, node.mine, node.material)
        threat = self.a_win_now(passed)
        if threat is None:
            yield from quiet
            return
        near = 0
        for cell in iter_cells(_cells_of(threat)):
            near |= AROUND[cell]
        yield from (reply for reply in quiet if near & _cells_of(reply))
        yield from (reply for reply in quiet if not near & _cells_of(reply))

    def forced_line(self, node: Node, move: int, memory: Memory | None = None
                    ) -> tuple[bool, list[int]]:
        """Whether ``move`` wins in two moves of the side to move (every reply leaves a
        win at once), with a line: the move, a reply and the win after it when it does;
        the move and the defence that holds when it does not. ``memory`` carries what
        was learnt from the position's other moves (only the order of the work)."""
        memory = Memory() if memory is None else memory
        after = self.after(node, move)
        if after.ended:
            return after.result_for(node.player) == 1, [move]
        found = self.defence(after, node.player, memory)
        if found is not None:
            return False, [move, found]
        reply = self.moves(after)[0]
        reply_after = self.after(after, reply)
        if reply_after.ended:
            return True, [move, reply]
        win = self.a_win_now(reply_after, memory.wins)
        assert win is not None
        return True, [move, reply, win]


def _cells_of(move: int) -> int:
    """The cells a move touches, as a mask: its source, destination and push cell."""
    push = (move >> 12) - 1
    return 1 << (move & 63) | 1 << ((move >> 6) & 63) | (1 << push if push >= 0 else 0)


@dataclass
class Memory:
    """Moves that worked in related positions, tried first: the defences that held and
    the wins that were there (the killer-move idea of a search). Only speed depends on
    it, never a result."""

    defences: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    kept: int = 4

    def remember_defence(self, move: int) -> None:
        _remember(self.defences, move, self.kept)

    def remember_win(self, move: int) -> None:
        _remember(self.wins, move, self.kept)


def _remember(moves: list[int], move: int, kept: int) -> None:
    if move in moves:
        moves.remove(move)
    moves.insert(0, move)
    del moves[kept:]


def playout(tactics: Tactics, start: Node, rng: random.Random, limit: int,
            careful: bool) -> Iterator[Node]:
    """The positions of a game played from ``start`` by a plausible beginner, ``start``
    first, until a side has no Pyramid or ``limit`` moves were made.

    The beginner tries ``SAFETY_TRIES`` random moves for one that keeps its Pyramids
    safe: a ``careful`` one each Pyramid, so games last longer (capture puzzles); a
    careless one only all of them at once, so games end (victory puzzles)."""
    node = start
    yield node
    for _ in range(limit):
        if node.ended:
            return
        node = tactics.after(node, _playout_move(tactics, node, rng, careful))
        yield node


def _playout_move(tactics: Tactics, node: Node, rng: random.Random, careful: bool) -> int:
    """The biggest capture (by the search's worth) on a share ``GREEDY`` of the moves
    that have one; otherwise a random safe move (``playout``), or the first tried when
    none is safe."""
    moves = tactics.moves(node)
    if rng.random() < GREEDY:
        worth = [tactics.search.gain(node.board, node.mine, node.theirs, move,
                                     node.player)[1] for move in moves]
        best = max(worth)
        if best:
            return rng.choice([m for m, w in zip(moves, worth, strict=True) if w == best])
    order = list(moves)
    rng.shuffle(order)
    for move in order[:SAFETY_TRIES]:
        after = tactics.after(node, move)
        needed = 1 if careful else after.pyramids(node.player)
        if after.ended or not tactics.search.pyramid_threatened(
                after.board, after.player, after.mine, after.theirs, needed=needed):
            return move
    return order[0]
