"""Migration tool of issue 39: ``bot/`` from 28 flat modules to one package per feature.
Kept in the repository so that a branch started before the move can be brought over after
merging it: run it again on the merged tree and it moves what is left and rewrites the new
code's imports.

    .venv/bin/python scripts/restructure_bot.py            # move and rewrite
    .venv/bin/python scripts/restructure_bot.py --check    # exit 1 if anything is left

The tree it makes (``MOVES`` below is the whole table; a module goes where what it does
belongs, not where its name's prefix says):

    bot/
      __init__.py __main__.py    the package, and ``python -m bot``
      app.py                     the composition root: App.build wires the features' events
      clock.py events.py         the time of day (``Clock``); the typed event hub
      config.py runtime.py       settings; the interpreter and event loop
      limits.py jobs.py          the CPU pool, rate limits; the pool's plain-data jobs
      payloads.py replies.py     what buttons carry; what the service answers (Place, Reply…)
      names.py tables.py hints.py   display names; a room's tables; when a game gives hints
      store/                     the database (its own branch's; not moved)
      service/                   the game service: __init__ (``Service``, the façade the
                                 adapters call, and the reply types), core, openings, turns,
                                 presenter (the drawing), dangers
      community/                 __init__ (``Community``: results, stats, leaderboards, the
                                 games list, forget-me), ratings (Elo)
      classroom/                 __init__ (``Classroom``: turn timers, the export),
                                 assignments
      tournaments/               __init__ (``Tournaments``), pairings, text
      puzzles/                   daily (the Turing daily challenge), trainer, pages, jobs,
                                 ratings (the puzzle trainer, issue 41)
      learn/                     lessons, replays
      adapters/
        answers.py base.py common.py delivery.py end_panel.py presses.py tournament_host.py
        console/                 __init__ (``ConsoleSession``, ``run_console``), io, learn,
                                 moves, puzzles, setup
        discord/                 client, errors, hands, layout, limits, presses, translator,
                                 commands/ (__init__: the kit; assignments, classroom,
                                 community, games, learn, puzzles, tournament)
        telegram/                buttons, chats, client, handlers, hands, layout, limits,
                                 pacing, presses, transport, updates, webhook, commands/
                                 (__init__: the general ``Commands``; assignments, learn,
                                 puzzles, tournament)

Decisions the table records:

* A feature's old module becomes its package's ``__init__.py`` where the package takes the
  old module's name (``bot.community``, ``bot.classroom``, ``bot.tournaments``,
  ``bot.service``, ``bot.adapters.console``, both platforms' ``commands``), so the module's
  path does not change and its importers keep their imports; an old path that was a
  prefix of the new ones (``bot.community`` → ``bot.community.community``) could not be
  told from them by a second run.
* The daily Turing challenge goes to ``bot/puzzles/`` beside the trainer: both are puzzles
  of the day, and they share ``/daily``. ``Clock`` leaves it for ``bot/clock.py`` (the
  classroom, assignments and trainer read the time, not the challenge).
* ``lessons`` and ``replays`` are ``bot/learn/``: study before and after playing; neither
  changes a game nor counts for anything.
* Frame, flat: what the service, every feature and the adapters share, none of them owns.
  ``hints.py`` (the rule when a game may give hints, and the mark one leaves: read by the
  service, the results and the console) and ``tables.py`` (rooms and their tables: where
  the service seats a game, which the classroom and tournaments read) are vocabulary of
  the stored game, like ``payloads.py``. ``jobs.py`` stays flat, as the pool's worker
  processes import it by its path: under ``bot/service/`` every worker would import the
  whole service. The trainer's jobs are ``bot/puzzles/jobs.py``, whose package
  ``__init__`` imports nothing for the same reason.
* Telegram's topic modules (``assignments``, ``learn``, ``puzzles``, ``tournament``) go to
  ``telegram/commands/``, named as Discord's ``commands_<topic>.py`` now are in
  ``discord/commands/``; the routing (``handlers.py``) and the set-up buttons stay beside.

What it does, from those tables and nothing else (``scripts/restructure_common.py``, the
machinery shared with ``scripts/restructure_engines.py``): ``git mv`` what is left to move;
rewrite imports of the old modules in ``bot/ tests/ benchmarks/ scripts/ docs/ engines/
renderers/`` with the syntax tree (``from bot.daily import Clock, DailyChallenge`` →
``from bot.clock import Clock`` and ``from bot.puzzles.daily import DailyChallenge``;
``from bot import drawing`` → ``from bot.service import presenter as drawing``); rewrite
the old paths in text (``bot.trainer.puzzle_candidates``, ``bot/service_core.py``); sort
the changed files' imports with ruff. A second run changes nothing. A new flat module
that is not frame (``FRAME``), and a new prefixed adapter module, are reported, not moved:
where they go is a decision; add them to ``MOVES`` and run again.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared part, beside this
from restructure_common import Plan, Report
from restructure_common import main as run_main
from restructure_common import restructure as run_plan

ROOT = Path(__file__).resolve().parent.parent
SCAN_DIRS = ("bot", "tests", "benchmarks", "scripts", "docs", "engines", "renderers")

# Old file → new file.
MOVES: tuple[tuple[str, str], ...] = (
    # the service: one package; its mixins' modules hold its collaborators
    ("bot/service.py", "bot/service/__init__.py"),
    ("bot/service_core.py", "bot/service/core.py"),
    ("bot/service_games.py", "bot/service/openings.py"),
    ("bot/service_turns.py", "bot/service/turns.py"),
    ("bot/drawing.py", "bot/service/presenter.py"),
    ("bot/dangers.py", "bot/service/dangers.py"),
    # community: results and ratings, leaderboards, the games list, forget-me
    ("bot/community.py", "bot/community/__init__.py"),
    ("bot/ratings.py", "bot/community/ratings.py"),
    # classroom: turn timers, the export, assignments
    ("bot/classroom.py", "bot/classroom/__init__.py"),
    ("bot/assignments.py", "bot/classroom/assignments.py"),
    # tournaments
    ("bot/tournaments.py", "bot/tournaments/__init__.py"),
    ("bot/pairings.py", "bot/tournaments/pairings.py"),
    ("bot/tournament_text.py", "bot/tournaments/text.py"),
    # puzzles: the daily Turing challenge, and the trainer of issue 41
    ("bot/daily.py", "bot/puzzles/daily.py"),
    ("bot/trainer.py", "bot/puzzles/trainer.py"),
    ("bot/trainer_pages.py", "bot/puzzles/pages.py"),
    ("bot/puzzle_jobs.py", "bot/puzzles/jobs.py"),
    ("bot/puzzle_ratings.py", "bot/puzzles/ratings.py"),
    # learn: lessons before playing, replays after
    ("bot/lessons.py", "bot/learn/lessons.py"),
    ("bot/replays.py", "bot/learn/replays.py"),
    # the console: one package, named by topic like the platforms
    ("bot/adapters/console.py", "bot/adapters/console/__init__.py"),
    ("bot/adapters/console_io.py", "bot/adapters/console/io.py"),
    ("bot/adapters/console_learn.py", "bot/adapters/console/learn.py"),
    ("bot/adapters/console_moves.py", "bot/adapters/console/moves.py"),
    ("bot/adapters/console_puzzles.py", "bot/adapters/console/puzzles.py"),
    ("bot/adapters/console_setup.py", "bot/adapters/console/setup.py"),
    # Discord's commands: a package, its topics bare
    ("bot/adapters/discord/commands.py", "bot/adapters/discord/commands/__init__.py"),
    ("bot/adapters/discord/commands_assignments.py",
     "bot/adapters/discord/commands/assignments.py"),
    ("bot/adapters/discord/commands_classroom.py", "bot/adapters/discord/commands/classroom.py"),
    ("bot/adapters/discord/commands_community.py", "bot/adapters/discord/commands/community.py"),
    ("bot/adapters/discord/commands_games.py", "bot/adapters/discord/commands/games.py"),
    ("bot/adapters/discord/commands_learn.py", "bot/adapters/discord/commands/learn.py"),
    ("bot/adapters/discord/commands_puzzles.py", "bot/adapters/discord/commands/puzzles.py"),
    ("bot/adapters/discord/commands_tournament.py",
     "bot/adapters/discord/commands/tournament.py"),
    # Telegram's commands: the same package, the same topic names
    ("bot/adapters/telegram/commands.py", "bot/adapters/telegram/commands/__init__.py"),
    ("bot/adapters/telegram/assignments.py", "bot/adapters/telegram/commands/assignments.py"),
    ("bot/adapters/telegram/learn.py", "bot/adapters/telegram/commands/learn.py"),
    ("bot/adapters/telegram/puzzles.py", "bot/adapters/telegram/commands/puzzles.py"),
    ("bot/adapters/telegram/tournament.py", "bot/adapters/telegram/commands/tournament.py"),
)

NEW_PACKAGES: dict[str, str] = {
    "bot/puzzles/__init__.py":
        '"""Puzzles: the daily Turing Machine challenge (``daily``) and the puzzle trainer of\n'
        'issue 41 (``trainer``, its ``pages``, ``ratings`` and the pool\'s ``jobs``).\n\n'
        'Imports nothing: the worker processes import ``bot.puzzles.jobs`` by its path, and\n'
        'with it this package."""\n',
    "bot/learn/__init__.py":
        '"""Study, before and after playing: first-game lessons (``lessons``) and replays of\n'
        'finished games (``replays``). Neither changes a game nor counts for anything."""\n',
}

