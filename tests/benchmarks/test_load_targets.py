"""``benchmarks/load.py --check`` judges issue 25's targets; which apply depends on the
run (synced or not, how many tables, with people's pauses or not). The numbers here are
made up on purpose: this checks the judging, not the bot's speed."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from benchmarks.load import main, parse_args, targets


def _result(press_move_p99: float, all_p99: float, bare_p99: float,
            filesystem: str = "ext4", lag_p99: float = 5.0, rss: float = 150.0,
            steady: float | None = 450.0) -> dict[str, Any]:
    return {
        "config": {"filesystem": filesystem},
        "commands": {"press_move": {"p99_ms": press_move_p99}, "all": {"p99_ms": all_p99},
                     "start": {"p99_ms": 2 * bare_p99}},
        "bare_commit_during": {"p99_ms": bare_p99},
        "loop_lag": {"p99_ms": lag_p99},
        "rss_mb": {"peak": rss},
        "steady_moves_per_s": steady,
    }


def _args(*argv: str) -> argparse.Namespace:
    return parse_args(list(argv))


def test_synced_runs_are_judged_against_the_bare_commit() -> None:
    met = targets(_result(14.0, 15.0, 10.0), _args("--games", "1000"))
    assert met == {"press_move_p99_within_1.5x_bare_commit_p99": True,
                   "all_p99_within_1.5x_bare_commit_p99": True,
                   "start_p99_within_3.0x_bare_commit_p99": True,
                   "loop_lag_p99_under_10_ms": True, "rss_under_200_mb": True,
                   "at_least_400_moves_per_s": True}
    missed = targets(_result(16.0, 15.0, 10.0, lag_p99=12.0, steady=390.0),
                     _args("--games", "1000"))
    assert [name for name, ok in missed.items() if not ok] == [
        "press_move_p99_within_1.5x_bare_commit_p99", "loop_lag_p99_under_10_ms",
        "at_least_400_moves_per_s"]


def test_unsynced_runs_need_20_ms_and_capacity_runs_650_moves_per_s() -> None:
    normal = targets(_result(30.0, 19.0, 1.0), _args("--sync", "normal"))
    assert normal["all_p99_under_20_ms"] and "press_move_p99_within_1.5x_bare_commit_p99" \
        not in normal and "at_least_400_moves_per_s" not in normal  # 100 tables
    tmpfs = targets(_result(30.0, 21.0, 1.0, filesystem="tmpfs"), _args())
    assert tmpfs["all_p99_under_20_ms"] is False
    capacity = targets(_result(14.0, 15.0, 10.0, steady=600.0),
                       _args("--games", "1000", "--think", "0"))
    assert capacity["at_least_650_moves_per_s"] is False


def test_check_fails_a_run_that_misses_a_target(capsys: Any, monkeypatch: Any) -> None:
    # A real run: one table, one move, no pauses, Python's own interpreter set-up
    # (bot.runtime's is global and this is the test process). Two of its measurements are
    # not the run's but this process's and this machine's, so the test sets them: the
    # loop's lag (uvloop's clock counts whole milliseconds, so the one sample of a run this
    # short can see a sleep end up to a millisecond early, a lag below zero that met even
    # a 0 ms ceiling) and the peak RSS (this pytest process's, which a whole suite pushes
    # past 200 MB). The lag is twice its ceiling, the RSS half of its own, so exactly one
    # of the two is missed on any machine. The latency ratios depend on this disk at this
    # moment, so the printed list is compared with the run's own judged targets.
    import benchmarks.load as load

    lag_s = 2 * load.LOOP_LAG_P99_MS / 1000

    async def lagging_loop(lags: list[float], stop: asyncio.Event) -> None:
        lags.append(lag_s)
        await stop.wait()

    monkeypatch.setattr(load, "sample_loop_lag", lagging_loop)
    monkeypatch.setattr(load, "peak_rss_mb", lambda: load.RSS_MB / 2)
    argv = ["--games", "1", "--moves", "1", "--think", "0", "--click", "0", "--ramp", "0",
            "--runtime", "python"]
    assert main([*argv, "--json"]) == 0  # without --check, only the integrity counts
    capsys.readouterr()
    assert main([*argv, "--json", "--check"]) == 2
    captured = capsys.readouterr()
    result = json.loads(captured.out[captured.out.index("{"):])
    assert result["loop_lag"]["p99_ms"] == 2 * load.LOOP_LAG_P99_MS
    assert result["rss_mb"]["peak"] == load.RSS_MB / 2
    judged = result["targets"]
    assert judged["loop_lag_p99_under_10_ms"] is False and judged["rss_under_200_mb"] is True
    missed = captured.err.split("check failed, missed: ")[1].strip().split(", ")
    assert missed == [name for name, met in judged.items() if not met]
    assert "loop_lag_p99_under_10_ms" in missed and "rss_under_200_mb" not in missed
