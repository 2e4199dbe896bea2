"""How long a student waits for the next puzzle, with and without its prefetch (issue 41:
a puzzle ready in 100 ms p99).

``benchmarks.puzzles`` times one generation; what a student waits for on "Next" is the
trainer's pick (``PuzzleTrainer._new_attempt``): up to ``CANDIDATES`` puzzles made in the
worker pool, then the store's writes and the page. This drives the trainer as a student
does, through the service with a real store (SQLite in a temporary folder) and the real
worker pool (processes, the bot's ``Limits``): for every game with puzzles and each of
its themes, a new student opens a puzzle, looks at it for ``--think`` seconds, answers it
by its buttons, reads the verdict for ``--think`` seconds and presses Next, ``--puzzles``
times. Timed: from the press of Next to its page being ready. Each theme is run once
with the prefetch (``bot.puzzles.prefetch``) and once without, one after the other, so
both columns share the machine's load; printed per game and theme, then all together:
p50, p99 and max in milliseconds. The workers' start and each game's first puzzle in each
worker (the L-game's table) are paid before the timing, as the bot pays them once per
worker process.

    .venv/bin/python -m benchmarks.puzzle_trainer              # about 2 minutes
    .venv/bin/python -m benchmarks.puzzle_trainer --games rithmomachia --themes victory-in-2 \
        --puzzles 30
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
MODES = ("prefetch", "without")
PLACE = Place("discord", "bench", "en", False, "")


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


async def run(args: argparse.Namespace, folder: Path) -> None:
    store = await SQLiteStore.open(folder / "bench.sqlite3")
    app = App.build(Settings(database_path=str(folder / "bench.sqlite3")), store,
                    limits=Limits(command_burst=None, games_per_user=None))
    app.start()
    try:
        games = [game for game in args.games if game in puzzle_games()]
        pairs = [(game, theme) for game in games for theme in themes_of(game)
                 if not args.themes or theme in args.themes]
        progress = Progress("puzzle trainer", len(pairs) * len(MODES))
        progress.say("warming the workers up: two puzzles of each game at once")
        for game in games:  # one for each worker, which builds the game's tables once
            await asyncio.gather(*(app.trainer.start(PLACE, User("warm", f"{game}{n}", "W"),
                                                     game) for n in range(2)))
        waits: dict[tuple[str, str, str], list[float]] = {}
        done = 0
        for number, (game, theme) in enumerate(pairs):
            for mode in MODES:
                app.trainer.prefetching = mode == "prefetch"
                user = User("bench", f"{mode}-{number}", "Student")
                waits[(game, theme, mode)] = await session(app, user, game, theme,
                                                           args.puzzles, args.think)
                done += 1
                progress(done, f"{game} {theme}")
        report(waits, pairs, args.json)
    finally:
        await app.close()


def report(waits: dict[tuple[str, str, str], list[float]],
           pairs: list[tuple[str, str]], as_json: bool) -> None:
    rows = [(game, theme, {mode: summary(waits[(game, theme, mode)]) for mode in MODES})
            for game, theme in pairs]
    rows.append(("all", "", {mode: summary([wait for (_, _, each), values in waits.items()
                                            if each == mode for wait in values])
                             for mode in MODES}))
    if as_json:
        for game, theme, by_mode in rows:
            print(json.dumps({"game": game, "theme": theme, **by_mode}))
        return
    print(f"{'':<27} {'with the prefetch':^26} {'without':^26}")
    print(f"{'game':<13} {'theme':<13} " + " ".join(
        f"{'p50':>8} {'p99':>8} {'max':>8}" for _ in MODES) + "   (ms)")
    for game, theme, by_mode in rows:
        print(f"{game:<13} {theme:<13} " + " ".join(
            f"{by_mode[mode]['p50_ms']:>8.1f} {by_mode[mode]['p99_ms']:>8.1f} "
            f"{by_mode[mode]['max_ms']:>8.1f}" for mode in MODES))
    over = [f"{game} {theme}" for game, theme, by_mode in rows
            if by_mode["prefetch"]["p99_ms"] > TARGET_P99_MS]
    print(f"target: Next ready in under {TARGET_P99_MS:.0f} ms p99; over it with the "
          "prefetch: " + (", ".join(over) if over else "none"))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--puzzles", type=int, default=4,
                        help="Next presses per game, theme and mode")
    parser.add_argument("--think", type=float, default=0.3,
                        help="seconds a student looks at a puzzle, and at its verdict")
    parser.add_argument("--games", nargs="+", default=list(puzzle_games()))
    parser.add_argument("--themes", nargs="+", default=[], help="only these themes")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if not args.json:
        print(f"load average {load:.2f} on {os.cpu_count()} cores; {args.puzzles} Next "
              f"presses per theme and mode, {args.think} s to answer and to read")
    with tempfile.TemporaryDirectory(prefix="puzzle-trainer-") as folder:
        asyncio.run(run(args, Path(folder)))


if __name__ == "__main__":
    main()
