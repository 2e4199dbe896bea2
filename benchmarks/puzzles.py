"""How long a generated puzzle takes, per game and theme (issue 41: ready in 100 ms p99).

For every game with a puzzle generator (``engines.puzzles.puzzle_games``) and each of its
themes, ``--puzzles`` seeds (default 100) are generated in turn; printed per theme: p50,
p99 and max in milliseconds of wall time (what the target is about), and the p50 and p99
of the process's CPU time, which the other work on a shared machine does not inflate
(the load average is printed first: with more runnable processes than cores, wall time
grows while CPU time stays). A game's first puzzle also builds what the game keeps for all
later ones (the L-game's solved table, about 0.6 s); that warm-up is timed and printed on
its own line, not counted in the theme's figures, since the bot pays it once per process.
A game whose generator is missing is skipped with a note.

    .venv/bin/python -m benchmarks.puzzles                  # about a minute
    .venv/bin/python -m benchmarks.puzzles --games lgame rithmomachia --puzzles 300
"""

from __future__ import annotations

import argparse
import json
import os
import time

from benchmarks.timing import summary
from engines.base import GameError
from engines.puzzles import puzzle_games, puzzle_generator

TARGET_P99_MS = 100.0
ALL_GAMES = ("lgame", "rithmomachia", "booleo", "digitalo")


def time_theme(game: str, theme: str, puzzles: int, seed: int
               ) -> tuple[list[float], list[float]]:
    """The wall and the CPU seconds of each puzzle of ``theme``."""
    generator = puzzle_generator(game)
    wall: list[float] = []
    cpu: list[float] = []
    for number in range(puzzles):
        start, start_cpu = time.perf_counter(), time.process_time()
        generator.generate(seed + number, theme)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--puzzles", type=int, default=100, help="seeds per theme")
    parser.add_argument("--seed", type=int, default=1000, help="the first seed")
    parser.add_argument("--games", nargs="+", default=list(ALL_GAMES))
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    available = puzzle_games()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if args.json:
        print(json.dumps({"load_average": round(load, 2), "cores": os.cpu_count()}))
    else:
        print(f"load average {load:.2f} on {os.cpu_count()} cores")
        print(f"{'game':<13} {'theme':<13} {'n':>4} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
              f" {'cpu p50':>8} {'cpu p99':>8}")
    over: list[str] = []
    for game in args.games:
        if game not in available:
            print(f"{game}: no puzzle generator here yet, skipped", flush=True)
            continue
        generator = puzzle_generator(game)
        started = time.perf_counter()
        try:
            generator.generate(args.seed - 1, generator.themes[0])
        except GameError as error:
            print(f"{game}: the warm-up puzzle failed ({error}), skipped", flush=True)
            continue
        warm_up = (time.perf_counter() - started) * 1000
        if args.json:
            print(json.dumps({"game": game, "warm_up_ms": round(warm_up, 1)}), flush=True)
        else:
            print(f"{game:<13} {'(warm-up)':<13} {1:>4} {warm_up:>8.1f}", flush=True)
        for theme in generator.themes:
            wall, cpu = time_theme(game, theme, args.puzzles, args.seed)
            row, cpu_row = summary(wall), summary(cpu)
            if row["p99_ms"] > TARGET_P99_MS:
                over.append(f"{game} {theme} ({row['p99_ms']:.0f} ms)")
            if args.json:
                print(json.dumps({"game": game, "theme": theme, **row,
                                  "cpu_p50_ms": cpu_row["p50_ms"],
                                  "cpu_p99_ms": cpu_row["p99_ms"]}), flush=True)
            else:
                print(f"{game:<13} {theme:<13} {row['n']:>4} {row['p50_ms']:>8.1f} "
                      f"{row['p99_ms']:>8.1f} {row['max_ms']:>8.1f} "
                      f"{cpu_row['p50_ms']:>8.1f} {cpu_row['p99_ms']:>8.1f}", flush=True)
    if not args.json:
        print(f"target: p99 under {TARGET_P99_MS:.0f} ms; over it: "
              + (", ".join(over) if over else "none"))


if __name__ == "__main__":
    main()
