"""First-game lessons (``/learn <game>``): short scripted games that teach one rule a step.

Pure content, like the engines it uses: each step is a position, what the learner is asked
to do there (the set of accepted actions), the texts that explain it, and optionally the
teacher's scripted answer. Texts are ``Message``s (a catalogue key, ``lesson.<game>.<n>…``,
and its English), so the bot shows them in the learner's language. The stepping itself
(buttons, checking a choice, moving on) lives in ``bot/learn/lessons.py``.

Each game's steps are in its own module (``engines/lessons/<game>.py``) and are built on
first use, since a position may take some engine work. Building also works out each step's
danger marks (issue 27: on in lessons), what the learner could lose next move in the step's
position (``engines.analysis.dangers``, the L-game's without its solved table), so that
drawing a page costs no analysis.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import TypeVar

from engines.analysis import dangers
from engines.base import JSON, Action, GameState, Message

State = TypeVar("State", bound=GameState)

# The games with a lesson, in the order a class meets them (the simplest first).
LESSON_GAMES = ("lgame", "booleo", "digitalo", "turing", "rithmomachia")


@dataclass(frozen=True)
class LessonStep:
    """One step: the learner (``seat``) is to move in ``position`` and should play one of
    ``accepted``; ``reply`` is the teacher's answer from the other seat, legal after every
    accepted action, or None when the step needs none (or the game is over)."""

    explain: Message  # what the step teaches and what to do
    hint: Message  # shown after a move that is legal but not what the step asks
    done: Message  # shown after an accepted move
    position: GameState
    accepted: frozenset[Action]
    reply: Action | None = None
    seat: int = 0
    # The danger marks of ``position`` for ``seat`` (``engines.analysis.dangers``), filled in
    # when the lesson is built: what its board's view carries as ``threats``.
    threats: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Lesson:
    game: str
    steps: tuple[LessonStep, ...]
    summary: Message  # the last page: what was learned and what to try next


def accepted_where(state: GameState, seat: int,
                   wanted: Callable[[Action], bool]) -> frozenset[Action]:
    """The legal actions of ``seat`` that ``wanted`` accepts: a step that asks for a kind
    of move ("any L move that leaves the neutrals") rather than one move."""
    return frozenset(action for action in state.legal_actions(seat) if wanted(action))


def fixed(*actions: Action) -> frozenset[Action]:
    return frozenset(actions)


def after(state: State, moves: Iterable[tuple[int, Action]]) -> State:
    """``state`` after ``moves`` (seat, action), on a copy."""
    copy = type(state).from_dict(state.to_dict())
    for seat, action in moves:
        copy.apply(seat, action)
    return copy


@cache
def lesson(game: str) -> Lesson | None:
    """The lesson of ``game`` (an engine name), or None when it has none."""
    if game not in LESSON_GAMES:
        return None
    module = importlib.import_module(f"engines.lessons.{game}")
    built: Lesson = module.build()
    return replace(built, steps=tuple(with_threats(game, step) for step in built.steps))


def with_threats(game: str, step: LessonStep) -> LessonStep:
    """``step`` with its position's danger marks for the learner."""
    found = dangers(game, step.position.to_dict(), step.seat, quick=True)
    return replace(step, threats=tuple(found))
