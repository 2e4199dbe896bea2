"""The card games' puzzles proven by replay (``card_checker``): for seeds of every theme,
every accepted answer holds the proof's best score under every deal of the hidden cards,
and every refused legal action falls short under at least one, checked by playing the
actions through the engines themselves; the proof's scores are the replayed ones; and the
check can fail, as a planted wrong answer and a dropped right one show."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.booleo import puzzles as booleo_puzzles
from engines.cards.puzzles import hand_classes
from engines.digitalo import puzzles as digitalo_puzzles
from engines.puzzles import Puzzle, generate_puzzle
from tests.helpers.puzzles.card_checker import check_all, hand_multisets, verify

GAMES = ("booleo", "digitalo")
THEMES = ("complete", "survive", "break")
FAST_SEEDS = range(3)
# The exhaustive run: many more seeds, every one replayed in full.
SLOW_SEEDS = range(3, 60)


@pytest.mark.parametrize("seed", FAST_SEEDS)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", GAMES)
def test_every_answer_holds_under_every_deal(game: str, theme: str, seed: int) -> None:
    assert verify(generate_puzzle(game, seed, theme)) == []


@pytest.mark.slow
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", GAMES)
def test_every_answer_holds_under_every_deal_for_many_seeds(game: str, theme: str) -> None:
    problems = {seed: found for seed in SLOW_SEEDS
                if (found := verify(generate_puzzle(game, seed, theme)))}
    assert problems == {}


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", GAMES)
def test_the_proofs_scores_are_the_replayed_ones(game: str, theme: str) -> None:
    puzzle = generate_puzzle(game, 11, theme)
    checked = check_all(puzzle)
    best = tuple(puzzle.proof["best"])
    for entry in puzzle.proof["accepted"]:
        assert checked.worth(entry["action"]) == tuple(entry["value"]) == best
    for entry in puzzle.proof["refused"]:
        assert checked.worth(entry["action"]) == tuple(entry["value"]), entry["action"]
    listed = {e["action"] for e in puzzle.proof["accepted"] + puzzle.proof["refused"]}
    assert listed == set(checked.values) and puzzle.proof["legal"] == len(listed)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", GAMES)
def test_the_checker_deals_the_hands_the_proof_counts(game: str, theme: str) -> None:
    """The checker deals the real hidden cards; the proof counts hands from the view:
    the two agree on which sets of kinds the opponent may hold."""
    puzzle = generate_puzzle(game, 5, theme)
    module = booleo_puzzles if game == "booleo" else digitalo_puzzles
    state = puzzle.position()
    analysis = module.analyse(state, puzzle.seat)
    assert analysis.hands is not None
    classes = {(c.kinds, c.drawn) for c in analysis.hands.classes}
    assert {(d.kinds, d.drawn) for d in check_all(puzzle).deals} == classes
    assert analysis.hands.hands == puzzle.proof["hands"]


def _with_refused(game: str, theme: str) -> Puzzle:
    return next(p for seed in range(40)
                if (p := generate_puzzle(game, seed, theme)).proof["refused"])


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("game", GAMES)
def test_a_planted_wrong_answer_is_caught(game: str, theme: str) -> None:
    puzzle = _with_refused(game, theme)
    wrong = puzzle.proof["refused"][0]["action"]
    planted = replace(puzzle, accepted=(wrong,))
    problems = verify(planted)
    assert any(p.startswith(f"{wrong} is worth") for p in problems)
    assert any(p.endswith("everywhere") for p in problems)  # the real answer, now refused


@pytest.mark.parametrize("game", GAMES)
def test_a_dropped_right_answer_is_caught(game: str) -> None:
    puzzle = next(p for seed in range(60) for theme in THEMES
                  if len((p := generate_puzzle(game, seed, theme)).accepted) > 1)
    dropped = replace(puzzle, accepted=puzzle.accepted[1:])
    assert verify(dropped) == [f"{puzzle.accepted[0]} is refused but holds "
                               f"{tuple(puzzle.proof['best'])} everywhere"]


def test_a_claimed_best_the_answers_do_not_reach_is_caught() -> None:
    puzzle = generate_puzzle("booleo", 2, "survive")
    higher = [*puzzle.proof["best"][:2], puzzle.proof["best"][2] + 1]
    problems = verify(replace(puzzle, proof={**puzzle.proof, "best": higher}))
    assert problems and all("is worth" in p for p in problems)


@settings(max_examples=60, deadline=None)
@given(counts=st.lists(st.integers(min_value=0, max_value=8), min_size=1, max_size=7),
       size=st.integers(min_value=1, max_value=5), least=st.integers(min_value=0, max_value=2))
def test_hand_classes_count_every_hand_once(counts: list[int], size: int, least: int) -> None:
    """The classes' counts, made kind by kind, are those of listing every hand (the
    checker's own recursion), and without a bound their deals are all ways to pick
    ``size`` of the pool's cards."""
    pool = {f"K{i}": count for i, count in enumerate(counts)}
    bound = {"K0": least} if least else {}
    hands = hand_classes(pool, size, bound)
    listed: Counter[frozenset[str]] = Counter()
    for hand in hand_multisets(Counter(pool), size):
        if hand["K0"] >= least:
            listed[frozenset(+hand)] += 1
    assert {c.kinds: c.hands for c in hands.classes} == dict(listed)
    if not least:
        assert hands.deals == comb(sum(counts), size)
