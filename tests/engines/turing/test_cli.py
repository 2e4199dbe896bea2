"""``python -m engines turing count|generate|solve``: the offline tools (engines/__main__.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from engines.__main__ import main
from engines.turing.puzzle import decode_puzzle
from tests.helpers.paths import REPO_ROOT

ROOT = REPO_ROOT


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def exit_status(argv: list[str]) -> int:
    """The status ``python -m engines`` exits with: returned, or raised by argparse."""
    try:
        return main(argv)
    except SystemExit as done:
        return int(done.code or 0)


# ------------------------------------------------------------------------ solve
@pytest.mark.parametrize(("level", "score"), [("optimal", [1, 1]), ("par", [1, 3])])
def test_rulebook_challenge_1(capsys: pytest.CaptureFixture[str], level: str,
                              score: list[int]) -> None:
    result = run_json(capsys, "turing", "solve", "--cards", "4,9,11,14", "--code", "241",
                      "--level", level)
    assert result["score"] == score
    assert result["worst"] == score
    assert result["level"] == level
    assert result["assignments"] == 1
    assert result["criteria"] == ["4.1", "9.0", "11.0", "14.2"]
    assert result["code"] == "241"
    assert len(result["transcript"]) == score[1]
    assert "tree" not in result


def test_the_level_defaults_to_optimal(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "tm", "solve", "--cards", "4,9,11,14", "--code", "241")
    assert (result["level"], result["score"]) == ("optimal", [1, 1])


def test_a_six_card_challenge_needs_no_test(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "turing", "solve", "--cards", "2,5,9,15,18,22", "--code", "513")
    assert result["score"] == [0, 0]
    assert result["transcript"] == []


def test_criteria_pick_the_same_puzzle_as_the_code(capsys: pytest.CaptureFixture[str]) -> None:
    by_code = run_json(capsys, "turing", "solve", "--cards", "4,9,11,14", "--code", "241")
    by_criteria = run_json(capsys, "turing", "solve", "--cards", "4,9,11,14",
                           "--criteria", "4.1,9.0,11.0,14.2")
    for key in ("score", "worst", "criteria", "code", "puzzle", "transcript"):
        assert by_code[key] == by_criteria[key]


def test_several_fits_report_the_worst_score(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "turing", "solve", "--cards", "4,9,11,14")
    assert result["assignments"] == len(result["runs"]) >= 2
    assert result["score"] == max(run["score"] for run in result["runs"])
    assert result["score"] <= result["worst"]
    assert "241" in {run["code"] for run in result["runs"]}


def test_a_share_code_solves_its_own_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    by_cards = run_json(capsys, "turing", "solve", "--cards", "4,9,11,14", "--code", "241",
                        "--level", "par")
    by_puzzle = run_json(capsys, "turing", "solve", "--puzzle", by_cards["puzzle"],
                         "--level", "par")
    assert by_puzzle["score"] == [1, 3]
    assert by_puzzle["criteria"] == by_cards["criteria"]


def test_the_tree_is_json_and_ends_in_codes(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "turing", "solve", "--cards", "4,9,11,14", "--code", "241",
                      "--level", "par", "--tree")
    tree = result["tree"]
    assert tree["kind"] == "round"
    assert tree["worst"] == [1, 3]

    def codes(node: dict[str, Any]) -> set[str]:
        if node["kind"] == "code":
            return {node["code"]}
        if node["kind"] == "test":
            return codes(node["yes"]) | codes(node["no"])
        return codes(node["next"])

    assert "241" in codes(tree)
    assert len(codes(tree)) == tree["codes"]


def test_text_output_is_key_value_lines_and_an_indented_tree(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["turing", "solve", "--cards", "4,9,11,14", "--code", "241", "--level", "par",
                 "--tree"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any(line.startswith("score") and "1 round, 3 tests" in line for line in lines)
    tree = lines[lines.index("tree") + 1:]
    assert tree[0].startswith("  round 1: propose ")
    assert any(line.strip().startswith("yes: code 241") for line in tree)


# ------------------------------------------------------------------------ count
def test_count_two_cards(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "turing", "count", "--cards", "2")
    assert (result["cards"], result["puzzles"], result["card_sets"]) == (2, 379, 139)
    assert result["seconds"] >= 0


@pytest.mark.slow
def test_count_four_cards(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "turing", "count", "--cards", "4")
    assert (result["puzzles"], result["card_sets"]) == (1_033_950, 108_839)


# --------------------------------------------------------------------- generate
def test_generate_is_repeatable_and_its_code_decodes(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["turing", "generate", "--difficulty", "hard", "--verifiers", "5", "--mode",
            "classic", "--seed", "11"]
    first = run_json(capsys, *argv)
    assert run_json(capsys, *argv) == first
    puzzle = decode_puzzle(first["puzzle"])
    assert {letter: list(cards) for letter, cards
            in zip(puzzle.letters, puzzle.verifiers, strict=True)} == first["cards"]
    assert list(puzzle.secret) == first["criteria"]
    assert (first["difficulty"], first["verifiers"], first["mode"]) == ("hard", 5, "classic")
    assert puzzle.difficulty == "hard"


def test_generate_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "turing", "generate")
    assert (result["difficulty"], result["verifiers"], result["mode"], result["seed"]) \
        == ("standard", 4, "classic", 0)


def test_generate_extreme_prints_both_cards_of_a_verifier(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "turing", "generate", "--mode", "extreme", "--seed", "2")
    assert all(len(cards) == 2 for cards in result["cards"].values())
    assert decode_puzzle(result["puzzle"]).mode == "extreme"


def test_the_module_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "engines", "turing", "generate", "--seed", "3",
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert decode_puzzle(result["puzzle"]).share_code() == result["puzzle"]


# ------------------------------------------------------------------- bad input
@pytest.mark.parametrize("argv", [
    ["turing", "solve", "--cards", "4,9,11,49"],
    ["turing", "solve", "--cards", "4,9,x"],
    ["turing", "solve", "--cards", "4,9,11,14", "--code", "111"],
    ["turing", "solve", "--cards", "4,9,11,14", "--code", "201"],
    ["turing", "solve", "--cards", "4,9,11,14", "--code", "246"],
    ["turing", "solve", "--cards", "4,9,11,14", "--criteria", "4.1,9.0,11.0,99.0"],
    ["turing", "solve", "--cards", "4,9,11", "--criteria", "4.1,9.0,11.0,14.2"],
    ["turing", "solve", "--puzzle", "TM-C4S-NOTACODE"],
    ["chess", "solve"],
])
def test_bad_input_is_one_error_line(capsys: pytest.CaptureFixture[str],
                                     argv: list[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")


@pytest.mark.parametrize("argv", [
    ["lgame", "count", "--cards", "2"],
    ["lgame", "generate"],
    ["lgame", "solve", "--cards", "4,9,11,14"],
    ["turing", "solve"],
    ["turing", "solve", "--sudden-death", "--cards", "4,9,11,14"],
    ["turing", "solve", "--puzzle", "TM-C4S-A4XR3Z3M", "--code", "241"],
    ["turing", "solve", "--cards", "4,9,11,14", "--code", "241", "--criteria", "4.1"],
    ["turing", "solve", "--cards", "4,9,11,14", "--mode", "extreme"],
    ["turing", "count", "--cards", "7"],
    ["turing", "generate", "--verifiers", "3"],
])
def test_misused_flags_are_parser_errors(capsys: pytest.CaptureFixture[str],
                                         argv: list[str]) -> None:
    assert exit_status(argv) == 2
    captured = capsys.readouterr()
    assert "error:" in captured.err
    assert "Traceback" not in captured.err


def test_lgame_solve_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "lgame", "solve")
    assert result["positions"] == 18368
