"""A first-game lesson (``bot/learn/lessons.py``) in the console: each page is printed and its
buttons become a numbered question, as everything else in the console is, and a move may
be typed in notation, as the rules pages teach. The lesson is the chat platforms' lesson,
page for page, told in the console's words (no slash commands, no buttons); like there,
nothing is stored."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.adapters.console.setup import TYPED_MOVE, MenuItem, Question
from bot.learn.lessons import first_page, page_for, step_of, typed_move_page
from engines.registry import get_game
from renderers.i18n import translate

DONE = "done"
# The platforms' commands a lesson's text may name, and the console's words for them.
COMMAND_WORDS: dict[str, tuple[str, str]] = {
    "/puzzle": ("lesson.console.puzzle_command",
                "“Solve a puzzle alone” in the Turing Machine's menu"),
    "/learn": ("lesson.console.learn_command", "“Learn it” in a game's menu"),
    "/play": ("lesson.console.play_command", "“Play against the computer” in its menu"),
}


async def run_lesson(ask: Callable[[Question], Awaitable[str | None]],
                     show: Callable[[str], Awaitable[object]], language: str,
                     game: str) -> bool:
    """Play ``game``'s lesson with the console's ``ask`` and ``show`` (a page's text as
    the terminal prints it); False when the player quits the console."""
    # Without danger marks: a lesson step teaches one rule, and the marks talked of traps
    # at the first step and gave away the answer of the L-game's last.
    page = first_page(game, language, False, marks=False)
    while True:
        await show(console_words(page.text, language, game))
        # The summary's "start again" is left out: the game's menu offers the lesson.
        items = ([] if page.finished else
                 [MenuItem(button.label, button.payload)
                  for button in (*page.choices, *page.navigation)])
        items.append(MenuItem(translate(language, "lesson.console_leave", "Leave the lesson"),
                              DONE))
        step = step_of(page.choices[0].payload) if page.choices else None
        # A step's choices are moves: Enter takes none of them, and a move may be typed.
        answer = await ask(Question(translate(language, "lesson.console_prompt",
                                              "Your choice:"), tuple(items),
                                    has_default=step is None, moves=step is not None))
        if answer is None:
            return False
        if answer == DONE:
            return True
        if answer.startswith(TYPED_MOVE) and step is not None:
            page = typed_move_page(step[0], step[1], answer.removeprefix(TYPED_MOVE),
                                   language, False, marks=False)
        else:
            page = page_for(answer, language, False, marks=False)


def console_words(text: str, language: str, game: str) -> str:
    """A lesson page's text with the platforms' words told the console's way: the
    summary's "what next" (a slash command and the hint button), and any command named."""
    title = get_game(game).TITLE
    platform_next = translate(language, "lesson.what_next", game=title)
    console_next = (translate(
        language, "lesson.console.what_next_solo",
        "Next: a puzzle of your own (“Solve a puzzle alone” in its menu), where h asks for a "
        "hint when you are stuck. Lessons never count for results.")
        if get_game(game).INFO.solo else translate(
        language, "lesson.console.what_next",
        "Next: play {game} against the computer at the easy level (“Play against the "
        "computer” in its menu), where h asks for a hint when you are stuck. Lessons never "
        "count for results.", game=title))
    text = text.replace(platform_next, console_next)
    for command, (key, words) in COMMAND_WORDS.items():
        text = text.replace(command, translate(language, key, words))
    return text
