"""The L-game's ladder of computer players (``engines/lgame.py``'s agent section)."""

from __future__ import annotations

import random

import pytest

from engines import lgame
from engines.lgame import LOSS, WIN, LGameState, _scored_moves, make_agent


def positions(games: int, plies: int) -> list[LGameState]:
    """Positions from seeded random games, the ones before the game ended."""
    found = []
    for seed in range(games):
        state = lgame.new_game({}, 2, seed)
        rng = random.Random(seed)
        for _ in range(plies):
            if state.outcome() is not None:
                break
            found.append(LGameState.from_dict(state.to_dict()))
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
    return found


def throwing_moves(state: LGameState) -> set[str]:
    """By the solved table: the moves after which the opponent wins with their next move."""
    return {state._encode(*move) for move, value, distance in _scored_moves(state)
            if (value, distance) == (WIN, 1)}


def test_easy_never_throws_the_game_in_one_move_when_it_can_avoid_it() -> None:
    checked = avoidable = 0
    for state in positions(games=5, plies=30):
        actions = state.legal_actions(state.turn)
        throwing = throwing_moves(state)
        if not throwing:
            continue
        checked += 1
        if len(throwing) == len(actions):
            continue
        avoidable += 1
        for seed in range(3):
            choice = make_agent("easy", random.Random(seed)).choose(state, state.turn)
            assert choice not in throwing, (state.to_dict(), choice)
    assert avoidable >= 8, f"only {avoidable} positions with a throw to avoid ({checked})"


def test_easy_is_still_a_beginner_it_plays_many_different_moves() -> None:
    state = lgame.new_game({}, 2, 1)
    picks = {make_agent("easy", random.Random(seed)).choose(state, state.turn)
             for seed in range(30)}
    assert len(picks) > 10


@pytest.mark.parametrize("level", ["easy", "medium", "perfect", "strong"])
def test_every_level_is_replayable_from_its_seed(level: str) -> None:
    for state in positions(games=2, plies=10):
        first = make_agent(level, random.Random(5)).choose(state, state.turn)
        again = make_agent(level, random.Random(5)).choose(state, state.turn)
        assert first == again and first in state.legal_actions(state.turn)


def test_perfect_takes_a_win_in_one_whenever_there_is_one() -> None:
    wins = 0
    for state in positions(games=5, plies=30):
        scored = _scored_moves(state)
        if not any(v == LOSS and d == 0 for _, v, d in scored):
            continue
        wins += 1
        choice = make_agent("perfect", random.Random(1)).choose(state, state.turn)
        child = LGameState.from_dict(state.to_dict())
        child.apply(state.turn, choice)
        outcome = child.outcome()
        assert outcome is not None and outcome.winners == (state.turn,)
    assert wins >= 1
