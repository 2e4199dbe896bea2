"""How much of the machine a load run had: the speed of its cores today, and how busy the
event loop's thread and the whole machine were while every table played.

A shared machine's cores do not run at one speed: on 2026-11-26 ``benchmarks/menu_cost.py``
timed the same bOOleO engine code at 1.36x the time of section 12 of
``docs/performance.md`` and, four minutes later on the same quiet machine, at 1.0x; a load
run's moves/s and queueing follow such swings. So each load run times a fixed piece of the
engines (``engine_yardstick``) and prints it beside round 5's time, and it samples the
loop thread's CPU and the machine's (``CpuTrace``): a loop busy all the time while every
table plays is the bot's own queueing; a machine whose every core is busy is the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks.menu_cost import GameCost, play

# ``benchmarks/menu_cost.py``'s default bOOleO games (30 seeded games, at most 80 moves)
# at commit ab93992: the mean microseconds per position of the top menu, the view and
# legal_actions (47.1 + 66.5 + 39.9), as docs/performance.md section 12 reports them. The
# bOOleO engine has not changed since, so a run's time over this is the machine's speed.
YARDSTICK_GAME = "booleo"
YARDSTICK_GAMES = 30
YARDSTICK_MOVES = 80
YARDSTICK_ROUND_5_MICROS = 153.5
YARDSTICK_REPEATS = 3
TRACE_PERIOD_S = 0.5


def engine_yardstick(repeats: int = YARDSTICK_REPEATS) -> dict[str, float]:
    """The yardstick's microseconds per position now, the best of ``repeats`` passes after
    a warm-up one (the first pass in a process pays for the engine's lazily built tables,
    about 1.3x), and the best's ratio to round 5's (above 1: this machine runs the same
    code slower now); ``spread`` is the slowest pass over the best."""
    passes = []
    for _ in range(repeats + 1):
        cost = GameCost()
        for number in range(YARDSTICK_GAMES):
            play(YARDSTICK_GAME, 1 + number, YARDSTICK_MOVES, cost, walks=False)
        passes.append(sum(cost.micros.values()) / max(cost.positions, 1))
    timed = passes[1:]
    best = min(timed)
    return {"micros_per_position": round(best, 1),
            "over_round_5": round(best / YARDSTICK_ROUND_5_MICROS, 2),
            "spread": round(max(timed) / best, 2)}


def machine_cpu() -> tuple[int, int]:
    """The machine's busy and total CPU time so far, in clock ticks (Linux's /proc/stat);
    (0, 0) elsewhere."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(n) for n in stat.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return sum(fields) - idle, sum(fields)


@dataclass
class CpuTrace:
    """Every ``TRACE_PERIOD_S``: the moment, the CPU time of the thread that runs
    ``run`` (the event loop's own, when it runs as a task there) and the machine's busy and
    total ticks. ``shares`` reads them back for any window known only after the run."""

    samples: list[tuple[float, float, int, int]] = field(default_factory=list)

    def sample(self) -> None:
        busy, total = machine_cpu()
        self.samples.append((time.perf_counter(), time.thread_time(), busy, total))

    async def run(self, stop: asyncio.Event) -> None:
        self.sample()
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), TRACE_PERIOD_S)
            self.sample()

    def shares(self, start: float, end: float) -> dict[str, Any]:
        """Between the samples nearest ``start`` and ``end``: the loop thread's share of one
        core, and the share of all the machine's cores that were busy."""
        return window_shares(self.samples, start, end)


def window_shares(samples: list[tuple[float, float, int, int]], start: float, end: float
                  ) -> dict[str, Any]:
    """``CpuTrace.shares`` over samples taken in any process (``perf_counter`` is the
    machine's monotonic clock, so moments compare across processes)."""
    if len(samples) < 2 or end <= start:
        return {"loop": None, "machine": None, "seconds": 0.0}
    first = min(samples, key=lambda s: abs(s[0] - start))
    last = min(samples, key=lambda s: abs(s[0] - end))
    wall = last[0] - first[0]
    if wall <= 0:
        return {"loop": None, "machine": None, "seconds": 0.0}
    ticks = last[3] - first[3]
    return {"loop": round((last[1] - first[1]) / wall, 3),
            "machine": round((last[2] - first[2]) / ticks, 3) if ticks else None,
            "seconds": round(wall, 1), "cores": os.cpu_count()}
