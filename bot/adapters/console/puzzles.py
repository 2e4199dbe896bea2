"""The puzzle trainer (``bot/puzzles/trainer.py``) in the console: each page is printed and its
buttons become a numbered question, as in the lessons; an answer may also be typed in
notation. The trainer is the chat platforms' own, page for page, and rates the console's
player as it rates anyone (the console's player is one person)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.adapters.console.setup import TYPED_MOVE, MenuItem, Question
from bot.puzzles.pages import opens_grid
from bot.puzzles.trainer import PuzzleTrainer
from bot.replies import Place, User
from renderers.i18n import translate

DONE = "done"


async def run_puzzles(trainer: PuzzleTrainer, place: Place, user: User, game: str,
                      ask: Callable[[Question], Awaitable[str | None]],
                      show: Callable[[str], Awaitable[object]], *, daily: bool = False) -> bool:
    """Solve ``game``'s puzzles (``daily``: its puzzle of the day, then more) until the
    player leaves (True) or quits the console (False)."""
    language = place.language
    page = (await trainer.start_daily(place, user, game) if daily
            else await trainer.start(place, user, game))
    shown = page
    while True:
        if page.ok:
            shown = page
            await show(page.text)
        else:  # a refusal: said, and the page before it stays the one to answer
            await show("! " + page.text)
            if not shown.ok:
                return True
        # The board's grid is for tapping; at a keyboard the numbered list (or a typed
        # move) answers, as in a game (``bot.adapters.console.moves``).
        items = [MenuItem(button.label, button.payload)
                 for button in (*shown.choices, *shown.navigation)
                 if not button.disabled and not opens_grid(button)]
        items.append(MenuItem(translate(language, "puzzle.console_leave",
                                        "Leave the puzzles"), DONE))
        answer = await ask(Question(translate(language, "lesson.console_prompt",
                                              "Your choice:"), tuple(items),
                                    has_default=not shown.answering, moves=shown.answering))
        if answer is None:
            return False
        if answer == DONE:
            return True
        if answer.startswith(TYPED_MOVE) and shown.attempt is not None:
            practice = any(button.payload.startswith(f"{shown.attempt}:r")
                           for button in shown.choices)
            page = await trainer.typed_answer(place, user, shown.attempt,
                                              answer.removeprefix(TYPED_MOVE), practice)
        else:
            page = await trainer.press(place, user, answer)
