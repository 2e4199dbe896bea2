"""``benchmarks/load.py --check`` judges issue 42's targets; which apply depends on the
run (people in their own process or not, synced or not, how many tables, with people's
pauses or not, a single run or the curve). The numbers here are made up on purpose: this
checks the judging, not the bot's speed."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from benchmarks.load import main, parse_args, targets
from benchmarks.load_targets import (
    LOOP_LAG_P99_MS,
    RSS_MB,
    capacity,
    curve_targets,
    median_point,
    point_of,
    postgres_targets,
)


def _result(press_move_p99: float, bare_p99: float, filesystem: str = "ext4",
            lag_p99: float = 5.0, rss: float = 150.0, cpu: float = 0.9, games: int = 100,
            think: float = 2.5, steady: float | None = 450.0) -> dict[str, Any]:
    return {
        "config": {"filesystem": filesystem, "people": "process", "games": games,
                   "think_s": think, "click_s": 0.1 if think else 0.0, "sync": "full"},
        "commands": {"press_move": {"p50_ms": press_move_p99 / 2, "p99_ms": press_move_p99},
                     "all": {"p99_ms": press_move_p99}},
        "bare_commit_during": {"p99_ms": bare_p99},
        "loop_lag": {"p99_ms": lag_p99},
        "rss_mb": {"peak": rss},
        "process_cpu_ms_per_move": cpu,
        "steady_moves_per_s": steady, "moves_per_s": steady or 1.0,
        "steady_cpu": {"loop": 0.5},
    }


def _args(*argv: str) -> argparse.Namespace:
    return parse_args(list(argv))


def test_a_paced_run_is_judged_at_the_service_level_and_on_the_bots_cpu() -> None:
    met = targets(_result(29.0, 10.0), _args("--games", "1000"))
    assert met == {"bot_cpu_per_saved_move_at_most_1.0_ms": True,
                   "press_move_p99_within_3.0x_bare_commit_p99": True,
                   "loop_lag_p99_under_10_ms": True, "rss_under_200_mb": True}
    missed = targets(_result(31.0, 10.0, lag_p99=12.0, cpu=1.1), _args("--games", "1000"))
    assert [name for name, ok in missed.items() if not ok] == [
        "bot_cpu_per_saved_move_at_most_1.0_ms", "press_move_p99_within_3.0x_bare_commit_p99",
        "loop_lag_p99_under_10_ms"]


def test_300_tables_need_2x_unsynced_runs_20_ms_and_capacity_runs_no_latency() -> None:
    at_300 = targets(_result(21.0, 10.0, games=300), _args("--games", "300"))
    assert at_300["press_move_p99_within_2.0x_bare_commit_p99"] is False
    tmpfs = targets(_result(21.0, 1.0, filesystem="tmpfs"), _args())
    assert tmpfs["all_p99_under_20_ms"] is False
    no_pauses = targets(_result(900.0, 10.0, lag_p99=50.0, think=0.0),
                        _args("--games", "1000", "--think", "0", "--click", "0"))
    assert set(no_pauses) == {"bot_cpu_per_saved_move_at_most_1.0_ms", "rss_under_200_mb"}
    # The bot's CPU is judged under load (1000 tables or no pauses), and only when the
    # people had a process of their own.
    light = targets(_result(21.0, 10.0), _args("--games", "100"))
    assert "bot_cpu_per_saved_move_at_most_1.0_ms" not in light
    inline = targets(_result(21.0, 10.0) | {"config": {"filesystem": "ext4",
                                                         "people": "inline"}},
                     _args("--games", "1000"))
    assert "bot_cpu_per_saved_move_at_most_1.0_ms" not in inline


def _point(tables: int, moves_per_s: float, ratio: float, lag: float = 5.0,
           think: float = 2.5, rss: float = 150.0, cpu: float = 0.9) -> dict[str, Any]:
    return point_of(_result(10.0 * ratio, 10.0, games=tables, steady=moves_per_s, lag_p99=lag,
                            think=think, rss=rss, cpu=cpu))


def test_the_capacity_is_the_busiest_point_within_the_service_level() -> None:
    points = [_point(100, 40.0, 1.2), _point(300, 120.0, 1.9), _point(700, 280.0, 2.9),
              _point(1000, 400.0, 2.5, lag=11.0), _point(1000, 650.0, 90.0, think=0.0)]
    assert capacity(points) == (280.0, False)
    judged = {t.name: (t.measured, t.met) for t in curve_targets(points)}
    assert judged == {
        "capacity_at_service_level_at_least_800_moves_per_s": (280.0, False),
        "press_move_p99_within_2.0x_bare_commit_p99_at_300_tables": (1.9, True),
        "bot_cpu_per_saved_move_at_most_1.0_ms": (0.9, True),
        "rss_under_200_mb_at_1000_tables": (150.0, True)}
    # Every paced point within it: the busiest is a lower bound.
    assert capacity([_point(100, 40.0, 1.2), _point(1800, 820.0, 2.0)]) == (820.0, True)


def test_a_point_of_several_runs_is_each_measure_s_median() -> None:
    runs = [_point(300, 120.0, 3.3, cpu=1.1), _point(300, 130.0, 2.4, cpu=0.9),
            _point(300, 125.0, 2.5, lag=12.0, cpu=1.4)]
    point = median_point(runs)
    assert (point["tables"], point["paced"], point["runs"]) == (300, True, 3)
    assert (point["moves_per_s"], point["ratio"], point["lag_p99_ms"],
            point["bot_cpu_ms_per_move"]) == (125.0, 2.5, 5.0, 1.1)
    # One run's ratio past 3x no longer takes the point out of the service level.
    assert capacity([point]) == (125.0, True)
    assert capacity([runs[0]]) == (None, False)
    # A run without a bare commit has no ratio: the median is the others'.
    runs[1]["ratio"] = None
    assert median_point(runs)["ratio"] == 2.9
    assert median_point([runs[1]])["ratio"] is None


def test_postgres_runs_are_judged_on_cpu_ratio_and_the_ceiling() -> None:
    def run(processes: int, steady: float, cpu: float, share: float) -> dict[str, Any]:
        return {"processes": processes, "cpu_ms_per_move": cpu, "paced": True,
                "press_move_p99_over_bare_p99": 2.5, "steady_moves_per_s": steady,
                "moves_per_s": steady, "machine": {"busy_share": share}}

    # One process uses 80% of the machine: the ceiling is 1.25x; 1.15x is 92% of it.
    judged = {t.name: t.met for t in postgres_targets([run(1, 200.0, 1.4, 0.8),
                                                       run(2, 230.0, 1.6, 0.95)])}
    assert judged == {"bot_cpu_per_saved_move_at_most_1.5_ms_1p": True,
                      "press_move_p99_within_3.0x_bare_1p": True,
                      "bot_cpu_per_saved_move_at_most_1.5_ms_2p": False,
                      "press_move_p99_within_3.0x_bare_2p": True,
                      "2_processes_at_least_90%_of_ceiling": True}


def test_check_fails_a_run_that_misses_a_target(capsys: Any, monkeypatch: Any) -> None:
    # A real run: one table, one move, a short pause (a paced run, so the loop's lag is
    # judged), Python's own interpreter set-up (bot.runtime's is global and this is the
    # test process), the people on the bot's loop (no CPU target then). Two of its
    # measurements are not the run's but this process's and this machine's, so the test
    # sets them: the loop's lag (uvloop's clock counts whole milliseconds, so the one
    # sample of a run this short can see a sleep end up to a millisecond early, a lag
    # below zero that met even a 0 ms ceiling) and the peak RSS (this pytest process's,
    # which a whole suite pushes past 200 MB). The lag is twice its ceiling, the RSS half
    # of its own, so exactly one of the two is missed on any machine. The latency ratio
    # depends on this disk at this moment, so the printed list is compared with the run's
    # own judged targets.
    import benchmarks.load as load

    lag_s = 2 * LOOP_LAG_P99_MS / 1000

    async def lagging_loop(lags: list[float], stop: asyncio.Event) -> None:
        lags.append(lag_s)
        await stop.wait()

    monkeypatch.setattr(load, "sample_loop_lag", lagging_loop)
    monkeypatch.setattr(load, "peak_rss_mb", lambda: RSS_MB / 2)
    argv = ["--games", "1", "--moves", "1", "--think", "0.01", "--click", "0", "--ramp", "0",
            "--runtime", "python", "--people", "inline"]
    assert main([*argv, "--json"]) == 0  # without --check, only the integrity counts
    capsys.readouterr()
    assert main([*argv, "--json", "--check"]) == 2
    captured = capsys.readouterr()
    result = json.loads(captured.out[captured.out.index("{"):])
    assert result["loop_lag"]["p99_ms"] == 2 * LOOP_LAG_P99_MS
    assert result["rss_mb"]["peak"] == RSS_MB / 2
    judged = result["targets"]
    assert judged["loop_lag_p99_under_10_ms"] is False and judged["rss_under_200_mb"] is True
    assert [row["name"] for row in result["target_rows"]] == list(judged)
    missed = captured.err.split("check failed, missed: ")[1].strip().split(", ")
    assert missed == [name for name, met in judged.items() if not met]
    assert "loop_lag_p99_under_10_ms" in missed and "rss_under_200_mb" not in missed


def test_the_curve_runs_each_point_and_the_capacity_run(capsys: Any,
                                                          monkeypatch: Any) -> None:
    # Two tiny points and the capacity run, on this process's loop, the machine's
    # yardstick stubbed (it is timing, not the curve's shape).
    import benchmarks.load as load

    speed = {"micros_per_position": 100.0, "over_round_5": 0.65, "spread": 1.0}
    monkeypatch.setattr(load, "engine_yardstick", lambda: speed)
    argv = ["--curve", "1,2", "--moves", "1", "--think", "0.01", "--click", "0", "--ramp",
            "0", "--runtime", "python", "--people", "inline", "--json", "--repeat", "2"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    points = report["points"]
    assert [(p["tables"], p["paced"], p["runs"]) for p in points] == [
        (1, True, 2), (2, True, 2), (2, False, 2)]
    assert captured.err.count("(one run)") == 6 and captured.err.count("(median of 2)") == 3
    assert all(p["moves_per_s"] > 0 and p["yardstick_us"] == 100.0 for p in points)
    names = [row["name"] for row in report["targets"]]
    assert names[0] == "capacity_at_service_level_at_least_800_moves_per_s"
    assert "rss_under_200_mb_at_2_tables" in names
