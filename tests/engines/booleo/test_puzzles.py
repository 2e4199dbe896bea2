"""bOOleO's puzzles (``engines/booleo/puzzles.py``): the same seed gives the same puzzle
(in any process), each theme's answers are what its measure says, the puzzle round-trips
and is judged in every language, and nothing hidden from the solver shapes it. Their
proofs are replayed under every deal in ``tests/engines/cards/test_puzzle_proofs.py``."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import InvalidMove
from engines.booleo import BooleoState
from engines.booleo.notation import parse_move
from engines.booleo.puzzles import GENERATOR, THEMES, analyse
from engines.puzzles import generate_puzzle
from engines.puzzles.core import choose_theme
from tests.helpers.puzzles.card_cases import (
    check_hidden_cards_do_not_matter,
    check_round_trips,
    check_verdicts,
    puzzle_json_elsewhere,
)

SEEDS = range(4)


@pytest.mark.parametrize("theme", THEMES)
def test_the_same_seed_gives_the_same_puzzle(theme: str) -> None:
    for seed in SEEDS:
        assert GENERATOR.generate(seed, theme).to_dict() == GENERATOR.generate(seed,
                                                                               theme).to_dict()
    assert GENERATOR.generate(0, theme).state != GENERATOR.generate(1, theme).state


def test_the_same_seed_gives_the_same_puzzle_in_another_process() -> None:
    mine = json.dumps(generate_puzzle("booleo", 3, "survive").to_dict(), sort_keys=True)
    assert puzzle_json_elsewhere("booleo", 3, "survive", "1") == mine
    assert puzzle_json_elsewhere("booleo", 3, "survive", "2") == mine


def test_without_a_theme_the_seed_picks_one() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed)
        assert puzzle.theme == choose_theme("booleo", THEMES, seed, None)
        assert puzzle == GENERATOR.generate(seed, puzzle.theme)


def test_an_unknown_theme_is_refused() -> None:
    with pytest.raises(InvalidMove) as refused:
        GENERATOR.generate(1, "checkmate")
    assert refused.value.key == "puzzle.error.unknown_theme"


@pytest.mark.parametrize("theme", THEMES)
def test_a_puzzle_round_trips_and_is_judged(theme: str) -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, theme)
        check_round_trips(puzzle)
        check_verdicts(puzzle)


def test_complete_puzzles_win_at_once_with_every_answer() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "complete")
        for action in puzzle.accepted:
            state = puzzle.position()
            state.apply(puzzle.seat, action)
            outcome = state.outcome()
            assert outcome is not None and outcome.winners == (puzzle.seat,)
        for entry in puzzle.proof["refused"]:
            state = puzzle.position()
            state.apply(puzzle.seat, entry["action"])
            assert state.outcome() is None


def test_break_puzzles_answer_with_a_not_against_a_real_threat() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "break")
        assert all(parse_move(a).kind == "not" for a in puzzle.accepted)
        assert puzzle.proof["best"][1] == 1
        quiet = [e for e in puzzle.proof["refused"] if parse_move(e["action"]).kind != "not"]
        assert quiet and all(e["value"][1] == 0 and e["reply_kind"] == "complete"
                             for e in quiet)


def test_survive_puzzles_have_few_answers_and_a_refusal_that_looks_as_good() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "survive")
        assert 1 <= len(puzzle.accepted) <= 3 and puzzle.proof["decoys"] >= 1
        assert puzzle.proof["unseen"]["kinds"].get("NOT", 0) > 0
        answers = [e["value"] for e in puzzle.proof["accepted"]]
        assert all(e["value"] < answers[0] for e in puzzle.proof["refused"])
        assert any(e["reply_kind"] == "flip" for e in puzzle.proof["refused"])


@pytest.mark.parametrize("theme", THEMES)
def test_the_hidden_cards_do_not_shape_the_puzzle(theme: str) -> None:
    check_hidden_cards_do_not_matter(GENERATOR.generate(2, theme))


def test_the_screening_keeps_what_the_full_analysis_accepts() -> None:
    for theme in THEMES:
        puzzle = GENERATOR.generate(6, theme)
        state = puzzle.position()
        assert isinstance(state, BooleoState)
        quick = analyse(state, puzzle.seat, exact=False)
        assert tuple(j.action for j in quick.accepted) == puzzle.accepted


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_any_seed_gives_a_judged_puzzle(seed: int) -> None:
    puzzle = GENERATOR.generate(seed)
    check_round_trips(puzzle)
    assert GENERATOR.judge(puzzle, puzzle.accepted[0]).correct
    assert 0 < len(puzzle.accepted) < puzzle.proof["legal"]
