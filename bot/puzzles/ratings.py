"""Puzzle ratings: Glicko-2, for the players and for the puzzles themselves.

Written from Mark E. Glickman's public description, "Example of the Glicko-2 system"
(Boston University, 30 November 2013, http://www.glicko.net/glicko/glicko2.pdf), steps 1
to 8; ``tests/bot/puzzles/test_ratings.py`` checks the paper's worked example. The popular
puzzle sites rate this way: a try at a puzzle is a game between the solver and the
puzzle, which the solver wins by solving it, and both ratings move.

Each first try is a rating period of its own, for the player and for the puzzle, so a
rating changes after every puzzle. Retries and "show me" change nothing (``bot.puzzles.trainer``).
Puzzle ratings never touch the game ratings (Elo, ``bot.community.ratings``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Glickman's conversion between the Glicko scale and Glicko-2's: 400 / ln 10 (step 2).
SCALE = 173.7178
CENTRE = 1500.0
# The paper's defaults for an unrated player: rating 1500, RD 350, volatility 0.06.
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
# τ, the system constant "between 0.3 and 1.2" (step 1); 0.5 as in the paper's example.
TAU = 0.5
# Where the paper stops the volatility iteration (step 5.1).
EPSILON = 0.000001
# A puzzle's generator estimates its rating from its level, so it starts surer than an
# unknown player.
PUZZLE_DEVIATION = 200.0
# Bounds kept between periods: a deviation never grows past an unrated player's, and never
# shrinks so far that a rating stops moving (the puzzle sites keep a floor too).
MIN_DEVIATION = 45.0
MAX_DEVIATION = START_DEVIATION


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale, its deviation (RD) and its volatility σ."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Game:
    """One result of a rating period: the opponent's rating, and the score (1 a win,
    0 a loss, 0.5 a draw)."""

    opponent: Glicko
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, games: Sequence[Game], tau: float = TAU) -> Glicko:
    """The player's rating after one rating period with ``games`` (steps 2 to 8). A
    period without games only widens the deviation (step 6)."""
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    if not games:
        return Glicko(player.rating,
                      SCALE * math.sqrt(phi * phi + player.volatility ** 2),
                      player.volatility)
    opponents = [((game.opponent.rating - CENTRE) / SCALE, game.opponent.deviation / SCALE,
                  game.score) for game in games]
    # Step 3: the estimated variance of the rating from the games alone.
    v = 1.0 / sum(_g(phi_j) ** 2 * _expected(mu, mu_j, phi_j)
                  * (1.0 - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, _ in opponents)
    # Step 4: the estimated improvement.
    improvement = sum(_g(phi_j) * (score - _expected(mu, mu_j, phi_j))
                      for mu_j, phi_j, score in opponents)
    delta = v * improvement
    sigma = _new_volatility(player.volatility, phi, v, delta, tau)
    # Steps 6 and 7: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # Step 8: back to the Glicko scale.
    return Glicko(SCALE * mu_new + CENTRE, SCALE * phi_new, sigma)


def bounded(rating: Glicko) -> Glicko:
    """``rating`` with its deviation kept within ``MIN_DEVIATION``..``MAX_DEVIATION``."""
    return Glicko(rating.rating, min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation)),
                  rating.volatility)


def puzzle_start(rating: float) -> Glicko:
    """A puzzle's rating before anyone tried it: its generator's estimate."""
    return Glicko(float(rating), PUZZLE_DEVIATION, START_VOLATILITY)


def after_try(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's ratings after a first try: a game the player wins by
    solving the puzzle, and the puzzle wins otherwise, each rated against the other's
    rating from before the try."""
    score = 1.0 if solved else 0.0
    return (bounded(rate(player, [Game(puzzle, score)])),
            bounded(rate(puzzle, [Game(player, 1.0 - score)])))
