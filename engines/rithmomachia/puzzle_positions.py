"""A position of the puzzles' tactics (``Node``) and what one move does in it, read from
the board without playing the move: whether it is legal, whether it takes the other
side's Pyramids it needs to, whether taking them all wins, and what it captures, the
pushes of one Pyramid's step together (``StepCaptures``); for ``puzzle_tactics``,
``puzzle_replies`` and ``puzzle_playouts``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from engines.rithmomachia.agents import GAIN, Material, final_score, material
from engines.rithmomachia.board import EMPTY, PYRAMID, REACH_MASK, SHAPE_OF
from engines.rithmomachia.equations import Rules, captures, iter_cells, occupancy


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


def victories_certain(node: Node, pyramids: int) -> bool:
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


def takes_pyramids(rules: Rules, node: Node, move: int, pyramids: int, needed: int) -> bool:
    """Whether ``move`` captures ``needed`` of the other side's Pyramids (on
    ``pyramids``): the rules of ``captures`` asked about the Pyramids alone, one by one,
    which they may be, since whether a piece is captured depends on the piece that moved,
    its helper and the target, never on the other targets; the first Pyramid missed that
    leaves too few ends the count. A Pyramid in the mover's reach is taken by NOT, or
    with an own piece next to it that reaches it (compiling); one out of it, with an own
    piece in the mover's reach that reaches it (filtering); a helper's value and the
    Pyramid's must make the equation (``Rules.targets``). Read from the board as it is,
    with the cells the move changes looked up as after it: the mover on ``dest``,
    ``source`` empty, a pushed piece on the push cell."""
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
    targets = rules.targets[mover]
    not_value = mover ^ 15 if rules.not_on else -1
    pushed = (occupant - 1) & 15
    spare = pyramids.bit_count() - needed  # how many may still be missed
    if spare < 0:
        return False
    while pyramids:
        low = pyramids & -pyramids
        pyramids ^= low
        cell = low.bit_length() - 1
        value = pushed if cell == push else (board[cell] - 1) & 15
        if reach & low:
            if value == not_value:
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
                break
        else:
            spare -= 1
            if spare < 0:
                return False
    return True


def is_legal(node: Node, move: int) -> bool:
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


@lru_cache(maxsize=4096)
def next_to(cells: int) -> int:
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


def cells_of(move: int) -> int:
    """The cells a move touches, as a mask: its source, destination and push cell."""
    push = (move >> 12) - 1
    return 1 << (move & 63) | 1 << ((move >> 6) & 63) | (1 << push if push >= 0 else 0)


class StepCaptures:
    """What each move of the side to move at ``node`` captures (``captures``), and its
    worth to the computer player's search (``worth``, ``Search.gain``'s), a push's from
    its Pyramid's step's. What a push captures is what the step (its source and
    destination) captures without the pushed piece, plus what that piece adds where it
    lands: an own piece the targets it helps to capture, an enemy piece itself when it
    lands where it is captured. A Pyramid pushing a piece has a push for nearly every
    cell around, and the pushes of one step differ only in where the pushed piece lands,
    so each step's captures are worked out once."""

    def __init__(self, rules: Rules, node: Node) -> None:
        self.rules = rules
        self.node = node
        self.steps: dict[int, int] = {}  # step -> its captures without the pushed piece

    def captures(self, move: int) -> int:
        """What ``move`` captures: ``captures`` on the board after it; for a push, from
        the step's captures without the pushed piece (``_step``). The mover of a push is a
        Pyramid, which reaches every neighbour, the cell the pushed piece lands on too:
        so an own pushed piece adds each enemy piece it reaches whose value the Pyramid's
        value and its own capture (filtering, which holds whenever compiling does), and
        an enemy pushed piece adds itself when NOT captures it or an own piece next to it
        reaches it and captures it with the Pyramid (compiling). Other pieces' captures
        do not depend on where the pushed piece is: an enemy piece helps no capture, and
        capturing needs no empty cell."""
        node, board = self.node, self.node.board
        source, dest, push = move & 63, (move >> 6) & 63, (move >> 12) - 1
        if push < 0:
            piece = board[source]
            board[source], board[dest] = EMPTY, piece
            try:
                return captures(board, node.mine & ~(1 << source) | 1 << dest, node.theirs,
                                dest, self.rules)
            finally:
                board[source], board[dest] = piece, EMPTY
        pushed = board[dest]
        captured = self.steps.get(move & 4095)
        if captured is None:
            captured = self._step(move & 4095)
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

    def worth(self, move: int) -> int:
        """``Search.gain``'s worth of ``move``: the ``GAIN`` of each piece it captures, a
        pushed piece's where it lands."""
        board = self.node.board
        push = (move >> 12) - 1
        worth = 0
        for cell in iter_cells(self.captures(move)):
            code = board[(move >> 6) & 63] if cell == push else board[cell]
            worth += GAIN[(code - 1) & 15]
        return worth

    def _step(self, step: int) -> int:
        """What the Pyramid's ``step`` (a push's source and destination) captures with the
        pushed piece off the board (an own piece's cell kept the mover's, an enemy
        piece's taken off the targets), kept in ``steps``."""
        node, board = self.node, self.node.board
        source, dest = step & 63, step >> 6
        piece, pushed = board[source], board[dest]
        board[source], board[dest] = EMPTY, piece
        mine, theirs = node.mine & ~(1 << source), node.theirs
        if (pushed - 1) >> 4 != node.player:
            mine, theirs = mine | 1 << dest, theirs & ~(1 << dest)
        try:
            captured = captures(board, mine, theirs, dest, self.rules)
        finally:
            board[source], board[dest] = piece, pushed
        self.steps[step] = captured
        return captured
