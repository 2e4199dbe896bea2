"""How long a student waits for a puzzle, with and without the trainer's stock of made
puzzles (issue 41: a puzzle ready in 100 ms p99).

``benchmarks.puzzles`` times one generation; what a student waits for is the trainer's
pick (``PuzzleTrainer._new_attempt``): the player's prefetched candidates
(``bot.puzzles.prefetch``) when they are ready, else a puzzle of the stock
(``bot.puzzles.stock``), else up to ``CANDIDATES`` puzzles made in the worker pool on the
press; then the store's writes and the page. This drives the trainer as students do,
through the service with a real store (SQLite in a temporary folder) and the real worker
pool (processes, the bot's ``Limits``), for every game with puzzles and each of its themes:

- **first**: the first puzzle of a session: ``--firsts`` new students, one after another,
  each opening a puzzle of the theme. With the stock, each finds it full again (the
  refill after the one before is waited for), as a student coming in alone does.
- **class**: a class opening the theme together: ``--class-size`` new students press at
  the same moment (a teacher's "everyone, /puzzle rithmomachia victory-in-2"), so the
  stock is drained by one burst and the pool makes the rest.
- **next after T s**, for each ``--think`` T: a new student opens a puzzle, looks at it
  for T seconds, answers it by its buttons, reads the verdict for T seconds and presses
  Next, ``--puzzles`` times. ``--think 0`` is Next pressed at once, before the student's
  prefetch can be ready.

Timed: from the press to its page being ready. Each is run with the stock and without it
(the stock switched off), one after the other per theme so that both columns share the
machine's load; the prefetch is on in both (``--no-prefetch``: off in both). Printed per
game and theme, then all together: p50, p99 and max in milliseconds. The workers' start
and each game's first puzzle in each worker (the L-game's table) are paid before the
timing, as the bot pays them once per worker process, and so is the stock's first fill,
as ``python -m bot`` starts it (its time is printed).

    .venv/bin/python -m benchmarks.puzzle_trainer              # about 2 minutes
    .venv/bin/python -m benchmarks.puzzle_trainer --games rithmomachia --themes victory-in-2 \
        --puzzles 30 --firsts 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

from benchmarks.progress import Progress
from benchmarks.timing import summary
from bot.app import App
from bot.config import Settings
from bot.limits import Limits
from bot.puzzles.trainer import themes_of
from bot.replies import Place, User
from bot.store import SQLiteStore
from engines.puzzles import puzzle_games
from tests.helpers.puzzle_trainer import answer_presses

TARGET_P99_MS = 100.0
MODES = ("stock", "without")
PLACE = Place("discord", "bench", "en", False, "")
# How long the stock may take to settle (its refills done) before a timed press.
SETTLE_SECONDS = 60.0

# What was measured, by section ("first", "next after 0.3 s"…), game, theme and mode.
Waits = dict[tuple[str, str, str, str], list[float]]


async def settled(app: App) -> None:
    """Until the stock's refills are done: the next press finds it as full as it gets."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while app.trainer.stock.refilling and time.monotonic() < deadline:
        await asyncio.sleep(0.01)


async def stocking(app: App, game: str, on: bool) -> None:
    """The stock switched on (its game's themes full) or off, its refills done either way."""
    await settled(app)
    app.trainer.stock.stocking = on
    if on:
        app.trainer.stock.touch(game)
        await settled(app)


async def first_puzzles(app: App, name: str, game: str, theme: str, count: int
                        ) -> list[float]:
    """``count`` new students' first puzzles; the seconds each took."""
    waits: list[float] = []
    for number in range(count):
        await settled(app)
        user = User("bench", f"{name}-{number}", "Student")
        started = time.perf_counter()
        page = await app.trainer.start(PLACE, user, game, theme)
        waits.append(time.perf_counter() - started)
        assert page.ok and page.attempt is not None, page.text
        # Their next puzzle is not wanted: its making should not load the next student's.
        app.trainer.prefetches.forget(user.platform, user.id)
    return waits


async def class_puzzles(app: App, name: str, game: str, theme: str, count: int
                        ) -> list[float]:
    """``count`` new students opening a puzzle of ``theme`` at once; each one's seconds."""
    await settled(app)

    async def one(number: int) -> float:
        user = User("bench", f"{name}-{number}", "Student")
        started = time.perf_counter()
        page = await app.trainer.start(PLACE, user, game, theme)
        waited = time.perf_counter() - started
        assert page.ok and page.attempt is not None, page.text
        app.trainer.prefetches.forget(user.platform, user.id)
        return waited

    return list(await asyncio.gather(*(one(number) for number in range(count))))


async def session(app: App, user: User, game: str, theme: str, puzzles: int,
                  think: float) -> list[float]:
    """One student's run of ``puzzles`` Next presses; the seconds each took."""
    page = await app.trainer.start(PLACE, user, game, theme)
    waits: list[float] = []
    for _ in range(puzzles):
        assert page.ok and page.attempt is not None, page.text
        attempt = await app.store.puzzle_attempt(page.attempt)
        assert attempt is not None
        await asyncio.sleep(think)
        for button in answer_presses(attempt, right=True):
            page = await app.trainer.press(PLACE, user, button)
            assert page.ok, page.text
        await asyncio.sleep(think)
        started = time.perf_counter()
        page = await app.trainer.press(PLACE, user, f"{attempt.id}:n")
        waits.append(time.perf_counter() - started)
    # The puzzle after the last is not wanted: its making should not load the next run.
    app.trainer.prefetches.forget(user.platform, user.id)
    return waits


