"""``/assign solve N <game> [theme]`` (issue 41): the trainer's puzzles solved at the first
try count, N different ones, of the theme when one is set, wherever they were solved;
/progress and the class table show them, like the Turing assignments."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.classroom.assignments import Task, TaskError, describe, parse_task
from bot.puzzles.trainer import themes_of
from bot.replies import Place, User
from bot.store import Store
from engines.puzzles import puzzle_games
from tests.helpers.puzzle_trainer import answer_presses, trainer_app

TODAY = dt.date(2026, 3, 2)
CLASS = Place("discord", "class-chan", "en", False, "class-3b")
ALONE = Place("discord", "dm-ann", "en", False, "")
TEACHER = User("discord", "9", "Teacher", is_moderator=True)
ANN = User("discord", "1", "Ann")
BEN = User("discord", "2", "Ben")
GAME = puzzle_games()[0]


def test_a_trainer_task_is_read_and_told() -> None:
    theme = themes_of(GAME)[0]
    task, _ = parse_task(f"solve 3 {GAME} {theme}".split(), TODAY, "en")
    assert task == Task("solve", GAME, 3, theme=theme) and task.trainer
    assert Task.from_dict(task.to_dict()) == task
    assert parse_task(f"solve 2 {GAME}".split(), TODAY, "en")[0] == Task("solve", GAME, 2)
    assert not parse_task(["solve", "2", "turing"], TODAY, "en")[0].trainer
    with pytest.raises(TaskError) as refused:
        parse_task(f"solve 2 {GAME} nonsense".split(), TODAY, "en")
    assert "themes" in refused.value.text
    for language in ("en", "nl", "de"):
        assert describe(task, language) != describe(Task("solve", GAME, 3), language)
    assert describe(Task("solve", GAME, 3), "en").startswith("Solve 3 ")


async def solve(app, place: Place, user: User, right: bool, theme: str | None = None  # type: ignore[no-untyped-def]
                ) -> None:
    page = await app.trainer.start(place, user, GAME, theme)
    assert page.attempt is not None
    attempt = await app.store.puzzle_attempt(page.attempt)
    for data in answer_presses(attempt, right):
        page = await app.trainer.press(place, user, data)
    assert ("✅" if right else "❌") in page.text
    # The retry of a wrong one is practice, and never counts.
    if not right:
        await app.trainer.press(place, user, f"{attempt.id}:r")
        for data in answer_presses(attempt, True, "r"):
            await app.trainer.press(place, user, data)


async def test_progress_counts_puzzles_solved_at_the_first_try(store: Store,
                                                               tmp_path: Path) -> None:
    async with trainer_app(store, tmp_path) as app:
        await solve(app, ALONE, ANN, True)  # before the work was set: not counted
        theme = themes_of(GAME)[0]
        for words in (f"solve 3 {GAME}", f"solve 1 {GAME} {theme}"):
            assert (await app.assignments.command(CLASS, TEACHER, words.split(), True)).public
        await solve(app, ALONE, ANN, True)  # alone, in a private chat: it counts
        await solve(app, CLASS, ANN, False)  # wrong at the first try: never counts
        await solve(app, CLASS, ANN, True, theme)
        await solve(app, CLASS, BEN, True, themes_of(GAME)[-1])
        ann = await app.assignments.progress(CLASS, ANN)
        lines = ann.splitlines()
        assert lines[1].startswith("⬜ 1. Solve 3 ") and lines[1].endswith(
            f": 2/3 — {(dt.datetime.now(dt.UTC).date() + dt.timedelta(days=7)).isoformat()}")
        assert lines[2].startswith("✅ 2. Solve 1 ") and ": 1/1" in lines[2]
        ben = await app.assignments.progress(CLASS, BEN)
        assert ": 1/3" in ben.splitlines()[1]
        table = await app.assignments.class_table(CLASS)
        assert "Ann — 1: 2 · 2: ✅" in table and "Ben — 1: 1 · 2: 0" in table
