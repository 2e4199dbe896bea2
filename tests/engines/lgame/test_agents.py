"""The L-game's ladder of computer players (``engines/lgame/agents.py``)."""

from __future__ import annotations

import random

import pytest

from engines import lgame
from engines.lgame import LEVELS, LGameState, make_agent
from engines.lgame import agents as lgame_agent
from engines.lgame.agents import LGameAgent, _scored_moves, squeeze_moves, table_moves
from engines.lgame.solver import LOSS, UNKNOWN, WIN, solved_table


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


def drawn_positions(games: int, plies: int) -> list[LGameState]:
    """The positions of ``positions`` that the solved table calls drawn: where a move into a
    lost position is a real mistake."""
    value = solved_table(False).value
    return [state for state in positions(games, plies)
            if value[state.relative_key()] == UNKNOWN]


def test_the_levels_are_weakest_first_with_the_solved_table_on_top() -> None:
    assert LEVELS == ("easy", "medium", "strong", "perfect")
    shares = [LGameAgent.TABLE_SHARES[level] for level in LEVELS]
    assert shares == sorted(shares) and shares[0] == 0.0 and shares[-1] == 1.0


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_replayable_from_its_seed(level: str) -> None:
    for state in positions(games=3, plies=30):
        first = make_agent(level, random.Random(5)).choose(state, state.turn)
        again = make_agent(level, random.Random(5)).choose(state, state.turn)
        assert first == again and first in state.legal_actions(state.turn)


@pytest.mark.parametrize("level", LEVELS)
def test_a_whole_game_replays_from_the_agents_seeds(level: str) -> None:
    """The same seeds give the same game, move for move (each agent consumes its own rng
    the same way every time), here against medium."""

    def game() -> list[str]:
        state = lgame.new_game({}, 2, 3)
        agents = [make_agent(level, random.Random(11)), make_agent("medium", random.Random(12))]
        while state.outcome() is None and state.plies < 60:
            state.apply(state.turn, agents[state.turn].choose(state, state.turn))
        return state.actions

    assert game() == game()


def test_easy_never_reads_the_solved_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """easy is a quick level, played on the event loop: it must not build or read the table."""

    def no_table(sudden_death: bool = False) -> None:
        raise AssertionError("easy read the solved table")

    # The agents read the table where they live (engines/lgame/agents.py).
    monkeypatch.setattr(lgame_agent, "solved_table", no_table)
    for state in positions(games=3, plies=20):
        for seed in range(3):
            make_agent("easy", random.Random(seed)).choose(state, state.turn)


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_the_middle_levels_never_throw_the_game_in_one_move(level: str) -> None:
    """They blunder plausibly: through moves that are safe one move ahead."""
    for state in positions(games=4, plies=30):
        throwing = throwing_moves(state)
        if not throwing or len(throwing) == len(state.legal_actions(state.turn)):
            continue
        for seed in range(3):
            assert make_agent(level, random.Random(seed)).choose(state, state.turn) not in throwing


def test_the_squeeze_takes_a_win_in_one() -> None:
    found = 0
    for state in positions(games=5, plies=30):
        wins = {move for move, value, distance in _scored_moves(state)
                if (value, distance) == (LOSS, 0)}
        if wins:
            found += 1
            assert set(squeeze_moves(state)) == wins
    assert found >= 1


def test_perfect_never_moves_from_a_drawn_position_into_a_lost_one() -> None:
    value = solved_table(False).value
    states = drawn_positions(games=6, plies=40)
    assert len(states) > 100
    for state in states:
        for seed in range(2):
            child = LGameState.from_dict(state.to_dict())
            child.apply(state.turn, make_agent("perfect", random.Random(seed)).choose(
                state, state.turn))
            assert child.outcome() is None and value[child.relative_key()] != WIN


def test_strong_sometimes_plays_another_move_than_perfect_would() -> None:
    differs = 0
    strong = make_agent("strong", random.Random(4))
    for state in positions(games=4, plies=30):
        best = {state._encode(*move) for move in table_moves(state)}
        differs += strong.choose(state, state.turn) not in best
    assert differs >= 3


def blunder_chance(level: str, state: LGameState) -> float:
    """The exact chance that ``level``'s next move leaves the opponent a won position, from
    its documented mixture of the three kinds of move (no sampling, so it cannot be flaky):
    the table's best, the squeeze, or any move that does not lose at once."""
    leaves = {move: (value, distance) for move, value, distance in _scored_moves(state)}

    def lost_share(pool: list[tuple[int, int]]) -> float:
        return sum(leaves[move][0] == WIN for move in pool) / len(pool)

    safe = [move for move, result in leaves.items() if result != (WIN, 1)] or list(leaves)
    table = LGameAgent.TABLE_SHARES[level]
    squeeze = LGameAgent.SQUEEZE_SHARES[level]
    return (table * lost_share(table_moves(state))
            + (1 - table) * (squeeze * lost_share(squeeze_moves(state))
                             + (1 - squeeze) * lost_share(safe)))


def test_each_level_blunders_less_often_than_the_one_below() -> None:
    """The ladder's per-move backbone: over drawn positions, the mean chance of moving into
    a lost position falls by a real step from level to level, and is nil for perfect."""
    states = drawn_positions(games=10, plies=40)
    mean = {level: sum(blunder_chance(level, state) for state in states) / len(states)
            for level in LEVELS}
    assert mean["perfect"] == 0.0 < mean["strong"]
    assert 2 * mean["strong"] < mean["medium"]
    assert 1.5 * mean["medium"] < mean["easy"]


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