def section_name(think: float) -> str:
    return f"next after {think:g} s" if think else "next at once"


async def run(args: argparse.Namespace, folder: Path) -> None:
    store = await SQLiteStore.open(folder / "bench.sqlite3")
    app = App.build(Settings(database_path=str(folder / "bench.sqlite3")), store,
                    limits=Limits(command_burst=None, games_per_user=None))
    app.trainer.prefetching = not args.no_prefetch
    try:
        games = [game for game in args.games if game in puzzle_games()]
        pairs = [(game, theme) for game in games for theme in themes_of(game)
                 if not args.themes or theme in args.themes]
        sections = ["first", "class", *(section_name(think) for think in args.think)]
        progress = Progress("puzzle trainer", len(pairs) * len(MODES))
        progress.say("warming the workers up: two puzzles of each game at once")
        app.start()
        for game in games:  # one for each worker, which builds the game's tables once
            await asyncio.gather(*(app.trainer.start(PLACE, User("warm", f"{game}{n}", "W"),
                                                     game) for n in range(2)))
        await asyncio.sleep(1.0)  # the warm-up's prefetches done
        started = time.perf_counter()
        app.trainer.stock.start(games)  # as ``python -m bot`` does at its start
        await settled(app)
        filled = time.perf_counter() - started
        progress.say(f"the stock of {len(app.trainer.stock)} puzzles filled in "
                     f"{filled:.1f} s")
        waits: Waits = {}
        done = 0
        for number, (game, theme) in enumerate(pairs):
            for mode in MODES:
                await stocking(app, game, mode == "stock")
                name = f"{mode}-{number}"
                waits[("first", game, theme, mode)] = await first_puzzles(
                    app, f"first-{name}", game, theme, args.firsts)
                waits[("class", game, theme, mode)] = await class_puzzles(
                    app, f"class-{name}", game, theme, args.class_size)
                for think in args.think:
                    waits[(section_name(think), game, theme, mode)] = await session(
                        app, User("bench", f"next-{think:g}-{name}", "Student"), game, theme,
                        args.puzzles, think)
                done += 1
                progress(done, f"{game} {theme}")
        report(waits, sections, pairs, filled, args.json)
    finally:
        await app.close()


def report(waits: Waits, sections: list[str], pairs: list[tuple[str, str]], filled: float,
           as_json: bool) -> None:
    if as_json:
        print(json.dumps({"stock_filled_s": round(filled, 2)}))
    for section in sections:
        rows = [(game, theme, {mode: summary(waits[(section, game, theme, mode)])
                               for mode in MODES}) for game, theme in pairs]
        rows.append(("all", "", {mode: summary(
            [wait for (each, _, _, its_mode), values in waits.items()
             if each == section and its_mode == mode for wait in values]) for mode in MODES}))
        if as_json:
            for game, theme, by_mode in rows:
                print(json.dumps({"section": section, "game": game, "theme": theme,
                                  **by_mode}))
            continue
        print(f"\n{section}:")
        print(f"{'':<27} {'with the stock':^26} {'without':^26}")
        print(f"{'game':<13} {'theme':<13} " + " ".join(
            f"{'p50':>8} {'p99':>8} {'max':>8}" for _ in MODES) + "   (ms)")
        for game, theme, by_mode in rows:
            print(f"{game:<13} {theme:<13} " + " ".join(
                f"{by_mode[mode]['p50_ms']:>8.1f} {by_mode[mode]['p99_ms']:>8.1f} "
                f"{by_mode[mode]['max_ms']:>8.1f}" for mode in MODES))
        over = [f"{game} {theme}".strip() for game, theme, by_mode in rows
                if by_mode["stock"]["p99_ms"] > TARGET_P99_MS]
        print(f"target: ready in under {TARGET_P99_MS:.0f} ms p99; over it with the "
              "stock: " + (", ".join(over) if over else "none"))
    if not as_json:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"\nthe stock was filled in {filled:.1f} s after the workers' warm-up; "
              f"load average {load:.2f} at the end")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--firsts", type=int, default=6,
                        help="new students' first puzzles per game, theme and mode")
    parser.add_argument("--class-size", type=int, default=15,
                        help="students opening a theme's puzzle at the same moment")
    parser.add_argument("--puzzles", type=int, default=4,
                        help="Next presses per game, theme, mode and --think")
    parser.add_argument("--think", type=float, nargs="+", default=[0.3, 0.0],
                        help="seconds a student looks at a puzzle, and at its verdict, "
                             "before Next; one run each (0: Next pressed at once)")
    parser.add_argument("--no-prefetch", action="store_true",
                        help="without the players' prefetch, in both columns")
    parser.add_argument("--games", nargs="+", default=list(puzzle_games()))
    parser.add_argument("--themes", nargs="+", default=[], help="only these themes")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if not args.json:
        print(f"load average {load:.2f} on {os.cpu_count()} cores; per theme and mode "
              f"{args.firsts} first puzzles and {args.puzzles} Next presses after each of "
              f"{', '.join(f'{think:g}' for think in args.think)} s to answer and to read")
    with tempfile.TemporaryDirectory(prefix="puzzle-trainer-") as folder:
        asyncio.run(run(args, Path(folder)))


if __name__ == "__main__":
    main()
