"""Grid taps through a trainer puzzle of a board game (the L-game, Rithmomachia): the
"Tap the board" path that makes an answer, for tests to press as a student taps."""

from __future__ import annotations

from collections import deque

from bot.store.puzzle_rows import PuzzleAttempt
from engines.base import GRID_TOKEN, Action, GameError
from engines.puzzles import Puzzle
from tests.helpers.puzzle_trainer import presses, right_action, wrong_action

MOST_TOKENS = 10  # a grid path's bound (``engines.rithmomachia.grid``)


def grid_tokens(puzzle: Puzzle, action: Action) -> tuple[str, ...]:
    """The shortest grid path (``G`` and its taps) that makes ``action``. Paths that lead
    to the same step (the same cells, labels and moves) are walked once, so the taps of
    an L in any order and the level switches stay a small search."""
    state = puzzle.position()
    seen: set[tuple[tuple[str, str, str | None], ...]] = set()
    waiting: deque[tuple[str, ...]] = deque([(GRID_TOKEN,)])
    while waiting:
        path = waiting.popleft()
        try:
            choices = state.menu(puzzle.seat, path)
        except GameError:
            continue  # a tap the grid refuses, with its reason
        step = tuple((choice.token, str(choice.label), choice.action) for choice in choices)
        if step in seen:
            continue
        seen.add(step)
        for choice in choices:
            if choice.action == action:
                return (*path, choice.token)
            if choice.action is None and len(path) + 1 < MOST_TOKENS:
                waiting.append((*path, choice.token))
    raise AssertionError(f"{action} cannot be tapped on the grid")


def refused_tap(puzzle: Puzzle) -> str | None:
    """A first tap the grid refuses (a square no L could use), or None."""
    state = puzzle.position()
    for choice in state.menu(puzzle.seat, (GRID_TOKEN,)):
        if choice.action is None:
            try:
                state.menu(puzzle.seat, (GRID_TOKEN, choice.token))
            except GameError:
                return choice.token
    return None


def grid_presses(attempt: PuzzleAttempt, right: bool, step: str = "a") -> list[str]:
    """The data of each button a student presses to answer by taps: the grid's own
    button ("Tap the board"), then each tap."""
    puzzle = Puzzle.from_dict(attempt.puzzle)
    action = right_action(puzzle) if right else wrong_action(puzzle)
    return presses(attempt.id, step, grid_tokens(puzzle, action))
