"""Short, exact tactics of Boolean Rithmomachia for its puzzles: captures, wins at once and
wins in two moves, worked out with the rules' capture finder (``captures``) and the
computer player's search primitives (``engines.rithmomachia.agents.Search``: ``gain``, the
position after a move ``child``, and ``reachable``, where a move must end to capture). The
seed-driven games that lead to a puzzle's position are ``puzzle_playouts``.

A win at once takes every Pyramid left, so it is looked for only among the moves that
end where each of them can be taken, and with the capture finder asked about the
Pyramids alone (and only the own pieces next to them as helpers); a win in two is checked
against every reply, the likeliest defences first (``Memory``: what held against the
position's other moves), each reply played on the board in place and taken back rather
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
from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from engines.rithmomachia.agents import (
    AROUND,
    Material,
    Search,
    final_score,
    material,
    take_captured,
)
from engines.rithmomachia.board import EMPTY, PYRAMID, REACH, REACH_MASK, SHAPE_OF
from engines.rithmomachia.equations import Rules, captures, iter_cells, occupancy
from engines.rithmomachia.moves import generate_moves

# A search with no clock and no node limit: puzzles must be the same on any machine.
PLIES_LEFT = 200


class Node(NamedTuple):
    """A position during play: the board, the side to move, the occupancy masks of the
    side to move and of the other side, and both sides' material. A named tuple, as
    cheap to make as a tuple: a win in two makes one for every reply it checks."""

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


def enemy_pyramids(node: Node) -> int:
    """The cells of the Pyramids of the side not to move, as a mask."""
    return pyramid_cells(node.board, node.theirs)


def pyramid_cells(board: list[int], pieces: int) -> int:
    """The cells of the Pyramids among ``pieces`` (a mask), as a mask."""
    pyramids = 0
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        if (board[low.bit_length() - 1] - 1) & 15 in (0, 15):
            pyramids |= low
    return pyramids


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
        if self._pyramids_taken(node, move, pyramids) < node.pyramids(1 - node.player):
            return False
        if self._victories_certain(node, pyramids):
            return True
        after = self.after(node, move)
        return after.ended and after.result_for(node.player) == 1

    @staticmethod
    def _victories_certain(node: Node, pyramids: int) -> bool:
        """Whether taking the other side's every Pyramid (their cells ``pyramids``) wins
        whatever else the move takes. The Pyramid victory is the mover's then, and each
        other piece taken changes sides, which only adds to the mover's pieces and value:
        so when the pieces and value left after the Pyramids alone are taken give the
        mover one of the two other victories or a tie in both, the game is theirs."""
        mine, theirs = 3 * node.player, 3 - 3 * node.player
        material, board = node.material, node.board
        value_taken = 0
        while pyramids:
            low = pyramids & -pyramids
            pyramids ^= low
            value_taken += (board[low.bit_length() - 1] - 1) & 15
        pieces = material[mine + 1] - (material[theirs + 1] - material[theirs])
        value = material[mine + 2] - (material[theirs + 2] - value_taken)
        return (pieces > 0) - (pieces < 0) + (value > 0) - (value < 0) >= 0

    def _pyramids_taken(self, node: Node, move: int, pyramids: int) -> int:
        """How many of the other side's Pyramids ``move`` captures: the rules of
        ``captures`` asked about the Pyramids alone, one by one, which they may be, since
        whether a piece is captured depends on the piece that moved, its helper and the
        target, never on the other targets. A Pyramid in the mover's reach is taken by
        NOT, or with an own piece next to it that reaches it (compiling); one out of it,
        with an own piece in the mover's reach that reaches it (filtering); a helper's
        value and the Pyramid's must make the equation (``Rules.targets``). Read from the
        board as it is, with the cells the move changes looked up as after it: the mover
        on ``dest``, ``source`` empty, a pushed piece on the push cell."""
        board = node.board
        source, dest, push = move & 63, (move >> 6) & 63, (move >> 12) - 1
        mover, occupant = (board[source] - 1) & 15, board[dest]
        helpers = node.mine & ~(1 << source | 1 << dest)
        if push >= 0:
            if (occupant - 1) >> 4 == node.player:
                helpers |= 1 << push
            elif pyramids >> dest & 1:
                pyramids = pyramids & ~(1 << dest) | 1 << push
        reach = REACH_MASK[SHAPE_OF[mover]][dest]
        targets = self.rules.targets[mover]
        not_value = mover ^ 15 if self.rules.not_on else -1
        pushed = (occupant - 1) & 15
        taken = 0
        while pyramids:
            low = pyramids & -pyramids
            pyramids ^= low
            cell = low.bit_length() - 1
            value = pushed if cell == push else (board[cell] - 1) & 15
            if reach & low:
                if value == not_value:
                    taken += 1
                    continue
                ys = helpers & REACH_MASK[PYRAMID][cell]
            else:
                ys = helpers & REACH_MASK[PYRAMID][cell] & reach
            while ys:
                ylow = ys & -ys
                ys ^= ylow
                helper = ylow.bit_length() - 1
                helper_value = pushed if helper == push else (board[helper] - 1) & 15
                if (targets[helper_value] >> value & 1
                        and REACH_MASK[SHAPE_OF[helper_value]][helper] & low):
                    taken += 1
                    break
        return taken

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

    def a_win_now(self, node: Node, hints: Iterable[int] = (), pyramids: int | None = None
                  ) -> int | None:
        """One move that wins at once, the ``hints`` (moves that won in similar positions)
        tried first; None when there is none. ``pyramids``: the other side's Pyramids'
        cells, when the caller knows them."""
        if pyramids is None:
            pyramids = enemy_pyramids(node)
        for hint in hints:
            if self.is_legal(node, hint) and self._wins(node, hint, pyramids):
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
        return any(self._pyramids_taken(node, move, pyramids) >= needed
                   for move in self._pyramid_takers(node, pyramids, needed))

    def _reachable(self, node: Node, targets: int) -> tuple[int, int]:
        """``Search.reachable`` for the side to move against a few ``targets``: where a move
        must end to capture one of them, and where a push must end. The own pieces that
        reach a target stand next to it, so only those are looked at."""
        return self.search.reachable(node.board, node.mine & _next_to(targets), targets)

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
                            and self._pyramids_taken(node, pushes[0], pyramids) < needed):
                        # Pushing an enemy piece that is no Pyramid, it can be neither
                        # helper nor target of a Pyramid's capture: where it goes
                        # changes nothing.
                        continue
                    yield from pushes
                    continue
                # Pushing an own piece, it may help only where it lands next to a
                # Pyramid (``_next_to``); wherever else it lands, the Pyramids taken
                # are the same, so one of those pushes answers for all.
                helping = _next_to(pyramids)
                elsewhere: bool | None = None
                for push in pushes:
                    if not helping >> ((push >> 12) - 1) & 1:
                        if elsewhere is None:
                            elsewhere = self._pyramids_taken(node, push, pyramids) >= needed
                        if not elsewhere:
                            continue
                    yield push

    def defence(self, node: Node, attacker: int, memory: Memory) -> int | None:
        """A reply of the side to move (the defender) after which ``attacker`` cannot win
        at once and the game has not ended in the attacker's favour; None when every
        reply loses. Replies that defended in ``memory`` are tried first; the attacker's
        wins met on the way are remembered, tried first in the next position."""
        remembered = [r for r in memory.defences if self.is_legal(node, r)]
        pyramids = pyramid_cells(node.board, node.mine)
        pushes = PushedPieces(self, node, pyramids)
        for reply in chain(remembered, self._replies_by_promise(node)):
            win = pushes.win_after(reply, memory.wins) if reply >> 12 else None
            if win is not None:
                memory.remember_win(win)
                continue
            ended, win = self._after_reply(node, reply, pyramids, memory.wins,
                                           pushes.captures(reply) if reply >> 12 else None)
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
                     captured: int | None = None) -> tuple[bool, int | None]:
        """What follows the defender's ``reply`` at ``node`` (the defender's Pyramids on
        ``pyramids``): (True, the winner or None for a draw) when it ends the game, else
        (False, ``a_win_now`` of the attacker after it, the ``hints`` tried first).
        ``captured``: what the reply captures, when the caller knows it.

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
            if captured is None:
                captured = captures(board, defender, attacker, dest, self.rules)
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


