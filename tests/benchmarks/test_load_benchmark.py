"""The load benchmark still runs and reports sane numbers (not their size: the suite is no
place for timing), so that it does not rot between the times someone measures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers.databases import postgres_url
from tests.helpers.paths import REPO_ROOT

ROOT = REPO_ROOT


def test_load_benchmark_runs_every_game_and_reports(tmp_path: Path) -> None:
    # Ten tables: each of the five games with two people and against the computer.
    command = [sys.executable, "benchmarks/load.py", "--games", "10", "--moves", "3",
               "--seed", "7", "--think", "0", "--click", "0", "--ramp", "0",
               "--tmpdir", str(tmp_path),
               "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=True)
    result = json.loads(done.stdout)
    assert result["integrity_ok"]
    assert result["moves"] == 30 and result["ai_moves"] > 0
    assert result["moves_per_s"] > 0 and 0 < result["rss_mb"]["peak"] < 10_000
    commands = result["commands"]
    for name in ("start", "hand", "press", "press_move", "ai_turn", "all"):
        row = commands[name]
        assert row["n"] > 0 and 0 < row["p50_ms"] <= row["p99_ms"] <= row["max_ms"], name
    assert commands["all"]["n"] == result["command_count"]
    assert result["bare_commit"]["n"] > 0 and result["ratio_press_move_p50_over_bare_p50"] > 0
    assert result["bare_commit_during"]["n"] > 0
    assert result["ratio_press_move_over_bare_during"]["p99"] > 0
    assert result["loop_lag"]["n"] > 0 and result["process_cpu_ms_per_move"] > 0
    # Run as the bot runs (bot.runtime); a run this short may see few collections, so only
    # the shape is checked.
    assert result["full_collection"]["ms"] > 0 and result["steady_commands"]["n"] > 0
    assert len(result["workers_peak_rss_mb"]) == 2, "the bot's two worker processes"
    assert result["config"]["runtime"] == "bot" and set(result["gc_pauses"]) == {"gen0", "gen1",
                                                                            "gen2"}
    assert set(result["config"]["mix"]) == {
        f"{game}{suffix}" for game in ("lgame", "turing", "booleo", "digitalo", "rithmomachia")
        for suffix in ("", " vs AI")}
    # Issue 25's breakdown: a saved move's stages add up to its time (to a few
    # microseconds each), and the new games' inserts reach the database thread.
    press_move = result["breakdown"]["commands"]["press_move"]["stages"]
    stages = ("lock", "service", "workers", "engine", "group", "db_queue", "commit", "loop",
              "render", "other_db")
    assert set(press_move) == {*stages, "total"} and press_move["commit"]["p50_ms"] > 0
    assert abs(sum(press_move[s]["mean_ms"] for s in stages)
               - press_move["total"]["mean_ms"]) < 0.05 * press_move["total"]["mean_ms"] + 0.1
    assert result["breakdown"]["db_thread_ms"]["INSERT INTO games"]["n"] > 0
    assert set(result["p99_over_bare_during"]) == set(commands)
    assert not list(tmp_path.iterdir())  # the databases went with their temporary folder


def test_load_benchmark_runs_on_postgresql_with_two_processes() -> None:
    """``--database`` (issue 26.8): the same tables split over bot processes sharing one
    PostgreSQL database, every table's moves saved, the bare commit sampled."""
    url = postgres_url()
    command = [sys.executable, "benchmarks/load.py", "--database", url, "--processes", "1,2",
               "--games", "6", "--moves", "2", "--seed", "7", "--think", "0", "--click", "0",
               "--ramp", "0", "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240,
                          check=True)
    report = json.loads(done.stdout)
    runs = {run["processes"]: run for run in report["runs"]}
    assert sorted(runs) == [1, 2]
    for run in runs.values():
        assert run["moves"] == 12 and run["moves_per_s"] > 0
        move = run["commands"]["press_move"]
        assert move["n"] > 0 and 0 < move["p50_ms"] <= move["p99_ms"]
        assert run["bare_commit_during"]["n"] > 0 and run["press_move_p99_over_bare_p99"] > 0
        assert len(run["loop_lag_p99_ms"]) == run["processes"]
    # No pauses: the latency is the queue's, so the CPU and the speed-up are judged.
    assert set(report["targets"]) == {"bot_cpu_per_saved_move_at_most_1.5_ms_1p",
                                      "bot_cpu_per_saved_move_at_most_1.5_ms_2p",
                                      "2_processes_at_least_90%_of_ceiling"}
