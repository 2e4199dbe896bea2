"""A first-game lesson (``bot/lessons.py``) in the console: each page is printed and its
buttons become a numbered question, as everything else in the console is. The lesson is
the chat platforms' lesson, page for page; like there, nothing is stored."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.adapters.console_setup import MenuItem, Question
from bot.lessons import first_page, page_for
from renderers.i18n import translate

DONE = "done"


async def run_lesson(ask: Callable[[Question], Awaitable[str | None]],
                     show: Callable[[str], None], language: str, game: str) -> bool:
    """Play ``game``'s lesson with the console's ``ask`` and ``show`` (a page's text as
    the terminal prints it); False when the player quits the console."""
    page = first_page(game, language, False)
    while True:
        show(page.text)
        # The summary's "start again" is left out: the game's menu offers the lesson.
        items = ([] if page.finished else
                 [MenuItem(button.label, button.payload)
                  for button in (*page.choices, *page.navigation)])
        items.append(MenuItem(translate(language, "lesson.console_leave", "Leave the lesson"),
                              DONE))
        answer = await ask(Question(translate(language, "lesson.console_prompt",
                                              "Your choice:"), tuple(items)))
        if answer is None:
            return False
        if answer == DONE:
            return True
        page = page_for(answer, language, False)
