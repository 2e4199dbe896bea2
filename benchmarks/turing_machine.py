"""How long the machine takes to solve generated puzzles, and how well it scores.

For each mode and difficulty band, ``--puzzles`` puzzles (sizes 4, 5 and 6 in turn) are
generated and solved at ``--level``; printed per group: solve time p50/p95/max (the
candidate set's enumeration included, as a game pays for it too) and the machine's mean
rounds and tests against each puzzle's real secret, and its mean worst case.

``--timeout S`` gives up on a puzzle after S seconds (Unix only): it counts as S seconds
in the times, so percentiles above it are lower bounds, and it is left out of the means;
"over" says how many. "guessed" counts the puzzles on which the exact search ran out of
its node budget and the machine's heuristic played instead (not proven optimal). The
slowest puzzle's code is printed for a closer look.

``--clock cpu`` times with the process's CPU time instead of the wall clock, which
another busy process on the machine disturbs less.

``--seconds`` (default 100) bounds the whole run: each group gets an equal share, solves
puzzles until ``--puzzles`` or its share is used, and a puzzle still running when the share
ends is dropped (not counted anywhere), so the default run ends within 2 minutes; ``n``
says how many puzzles each row holds. ``--seconds 0`` runs every puzzle. Progress goes to
stderr every few seconds.

    .venv/bin/python -m benchmarks.turing_machine --level par            # about 100 s
    .venv/bin/python -m benchmarks.turing_machine --puzzles 200 --level par --modes classic \
        --seconds 0                                                         # the full count
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import time
from types import FrameType
from typing import Any

from engines.turing.generator import generate
from engines.turing.machine import machine_score
from engines.turing.puzzle import DIFFICULTIES, LEVELS, MODES, SIZES

# Progress lines on stderr at most this often, so that a long group shows it is alive.
PROGRESS_SECONDS = 5.0


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[round(share * 100) - 1]


class OverTime(Exception):
    pass


def _over_time(signum: int, frame: FrameType | None) -> None:
    raise OverTime


def mean(values: list[int]) -> float:
    return round(statistics.fmean(values), 3) if values else float("nan")


def run_group(mode: str, difficulty: str, puzzles: int, level: str, seed: int,
              timeout: float, clock: str = "wall", share: float = 0.0) -> dict[str, Any]:
    """One mode and band; ``share`` > 0 bounds the group's wall time in seconds."""
    now = time.process_time if clock == "cpu" else time.perf_counter
    began = time.perf_counter()
    deadline = began + share if share > 0 else None
    said = began
    seconds: list[float] = []
    rounds: list[int] = []
    tests: list[int] = []
    worst_rounds: list[int] = []
    worst_tests: list[int] = []
    slowest = ("", 0.0)
    over = 0
    unproven = 0
    for number in range(puzzles):
        if time.perf_counter() - said >= PROGRESS_SECONDS:
            said = time.perf_counter()
            progress(f"  {mode}/{difficulty}: {len(seconds)} puzzles in "
                     f"{said - began:.0f} s")
        alarm = timeout
        cut_by_share = False
        if deadline is not None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            if not alarm or remaining < alarm:
                alarm, cut_by_share = remaining, True
        puzzle = generate(difficulty, SIZES[number % len(SIZES)], mode, seed + number)
        start = now()
        if alarm:
            signal.signal(signal.SIGALRM, _over_time)
            signal.setitimer(signal.ITIMER_REAL, alarm)
        try:
            result = machine_score(puzzle, level)
        except OverTime:
            if cut_by_share:
                break  # the group's time is up: this puzzle is not counted
            over += 1
            seconds.append(timeout)
            slowest = (puzzle.share_code(), timeout)
            continue
        finally:
            if alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
        elapsed = now() - start
        seconds.append(elapsed)
        if elapsed > slowest[1]:
            slowest = (puzzle.share_code(), elapsed)
        unproven += not result.proven
        rounds.append(result.score[0])
        tests.append(result.score[1])
        worst_rounds.append(result.worst[0])
        worst_tests.append(result.worst[1])
    progress(f"  {mode}/{difficulty}: done, {len(seconds)} puzzles in "
             f"{time.perf_counter() - began:.0f} s")
    return {
        "mode": mode, "difficulty": difficulty, "level": level, "n": len(seconds),
        "p50_s": round(percentile(seconds, 0.50), 4),
        "p95_s": round(percentile(seconds, 0.95), 4),
        "max_s": round(max(seconds), 4) if seconds else float("nan"),
        "over": over,
        "guessed": unproven,
        "slowest": slowest[0],
        "mean_rounds": mean(rounds),
        "mean_tests": mean(tests),
        "mean_worst_rounds": mean(worst_rounds),
        "mean_worst_tests": mean(worst_tests),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--puzzles", type=int, default=200)
    parser.add_argument("--level", choices=LEVELS, default="optimal")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--difficulties", nargs="+", choices=DIFFICULTIES,
                        default=list(DIFFICULTIES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=0.0,
                        help="seconds before giving up on one puzzle (0: never)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time by the wall clock or by this process's CPU time")
    parser.add_argument("--seconds", type=float, default=100.0,
                        help="wall-time budget of the whole run, shared by the groups "
                             "(0: no limit)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    share = args.seconds / (len(args.modes) * len(args.difficulties))
    if not args.json:
        print(f"{'mode':<10} {'band':<9} {'n':>4} {'p50 s':>8} {'p95 s':>8} {'max s':>8} "
              f"{'over':>4} {'guessed':>7} {'rounds':>7} {'tests':>7} {'worst r':>8} "
              f"{'worst t':>8}  slowest")
    for mode in args.modes:
        for difficulty in args.difficulties:
            row = run_group(mode, difficulty, args.puzzles, args.level, args.seed,
                            args.timeout, args.clock, share)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(f"{mode:<10} {difficulty:<9} {row['n']:>4} {row['p50_s']:>8.3f} "
                      f"{row['p95_s']:>8.3f} {row['max_s']:>8.3f} {row['over']:>4} "
                      f"{row['guessed']:>7} "
                      f"{row['mean_rounds']:>7.2f} "
                      f"{row['mean_tests']:>7.2f} {row['mean_worst_rounds']:>8.2f} "
                      f"{row['mean_worst_tests']:>8.2f}  {row['slowest']}", flush=True)


if __name__ == "__main__":
    main()
