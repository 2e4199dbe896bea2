"""The defender's replies in a win in two, answered from their steps where that settles
them (``QuickReplies``, for ``Tactics.defence`` in ``puzzle_tactics``): most replies then
cost a few look-ups instead of being played and checked for every win of the attacker."""

from __future__ import annotations

from collections.abc import Sequence

from engines.rithmomachia.board import EMPTY, PYRAMID, REACH_MASK, SHAPE_OF
from engines.rithmomachia.equations import Rules, iter_cells
from engines.rithmomachia.puzzle_positions import (
    Node,
    StepCaptures,
    cells_of,
    is_legal,
    takes_pyramids,
)


class QuickReplies(StepCaptures):
    """The defender's replies at ``node`` (its Pyramids on ``pyramids``), answered from
    their steps where that settles them (``win_after``), the same answers
    ``Tactics._after_reply`` works out in full.

    What a reply captures comes from ``StepCaptures``, each push's from its step's.

    Whether an attacker's remembered win takes every Pyramid (``takes_pyramids``)
    depends only on the cells the win moves through, the Pyramids, and the attacker's
    pieces where they may help (next to a Pyramid, ``_taken``). A reply that moves no
    Pyramid but the mover of a push (of a piece that is no Pyramid) and touches none of
    the win's cells leaves that answer what it is after the step with the pushed piece
    off the board, or before the reply for a step of another piece: so it is worked out
    once per step and win, and again only without the helpers the reply captures. An
    enemy piece pushed where it may help only adds captures, so it matters only to a win
    that falls short without it. Whether the victories are then certain follows from
    the material the reply's captures leave (``_certain``).

    Every other case (a reply moving a Pyramid otherwise, touching the win's cells,
    taking the attacker's last Pyramid, an enemy piece landing where it may help a win
    that falls short, victories that need the whole position, no remembered win that
    wins) is left to ``Tactics._after_reply``."""

    def __init__(self, rules: Rules, node: Node, pyramids: int) -> None:
        super().__init__(rules, node)
        self.pyramids = pyramids      # the defender's (the side to move at ``node``)
        # (step or -1, win), as ``win_after`` numbers them -> (whether it takes every
        # Pyramid, where a helper may stand: ``_taken``)
        self.taken: dict[int, tuple[bool, int]] = {}
        # the same and the helpers captured -> whether it takes them all without those
        self.recounted: dict[int, bool] = {}
        self.certains: dict[int, bool] = {}  # what a reply captures -> ``_certain`` is True
        self.hints: dict[int, tuple[int, bool]] = {}  # win -> (its cells, whether legal)
        self.passed = Node(node.board, 1 - node.player, node.theirs, node.mine,
                           node.material)
        # The Pyramids' value, the same wherever a reply moves them.
        self.value = sum((node.board[cell] - 1) & 15 for cell in iter_cells(pyramids))
        self.certain = self._certain(0, 0)  # after a reply that captures nothing

    def win_after(self, reply: int, hints: Sequence[int], captured: int) -> int | None:
        """The first of ``hints`` that wins at once after ``reply``, which captures
        ``captured``, when the reply's steps settle it (the class's note); None when they
        do not, or none wins."""
        node, board = self.node, self.node.board
        source, dest, push = reply & 63, (reply >> 6) & 63, (reply >> 12) - 1
        changed = captured | 1 << source | 1 << dest
        landed = 0  # an enemy piece pushed, which may help a win where it lands
        if push >= 0:
            pushed = board[dest]
            if (pushed - 1) & 15 in (0, 15):
                return None
            key = reply & 4095
            pyramids = self.pyramids & ~(1 << source) | 1 << dest
            changed |= 1 << push
            if (pushed - 1) >> 4 != node.player:
                landed = 1 << push
        elif self.pyramids >> source & 1:
            return None
        else:
            key, pyramids = -1, self.pyramids
        for hint in hints:
            facts = self.hints.get(hint)
            if facts is None:
                facts = self.hints[hint] = (cells_of(hint), is_legal(self.passed, hint))
            if facts[0] & changed:
                return None
            if not facts[1]:
                continue
            both = (key + 1) << 19 | hint  # (step or -1, win) as one number; a win < 2**19
            known = self.taken.get(both)
            if known is None:
                known = self.taken[both] = self._taken(key, hint, pyramids)
            takes, helping = known
            lost = captured & helping
            if lost:
                # Pieces that may help it were captured: asked again without them.
                again = self.recounted.get(lost << 32 | both)
                if again is None:
                    again = self.recounted[lost << 32 | both] = self._takes(key, hint,
                                                                             pyramids, lost)
                takes = again
            if not takes:
                if landed & helping:
                    return None
                continue
            # An enemy piece landing where it may help adds captures, never takes one.
            if not captured:
                return hint if self.certain else None
            # The victories after it depend on what is captured, read on the board but
            # for a pushed piece captured where it lands.
            which = captured
            if push >= 0 and captured >> push & 1:
                which |= board[dest] << 64
            certain = self.certains.get(which)
            if certain is None:
                certain = self.certains[which] = self._certain(captured, reply) is True
            return hint if certain else None
        return None

    def _taken(self, step: int, win: int, pyramids: int) -> tuple[bool, int]:
        """Whether ``win`` takes every Pyramid of the defender (on ``pyramids``) after
        the ``step`` of a push, the pushed piece off the board, or before the reply
        (``step`` -1); and the cells where an attacker's piece may help it take one (next
        to a Pyramid, and in the mover's reach when the Pyramid is not: a helper of
        compiling or filtering), a Pyramid the win pushes counted where it may land."""
        board = self.node.board
        source, dest, push = win & 63, (win >> 6) & 63, (win >> 12) - 1
        reach = REACH_MASK[SHAPE_OF[(board[source] - 1) & 15]][dest]
        helping = 0
        for cell in iter_cells(pyramids | (1 << push if push >= 0 else 0)):
            near = REACH_MASK[PYRAMID][cell]
            helping |= near if reach >> cell & 1 else near & reach
        return self._takes(step, win, pyramids), helping

    def _takes(self, step: int, win: int, pyramids: int, lost: int = 0) -> bool:
        """``_taken``'s answer without the attacker's pieces on ``lost``."""
        node, board = self.node, self.node.board
        needed = node.material[3 * node.player]
        if step < 0:
            passed = self.passed
            if lost:
                passed = Node(board, passed.player, passed.mine & ~lost, passed.theirs,
                              passed.material)
            return takes_pyramids(self.rules, passed, win, pyramids, needed)
        source, dest = step & 63, step >> 6
        piece, pushed = board[source], board[dest]
        attacker = node.theirs & ~(1 << dest | lost)
        board[source], board[dest] = EMPTY, piece
        try:
            after = Node(board, 1 - node.player, attacker, node.mine & ~(1 << source),
                         node.material)
            return takes_pyramids(self.rules, after, win, pyramids, needed)
        finally:
            board[source], board[dest] = piece, pushed

    def _certain(self, captured: int, reply: int) -> bool | None:
        """``victories_certain`` for the attacker after ``reply``, which captures
        ``captured`` (a Pyramid removed, any other piece turned over to the defender, as
        ``take_captured`` does; a pushed piece captured where it lands); None when the
        reply takes the attacker's last Pyramid and ends the game."""
        node = self.node
        push = (reply >> 12) - 1
        if push >= 0 and captured >> push & 1:
            captured &= ~(1 << push)
            pushed = (node.board[(reply >> 6) & 63] - 1) & 15  # no Pyramid: turned over
            lost = turned = 1
            lost_value = turned_value = pushed
        else:
            lost = lost_value = turned = turned_value = 0
        material = node.material
        defender, attacker = 3 * node.player, 3 - 3 * node.player
        pyramids = material[attacker]
        for cell in iter_cells(captured):
            value = (node.board[cell] - 1) & 15
            lost += 1
            lost_value += value
            if value == 0 or value == 15:
                pyramids -= 1
            else:
                turned += 1
                turned_value += value
        if not pyramids:
            return None
        pieces = material[attacker + 1] - lost - (material[defender + 1] + turned
                                                  - material[defender])
        worth = material[attacker + 2] - lost_value - (material[defender + 2] + turned_value
                                                       - self.value)
        return (pieces > 0) - (pieces < 0) + (worth > 0) - (worth < 0) >= 0
