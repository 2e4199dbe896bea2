"""The generator, checked against a plain brute-force reading of the specification."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import InvalidMove
from engines.turing.generator import generate
from engines.turing.puzzle import decode_puzzle
from tests.helpers.turing_card_table import NO_VERIFICATION_CARD, spec_codes

_codes_meeting = cache(spec_codes)


def _plainly_valid(secret: tuple[str, ...]) -> bool:
    sets = [_codes_meeting()[criterion_id] for criterion_id in secret]
    if any(criterion_id in NO_VERIFICATION_CARD for criterion_id in secret):
        return False
    if len(set.intersection(*map(set, sets))) != 1:
        return False
    for left_out in range(len(sets)):
        rest = [s for i, s in enumerate(sets) if i != left_out]
        if len(set.intersection(*map(set, rest))) == 1:
            return False
    return True


def _band(cards: list[int]) -> str:
    if max(cards) <= 17:
        return "easy"
    return "standard" if max(cards) <= 22 else "hard"


SETTINGS = [(d, n, m) for d in ("easy", "standard", "hard") for n in (4, 5, 6)
            for m in ("classic", "extreme", "nightmare")]


@pytest.mark.parametrize(("difficulty", "size", "mode"), SETTINGS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_generated_puzzles_are_valid_in_band_and_reproducible(difficulty: str, size: int,
                                                              mode: str, seed: int) -> None:
    puzzle = generate(difficulty, size, mode, seed)
    assert puzzle.mode == mode
    assert len(puzzle.verifiers) == size
    assert _plainly_valid(puzzle.secret)
    shown = [card for cards in puzzle.verifiers for card in cards]
    assert len(set(shown)) == len(shown) == size * (2 if mode == "extreme" else 1)
    assert _band(shown) == difficulty
    for cards, criterion_id in zip(puzzle.verifiers, puzzle.secret, strict=True):
        assert int(criterion_id.split(".")[0]) in cards
    assert decode_puzzle(puzzle.share_code()) == puzzle
    assert generate(difficulty, size, mode, seed) == puzzle
    assert len({c.code for c in puzzle.candidates("optimal")}) > 1


def test_different_seeds_give_different_puzzles() -> None:
    puzzles = {generate("standard", 5, "classic", seed) for seed in range(50)}
    assert len(puzzles) > 45


@pytest.mark.parametrize(("difficulty", "size", "mode"),
                         [("medium", 4, "classic"), ("easy", 7, "classic"),
                          ("easy", 4, "chaos")])
def test_bad_settings_are_refused(difficulty: str, size: int, mode: str) -> None:
    with pytest.raises(InvalidMove):
        generate(difficulty, size, mode, 1)
