"""Elo updates against hand-computed examples."""

from __future__ import annotations

import pytest

from bot.community.ratings import START, K, expected, updated


def test_equal_ratings_win_moves_sixteen_points_each_way() -> None:
    # E = 1 / (1 + 10^0) = 0.5; the winner gets 32 * (1 - 0.5) = +16, the loser -16.
    assert updated(START, START, "win") == 1216.0
    assert updated(START, START, "loss") == 1184.0
    assert updated(START, START, "draw") == START


def test_underdog_win_gains_more() -> None:
    # 1200 against 1400: E = 1 / (1 + 10^(200/400)) = 1 / (1 + 3.16228) = 0.24025.
    # The underdog wins: 1200 + 32 * (1 - 0.24025) = 1200 + 24.312 = 1224.31;
    # the favourite: 1400 + 32 * (0 - 0.75975) = 1400 - 24.312 = 1375.69.
    assert expected(1200, 1400) == pytest.approx(0.24025, abs=1e-5)
    assert updated(1200, 1400, "win") == pytest.approx(1224.31, abs=0.01)
    assert updated(1400, 1200, "loss") == pytest.approx(1375.69, abs=0.01)
    # A draw still moves points towards the underdog: 32 * (0.5 - 0.24025) = +8.31.
    assert updated(1200, 1400, "draw") == pytest.approx(1208.31, abs=0.01)


def test_changes_are_equal_and_opposite() -> None:
    for a, b in ((1200, 1200), (1500, 1100), (900, 1700)):
        for outcome, other in (("win", "loss"), ("draw", "draw"), ("loss", "win")):
            gain = updated(a, b, outcome) - a
            loss = updated(b, a, other) - b
            assert gain == pytest.approx(-loss)
            assert abs(gain) <= K
