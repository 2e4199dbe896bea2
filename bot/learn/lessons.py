"""First-game lessons, step by step, for adapters to show with the step's move buttons.

Platform-neutral like the replays (``bot/learn/replays.py``). A lesson (``engines.lessons``) is
a list of scripted positions; each page shows the step's explanation, its board and the
engine's move menu at that position, as buttons whose data says everything: the game, the
step and the menu path so far (``<game>:<step>:<path>``). So a lesson needs no memory and
survives restarts, and pressing the same button twice shows the same page.

A lesson is private practice: nothing here reaches the service or the store, so it never
counts for ratings, results, assignments or tournaments. Adapters show it where only the
learner can press (Discord: an ephemeral message; Telegram: the private chat).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.payloads import TOKEN_PATTERN
from bot.replies import Button
from engines.base import JSON, Action, Choice, GameError, GameState
from engines.lessons import LESSON_GAMES, Lesson, LessonStep, after, lesson
from engines.registry import get_game, resolve_name
from renderers import renderer_for
from renderers.i18n import localise, translate

# The data of a lesson button; tokens are the engines' menu tokens, as in service payloads.
_DATA = re.compile(rf"(?P<game>[a-z]{{1,16}}):(?P<step>[0-9]{{1,2}}):"
                   rf"(?P<path>(?:{TOKEN_PATTERN}(?:\.{TOKEN_PATTERN}){{0,5}})?)")


@dataclass(frozen=True)
class LessonPage:
    """One page of a lesson as text (prose with fenced code blocks, as boards are), with
    the step's choices and the navigation (back, next, start again). A button's
    ``payload`` is lesson data for ``page_for``; each adapter adds its own prefix."""

    text: str
    choices: tuple[Button, ...] = ()
    navigation: tuple[Button, ...] = ()
    ok: bool = True
    finished: bool = False  # the summary after the last step


def lesson_games() -> tuple[str, ...]:
    return LESSON_GAMES


def lesson_game(name: str) -> str | None:
    """The engine name of the game ``name`` (an alias or title) when it has a lesson."""
    typed = " ".join(name.lower().split())
    by_title = {get_game(game).TITLE.lower(): game for game in LESSON_GAMES}
    if typed in by_title:  # a title of several words ("Boolean Rithmomachia") is no alias
        return by_title[typed]
    try:
        game = resolve_name(typed)
    except GameError:
        return None
    return game if game in LESSON_GAMES else None


def lesson_list(language: str) -> str:
    """Which games have a lesson, for an answer to ``/learn`` without a (known) game."""
    titles = ", ".join(f"{get_game(game).TITLE} ({game})" for game in LESSON_GAMES)
    return translate(language, "lesson.choose",
                     "Lessons teach a game's rules one step at a time, on your own. Choose "
                     "a game: {games}.", games=titles)


def first_page(game: str, language: str, emoji: bool, *, marks: bool = True) -> LessonPage:
    return page_for(data(game, 0), language, emoji, marks=marks)


def data(game: str, step: int, path: tuple[str, ...] = ()) -> str:
    return f"{game}:{step}:{'.'.join(path)}"


def step_of(button_data: str) -> tuple[str, int] | None:
    """The game and step a lesson button belongs to, or None for other data."""
    match = _DATA.fullmatch(button_data)
    return (match["game"], int(match["step"])) if match else None


def page_for(button_data: str, language: str, emoji: bool, *,
             marks: bool = True) -> LessonPage:
    """The page a lesson button leads to: a step (at a menu path), the step's answer to
    a complete move (accepted, or the hint), or the summary after the last step.
    ``marks``: draw the step's danger marks (the console leaves them out: they told
    step 1's learner about traps and gave away the answer of the L-game's step 5)."""
    match = _DATA.fullmatch(button_data)
    chosen_lesson = lesson(match["game"]) if match else None
    if match is None or chosen_lesson is None or int(match["step"]) > len(chosen_lesson.steps):
        return _interrupted(language)
    index = int(match["step"])
    if index == len(chosen_lesson.steps):
        return _summary(chosen_lesson, language)
    step = chosen_lesson.steps[index]
    path = tuple(match["path"].split(".")) if match["path"] else ()
    if not path:
        return _step_page(chosen_lesson, index, (), language, emoji, marks=marks)
    try:
        options = step.position.menu(step.seat, path[:-1])
    except GameError:
        return _interrupted(language)
    choice = next((option for option in options if option.token == path[-1]), None)
    if choice is None:
        return _interrupted(language)
    if choice.action is None:  # a further step of the same move
        return _step_page(chosen_lesson, index, path, language, emoji, marks=marks)
    return _answer_page(chosen_lesson, index, choice.action, language, emoji, marks=marks)


def typed_move_page(game: str, index: int, text: str, language: str,
                    emoji: bool, *, marks: bool = True) -> LessonPage:
    """The page a move typed in notation leads to at step ``index`` (the console, whose
    rules pages teach typed moves): what its button would lead to, or the step again with
    why the text is not a move there."""
    chosen_lesson = lesson(game)
    if chosen_lesson is None or not 0 <= index < len(chosen_lesson.steps):
        return _interrupted(language)
    step = chosen_lesson.steps[index]
    try:
        action = step.position.parse_action(text, step.seat)
    except GameError as error:
        note = "❌ " + translate(language, error.key, error.default, **error.params)
        hint = f"💡 {localise(language, step.hint)}"
        return _step_page(chosen_lesson, index, (), language, emoji, note=f"{note}\n{hint}",
                          marks=marks)
    return _answer_page(chosen_lesson, index, action, language, emoji, marks=marks)


def _answer_page(chosen_lesson: Lesson, index: int, action: Action, language: str,
                 emoji: bool, *, marks: bool = True) -> LessonPage:
    """The step's answer to a complete move: done when accepted, else the step again with
    why (the rules' refusal, or "allowed, but not what this step asks") and its hint."""
    step = chosen_lesson.steps[index]
    if action in step.accepted:
        return _done_page(chosen_lesson, index, action, language, emoji)
    note = _refusal(step, action, language) or translate(
        language, "lesson.wrong", "❌ {move} is allowed, but it is not what this step asks for.",
        move=localise(language, step.position.action_text(action)))
    hint = f"💡 {localise(language, step.hint)}"
    return _step_page(chosen_lesson, index, (), language, emoji, note=f"{note}\n{hint}",
                      marks=marks)


def _refusal(step: LessonStep, action: Action, language: str) -> str | None:
    """Why the rules refuse ``action`` (a menu may offer a move the referee then refuses,
    such as a bOOleO gate that does not fit its inputs), or None when it is legal."""
    if action in step.position.legal_actions(step.seat):
        return None
    try:
        after(step.position, [(step.seat, action)])
    except GameError as error:
        return "❌ " + translate(language, error.key, error.default, **error.params)
    return None


# ------------------------------------------------------------------------ pages
def _title(chosen_lesson: Lesson, index: int, language: str) -> str:
    return translate(language, "lesson.title", "📘 {game} lesson, step {step} of {steps}",
                     game=get_game(chosen_lesson.game).TITLE, step=index + 1,
                     steps=len(chosen_lesson.steps))


def _names(step: LessonStep, language: str) -> list[str]:
    you = translate(language, "lesson.you", "You")
    teacher = translate(language, "lesson.teacher", "Teacher")
    return [you, teacher] if step.seat == 0 else [teacher, you]


def _board(game: str, state: GameState, step: LessonStep, language: str, emoji: bool,
           threats: tuple[JSON, ...] = ()) -> str:
    """The position as the learner sees it in a game: the public board, and in games with
    hidden hands the learner's own hand as well; a solo game's notes alone, since they
    hold the whole board (the Turing Machine's cards and the learner's results).
    ``threats`` are the danger marks the public board shows (issue 27: on in lessons)."""
    renderer = renderer_for(game)
    names = _names(step, language)
    info = get_game(game).INFO
    public = {**state.view(None), "threats": list(threats)} if threats else state.view(None)
    render_private = getattr(renderer, "render_private", None)
    if render_private is None or not info.hidden_information:
        return renderer.render(public, names, language, emoji)
    private = str(render_private(state.view(step.seat), names, language, emoji))
    if info.solo:
        return private
    return f"{renderer.render(public, names, language, emoji)}\n\n{private}"


def _choice_button(game: str, index: int, path: tuple[str, ...], choice: Choice,
                   language: str) -> Button:
    # A fixed label is looked up as ``<game>.choice.<label>``, as on a game's board.
    label = localise(language, choice.label, f"{game}.choice.{choice.label}")
    return Button(label, data(game, index, (*path, choice.token)), choice.group)


def _step_page(chosen_lesson: Lesson, index: int, path: tuple[str, ...], language: str,
               emoji: bool, note: str = "", *, marks: bool = True) -> LessonPage:
    game, step = chosen_lesson.game, chosen_lesson.steps[index]
    choices = tuple(_choice_button(game, index, path, choice, language)
                    for choice in step.position.menu(step.seat, path))
    navigation = ((Button(translate(language, "menu.back"), data(game, index, path[:-1])),)
                  if path else ())
    parts = [_title(chosen_lesson, index, language), note, localise(language, step.explain),
             _board(game, step.position, step, language, emoji,
                    step.threats if marks else ()),
             translate(language, "menu.choose")]
    return LessonPage("\n\n".join(part for part in parts if part), choices, navigation)


def _done_page(chosen_lesson: Lesson, index: int, action: Action, language: str,
               emoji: bool) -> LessonPage:
    game, step = chosen_lesson.game, chosen_lesson.steps[index]
    moves = [(step.seat, action)]
    lines = [translate(language, "lesson.you_played", "You played {move}.",
                       move=localise(language, step.position.action_text(action)))]
    if step.reply is not None:
        moves.append((1 - step.seat, step.reply))
        lines.append(translate(language, "lesson.teacher_played", "The teacher answered {move}.",
                               move=localise(language, step.position.action_text(step.reply))))
    final = after(step.position, moves)
    last = index + 1 == len(chosen_lesson.steps)
    next_button = Button(translate(language, "lesson.finish", "Finish 🎓") if last
                         else translate(language, "lesson.next", "Next step ▶"),
                         data(game, index + 1))
    parts = [_title(chosen_lesson, index, language), f"✅ {localise(language, step.done)}",
             " ".join(lines), _board(game, final, step, language, emoji)]
    return LessonPage("\n\n".join(parts), (), (next_button,))


def _summary(chosen_lesson: Lesson, language: str) -> LessonPage:
    title = get_game(chosen_lesson.game).TITLE
    text = "\n\n".join((
        translate(language, "lesson.complete", "🎓 You finished the {game} lesson.",
                  game=title),
        localise(language, chosen_lesson.summary),
        translate(language, "lesson.what_next",
                  "Next: play {game} against the computer at the easy level (/play), where "
                  "the 💡 Hint button helps when you are stuck. Lessons never count for "
                  "ratings, results or assignments.", game=title)))
    again = Button(translate(language, "lesson.again", "Start the lesson again"),
                   data(chosen_lesson.game, 0))
    return LessonPage(text, (), (again,), finished=True)


def _interrupted(language: str) -> LessonPage:
    return LessonPage(translate(language, "lesson.interrupted",
                                "This lesson page is out of date. Start again with /learn."),
                      ok=False)
