"""The puzzle trainer's rows (``bot.puzzles.trainer``), read and written by the shared
queries (``queries_puzzles``).

* ``puzzle_attempts``: one row per puzzle a person was given, with the puzzle itself (its
  JSON holds the proof and, in card games, the whole deal: it is never shown), its first
  answer and the verdict on it, and the player's rating before and after that answer.
* ``puzzle_players``: a person's Glicko-2 rating, tries and streaks per game.
* ``puzzle_ratings``: each puzzle's own Glicko-2 rating, by share code, on every platform.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

log = logging.getLogger("bot.store")

OPEN, SOLVED, FAILED = "open", "solved", "failed"
ATTEMPT_COLUMNS = ("id, platform, user_id, name, server, game, code, themes, theme, daily, "
                   "puzzle, status, answer, verdict, started_at, answered_at, "
                   "rating_before, rating_after")
PLAYER_COLUMNS = ("platform, user_id, game, rating, deviation, volatility, tried, solved, "
                  "streak, best_streak")
RATING_COLUMNS = "code, game, rating, deviation, volatility, tried, solved"
# What ``record_puzzle_answer`` came to: written; the attempt had its answer already
# (another press, another process); or another answer changed the player's or the
# puzzle's rating meanwhile (read again and retry).
AnswerOutcome = Literal["recorded", "answered", "conflict"]


@dataclass(frozen=True)
class NewPuzzleAttempt:
    platform: str
    user_id: str
    name: str
    server: str  # the server or group where it was asked; "" in a private chat
    game: str
    code: str  # the puzzle's share code
    themes: tuple[str, ...]  # every theme of the puzzle, its primary one first
    theme: str  # the theme asked for, "" for any
    daily: str  # the day (ISO) of a puzzle of the day, "" for a trainer's puzzle
    puzzle: dict[str, Any]  # Puzzle.to_dict()


@dataclass(frozen=True)
class PuzzleAttempt:
    id: int
    platform: str
    user_id: str
    name: str
    server: str
    game: str
    code: str
    themes: tuple[str, ...]
    theme: str
    daily: str
    puzzle: dict[str, Any]
    status: str  # open, solved or failed
    answer: str | None  # the first answer
    verdict: dict[str, Any] | None  # the verdict on it (``bot.puzzles.trainer.verdict_json``)
    started_at: str
    answered_at: str | None
    rating_before: float | None
    rating_after: float | None

    @property
    def open(self) -> bool:
        return self.status == OPEN


@dataclass(frozen=True)
class PuzzlePlayer:
    """A person's puzzle rating in one game, with what it came from."""

    platform: str
    user_id: str
    game: str
    rating: float
    deviation: float
    volatility: float
    tried: int  # first tries, also the row's version: every answer adds one
    solved: int
    streak: int  # first tries solved in a row, up to now
    best_streak: int


@dataclass(frozen=True)
class PuzzleRating:
    """A puzzle's own rating, by its share code."""

    code: str
    game: str
    rating: float
    deviation: float
    volatility: float
    tried: int  # also the row's version
    solved: int


@dataclass(frozen=True)
class PuzzleAnswer:
    """Everything a first answer writes, in one transaction: the attempt's result, and
    both new ratings, each guarded by the ``tried`` count it was computed from (None: the
    row did not exist), so that two answers at once cannot both build on one rating."""

    attempt_id: int
    status: str  # solved or failed
    answer: str
    verdict: dict[str, Any]
    answered_at: str
    rating_before: float
    player: PuzzlePlayer
    player_tried_before: int | None
    puzzle: PuzzleRating
    puzzle_tried_before: int | None


@dataclass(frozen=True)
class SolvedPuzzle:
    """A puzzle solved at the first try, for assignments (``bot.classroom.assignments``)."""

    user_id: str
    name: str
    server: str  # where it was asked for ("" in a private chat)
    game: str
    code: str
    themes: tuple[str, ...]
    answered_at: str


def _json_object(text: Any) -> dict[str, Any]:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("not an object")
    return value


def attempt_records(rows: Iterable[Sequence[Any]]) -> list[PuzzleAttempt]:
    """The attempts of rows; a row whose JSON does not load is logged and skipped."""
    records = []
    for row in rows:
        try:
            puzzle = _json_object(row[10])
            verdict = _json_object(row[13]) if row[13] is not None else None
        except ValueError as error:
            log.error("puzzle attempt %s does not load and is skipped: %s", row[0], error)
            continue
        records.append(PuzzleAttempt(
            int(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]), str(row[5]),
            str(row[6]), tuple(str(row[7]).split()), str(row[8]), str(row[9]), puzzle,
            str(row[11]), None if row[12] is None else str(row[12]), verdict, str(row[14]),
            None if row[15] is None else str(row[15]),
            None if row[16] is None else float(row[16]),
            None if row[17] is None else float(row[17])))
    return records


def player_record(row: Sequence[Any]) -> PuzzlePlayer:
    return PuzzlePlayer(str(row[0]), str(row[1]), str(row[2]), float(row[3]), float(row[4]),
                        float(row[5]), int(row[6]), int(row[7]), int(row[8]), int(row[9]))


def rating_record(row: Sequence[Any]) -> PuzzleRating:
    return PuzzleRating(str(row[0]), str(row[1]), float(row[2]), float(row[3]),
                        float(row[4]), int(row[5]), int(row[6]))


def themes_text(themes: Iterable[str]) -> str:
    """Themes as stored: space-separated ids, so a LIKE finds one among them."""
    return " ".join(themes)