@lru_cache(maxsize=4096)
def _next_to(cells: int) -> int:
    """The cells a step away from any of ``cells`` (a mask). Reach is symmetric and a
    Pyramid's steps hold every shape's, so a piece that helps capture a piece on one of
    ``cells`` (reaching it, or reached by the capturer and reaching it) stands there:
    ``captures`` told only the own pieces there answers the same for those targets."""
    near = 0
    while cells:
        low = cells & -cells
        cells ^= low
        near |= REACH_MASK[PYRAMID][low.bit_length() - 1]
    return near


class PushedPieces:
    """The defender's pushes, answered by the Pyramid's step (its source and
    destination) rather than one by one: a Pyramid pushing a piece has a push for nearly
    every cell around, and the pushes of one step differ only in where the pushed piece
    lands. What a push captures (``captures``) is what the step captures without the
    pushed piece, plus what that piece adds where it lands: an own piece the targets it
    helps to capture, an enemy piece itself when it lands where it is captured. For the
    pushes of own pieces that are no Pyramid, what the attacker's remembered wins take
    depends on neither (a win's captures read only the Pyramids, the attacker's own
    pieces and the cells the win moves through). So each step is worked out once, and
    each push costs a few look-ups.

    ``win_after`` answers only when that settles it: the first remembered win that wins
    after a push that captures nothing; every other case (a capture, a win through the
    cells the push changes, victories that need the whole position) is left to
    ``Tactics._after_reply``, which works the same answer out in full."""

    def __init__(self, tactics: Tactics, node: Node, pyramids: int) -> None:
        self.tactics = tactics
        self.node = node
        self.pyramids = pyramids      # the defender's (the side to move at ``node``)
        self.steps: dict[int, tuple[int, int]] = {}   # step -> (captures, Pyramids)
        self.taken: dict[tuple[int, int], int] = {}   # (step, win) -> Pyramids it takes
        self.legal: dict[int, bool] = {}
        self.passed = Node(node.board, 1 - node.player, node.theirs, node.mine,
                           node.material)
        self.certain: bool | None = None

    def win_after(self, reply: int, hints: Sequence[int]) -> int | None:
        node, board = self.node, self.node.board
        source, dest, push = reply & 63, (reply >> 6) & 63, (reply >> 12) - 1
        pushed = board[dest]
        if (pushed - 1) >> 4 != node.player or (pushed - 1) & 15 in (0, 15):
            return None
        step = reply & 4095
        known = self.steps.get(step)
        if known is None:
            known = self.steps[step] = self._step(source, dest)
        captured, pyramids = known
        if captured or self._helps_capture(board[source], dest, pushed, push):
            return None
        changed = 1 << source | 1 << dest | 1 << push
        for hint in hints:
            if _cells_of(hint) & changed:
                return None
            legal = self.legal.get(hint)
            if legal is None:
                legal = self.legal[hint] = self.tactics.is_legal(self.passed, hint)
            if not legal:
                continue
            taken = self.taken.get((step, hint))
            if taken is None:
                taken = self.taken[step, hint] = self._taken(source, dest, hint, pyramids)
            if taken < node.material[3 * node.player]:
                continue
            if self.certain is None:
                self.certain = self.tactics._victories_certain(self.passed, self.pyramids)
            return hint if self.certain else None
        return None

    def captures(self, reply: int) -> int:
        """What the push ``reply`` captures: ``captures`` on the board after it, from the
        step's captures without the pushed piece (``_step``). The mover is a Pyramid, which
        reaches every neighbour, the cell the pushed piece lands on too: so an own pushed
        piece adds each enemy piece it reaches whose value the Pyramid's value and its own
        capture (filtering, which holds whenever compiling does), and an enemy pushed piece
        adds itself when NOT captures it or an own piece next to it reaches it and
        captures it with the Pyramid (compiling). Other pieces' captures do not depend on
        where the pushed piece is: an enemy piece helps no capture, and capturing needs
        no empty cell."""
        node, board = self.node, self.node.board
        source, dest, push = reply & 63, (reply >> 6) & 63, (reply >> 12) - 1
        pushed = board[dest]
        step = reply & 4095
        known = self.steps.get(step)
        if known is None:
            known = self.steps[step] = self._step(source, dest)
        captured = known[0]
        rules = self.tactics.rules
        mover, value = (board[source] - 1) & 15, (pushed - 1) & 15
        if (pushed - 1) >> 4 == node.player:
            wanted = rules.targets[mover][value]
            if wanted:
                targets = REACH_MASK[SHAPE_OF[value]][push] & node.theirs & ~captured
                while targets:
                    low = targets & -targets
                    targets ^= low
                    if wanted >> ((board[low.bit_length() - 1] - 1) & 15) & 1:
                        captured |= low
            return captured
        if rules.not_on and value == mover ^ 15:
            return captured | 1 << push
        targets_of = rules.targets[mover]
        helpers = node.mine & ~(1 << source) & REACH_MASK[PYRAMID][push]
        while helpers:
            low = helpers & -helpers
            helpers ^= low
            cell = low.bit_length() - 1
            helper = (board[cell] - 1) & 15
            if targets_of[helper] >> value & 1 and REACH_MASK[SHAPE_OF[helper]][cell] >> push & 1:
                return captured | 1 << push
        return captured

    def _step(self, source: int, dest: int) -> tuple[int, int]:
        """What the Pyramid's step from ``source`` to ``dest`` captures with the pushed
        piece off the board (an own piece's cell kept the mover's, an enemy piece's taken
        off the targets), and the defender's Pyramids after it."""
        node, board = self.node, self.node.board
        piece, pushed = board[source], board[dest]
        board[source], board[dest] = EMPTY, piece
        mine, theirs = node.mine & ~(1 << source), node.theirs
        if (pushed - 1) >> 4 != node.player:
            mine, theirs = mine | 1 << dest, theirs & ~(1 << dest)
        try:
            captured = captures(board, mine, theirs, dest, self.tactics.rules)
        finally:
            board[source], board[dest] = piece, pushed
        return captured, self.pyramids & ~(1 << source) | 1 << dest

    def _helps_capture(self, mover: int, dest: int, pushed: int, cell: int) -> bool:
        """Whether the ``pushed`` piece, landing on ``cell`` next to the Pyramid
        ``mover`` that stepped to ``dest``, adds a capture: as the helper an enemy piece
        next to both needs (compiling), or as the piece the Pyramid reaches that reaches
        the enemy piece (filtering; the Pyramid reaches every neighbour)."""
        node, board, rules = self.node, self.node.board, self.tactics.rules
        value, mover_value = (pushed - 1) & 15, (mover - 1) & 15
        targets = REACH_MASK[SHAPE_OF[value]][cell] & node.theirs
        filtering, need = rules.targets[mover_value][value], rules.need[mover_value]
        reach = REACH_MASK[PYRAMID][dest]
        while targets:
            low = targets & -targets
            targets ^= low
            target_value = (board[low.bit_length() - 1] - 1) & 15
            if filtering >> target_value & 1 or (
                    reach & low and need[target_value] >> value & 1):
                return True
        return False

    def _taken(self, source: int, dest: int, win: int, pyramids: int) -> int:
        """How many of the defender's Pyramids ``win`` takes after the step, the pushed
        piece off the board (it is no Pyramid and not the attacker's: no capture of
        Pyramids reads it)."""
        node, board = self.node, self.node.board
        piece, pushed = board[source], board[dest]
        board[source], board[dest] = EMPTY, piece
        try:
            after = Node(board, 1 - node.player, node.theirs, node.mine & ~(1 << source),
                         node.material)
            return self.tactics._pyramids_taken(after, win, pyramids)
        finally:
            board[source], board[dest] = piece, pushed


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
    if moves and moves[0] == move:
        return  # the usual case: the same win again
    if move in moves:
        moves.remove(move)
    moves.insert(0, move)
    del moves[kept:]
