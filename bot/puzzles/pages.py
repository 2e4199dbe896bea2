"""The puzzle trainer's pages (``bot.puzzles.trainer``): text and buttons, for adapters to show.

Pure drawing, like the lessons' pages (``bot/learn/lessons.py``): a page is prose with fenced
code blocks (the game's own board, as in a game, within 32 columns) and buttons whose
data says everything the next page needs: ``<attempt>:<step>[:<argument>]``. So the
buttons need no memory and survive restarts; each adapter adds its own prefix.

Steps: ``a:<menu path>`` the first try (rated), ``r:<menu path>`` a retry (practice),
``s`` show me, ``n`` the next puzzle, ``t`` the themes, ``t:<n>`` the next puzzle of theme
``n`` (``t:x``: any theme), ``v`` the attempt's page as it stands.

What is drawn is what the solver's seat may see: the public board and, in games with
hidden hands, the solver's own hand; never the puzzle's proof, and never a card-game
line past the solver's own move (the opponent's replies would show their cards).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.payloads import TOKEN_PATTERN
from bot.puzzles.jobs import message_from_json
from bot.replies import Button
from bot.store.puzzle_rows import PuzzleAttempt, PuzzlePlayer
from engines.base import GRID_TOKEN, Choice, GameError, GameState
from engines.puzzles import Puzzle, theme_message
from engines.registry import get_game
from renderers import renderer_for
from renderers.i18n import localise, translate

# A menu path of a puzzle's answer: the list menu's steps, or the board's grid ("G" and
# its taps: at most ten tokens, as a game's payload holds, ``engines.rithmomachia.grid``).
MAX_PATH_TOKENS = 10
DATA = re.compile(rf"(?P<attempt>[0-9]{{1,12}}):(?P<step>[arsntv])"
                  rf"(?::(?P<argument>(?:{TOKEN_PATTERN}(?:\.{TOKEN_PATTERN})"
                  rf"{{0,{MAX_PATH_TOKENS - 1}}})|x))?")
ANY_THEME = "x"
STARS = 5


@dataclass(frozen=True)
class PuzzlePage:
    """One page of the trainer. ``ok`` False: a refusal (someone else's puzzle, a forged
    button, a limit), to show the presser alone without replacing the page they see."""

    text: str
    choices: tuple[Button, ...] = ()
    navigation: tuple[Button, ...] = ()
    ok: bool = True
    # The attempt the page belongs to (None for a refusal), and whether it waits for an
    # answer (the console offers typed moves then).
    attempt: int | None = None
    answering: bool = False


@dataclass(frozen=True)
class Pressed:
    attempt: int
    step: str
    argument: str


def parse_data(data: str) -> Pressed | None:
    match = DATA.fullmatch(data)
    if match is None:
        return None
    return Pressed(int(match["attempt"]), match["step"], match["argument"] or "")


def data(attempt: int, step: str, argument: str = "") -> str:
    return f"{attempt}:{step}:{argument}" if argument else f"{attempt}:{step}"


def theme_name(language: str, theme: str) -> str:
    """A theme's or tag's name (``engines.puzzles.THEME_NAMES``) in ``language``."""
    name = theme_message(theme)
    return translate(language, name.key, name.default)


def _names(seat: int, language: str, addressed: bool) -> list[str]:
    """Every puzzle game is for two: the solver is "You" (which the catalogue's
    second-person forms read as such) on the solver's own page, "Solver" in a post to
    the whole class (``addressed`` False); the other seat is the opponent."""
    solver = (translate(language, "lesson.you", "You") if addressed
              else translate(language, "puzzle.solver", "Solver"))
    other = translate(language, "puzzle.opponent", "Opponent")
    return [solver, other] if seat == 0 else [other, solver]


def board_text(game: str, state: GameState, seat: int, language: str, emoji: bool, *,
               addressed: bool = True) -> str:
    """The position as the solver sees it in a game: the public board, and in games with
    hidden hands the solver's own hand beside it (never anyone else's). ``addressed``
    False: for a channel's post, where "To move: You" would speak to everyone."""
    renderer = renderer_for(game)
    info = get_game(game).INFO
    names = _names(seat, language, addressed)
    public = renderer.render(state.view(None), names, language, emoji)
    render_private = getattr(renderer, "render_private", None)
    if render_private is None or not info.hidden_information:
        return public
    private = str(render_private(state.view(seat), names, language, emoji))
    return private if info.solo else f"{public}\n\n{private}"


def _stars(level: int) -> str:
    level = max(1, min(STARS, level))
    return "★" * level + "☆" * (STARS - level)


