"""What the store reads and writes: plain records, shared by every database and every
consumer of the store."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger("bot.store")

RUNNING = ("waiting", "active")
FORMER_PLAYER = "a former player"
# The game of a daily schedule that posts the Turing Machine's daily challenge; any other
# game's schedule posts that game's puzzle of the day (``bot.puzzles.daily``).
TURING_DAILY = "turing"


# Rate buckets (``take_rate_token``): every this many takes, a process deletes the buckets
# that have refilled, which say nothing a new bucket would not, so the table follows the
# people active now rather than everyone ever seen.
RATE_SWEEP_EVERY = 1000


def rate_wait(tokens: float, allowed: bool, per_second: float) -> int:
    """The whole seconds a person waits, from their bucket after a take: 0 when the take
    was allowed, else the time until one token has refilled (at least 1 s)."""
    if allowed:
        return 0
    return max(1, math.ceil((1.0 - tokens) / per_second))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    """The JSON the store writes: compact, keys sorted, so equal values are equal text."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@dataclass
class GameRecord:
    id: int
    platform: str
    channel: str
    game: str
    options: dict[str, Any]
    seed: int
    state: dict[str, Any]
    version: int
    players: list[dict[str, Any]]
    status: str
    board_ref: dict[str, Any] | None = None
    created_at: str = ""
    updated_at: str = ""
    server: str = ""

    @property
    def running(self) -> bool:
        return self.status in RUNNING


@dataclass(frozen=True)
class MoveRecord:
    """One line of a game's log: an engine action, or a resign/join/abandon."""

    seat: int | None
    kind: str
    action: str


@dataclass
class GameUpdate:
    state: dict[str, Any]
    status: str
    players: list[dict[str, Any]]
    move: MoveRecord | None = None


def record_after(record: GameRecord, update: GameUpdate, stamp: str) -> GameRecord:
    """The record that saving ``update`` over ``record`` at ``stamp`` leaves: the next
    version, as every store's ``save_game`` returns it."""
    return GameRecord(record.id, record.platform, record.channel, record.game,
                      record.options, record.seed, update.state, record.version + 1,
                      update.players, update.status, record.board_ref, record.created_at,
                      stamp, record.server)


@dataclass
class DailySchedule:
    """A channel that gets a daily post at ``post_time`` (``HH:MM``, UTC, or followed by
    its time zone): the Turing Machine's challenge, or ``game``'s puzzle of the day."""

    platform: str
    channel: str
    server: str
    post_time: str
    language: str
    last_posted: str | None = None
    # While a process makes the post of ``last_posted``: until when its claim holds (UTC,
    # ISO); None once the post is out (``bot.puzzles.daily.POST_LEASE``).
    claimed_until: str | None = None
    # Whose puzzle of the day: ``TURING_DAILY`` (the daily challenge) or a trainer game's.
    game: str = TURING_DAILY


@dataclass
class DailyAttempt:
    """One user's try at one day's challenge; ``server`` is where they pressed Play."""

    day: str
    platform: str
    user_id: str
    name: str
    server: str
    game_id: int | None
    status: str
    rounds: int | None = None
    tests: int | None = None
    beat_machine: bool = False
    finished_at: str | None = None


@dataclass(frozen=True)
class ResultRow:
    """One human seat's result in a finished game. The ratings are set only for rated
    games (two people); ``opponent`` says whether the computer took part."""

    game_id: int
    platform: str
    user_id: str
    name: str
    server: str
    game: str
    opponent: str  # "human" or "ai"
    outcome: str  # "win", "loss" or "draw"
    rating_before: float | None = None
    rating_after: float | None = None


@dataclass(frozen=True)
class PlayerStats:
    """Counts of one player in one game: against people, and apart from them against the
    computer; ``rating`` is None before the first rated game."""

    platform: str
    user_id: str
    name: str
    game: str
    wins: int
    losses: int
    draws: int
    rating: float | None
    ai_wins: int = 0
    ai_losses: int = 0
    ai_draws: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True)
class TurnTimer:
    """The turn being timed in a channel: game ``game_id`` at ``version``, seen first at
    ``started_at`` (ISO, UTC); ``reminded``/``acted`` say which steps already fired."""

    platform: str
    channel: str
    game_id: int
    version: int
    started_at: str
    reminded: bool = False
    acted: bool = False


@dataclass(frozen=True)
class ExportRow:
    """One line of a class's results export: deliberately no user id."""

    date: str
    game: str
    name: str
    opponent: str
    outcome: str
    rating_after: float | None


@dataclass(frozen=True)
class Forgotten:
    """What ``forget_user`` removed or anonymised."""

    results: int
    ratings: int
    daily_attempts: int
    games: int




class BadRow(ValueError):
    """A stored game row that does not load: broken JSON, or JSON of the wrong shape."""


def _loads(text: Any, kind: type, column: str) -> Any:
    value = json.loads(text) if isinstance(text, str | bytes) else text
    if not isinstance(value, kind):
        raise BadRow(f"{column} is {type(value).__name__}, not {kind.__name__}")
    return value


def game_record(row: Sequence[Any]) -> GameRecord:
    """A ``GameRecord`` from the columns ``GAME_COLUMNS`` names, in that order; ``BadRow``
    when the row's JSON is broken or of the wrong shape."""
    (game_id, platform, channel, game, options, seed, state, version, players, status,
     board_ref, created_at, updated_at, server) = row
    try:
        return GameRecord(int(game_id), platform, channel, game,
                          _loads(options, dict, "options"), int(seed),
                          _loads(state, dict, "state"), int(version),
                          _loads(players, list, "players"), status,
                          _loads(board_ref, dict, "board_ref") if board_ref else None,
                          created_at, updated_at, server or "")
    except BadRow:
        raise
    except (ValueError, TypeError) as error:  # broken JSON, a number that is not one
        raise BadRow(str(error)) from error


def loadable_games(rows: Iterable[Sequence[Any]]) -> list[GameRecord]:
    """The rows that load; each that does not is logged with its id and left out, so that
    one damaged game cannot stop the bot from listing, resuming or counting the others."""
    records = []
    for row in rows:
        try:
            records.append(game_record(row))
        except BadRow as error:
            log.error("game %s does not load and is skipped: %s", row[0], error)
    return records


GAME_COLUMNS = ("id, platform, channel, game, options, seed, state, version, players, status, "
                "board_ref, created_at, updated_at, server")
