"""The ladder benchmark's default run is the quick one (issue 24: a benchmark's default run
finishes in about two minutes and prints progress), and the split-run options merge back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import ladder


def test_the_default_run_is_quick_and_leaves_the_expert_out(
        capsys: pytest.CaptureFixture[str]) -> None:
    ladder.main(["booleo", "--workers", "1", "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["pair"] for row in rows] == ["medium vs easy", "strong vs medium"]
    assert all(row["games"] == 2 * ladder.QUICK_DEALS for row in rows)


def test_a_pair_split_over_runs_merges_from_its_logs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = tmp_path / "whole.jsonl"
    halves = [tmp_path / "first.jsonl", tmp_path / "second.jsonl"]
    ladder.main(["lgame", "--pairs", "easy:medium", "--deals", "4", "--workers", "1",
                 "--deal-log", str(whole)])
    for first, log in zip((0, 2), halves, strict=True):
        ladder.main(["lgame", "--pairs", "easy:medium", "--deals", "2", "--first",
                     str(first), "--workers", "1", "--deal-log", str(log)])
    capsys.readouterr()
    ladder.main(["lgame", "--from-logs", str(whole)])
    merged_whole = capsys.readouterr().out
    ladder.main(["lgame", "--from-logs", *map(str, halves)])
    merged_halves = capsys.readouterr().out
    assert "8 games" in merged_whole
    score = merged_whole.split("score ", 1)[1].split(",")[0]
    assert f"score {score}," in merged_halves, (merged_whole, merged_halves)
