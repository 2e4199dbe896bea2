"""Short, exact tactics of Boolean Rithmomachia for its puzzles: captures, wins at once and
wins in two moves, worked out with the rules' capture finder (``captures``) and the
computer player's search primitives (``engines.rithmomachia.agents.Search``: ``gain``, the
position after a move ``child``, and ``reachable``, where a move must end to capture). The
seed-driven games that lead to a puzzle's position are ``puzzle_playouts``.

A win at once takes every Pyramid left, so it is looked for only among the moves that
end where each of them can be taken, and with the capture rules asked about the Pyramids
alone (``puzzle_positions.takes_pyramids``, which also holds the position, ``Node``); a
win in two is checked against every reply, the likeliest defences first (``Memory``: what
held against the position's other moves), each reply answered from its step where that
settles it (``puzzle_replies``), else played on the board in place and taken back rather
than on a copy. The order of the work never changes a result, only its cost: a few
thousand capture checks for a typical win in two, which is this module's heaviest
question (``benchmarks/puzzles.py`` times it).

Why a win is only a capture of the last Pyramids here: the puzzles are played with push on
(both of the bot's presets), and with push on a side that still has a Pyramid always has a
move (a Pyramid may step onto any neighbour, the cell it leaves taking the pushed piece),
so "no legal move" cannot end a puzzle's line; a puzzle's position starts with a fresh
history and ply count, so neither repetition nor the move limit can end a line of three
moves. What remains is a side without Pyramids, and then the three victories decide. The
tests check every answer again with the game's own ``apply`` and ``outcome``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain

from engines.rithmomachia.agents import (
    AROUND,
    Search,
    take_captured,
)
from engines.rithmomachia.board import EMPTY, PYRAMID, REACH, REACH_MASK, SHAPE_OF
from engines.rithmomachia.equations import Rules, iter_cells
from engines.rithmomachia.moves import generate_moves
from engines.rithmomachia.puzzle_positions import (
    Node,
    cells_of,
    enemy_pyramids,
    is_legal,
    next_to,
    pyramid_cells,
    takes_pyramids,
    victories_certain,
)
from engines.rithmomachia.puzzle_replies import QuickReplies

# A search with no clock and no node limit: puzzles must be the same on any machine.
PLIES_LEFT = 200


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

    def after(self, node: Node, move: int, captured: int | None = None) -> Node:
        """The position after ``move`` and its captures (``captured`` when the caller
        knows them), the other side to move."""
        if captured is None:
            captured = self.search.gain(node.board, node.mine, node.theirs, move,
                                        node.player)[0]
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
        return self.can_take_pyramids(node, node.pyramids(1 - node.player))

    def wins_now(self, node: Node, moves: Sequence[int] | None = None) -> list[int]:
        """Every move that ends the game with the side to move winning."""
        if not self.can_take_all_pyramids(node):
            return []
        return [move for move in (self.moves(node) if moves is None else moves)
                if self._wins(node, move)]

    def _wins(self, node: Node, move: int, pyramids: int | None = None) -> bool:
        """Whether ``move`` takes every Pyramid of the other side (their cells
        ``pyramids``) and the victories then go the mover's way."""
        if pyramids is None:
            pyramids = enemy_pyramids(node)
        if not takes_pyramids(self.rules, node, move, pyramids, node.pyramids(1 - node.player)):
            return False
        if victories_certain(node, pyramids):
            return True
        after = self.after(node, move)
        return after.ended and after.result_for(node.player) == 1

    def a_win_now(self, node: Node, hints: Iterable[int] = (), pyramids: int | None = None
                  ) -> int | None:
        """One move that wins at once, the ``hints`` (moves that won in similar positions)
        tried first; None when there is none. ``pyramids``: the other side's Pyramids'
        cells, when the caller knows them."""
        if pyramids is None:
            pyramids = enemy_pyramids(node)
        for hint in hints:
            if is_legal(node, hint) and self._wins(node, hint, pyramids):
                return hint
        for move in self._pyramid_takers(node, pyramids, node.pyramids(1 - node.player)):
            if self._wins(node, move, pyramids):
                return move
        return None

    def can_take_pyramids(self, node: Node, needed: int) -> bool:
        """Whether the side to move has a move that takes ``needed`` of the other side's
        Pyramids at once (what ``Search.pyramid_threatened`` answers, on the Pyramids
        alone and among fewer moves)."""
        pyramids = enemy_pyramids(node)
        return any(takes_pyramids(self.rules, node, move, pyramids, needed)
                   for move in self._pyramid_takers(node, pyramids, needed))

    def _reachable(self, node: Node, targets: int) -> tuple[int, int]:
        """``Search.reachable`` for the side to move against a few ``targets``: where a move
        must end to capture one of them, and where a push must end. The own pieces that
        reach a target stand next to it, so only those are looked at."""
        return self.search.reachable(node.board, node.mine & next_to(targets), targets)

    def _pyramid_takers(self, node: Node, pyramids: int, needed: int) -> Iterator[int]:
        """The side to move's moves that may take ``needed`` of the Pyramids on
        ``pyramids``; every move that does is among them. As ``Search.pyramid_threatened``
        bounds them: moves ending next to a Pyramid or next to an own piece that reaches
        one, and pushes within two steps of one (the pushed piece may then be the helper,
        or the Pyramid itself); when every Pyramid must fall, only where each can."""
        board = node.board
        if needed >= pyramids.bit_count():
            close = far = -1
            for cell in iter_cells(pyramids):
                near, further = self._reachable(node, 1 << cell)
                close &= near
                far &= further
        else:
            close, far = self._reachable(node, pyramids)
        occupied = node.mine | node.theirs
        for source in iter_cells(node.mine):
            shape = SHAPE_OF[(board[source] - 1) & 15]
            reach = REACH_MASK[shape][source]
            for dest in iter_cells(reach & close & ~occupied):
                yield source | dest << 6
            if shape != PYRAMID:
                continue
            for dest in iter_cells(reach & occupied & far):
                pushes = [source | dest << 6 | (target + 1) << 12
                          for target in REACH[PYRAMID][dest]
                          if target == source or not board[target]]
                occupant = board[dest]
                if (occupant - 1) >> 4 != node.player:
                    if ((occupant - 1) & 15 not in (0, 15)
                            and not takes_pyramids(self.rules, node, pushes[0], pyramids,
                                                   needed)):
                        # Pushing an enemy piece that is no Pyramid, it can be neither
                        # helper nor target of a Pyramid's capture: where it goes
                        # changes nothing.
                        continue
                    yield from pushes
                    continue
                # Pushing an own piece, it may help only where it lands next to a
                # Pyramid (``next_to``); wherever else it lands, the Pyramids taken
                # are the same, so one of those pushes answers for all.
                helping = next_to(pyramids)
                elsewhere: bool | None = None
                for push in pushes:
                    if not helping >> ((push >> 12) - 1) & 1:
                        if elsewhere is None:
                            elsewhere = takes_pyramids(self.rules, node, push, pyramids,
                                                       needed)
                        if not elsewhere:
                            continue
                    yield push

    def defence(self, node: Node, attacker: int, memory: Memory) -> int | None:
        """A reply of the side to move (the defender) after which ``attacker`` cannot win
        at once and the game has not ended in the attacker's favour; None when every
        reply loses. Replies that defended in ``memory`` are tried first; the attacker's
        wins met on the way are remembered, tried first in the next position."""
        remembered = [r for r in memory.defences if is_legal(node, r)]
        pyramids = pyramid_cells(node.board, node.mine)
        quick = QuickReplies(self.rules, node, pyramids)
        for reply in chain(remembered, self._replies_by_promise(node)):
            captured = quick.captures(reply)
            win = quick.win_after(reply, memory.wins, captured)
            if win is not None:
                if win != memory.wins[0]:  # the usual case: the first remembered win again
                    memory.remember_win(win)
                continue
            ended, win = self._after_reply(node, reply, pyramids, memory.wins, captured)
            if ended:
                if win != attacker:
                    memory.remember_defence(reply)
                    return reply
                continue
            if win is None:
                memory.remember_defence(reply)
                return reply
            memory.remember_win(win)
        return None

    def _after_reply(self, node: Node, reply: int, pyramids: int, hints: Iterable[int],
                     captured: int) -> tuple[bool, int | None]:
        """What follows the defender's ``reply`` at ``node`` (the defender's Pyramids on
        ``pyramids``): (True, the winner or None for a draw) when it ends the game, else
        (False, ``a_win_now`` of the attacker after it, the ``hints`` tried first).
        ``captured``: what the reply captures (``QuickReplies.captures``).

        Worked out on ``node``'s board in place and restored, as ``Search.gain`` does,
        instead of on a copy (``after``): a win in two asks this of every reply to every
        winning move, and the copy was most of the cost. The changes are ``child``'s: the
        move, a push, and each piece captured removed (a Pyramid) or turned over."""
        board = node.board
        player = node.player
        source, dest, push = reply & 63, (reply >> 6) & 63, (reply >> 12) - 1
        piece, occupant = board[source], board[dest]
        defender = node.mine & ~(1 << source) | 1 << dest
        attacker = node.theirs
        # The Pyramids that move: the one moving, and the one pushed (the push may swap
        # the two, ending where the mover started).
        moved = pyramids & (1 << source | 1 << dest)
        pyramids ^= moved
        if moved >> source & 1:
            pyramids |= 1 << dest
        board[source] = EMPTY
        saved = EMPTY
        if push >= 0:
            saved = board[push]
            board[push] = occupant
            if (occupant - 1) >> 4 == player:
                defender |= 1 << push
                if moved >> dest & 1:
                    pyramids |= 1 << push
            else:
                attacker = attacker & ~(1 << dest) | 1 << push
        board[dest] = piece
        taken: list[tuple[int, int]] = []
        try:
            material = node.material
            if captured:
                attacker &= ~captured
                material, turned = take_captured(board, captured, player, material, taken)
                defender |= turned
            after = Node(board, 1 - player, attacker, defender, material)
            if after.ended:
                result = after.result_for(player)
                return True, None if result == 0 else player if result == 1 else 1 - player
            return False, self.a_win_now(after, hints, pyramids)
        finally:
            for cell, code in taken:
                board[cell] = code
            board[dest] = occupant
            if push >= 0:
                board[push] = saved
            board[source] = piece

    def _replies_by_promise(self, node: Node) -> Iterator[int]:
        """The defender's replies, the likeliest defences first: its Pyramids' pushes
        (a threatened Pyramid stepping away while it moves a piece of the attack), then
        its Pyramids' other moves, then moves onto or next to the cells of the
        attacker's threat (its winning move if the defender passed), then the rest. A
        defence is nearly always among the first, so it is found after a few replies
        instead of scores; the order never changes whether one is found."""
        replies = self.moves(node)
        board = node.board
        pyramid = [r for r in replies if (board[r & 63] - 1) & 15 in (0, 15)]
        yield from (r for r in pyramid if r >> 12)
        yield from (r for r in pyramid if not r >> 12)
        quiet = [r for r in replies if (board[r & 63] - 1) & 15 not in (0, 15)]
        passed = Node(board, 1 - node.player, node.theirs, node.mine, node.material)
        threat = self.a_win_now(passed)
        if threat is None:
            yield from quiet
            return
        near = 0
        for cell in iter_cells(cells_of(threat)):
            near |= AROUND[cell]
        yield from (reply for reply in quiet if near & cells_of(reply))
        yield from (reply for reply in quiet if not near & cells_of(reply))

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
        # The line shown: the first reply that does not end the game (one that does
        # ended it in the mover's favour), and the win after it.
        replies = self.moves(after)
        for reply in replies:
            reply_after = self.after(after, reply)
            if not reply_after.ended:
                win = self.a_win_now(reply_after, memory.wins)
                assert win is not None
                return True, [move, reply, win]
        return True, [move, replies[0]]


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
    if moves and moves[0] == move:
        return  # the usual case: the same win again
    if move in moves:
        moves.remove(move)
    moves.insert(0, move)
    del moves[kept:]