def title(attempt: PuzzleAttempt, puzzle: Puzzle, language: str) -> str:
    game = get_game(puzzle.game).TITLE
    if attempt.daily:
        return translate(language, "puzzle.title_daily",
                         "🗓 {game} puzzle of the day · {date} · {theme} · {stars}",
                         game=game, date=attempt.daily, theme=theme_name(language, puzzle.theme),
                         stars=_stars(puzzle.level))
    return translate(language, "puzzle.title", "🧩 {game} puzzle {code} · {theme} · {stars}",
                     game=game, code=attempt.code, theme=theme_name(language, puzzle.theme),
                     stars=_stars(puzzle.level))


def _menu(puzzle: Puzzle, state: GameState, path: tuple[str, ...]) -> list[Choice]:
    try:
        return list(state.menu(puzzle.seat, path))
    except GameError:
        return []


def _choice_button(game: str, attempt: int, step: str, path: tuple[str, ...],
                   choice: Choice, language: str) -> Button:
    label = localise(language, choice.label, f"{game}.choice.{choice.label}")
    return Button(label, data(attempt, step, ".".join((*path, choice.token))), choice.group,
                  disabled=choice.unavailable is not None)


def choose(puzzle: Puzzle, path: tuple[str, ...]) -> Choice | None:
    """The option that the last token of ``path`` picks, or None when the path is not
    one of the puzzle's menus (a forged or outdated button)."""
    if not path or len(path) > MAX_PATH_TOKENS:
        return None
    if path == (GRID_TOKEN,):  # "Tap the board": the menu as the board's grid, as in a game
        return Choice(GRID_TOKEN, GRID_TOKEN) if puzzle.position().offers_grid() else None
    options = _menu(puzzle, puzzle.position(), path[:-1])
    return next((option for option in options if option.token == path[-1]), None)


def menu_refusal(puzzle: Puzzle, path: tuple[str, ...]) -> GameError | None:
    """Why the menu refuses to go on to ``path`` (a grid's tap that no move could use:
    the reason the game gives), or None."""
    try:
        puzzle.position().menu(puzzle.seat, path)
    except GameError as error:
        return error
    return None


def opens_grid(button: Button) -> bool:
    """The "Tap the board" button, which a keyboard (the console) has no use for."""
    pressed = parse_data(button.payload)
    return pressed is not None and pressed.argument == GRID_TOKEN


def answering_page(attempt: PuzzleAttempt, puzzle: Puzzle, path: tuple[str, ...],
                   language: str, emoji: bool, *, practice: bool = False,
                   note: str = "", rating: str = "") -> PuzzlePage:
    """The puzzle waiting for an answer, at a step of its menu: the first try, or a
    retry (``practice``), which changes no rating."""
    state = puzzle.position()
    step = "r" if practice else "a"
    choices = tuple(_choice_button(puzzle.game, attempt.id, step, path, choice, language)
                    for choice in _menu(puzzle, state, path))
    navigation: tuple[Button, ...] = ((Button(translate(language, "menu.back"),
                                              data(attempt.id, step, ".".join(path[:-1]))
                                              if path[:-1] else data(attempt.id, step)),)
                                       if path else ())
    if not path and choices and state.offers_grid():
        # A board of cells is answered as it is played: by taps on its grid (issue 23).
        navigation = (Button(translate(language, "menu.grid", "▦ Tap the board"),
                             data(attempt.id, step, GRID_TOKEN)),)
    told = state.menu_prompt(puzzle.seat, path) if path else None
    task = (translate(language, "puzzle.retry_task",
                      "Practice: try again. Your rating counted the first try only.")
            if practice else translate(language, "puzzle.task",
                                       "Find the best move. One try counts for your rating."))
    parts = [title(attempt, puzzle, language), note,
             board_text(puzzle.game, state, puzzle.seat, language, emoji), task, rating,
             localise(language, told) if told is not None else translate(language,
                                                                         "menu.choose")]
    return PuzzlePage("\n\n".join(part for part in parts if part), choices, navigation,
                      attempt=attempt.id, answering=True)


def _after_line(puzzle: Puzzle, line: tuple[str, ...]) -> tuple[GameState, list[str]]:
    """The position after the verdict's line (in games with hidden hands, after the
    solver's own move only) and the moves' texts as far as they could be played."""
    state = puzzle.position()
    hidden = get_game(puzzle.game).INFO.hidden_information
    texts: list[str] = []
    for action in line[:1] if hidden else line:
        movers = state.to_move()
        if not movers or state.outcome() is not None:
            break
        try:
            text = state.action_text(action)
            state.apply(movers[0], action)
        except GameError:
            break
        texts.append(text)
    return state, texts


