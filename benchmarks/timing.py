"""What the benchmark scripts share: latency summaries, and an AI made slow on purpose."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engines.lgame.agents import LGameAgent


def summary(seconds: list[float]) -> dict[str, Any]:
    """Count, p50, p99, mean and max of a list of durations, in milliseconds."""
    ms = sorted(s * 1000.0 for s in seconds)
    p99 = statistics.quantiles(ms, n=100, method="inclusive")[98] if len(ms) > 1 else ms[0]
    return {
        "n": len(ms),
        "p50_ms": round(statistics.median(ms), 4),
        "p99_ms": round(p99, 4),
        "mean_ms": round(statistics.fmean(ms), 4),
        "max_ms": round(ms[-1], 4),
    }


@contextmanager
def slow_lgame_agent(seconds: float) -> Iterator[None]:
    """Every L-game agent spends ``seconds`` of wall time in its worker thread per move,
    as a heavy AI would: the bot must answer presses meanwhile."""
    original = LGameAgent.choose

    def slow_choose(self: Any, state: Any, player: int) -> str:
        time.sleep(seconds)
        return original(self, state, player)

    LGameAgent.choose = slow_choose  # type: ignore[method-assign]
    try:
        yield
    finally:
        LGameAgent.choose = original  # type: ignore[method-assign]


def click_benchmark_arguments(description: str) -> argparse.Namespace:
    """The options of the platform click benchmarks (Discord, Telegram)."""
    parser = argparse.ArgumentParser(description=description)
    # 10 two-human games give some 600 clicks, and the default run stays within 2 minutes.
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--ai-moves", type=int, default=5)
    parser.add_argument("--ai-seconds", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()