# Names that left a module (by its new name), and the module each lives in now. A name is
# only sent there once that module exists and binds it (``bot/clock.py`` came after the
# move-only commit; the tournaments' games module after it).
NAMES: dict[str, dict[str, str]] = {
    "bot.puzzles.daily": {"Clock": "bot.clock", "utc_now": "bot.clock"},
    # a tournament's games, out of the package's face (kept under 600 lines)
    "bot.tournaments": dict.fromkeys(("MARK", "GameMark", "bracket_of", "game_result"),
                                     "bot.tournaments.games"),
}

# Flat modules that stay flat: the frame every feature and adapter shares.
FRAME = ("__init__", "__main__", "app", "clock", "config", "events", "hints", "jobs",
         "limits", "names", "payloads", "replies", "runtime", "tables")
# Flat modules of the adapters that stay: each platform's parts that are not commands.
ADAPTER_FLAT: dict[str, tuple[str, ...]] = {
    "bot/adapters": ("__init__", "answers", "base", "common", "delivery", "end_panel",
                     "presses", "tournament_host"),
    "bot/adapters/discord": ("__init__", "boards", "client", "command_sync", "components",
                             "errors", "hands", "interactions", "layout", "limits",
                             "markdown", "menus", "messages", "places", "presses", "threads",
                             "translator"),
    "bot/adapters/telegram": ("__init__", "boards", "buttons", "chats", "client",
                              "command_sync", "handlers", "hands", "layout", "limits",
                              "messages", "pacing", "places", "presses", "transport",
                              "updates", "webhook"),
}

