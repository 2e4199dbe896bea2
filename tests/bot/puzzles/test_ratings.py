"""Glicko-2 (``bot/puzzles/ratings.py``) against the worked example of Mark E. Glickman's
"Example of the Glicko-2 system" (30 November 2013, http://www.glicko.net/glicko/glicko2.pdf):
a player rated 1500 (RD 200, σ 0.06, τ 0.5) beats a 1400 (RD 30), loses to a 1550
(RD 100) and to a 1700 (RD 300); the paper's new rating is 1464.06, RD 151.52,
volatility 0.05999, with v = 1.7785 and Δ = -0.4834 on the way."""

from __future__ import annotations

import pytest

from bot.puzzles.ratings import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    Game,
    Glicko,
    after_try,
    puzzle_start,
    rate,
)


def test_glickmans_worked_example() -> None:
    player = Glicko(1500, 200, 0.06)
    games = [Game(Glicko(1400, 30), 1.0), Game(Glicko(1550, 100), 0.0),
             Game(Glicko(1700, 300), 0.0)]
    after = rate(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    player = Glicko(1500, 200, 0.06)
    after = rate(player, [])
    assert after.rating == 1500
    assert after.volatility == 0.06
    # φ* = sqrt(φ² + σ²) on the Glicko-2 scale (step 6)
    assert after.deviation == pytest.approx(173.7178 * ((200 / 173.7178) ** 2 + 0.0036) ** 0.5)


def test_solving_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = Glicko(), puzzle_start(1500)
    solved_player, solved_puzzle = after_try(player, puzzle, solved=True)
    failed_player, failed_puzzle = after_try(player, puzzle, solved=False)
    assert solved_player.rating > player.rating > failed_player.rating
    assert failed_puzzle.rating > puzzle.rating > solved_puzzle.rating
    # A new player moves far more than a puzzle whose generator estimated it.
    assert solved_player.rating - player.rating > puzzle.rating - solved_puzzle.rating
    for rating in (solved_player, solved_puzzle, failed_player, failed_puzzle):
        assert MIN_DEVIATION <= rating.deviation <= MAX_DEVIATION


def test_beating_an_easy_puzzle_earns_less_than_a_hard_one() -> None:
    player = Glicko(1500, 100)
    easy, _ = after_try(player, puzzle_start(900), solved=True)
    hard, _ = after_try(player, puzzle_start(2100), solved=True)
    assert player.rating < easy.rating < hard.rating


def test_the_deviation_narrows_with_tries_and_keeps_a_floor() -> None:
    player, puzzle = Glicko(), Glicko(1500, MIN_DEVIATION)
    for number in range(200):
        player, _ = after_try(player, puzzle, solved=number % 2 == 0)
    assert MIN_DEVIATION <= player.deviation < 70
    before = player.rating
    player, _ = after_try(player, puzzle, solved=True)
    assert player.rating > before, "a rating at the floor still moves"
