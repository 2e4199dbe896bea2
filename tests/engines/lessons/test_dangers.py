"""Danger marks in lessons (issue 27: on in lessons too): each step of a game with marks
carries its position's threats, worked out when the lesson is built, and the step's page
draws them on its board as a game's board would."""

from __future__ import annotations

import pytest

from bot.learn.lessons import data, page_for
from engines.analysis import dangers
from engines.lessons import LESSON_GAMES, lesson
from renderers import renderer_for
from renderers.i18n import translate

MARKED = ("lgame", "booleo", "digitalo", "rithmomachia")


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_each_step_carries_the_marks_of_its_position(game: str) -> None:
    chosen = lesson(game)
    assert chosen is not None
    for step in chosen.steps:
        # The lessons' quick way (no solved table for the L-game) gives the pool's answer.
        assert list(step.threats) == dangers(game, step.position.to_dict(), step.seat)
    if game in MARKED:
        assert any(step.threats for step in chosen.steps), "some step shows a danger"
    else:
        assert not any(step.threats for step in chosen.steps)


@pytest.mark.parametrize("game", MARKED)
@pytest.mark.parametrize("language", ["en", "nl", "de"])
def test_a_steps_page_draws_its_marks(game: str, language: str) -> None:
    chosen = lesson(game)
    assert chosen is not None
    you, teacher = (translate(language, "lesson.you", "You"),
                    translate(language, "lesson.teacher", "Teacher"))
    for index, step in enumerate(chosen.steps):
        page = page_for(data(game, index), language, emoji=True)
        view = {**step.position.view(None), "threats": list(step.threats)}
        names = [you, teacher] if step.seat == 0 else [teacher, you]
        lines = renderer_for(game).danger_lines(view, names, language)
        if step.threats:
            assert lines and all(line in page.text for line in lines), (index, lines)
        else:
            assert not lines

