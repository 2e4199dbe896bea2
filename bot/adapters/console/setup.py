"""The console's questions before a game: which game, how, with which options.

Pure: each function turns a game module's declarations into ``Question``s; the session asks
them. Every question's default is its first item, marked, so Enter (or 1) takes the
standard game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.base import GameModule, OptionSpec
from engines.lessons import LESSON_GAMES
from engines.puzzles import puzzle_games

Translate = Callable[..., str]

# The Turing Machine's own questions replace the generic option list: its puzzle options
# (a code, booklet cards, a date) are typed, not picked.
TURING_CHOSEN = ("difficulty", "verifiers", "mode", "assist")
# An integer option is offered as a list of its values only when the list is short.
MOST_VALUES = 5
# The value of a learner's aid that the computer's level decides (on against the easiest).
LEARNER_DEFAULT = "level"
# What a ``Question.moves`` answer typed in notation starts with (no item value does).
TYPED_MOVE = "typed:"


@dataclass(frozen=True)
class MenuItem:
    label: str
    value: str


@dataclass(frozen=True)
class Question:
    title: str
    items: tuple[MenuItem, ...]
    # Answered by typing a value (an option such as ``ops=not,nand``): the line typed is
    # the answer, for the session to check; the one item is the default.
    typed: bool = False
    # Whether Enter takes the first item. A question whose items are moves (a lesson's)
    # has no default: Enter asks for a number.
    has_default: bool = True
    # A line that is not an item's number is a move in notation, returned as
    # ``TYPED_MOVE`` followed by the line.
    moves: bool = False

    @property
    def default(self) -> MenuItem:
        return self.items[0]


def is_solo(module: GameModule) -> bool:
    """Against the computer means alone against the machine's score (the Turing Machine)."""
    return module.INFO.solo


def game_question(t: Translate, games: Sequence[tuple[str, str]]) -> Question:
    """The main menu: one line per game (name, title), then the player's results, help
    and quit."""
    items = [MenuItem(title, f"game:{name}") for name, title in games]
    items += [MenuItem(t("console.my_results"), "stats"), MenuItem(t("console.help"), "help"),
              MenuItem(t("console.quit"), "quit")]
    return Question(t("console.main_menu"), tuple(items))


def rules_game_question(t: Translate, games: Sequence[tuple[str, str]]) -> Question:
    """``rules`` typed where no game is chosen yet: which game's rules, or back."""
    items = [MenuItem(title, f"game:{name}") for name, title in games]
    return Question(t("console.rules_which_game"),
                    (*items, MenuItem(t("console.back"), "back")))


def yes_no_question(title: str, t: Translate) -> Question:
    """A question before something that cannot be taken back: Enter keeps things as they
    are, only a deliberate "yes" goes ahead."""
    return Question(title, (MenuItem(t("console.enter_mark", label=t("console.no")), "no"),
                            MenuItem(t("console.yes"), "yes")))


def mode_question(t: Translate, module: GameModule) -> Question:
    """How to play one game: against the computer (or alone), with a friend, its rules,
    or its lesson when it has one."""
    first = (MenuItem(t("console.mode_solo"), "solo") if is_solo(module)
             else MenuItem(t("console.mode_ai"), "ai"))
    lesson = ((MenuItem(t("console.mode_learn"), "learn"),)
              if module.NAME in LESSON_GAMES else ())
    # The puzzle trainer (issue 41), after the lesson: where a learner goes next.
    puzzles = ((MenuItem(t("console.mode_puzzles"), "puzzles"),
                MenuItem(t("console.mode_daily_puzzle"), "daily-puzzle"))
               if module.NAME in puzzle_games() else ())
    return Question(t("console.game_menu", game=module.TITLE),
                    (first, MenuItem(t("console.mode_local"), "local"),
                     MenuItem(t("console.mode_rules"), "rules"), *lesson, *puzzles,
                     MenuItem(t("console.back"), "back")))


def rules_question(t: Translate, presets: Sequence[tuple[str, str]] = ()) -> Question:
    """Which rules: the game's presets when it has some (``(label, options)``, its teaching
    game first, as the platforms offer them), else the standard rules; or every option
    one by one."""
    first = ([MenuItem(label, f"preset:{options}") for label, options in presets]
             or [MenuItem(t("console.rules_standard"), "standard")])
    return Question(t("console.rules_question"),
                    (*first, MenuItem(t("console.rules_choose"), "choose")))