# Files that hold the old names on purpose: this tool and its test.
KEEP_OLD_NAMES = ("scripts/restructure_bot.py", "tests/test_restructure_bot.py")


def stray_modules(root: Path) -> list[str]:
    """Flat modules the tables do not know: another branch's new ``bot/<name>.py`` or
    ``console_<topic>.py``. Where each goes is a decision, so it is reported."""
    known = {old for old, _ in MOVES}
    places = {"bot": FRAME, **ADAPTER_FLAT}
    warnings = []
    for folder, kept in places.items():
        for flat in sorted((root / folder).glob("*.py")):
            relative = flat.relative_to(root).as_posix()
            if flat.stem not in kept and relative not in known:
                warnings.append(f"{relative} is a flat module the tables do not know: add "
                                f"it to MOVES (its feature's package) or to the flat lists")
    return warnings


# ``bot`` is also the adapters' name of their client (``bot.daily``): code is rewritten only
# through its syntax tree, text only in strings, comments and Markdown.
PLAN = Plan(MOVES, SCAN_DIRS, KEEP_OLD_NAMES, NEW_PACKAGES, NAMES, stray_modules,
            text_in_code=False)


def restructure(root: Path, dry_run: bool = False, git: bool | None = None,
                ruff: bool = True) -> Report:
    return run_plan(PLAN, root, dry_run, git, ruff)


def main(argv: list[str] | None = None) -> int:
    return run_main(restructure, ROOT, __doc__.splitlines()[0] if __doc__ else None, argv)


if __name__ == "__main__":
    sys.exit(main())
