"""Elo ratings for two-player games.

The formula is Elo's, as in FIDE's rating regulations (Handbook B02, section 8): the
expected score of a player rated ``Ra`` against one rated ``Rb`` is

    E = 1 / (1 + 10 ** ((Rb - Ra) / 400))

and after the game the rating moves by ``K * (S - E)``, where ``S`` is 1 for a win, 0.5 for
a draw and 0 for a loss. Everyone starts at ``START`` with the one development coefficient
``K`` (FIDE varies K with experience; classes are small and short-lived, so one constant
keeps the numbers explainable). The two changes are equal and opposite, so the sum of
ratings in a class never drifts. Ratings are kept unrounded and rounded only for display,
so rounding errors do not pile up over many games.
"""

from __future__ import annotations

START = 1200.0
K = 32.0
SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def expected(rating: float, other: float) -> float:
    """The expected score of a player rated ``rating`` against one rated ``other``."""
    # typeshed types float ** float as Any (a negative base can give a complex); 10.0 cannot.
    power: float = 10.0 ** ((other - rating) / 400.0)
    return 1.0 / (1.0 + power)


def updated(rating: float, other: float, outcome: str) -> float:
    """The rating after a game with result ``outcome`` ("win", "draw" or "loss")."""
    return rating + K * (SCORES[outcome] - expected(rating, other))
