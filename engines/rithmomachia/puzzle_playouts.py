"""The seed-driven games of a plausible beginner of Boolean Rithmomachia that lead to a
puzzle's position (``playout``), played with the puzzles' exact tactics
(``engines/rithmomachia/puzzle_tactics.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from enum import Enum

from engines.rithmomachia.puzzle_positions import Node, StepCaptures
from engines.rithmomachia.puzzle_tactics import Tactics

# How often a side takes its biggest capture when it has one, and how many random moves
# it tries for one that keeps its Pyramids safe (``_playout_move``).
GREEDY = 0.5
SAFETY_TRIES = 6


class Style(Enum):
    """How the beginner of a playout plays (``playout``).

    * ``CAREFUL`` tries ``SAFETY_TRIES`` random moves for one that keeps each of its
      Pyramids safe, so games last (capture puzzles);
    * ``CARELESS`` keeps only all its Pyramids from being taken at once, trying as many
      moves, so games end soon, often with a win at once missed (victory in one);
    * ``STUBBORN`` takes a win at once when it has one, its biggest capture only when it
      is safe, and looks at all its moves for a safe one, so a game ends only when the
      loser could not hold: the winner's move two moves before the end is then often a
      win in two (victory in two).
    """

    CAREFUL = "careful"
    CARELESS = "careless"
    STUBBORN = "stubborn"


def playout(tactics: Tactics, start: Node, rng: random.Random, limit: int, style: Style,
            played: list[int] | None = None) -> Iterator[Node]:
    """The positions of a game played from ``start`` by a plausible beginner of
    ``style``, ``start`` first, until a side has no Pyramid or ``limit`` moves were
    made; ``played``, when given, collects the moves (the one from each position but
    the last)."""
    node = start
    yield node
    for _ in range(limit):
        if node.ended:
            return
        move = _playout_move(tactics, node, rng, style)
        if played is not None:
            played.append(move)
        node = tactics.after(node, move)
        yield node


def _playout_move(tactics: Tactics, node: Node, rng: random.Random, style: Style) -> int:
    """The biggest capture (by the search's worth) on a share ``GREEDY`` of the moves
    that have one; otherwise a random safe move, or the first tried when none is safe
    (``Style`` says what is safe and what else the player does)."""
    if style is Style.STUBBORN:
        win = tactics.a_win_now(node)
        if win is not None:
            return win
    moves = tactics.moves(node)
    # The pushes of one Pyramid's step share its captures (``StepCaptures``).
    steps = StepCaptures(tactics.rules, node)
    if rng.random() < GREEDY:
        # Only a move that ends near an enemy piece can capture (``Search.reachable``,
        # as the computer player's move ordering uses it); the others are worth 0.
        close, far = tactics.search.reachable(node.board, node.mine, node.theirs)
        far &= node.mine
        worth = [steps.worth(move)
                 if close >> ((move >> 6) & 63) & 1 or (move >> 12 and far >> ((move >> 6) & 63)
                                                         & 1) else 0
                 for move in moves]
        best = max(worth)
        if best:
            greedy = rng.choice([m for m, w in zip(moves, worth, strict=True) if w == best])
            if style is not Style.STUBBORN or _safe(tactics, steps, greedy, style):
                return greedy
    order = list(moves)
    rng.shuffle(order)
    for move in order if style is Style.STUBBORN else order[:SAFETY_TRIES]:
        if _safe(tactics, steps, move, style):
            return move
    return order[0]


def _safe(tactics: Tactics, steps: StepCaptures, move: int, style: Style) -> bool:
    """Whether after ``move`` (at ``steps.node``) the opponent cannot take a Pyramid of
    the mover (``CAREFUL``), or all of them (the others), or the move ends the game."""
    node = steps.node
    after = tactics.after(node, move, steps.captures(move))
    needed = 1 if style is Style.CAREFUL else after.pyramids(node.player)
    return after.ended or not tactics.can_take_pyramids(after, needed)
