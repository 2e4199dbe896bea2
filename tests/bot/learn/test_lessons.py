"""Every lesson walked through (``engines.lessons``, ``bot.learn.lessons``): each step's accepted
moves are legal and reachable through its menu, the teacher's reply is legal after each of
them, a wrong move is answered with the step's hint and does not advance, every button fits
Telegram's 64 bytes with its prefix, and every text exists in every language."""

from __future__ import annotations

import pytest

from bot.learn.lessons import first_page, lesson_game, page_for
from engines.lessons import LESSON_GAMES, after, lesson
from renderers.i18n import lookup, supported_languages
from tests.helpers.lessons import accepted_path, menu_path, wrong_action, wrong_path

TELEGRAM_PREFIX = "l:"


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_every_step_asks_for_legal_moves_and_replies_legally(game: str) -> None:
    chosen = lesson(game)
    assert chosen is not None and 5 <= len(chosen.steps) <= 10
    for number, step in enumerate(chosen.steps, 1):
        legal = set(step.position.legal_actions(step.seat))
        assert step.accepted, f"step {number} accepts nothing"
        assert step.accepted <= legal, f"step {number}: {step.accepted - legal}"
        assert legal - step.accepted, f"step {number} has no wrong move to learn from"
        for action in step.accepted:
            menu_path(step, action)  # reachable with the buttons
            if step.reply is not None:
                moved = after(step.position, [(step.seat, action)])
                assert step.reply in moved.legal_actions(1 - step.seat), (number, action)


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_a_wrong_move_gets_the_hint_and_stays_on_the_step(game: str) -> None:
    chosen = lesson(game)
    assert chosen is not None
    for index, step in enumerate(chosen.steps):
        path = wrong_path(chosen, index)
        page = page_for(f"{game}:{index}:{path[-1]}", "en", False)
        assert "not what this step asks for" in page.text
        assert step.hint.default.split(":")[0][:30] in page.text
        assert f"step {index + 1} of" in page.text
        assert [b.payload for b in page.choices] == [
            b.payload for b in first_page(game, "en", False).choices] if index == 0 else True
        assert all(b.payload.startswith(f"{game}:{index}:") for b in page.choices)
        assert wrong_action(step) not in step.accepted


@pytest.mark.parametrize("game", LESSON_GAMES)
def test_every_page_of_the_walk_fits_telegram_and_is_translated(game: str) -> None:
    chosen = lesson(game)
    assert chosen is not None
    pages = [first_page(game, "en", True)]
    for index in range(len(chosen.steps)):
        pages += [page_for(f"{game}:{index}:{path}", "en", True)
                  for path in accepted_path(chosen, index)]
        pages.append(page_for(f"{game}:{index + 1}:", "en", True))
    assert pages[-1].finished
    for page in pages:
        assert page.ok
        for button in (*page.choices, *page.navigation):
            assert len((TELEGRAM_PREFIX + button.payload).encode()) <= 64, button.payload
    texts = [text for step in chosen.steps for text in (step.explain, step.hint, step.done)]
    for language in supported_languages():
        for text in (*texts, chosen.summary):
            assert lookup(language, text.key), (language, text.key)


def test_forged_or_stale_data_is_refused_in_words() -> None:
    for data in ("", "lgame", "lgame:99:", "chess:0:", "lgame:0:zz", "lgame:0:a1.b2.c3",
                 "lgame:0:" + "x" * 80, "lgame:-1:"):
        page = page_for(data, "en", False)
        assert not page.ok and "/learn" in page.text and not page.choices


def test_games_are_found_by_alias_and_only_with_a_lesson() -> None:
    assert lesson_game("L-game") == "lgame"
    assert lesson_game("chess") is None
    assert lesson(game="nothing") is None


def test_a_move_the_rules_refuse_is_answered_with_the_rules_reason_and_the_hint() -> None:
    """A bOOleO menu offers every slot a card fits physically; the referee refuses a top
    gate that does not give the slot bit, and the lesson says so before its hint."""
    page = page_for("booleo:4:X0.31", "en", False)
    assert "must give your slot bit 1" in page.text
    assert "which of your cards gives 1" in page.text
    assert "is allowed" not in page.text and "step 5 of 5" in page.text
