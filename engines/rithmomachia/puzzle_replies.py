"""The defender's replies in a win in two, answered from the Pyramid's step of a push rather
than one by one (``PushedPieces``, for ``Tactics.defence`` in ``puzzle_tactics``)."""

from __future__ import annotations

from collections.abc import Sequence

from engines.rithmomachia.board import EMPTY, PYRAMID, REACH_MASK, SHAPE_OF
from engines.rithmomachia.equations import Rules, captures
from engines.rithmomachia.puzzle_positions import (
    Node,
    cells_of,
    is_legal,
    pyramids_taken,
    victories_certain,
)


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

    def __init__(self, rules: Rules, node: Node, pyramids: int) -> None:
        self.rules = rules
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
            if cells_of(hint) & changed:
                return None
            legal = self.legal.get(hint)
            if legal is None:
                legal = self.legal[hint] = is_legal(self.passed, hint)
            if not legal:
                continue
            taken = self.taken.get((step, hint))
            if taken is None:
                taken = self.taken[step, hint] = self._taken(source, dest, hint, pyramids)
            if taken < node.material[3 * node.player]:
                continue
            if self.certain is None:
                self.certain = victories_certain(self.passed, self.pyramids)
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
        rules = self.rules
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
            captured = captures(board, mine, theirs, dest, self.rules)
        finally:
            board[source], board[dest] = piece, pushed
        return captured, self.pyramids & ~(1 << source) | 1 << dest

    def _helps_capture(self, mover: int, dest: int, pushed: int, cell: int) -> bool:
        """Whether the ``pushed`` piece, landing on ``cell`` next to the Pyramid
        ``mover`` that stepped to ``dest``, adds a capture: as the helper an enemy piece
        next to both needs (compiling), or as the piece the Pyramid reaches that reaches
        the enemy piece (filtering; the Pyramid reaches every neighbour)."""
        node, board, rules = self.node, self.node.board, self.rules
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
            return pyramids_taken(self.rules, after, win, pyramids)
        finally:
            board[source], board[dest] = piece, pushed
