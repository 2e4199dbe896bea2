"""The daily challenge: one puzzle per UTC date, the same everywhere.

The week rotates difficulty and size (turing.md leaves the rotation to the engine): it
starts gently on Monday and peaks at the weekend, when there is time. Every day is classic,
so that the leaderboard compares like with like. The generator already refuses puzzles
that need no test.
"""

from __future__ import annotations

import datetime as dt

from engines.base import InvalidMove
from engines.turing.generator import generate
from engines.turing.puzzle import Puzzle

# Monday .. Sunday, as (difficulty, verifiers).
WEEKLY_ROTATION: tuple[tuple[str, int], ...] = (
    ("easy", 4), ("easy", 5), ("standard", 4), ("standard", 5),
    ("hard", 4), ("hard", 5), ("standard", 6),
)
_EPOCH = dt.date(2024, 1, 1)


def parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidMove("turing.error.bad_date",
                          "A date looks like 2026-11-21; '{got}' is not one.",
                          got=text.strip()[:20]) from None


def daily_settings(day: dt.date) -> tuple[str, int, str]:
    difficulty, size = WEEKLY_ROTATION[day.weekday()]
    return difficulty, size, "classic"


def daily_seed(day: dt.date) -> int:
    return (day - _EPOCH).days


def daily_puzzle(day: dt.date) -> Puzzle:
    difficulty, size, mode = daily_settings(day)
    return generate(difficulty, size, mode, daily_seed(day))