def verdict_lines(puzzle: Puzzle, verdict: dict[str, Any], language: str,
                  emoji: bool) -> list[str]:
    """The reason and the board after the line, with the line's moves in words."""
    reason = localise(language, message_from_json(verdict.get("reason")))
    line = tuple(str(move) for move in verdict.get("line", ()) if isinstance(move, str))
    state, texts = _after_line(puzzle, line)
    parts = [reason]
    if len(texts) > 1:
        parts.append(translate(language, "puzzle.line", "Line: {moves}",
                               moves=" → ".join(localise(language, text) for text in texts)))
    parts.append(board_text(puzzle.game, state, puzzle.seat, language, emoji))
    return parts


def rating_text(language: str, attempt: PuzzleAttempt, player: PuzzlePlayer | None) -> str:
    """The player's rating after the first try, its change, and the streak."""
    if attempt.rating_after is None or player is None:
        return ""
    change = round(attempt.rating_after) - round(attempt.rating_before or attempt.rating_after)
    text = translate(language, "puzzle.rating_change", "Your puzzle rating: {rating} ({change})",
                     rating=round(attempt.rating_after),
                     change=f"+{change}" if change >= 0 else str(change))
    if player.streak > 1:
        text += " · " + translate(language, "puzzle.streak", "🔥 {count} in a row (best {best})",
                                  count=player.streak, best=player.best_streak)
    return text


def after_buttons(attempt: PuzzleAttempt, language: str, *, solved: bool,
                  shown: bool = False) -> tuple[Button, ...]:
    """Next, retry (when it was not solved), show me (until shown), themes."""
    buttons = [Button(translate(language, "puzzle.next", "Next ▶"), data(attempt.id, "n"))]
    if not solved:
        buttons.append(Button(translate(language, "puzzle.retry", "Retry ↺"),
                              data(attempt.id, "r")))
    if not shown:
        buttons.append(Button(translate(language, "puzzle.show", "Show me 👁"),
                              data(attempt.id, "s")))
    buttons.append(Button(translate(language, "puzzle.themes", "Theme 🎯"),
                          data(attempt.id, "t")))
    return tuple(buttons)


def result_page(attempt: PuzzleAttempt, puzzle: Puzzle, verdict: dict[str, Any],
                language: str, emoji: bool, *, practice: bool = False, rating: str = "",
                note: str = "") -> PuzzlePage:
    """Right or wrong, why, and the board after the line; then what next."""
    correct = bool(verdict.get("correct"))
    if practice:
        head = (translate(language, "puzzle.right_practice", "✅ Right (practice: not rated).")
                if correct else translate(language, "puzzle.wrong_practice",
                                          "❌ Not this one either (practice: not rated)."))
    else:
        head = (translate(language, "puzzle.right", "✅ Right!") if correct
                else translate(language, "puzzle.wrong", "❌ Not this one."))
    parts = [title(attempt, puzzle, language), note, head,
             *verdict_lines(puzzle, verdict, language, emoji), rating]
    return PuzzlePage("\n\n".join(part for part in parts if part), (),
                      after_buttons(attempt, language, solved=correct), attempt=attempt.id)


def solution_page(attempt: PuzzleAttempt, puzzle: Puzzle, verdict: dict[str, Any],
                  language: str, emoji: bool) -> PuzzlePage:
    """"Show me": the accepted answer, its reason and its line."""
    move = localise(language, puzzle.position().action_text(puzzle.accepted[0]))
    head = translate(language, "puzzle.solution", "👁 The answer: {move}", move=move)
    if len(puzzle.accepted) > 1:
        head += " " + translate(language, "puzzle.solution_more",
                                "(or one of {count} other moves as good)",
                                count=len(puzzle.accepted) - 1)
    parts = [title(attempt, puzzle, language), head,
             *verdict_lines(puzzle, verdict, language, emoji)]
    return PuzzlePage("\n\n".join(parts), (),
                      after_buttons(attempt, language, solved=False, shown=True),
                      attempt=attempt.id)


def theme_page(attempt: PuzzleAttempt, themes: tuple[str, ...], language: str) -> PuzzlePage:
    """Which theme the next puzzles are about (or any), or back to the puzzle."""
    choices = [Button(theme_name(language, theme), data(attempt.id, "t", str(index)))
               for index, theme in enumerate(themes)]
    choices.append(Button(translate(language, "puzzle.any_theme", "Any theme"),
                          data(attempt.id, "t", ANY_THEME)))
    text = translate(language, "puzzle.theme_question",
                     "🎯 Which theme should your next {game} puzzles be about?",
                     game=get_game(attempt.game).TITLE)
    back = Button(translate(language, "menu.back"), data(attempt.id, "v"))
    return PuzzlePage(text, tuple(choices), (back,), attempt=attempt.id)


def refusal(text: str) -> PuzzlePage:
    return PuzzlePage(text, ok=False)