def value_label(t: Translate, game: str, spec: OptionSpec, value: object) -> str:
    if value == LEARNER_DEFAULT:
        return t("console.value_on_against_easy")
    if spec.kind is bool:
        return t("console.value_on" if value else "console.value_off")
    if game == "turing" and spec.name in ("difficulty", "mode"):
        return t(f"turing.{spec.name}.{value}")
    return str(value)


def option_values(spec: OptionSpec, learner_aid: bool = False) -> list[object]:
    """The values offered for an option, the default first; empty when it is typed only.
    A ``learner_aid`` (an option the computer's easiest level switches on) has three: as
    the level decides (the default), on, off."""
    values: list[object]
    if learner_aid and spec.kind is bool:
        values = [LEARNER_DEFAULT, True, False]
    elif spec.kind is bool:
        values = [spec.default, not spec.default]
    elif spec.choices:
        values = [spec.default, *(c for c in spec.choices if c != spec.default)]
    elif (spec.kind is int and spec.minimum is not None and spec.maximum is not None
          and spec.maximum - spec.minimum < MOST_VALUES):
        values = [spec.default, *(v for v in range(spec.minimum, spec.maximum + 1)
                                  if v != spec.default)]
    else:
        values = []
    return values


def learner_aids(module: GameModule) -> frozenset[str]:
    """The options a game against the computer's easiest level starts with switched on
    (``GameInfo.beginner_options``, such as ``danger=on``)."""
    return frozenset(word.partition("=")[0] for word in module.INFO.beginner_options.split())


def option_questions(t: Translate, game: str, module: GameModule, *,
                     against_computer: bool = False) -> list[tuple[OptionSpec, Question]]:
    """One question per option that can be picked from a short list, the standard first;
    an option typed in words (Rithmomachia's ``ops``) or a number with a wide range
    (``move_limit``) is a question too, answered by typing (``typed_question``)."""
    questions = []
    aids = learner_aids(module) if against_computer else frozenset()
    for spec in module.OPTIONS:
        if game == "turing" and spec.name not in TURING_CHOSEN:
            continue
        values = option_values(spec, spec.name in aids)
        if not values:
            if game != "turing":
                questions.append((spec, typed_question(t, spec)))
            continue
        items = []
        for index, value in enumerate(values):
            label = value_label(t, game, spec, value)
            if index == 0:
                # A value already called "standard" needs no second "standard".
                label = t("console.enter_mark" if value in ("standard", LEARNER_DEFAULT)
                          else "console.default_mark", label=label)
            items.append(MenuItem(label, option_text(value)))
        questions.append((spec, Question(
            t("console.option_question", option=spec.name.replace("_", " "), help=spec.help),
            tuple(items))))
    return questions


def typed_question(t: Translate, spec: OptionSpec) -> Question:
    """An option answered by typing its value; the one item is the standard (Enter)."""
    return Question(t("console.option_typed_question", option=spec.name.replace("_", " "),
                      help=spec.help),
                    (MenuItem(t("console.default_mark", label=option_text(spec.default)),
                              option_text(spec.default)),),
                    typed=True)


def option_text(value: object) -> str:
    if value == LEARNER_DEFAULT:
        return LEARNER_DEFAULT
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def turing_puzzle_question(t: Translate) -> Question:
    return Question(t("console.puzzle_question"),
                    (MenuItem(t("console.puzzle_new"), "new"),
                     MenuItem(t("console.puzzle_choose"), "choose"),
                     MenuItem(t("console.puzzle_code"), "code")))


def level_question(t: Translate, module: GameModule) -> Question:
    """The computer's strength, weakest first (the default for a newcomer)."""
    items = [MenuItem(t("console.enter_mark", label=level) if index == 0 else level, level)
             for index, level in enumerate(module.LEVELS)]
    return Question(t("console.level_question"), tuple(items))


def first_question(t: Translate) -> Question:
    return Question(t("console.first_question"),
                    (MenuItem(t("console.enter_mark", label=t("console.first_me")), "0"),
                     MenuItem(t("console.first_computer"), "1"),
                     MenuItem(t("console.first_random"), "random")))


def after_game_question(t: Translate) -> Question:
    return Question(t("console.after_game"),
                    (MenuItem(t("console.play_again"), "again"),
                     MenuItem(t("console.to_main_menu"), "menu"),
                     MenuItem(t("console.quit"), "quit")))
