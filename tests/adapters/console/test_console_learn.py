"""Every lesson in the console: chosen from the game's menu, played by numbers to the end
with one wrong try, then back to the game's menu (as after the rules); nothing is stored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.learn.lessons import LessonPage, first_page, page_for
from bot.store import SQLiteStore
from engines.lessons import LESSON_GAMES, lesson
from engines.registry import get_game
from tests.helpers.console_script import Script, number_of, run_session
from tests.helpers.lessons import accepted_path, wrong_path


def presses(game: str) -> list[str]:
    """The data of every button pressed: a wrong move of step 1, then each step's
    accepted move and its "next"."""
    chosen = lesson(game)
    assert chosen is not None
    data = [f"{game}:0:{path}" for path in wrong_path(chosen, 0)]
    for index in range(len(chosen.steps)):
        data += [f"{game}:{index}:{path}" for path in accepted_path(chosen, index)]
        data.append(f"{game}:{index + 1}:")
    return data


def number_for(game: str) -> str:
    """The game's number in the console's main menu."""
    return str(["lgame", "turing", "booleo", "digitalo", "rithmomachia"].index(game) + 1)


def number(page: LessonPage, data: str) -> str:
    payloads = [button.payload for button in (*page.choices, *page.navigation)]
    return str(payloads.index(data) + 1)


async def lesson_by_numbers(store: SQLiteStore, game: str) -> str:
    """The console's output of ``game``'s lesson played by numbers to the end."""
    title = get_game(game).TITLE

    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, title)
        yield number_of(output, "Learn it")
        page = first_page(game, "en", False)
        for data in presses(game):
            yield number(page, data)
            page = page_for(data, "en", False)
        assert page.finished
        yield number_of(output, "Leave the lesson")
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    return script.text


@pytest.mark.parametrize("game", LESSON_GAMES)
async def test_a_lesson_by_numbers(store: SQLiteStore, game: str) -> None:
    title = get_game(game).TITLE
    text = await lesson_by_numbers(store, game)
    assert f"{title} lesson, step 1 of 5" in text
    assert "not what this step asks for" in text
    assert f"You finished the {title} lesson" in text
    assert "```" not in text
    assert text.count(f"{title}: what would you like to do?") == 2, \
        "back to the game's menu, as after its rules"
    assert await store.last_finished_game("console", "local") is None


@pytest.mark.parametrize("game", LESSON_GAMES)
async def test_a_lesson_speaks_the_consoles_words_wrapped_without_marks(
        store: SQLiteStore, game: str) -> None:
    """Issue 40, defect 7: no slash commands or buttons, lines wrapped for 80 columns, and
    no danger marks (they spoke of traps at step 1 and gave away the L-game's step 5)."""
    text = await lesson_by_numbers(store, game)
    for platform_word in ("/play", "/puzzle", "/learn", "Hint button", "button"):
        assert platform_word not in text, platform_word
    assert all(len(line) <= 79 for line in text.splitlines()), "wrapped for 80 columns"
    for mark in ("trap your L next turn", "could take your pieces", "could break your gates"):
        assert mark not in text, mark


@pytest.mark.parametrize("game", LESSON_GAMES)
async def test_a_lesson_takes_typed_moves_and_enter_takes_no_move(
        store: SQLiteStore, game: str) -> None:
    """The rules pages teach typed moves; a lesson took only numbers (issue 40, defect 7).
    Enter, which took the first move listed, now asks for a number."""
    chosen = lesson(game)
    assert chosen is not None
    step = chosen.steps[0]
    typed = str(step.position.action_text(sorted(step.accepted)[0]))
    script = Script([number_for(game), "4", "", "nonsense-move", typed, "quit"])
    await run_session(store, script)
    text = script.text
    assert "! Please type a number from the list" in text
    refusal = next(line for line in text.splitlines() if line.startswith("❌"))
    assert "xpected" in refusal or "Type" in refusal or "nonsense-move" in refusal, \
        "a wrong text says what was expected"
    assert f"You played {typed}." in text or "✅" in text
