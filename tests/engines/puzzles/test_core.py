"""The shared puzzle core (``engines/puzzles/core.py`` and ``engines/puzzles/__init__.py``):
share codes and their typo-tolerant decoding, the registry of generators, seeds and
themes, the bounded retries, the puzzle's JSON, determinism across processes, and the
``python -m engines <game> puzzle`` tool."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.__main__ import main
from engines.base import GameError, InvalidMove
from engines.puzzles import (
    EXAMPLE_CODE,
    Puzzle,
    decode_puzzle_code,
    generate_puzzle,
    puzzle_games,
    puzzle_generator,
)
from engines.puzzles.core import (
    CODE_ALPHABET,
    MAX_ATTEMPTS,
    MAX_SEED,
    Verdict,
    check_seed,
    choose_theme,
    encode_puzzle_code,
    first_suitable,
    rating_for,
    split_code,
)
from tests.helpers.paths import REPO_ROOT

# The games whose generators this helper wrote; the card games test their own.
BOARD_GAMES = ("lgame", "rithmomachia")
# Catalogue keys of the core's and the board games' puzzle texts (checked in en/nl/de).
PUZZLE_KEYS = (
    "puzzle.error.bad_code", "puzzle.error.bad_seed", "puzzle.error.unknown_theme",
    "puzzle.error.none_found", "puzzle.error.no_puzzles", "puzzle.error.other_game",
    "puzzle.lgame.only_move", "puzzle.lgame.holds", "puzzle.lgame.traps",
    "puzzle.lgame.wins_in", "puzzle.lgame.loses", "puzzle.lgame.draws",
    "puzzle.lgame.slower", "puzzle.rithmo.wins_now", "puzzle.rithmo.captures",
    "puzzle.rithmo.ends_lost", "puzzle.rithmo.no_win", "puzzle.rithmo.no_capture",
    "puzzle.rithmo.smaller", "puzzle.rithmo.wins_in_two", "puzzle.rithmo.defended",
)


# ------------------------------------------------------------------ share codes
@settings(max_examples=300, deadline=None)
@given(prefix=st.sampled_from(["LG", "RM", "BO", "DG"]), theme=st.integers(0, 31),
       version=st.integers(0, 31), seed=st.integers(0, MAX_SEED))
def test_a_code_holds_its_prefix_theme_version_and_seed(prefix: str, theme: int,
                                                        version: int, seed: int) -> None:
    code = encode_puzzle_code(prefix, theme, seed, version)
    parts = split_code(code, EXAMPLE_CODE)
    assert (parts.prefix, parts.theme_index, parts.version, parts.seed) == (
        prefix, theme, version, seed)
    assert len(code) <= 2 + 1 + 2 + 1 + 12 + 1


def test_codes_read_as_crockford_does() -> None:
    code = encode_puzzle_code("LG", 1, 2024)
    assert code == EXAMPLE_CODE
    mistyped = " " + code.lower().replace("1", "l") + " "
    assert split_code(mistyped, EXAMPLE_CODE) == split_code(code, EXAMPLE_CODE)
    zero = encode_puzzle_code("RM", 0, 32 * 32)  # digits with zeros: typed as O
    assert split_code(zero.replace("0", "O"), EXAMPLE_CODE).seed == 32 * 32


def test_the_example_code_is_a_real_puzzle() -> None:
    puzzle = decode_puzzle_code(EXAMPLE_CODE)
    assert (puzzle.game, puzzle.theme, puzzle.seed) == ("lgame", "win-in-2", 2024)
    assert puzzle.share_code() == EXAMPLE_CODE


def test_the_checksum_catches_most_single_typos() -> None:
    rng = random.Random(41)
    caught = total = 0
    for _ in range(400):
        code = encode_puzzle_code("RM", rng.randrange(5), rng.randrange(1 << 30))
        position = rng.choice([i for i, char in enumerate(code) if i > 2 and char != "-"])
        wrong = rng.choice([c for c in CODE_ALPHABET if c != code[position]])
        total += 1
        try:
            split_code(code[:position] + wrong + code[position + 1:], EXAMPLE_CODE)
        except InvalidMove:
            caught += 1
    assert caught / total > 0.9


@settings(max_examples=400, deadline=None)
@given(text=st.text(max_size=60))
def test_any_text_decodes_or_is_refused_with_the_localised_error(text: str) -> None:
    try:
        puzzle = decode_puzzle_code(text)
    except InvalidMove as error:
        assert error.key == "puzzle.error.bad_code"
        assert error.params == {"example": EXAMPLE_CODE}
    else:
        assert isinstance(puzzle, Puzzle)


@settings(max_examples=200, deadline=None)
@given(body=st.text(alphabet=CODE_ALPHABET + "-oil ", max_size=16),
       prefix=st.sampled_from(["LG-", "RM-", "BO-", "DG-", "TM-", "lg-", ""]))
def test_code_like_text_never_crashes(prefix: str, body: str) -> None:
    try:
        decode_puzzle_code(prefix + body)
    except InvalidMove as error:
        assert error.key == "puzzle.error.bad_code"


def test_a_code_from_another_generator_version_or_theme_is_refused() -> None:
    with pytest.raises(InvalidMove) as raised:
        decode_puzzle_code(encode_puzzle_code("LG", 0, 5, version=2))
    assert raised.value.key == "puzzle.error.bad_code"
    with pytest.raises(InvalidMove):
        decode_puzzle_code(encode_puzzle_code("LG", 17, 5))
    with pytest.raises(InvalidMove):
        decode_puzzle_code(encode_puzzle_code("ZZ", 0, 5))


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_codes_round_trip_for_every_theme(game: str) -> None:
    generator = puzzle_generator(game)
    for theme in generator.themes:
        for seed in (0, 7, 123456789):
            puzzle = generator.generate(seed, theme)
            assert decode_puzzle_code(puzzle.share_code()) == puzzle


# ---------------------------------------------------------------- the registry
def test_the_board_games_have_generators_under_their_aliases() -> None:
    assert set(BOARD_GAMES) <= set(puzzle_games())
    assert puzzle_generator("L").game == "lgame"
    assert puzzle_generator("rithmo").game == "rithmomachia"
    assert puzzle_generator("lgame").code_prefix == "LG"
    assert puzzle_generator("rithmomachia").code_prefix == "RM"


def test_a_game_without_puzzles_is_refused() -> None:
    with pytest.raises(InvalidMove) as raised:
        puzzle_generator("turing")
    assert raised.value.key == "puzzle.error.no_puzzles"
    with pytest.raises(InvalidMove) as unknown:
        puzzle_generator("chess")
    assert unknown.value.key == "error.unknown_game"


# ------------------------------------------------------------ seeds and themes
@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, True])
def test_seeds_a_code_cannot_carry_are_refused(seed: Any) -> None:
    with pytest.raises(InvalidMove) as raised:
        check_seed(seed)
    assert raised.value.key == "puzzle.error.bad_seed"


def test_no_theme_picks_one_from_the_seed_alone() -> None:
    themes = ("a", "b", "c", "d")
    picked = {choose_theme("x", themes, seed, None) for seed in range(50)}
    assert picked == set(themes)
    assert choose_theme("x", themes, 9, None) == choose_theme("x", themes, 9, None)
    with pytest.raises(InvalidMove) as raised:
        choose_theme("x", themes, 9, "e")
    assert raised.value.key == "puzzle.error.unknown_theme"


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_no_theme_gives_the_puzzle_of_the_theme_it_picks(game: str) -> None:
    for seed in range(4):
        picked = generate_puzzle(game, seed)
        assert generate_puzzle(game, seed, picked.theme) == picked


def test_retries_are_bounded_and_seed_derived() -> None:
    calls: list[float] = []

    def never(rng: random.Random) -> Puzzle | None:
        calls.append(rng.random())
        return None

    with pytest.raises(GameError) as raised:
        first_suitable("g", "t", 5, never)
    assert raised.value.key == "puzzle.error.none_found"
    assert len(calls) == MAX_ATTEMPTS
    again: list[float] = []
    with pytest.raises(GameError):
        first_suitable("g", "t", 5, lambda rng: again.append(rng.random()))
    assert again == calls
    assert len(set(calls)) == len(calls)


def test_ratings_follow_levels() -> None:
    assert [rating_for(level) for level in range(1, 6)] == sorted(
        rating_for(level) for level in range(1, 6))
    assert rating_for(3) == 1500
    assert rating_for(3, 5.0) == rating_for(3, 1.0) == 1650


# ---------------------------------------------------------------- the puzzle
@pytest.mark.parametrize("game", BOARD_GAMES)
def test_a_puzzle_survives_json(game: str) -> None:
    puzzle = generate_puzzle(game, 11)
    data = json.loads(json.dumps(puzzle.to_dict()))
    assert Puzzle.from_dict(data) == puzzle
    assert data["themes"][0] == data["theme"]


def test_a_verdict_as_json() -> None:
    puzzle = generate_puzzle("lgame", 3, "win-in-1")
    verdict = puzzle_generator("lgame").judge(puzzle, puzzle.accepted[0])
    assert isinstance(verdict, Verdict)
    data = json.loads(json.dumps(verdict.to_dict()))
    assert data["correct"] is True and data["reason_key"] == "puzzle.lgame.traps"


CASES = [("lgame", seed, theme) for seed in (1, 2) for theme in ("win-in-3", "defend")] + [
    ("rithmomachia", seed, theme) for seed in (1, 2)
    for theme in ("capture", "equation", "victory-in-1", "teaching")] + [
    ("rithmomachia", 1, "victory-in-2")]


def test_the_same_seed_gives_the_same_puzzle_in_another_process() -> None:
    script = ("import json, sys\n"
              "from engines.puzzles import generate_puzzle\n"
              "cases = json.loads(sys.argv[1])\n"
              "print(json.dumps([generate_puzzle(g, s, t).to_dict() for g, s, t in cases]))\n")
    here = [generate_puzzle(game, seed, theme).to_dict() for game, seed, theme in CASES]
    for hash_seed in ("1", "4242"):
        done = subprocess.run([sys.executable, "-c", script, json.dumps(CASES)],
                              cwd=REPO_ROOT, capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert json.loads(done.stdout) == json.loads(json.dumps(here))


def test_every_puzzle_text_is_translated() -> None:
    from renderers.i18n import CATALOGUE
    for language in ("en", "nl", "de"):
        missing = [key for key in PUZZLE_KEYS if not CATALOGUE[language].get(key)]
        assert not missing, (language, missing)


# ------------------------------------------------------------------- the tool
def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def exit_status(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as done:
        return int(done.code or 0)


@pytest.mark.parametrize(("game", "theme"), [("lgame", "win-in-2"), ("rithmo", "capture")])
def test_the_tool_prints_a_puzzle_and_its_code_opens_it_again(
        capsys: pytest.CaptureFixture[str], game: str, theme: str) -> None:
    shown = run_json(capsys, game, "puzzle", "--seed", "3", "--theme", theme)
    assert shown["theme"] == theme and shown["seed"] == 3
    assert shown["accepted"] and len(shown["answers"]) == len(shown["accepted"])
    assert shown["proof"]["accepted"]
    assert all(len(line) <= 32 for line in shown["position"])
    again = run_json(capsys, game, "puzzle", "--code", shown["code"])
    assert again == shown
    assert main([game, "puzzle", "--seed", "3", "--theme", theme]) == 0
    text = capsys.readouterr().out
    assert shown["code"] in text and "position" in text and "proof" in text


def test_the_tool_as_a_process() -> None:
    done = subprocess.run([sys.executable, "-m", "engines", "lgame", "puzzle", "--seed", "3",
                           "--json"], cwd=REPO_ROOT, capture_output=True, text=True,
                          check=True)
    shown = json.loads(done.stdout)
    puzzle = generate_puzzle("lgame", 3)
    assert shown["state"] == json.loads(json.dumps(puzzle.state))
    assert decode_puzzle_code(shown["code"]) == puzzle


@pytest.mark.parametrize("argv", [
    ["lgame", "puzzle", "--seed", "-1"],
    ["lgame", "puzzle", "--seed", "1", "--theme", "mate"],
    ["lgame", "puzzle", "--code", "LG-00-000"],
    ["lgame", "puzzle", "--code", encode_puzzle_code("RM", 0, 3)],
    ["turing", "puzzle", "--seed", "1"],
])
def test_bad_input_is_one_error_line(capsys: pytest.CaptureFixture[str],
                                     argv: list[str]) -> None:
    assert exit_status(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")


@pytest.mark.parametrize("argv", [
    ["lgame", "puzzle"],
    ["lgame", "puzzle", "--seed", "1", "--code", EXAMPLE_CODE],
    ["lgame", "puzzle", "--code", EXAMPLE_CODE, "--theme", "defend"],
])
def test_missing_or_clashing_flags_are_usage_errors(capsys: pytest.CaptureFixture[str],
                                                    argv: list[str]) -> None:
    assert exit_status(argv) == 2
    assert "error:" in capsys.readouterr().err
