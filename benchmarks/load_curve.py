"""The load curve (issue 42.2): ``benchmarks/load.py --curve``.

One SQLite run per number of tables (100, 300, 500, 700, 1000 by default, or the list
given: ``--curve 100,300,1000,1800``), each with the people's pauses and the options of
the command line, then the capacity run (as many tables as the largest point, 10 moves each, no
pauses). Per
point: moves/s while every table played, the event loop's busy share, ``press_move``
p50/p99, the bare commit's p99 sampled during the same run and the ratio, the loop lag's
p99, the bot process's CPU per saved move and the machine yardstick. From the paced
points, the capacity at the service level (``benchmarks/load_targets.py``): the highest
moves/s at which ``press_move`` p99 ≤ 3× the in-run bare commit p99 and the loop lag p99
< 10 ms. When the busiest point is still within it, the capacity is at least that (add
points with more tables to find it).

A point takes its ``--moves`` × (``--think`` + the clicks) plus the ramp, about 80 s at
the defaults; the whole curve about 9 minutes on an idle 2-core machine. ``--repeat 3``
runs every point three times and takes each measure's median (``median_point``), as the
issue's targets ask, in about 27 minutes: one run's 300-table ratio moves by a fifth either
way, enough to move the capacity by a whole point.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from benchmarks.load_targets import Target, capacity, curve_targets, median_point, point_of

CURVE_TABLES = "100,300,500,700,1000"
# The capacity run: as many tables as the curve's largest point, no pauses.
CAPACITY_RUN = {"moves": 10, "think": 0.0, "click": 0.0, "ramp": 0.0}

Run = Callable[[argparse.Namespace], tuple[dict[str, Any], str]]


def _row(point: dict[str, Any], yardstick: float) -> str:
    busy = "-" if point["loop_busy"] is None else f"{100 * point['loop_busy']:.0f}%"
    ratio = "-" if point["ratio"] is None else f"{point['ratio']:.2f}x"
    label = f"{point['tables']}" + ("" if point["paced"] else " cap")
    return (f"  {label:>8} {point['moves_per_s']:>8.1f} {busy:>5} "
            f"{point['press_move_p50_ms']:>8.2f} {point['press_move_p99_ms']:>8.2f} "
            f"{point['bare_p99_ms']:>8.2f} {ratio:>7} {point['lag_p99_ms']:>7.1f} "
            f"{point['bot_cpu_ms_per_move']:>7.3f} {point['rss_mb']:>6.0f} {yardstick:>6.0f}")


HEADER = (f"  {'tables':>8} {'moves/s':>8} {'loop':>5} {'pm p50':>8} {'pm p99':>8} "
          f"{'bare p99':>8} {'ratio':>7} {'lag p99':>7} {'cpu/mv':>7} {'RSS':>6} {'yard':>6}")
LEGEND = ("  (moves/s while every table played; loop: the event loop thread's busy share; "
          "pm: press_move, ms; bare: the synced commit sampled during the same run; ratio: "
          "pm p99 / bare p99; lag: loop lag, ms; cpu/mv: the bot process's CPU ms per saved "
          "move; RSS: peak MB; yard: the engine yardstick before the run, µs a position)")


def run_curve(args: argparse.Namespace, run: Run) -> tuple[list[dict[str, Any]], list[Target]]:
    """Every point of the curve and the capacity run; the points and the judged targets."""
    # With --json the table goes to stderr, beside the progress, and stdout holds the JSON.
    out = sys.stderr if args.json else sys.stdout
    capacity_run = {**CAPACITY_RUN, "games": max(args.curve_tables)}
    configs = [{"games": tables} for tables in args.curve_tables] + [capacity_run]
    points: list[dict[str, Any]] = []
    began = time.perf_counter()
    for number, config in enumerate(configs, 1):
        what = (f"{config['games']} tables" if config is not capacity_run
                else f"the capacity run ({config['games']} tables, no pauses)")
        print(f"curve {number}/{len(configs)}: {what} "
              f"({time.perf_counter() - began:.0f} s so far)...", file=sys.stderr, flush=True)
        runs: list[dict[str, Any]] = []
        for _ in range(args.repeat):
            result, _ = run(argparse.Namespace(**{**vars(args), **config}))
            if not result["integrity_ok"]:
                raise RuntimeError(f"integrity_check failed at {what}")
            one = point_of(result)
            one["yardstick_us"] = result["engine_yardstick"]["before"]["micros_per_position"]
            runs.append(one)
            if number == 1 and len(runs) == 1:
                print(HEADER, file=out)
            if args.repeat > 1:
                print(_row(one, one["yardstick_us"]) + "  (one run)", file=out, flush=True)
        point = median_point(runs)
        points.append(point)
        print(_row(point, point["yardstick_us"])
              + (f"  (median of {len(runs)})" if len(runs) > 1 else ""), file=out, flush=True)
    print(LEGEND, file=out)
    found, lower_bound = capacity(points)
    if found is None:
        print("capacity at the service level: no paced point was within it", file=out)
    else:
        print(f"capacity at the service level (press_move p99 <= 3x bare p99, loop lag p99 "
              f"< 10 ms): {'at least ' if lower_bound else ''}{found:.1f} moves/s", file=out)
    print(f"the curve took {time.perf_counter() - began:.0f} s", file=out)
    return points, curve_targets(points)
