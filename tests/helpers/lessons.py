"""Menu paths through a lesson's steps, for the adapter tests to press."""

from __future__ import annotations

from engines.base import Action
from engines.lessons import Lesson, LessonStep


def menu_path(step: LessonStep, action: Action) -> list[str]:
    """The menu tokens that make ``action`` in the step's position, as the data of each
    button pressed in turn (``a``, ``a.b``, …)."""
    path: tuple[str, ...] = ()
    while True:
        for choice in step.position.menu(step.seat, path):
            if choice.action == action:
                return prefixes((*path, choice.token))
        for choice in step.position.menu(step.seat, path):
            if choice.action is None and leads_to(step, (*path, choice.token), action):
                path = (*path, choice.token)
                break
        else:
            raise AssertionError(f"{action} is not on the menu")


def leads_to(step: LessonStep, path: tuple[str, ...], action: Action) -> bool:
    for choice in step.position.menu(step.seat, path):
        if choice.action == action or (choice.action is None
                                       and leads_to(step, (*path, choice.token), action)):
            return True
    return False


def prefixes(path: tuple[str, ...]) -> list[str]:
    return [".".join(path[:end]) for end in range(1, len(path) + 1)]


def accepted_path(chosen: Lesson, index: int) -> list[str]:
    step = chosen.steps[index]
    return menu_path(step, sorted(step.accepted)[0])


def wrong_action(step: LessonStep) -> Action:
    return sorted(set(step.position.legal_actions(step.seat)) - step.accepted)[0]


def wrong_path(chosen: Lesson, index: int) -> list[str]:
    step = chosen.steps[index]
    return menu_path(step, wrong_action(step))
