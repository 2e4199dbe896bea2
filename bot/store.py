"""Persistent storage: SQLite through aiosqlite, behind a small interface.

* WAL journal, ``synchronous=FULL``: a move acknowledged to a player survives a power cut.
* The schema version is SQLite's ``user_version``; ``MIGRATIONS`` upgrade older files.
* Every game write is one statement guarded by the row's version
  (``UPDATE … WHERE id=? AND version=?``), so a lost race is reported, never overwritten.
  The row carries the move just made and a trigger appends it to the ``moves`` log, so the
  state and its log line commit together in one autocommit transaction: one trip to
  aiosqlite's thread and one sync, and nothing for two coroutines' statements to interleave.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

MIGRATIONS: list[str] = [
    # 1: games, their move log, and per-channel settings.
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        platform    TEXT    NOT NULL,
        channel     TEXT    NOT NULL,
        game        TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        seed        INTEGER NOT NULL,
        state       TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        players     TEXT    NOT NULL,
        status      TEXT    NOT NULL
                    CHECK (status IN ('waiting', 'active', 'finished', 'abandoned')),
        board_ref   TEXT,
        created_at  TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL,
        last_seat   INTEGER,
        last_kind   TEXT,
        last_action TEXT
    );
    CREATE UNIQUE INDEX one_running_game_per_channel
        ON games (platform, channel) WHERE status IN ('waiting', 'active');
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE moves (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        version  INTEGER NOT NULL,
        seat     INTEGER,
        kind     TEXT    NOT NULL,
        action   TEXT    NOT NULL,
        at       TEXT    NOT NULL,
        PRIMARY KEY (game_id, version)
    );
    CREATE TRIGGER log_each_move AFTER UPDATE OF version ON games
    WHEN NEW.last_kind IS NOT NULL
    BEGIN
        INSERT INTO moves (game_id, version, seat, kind, action, at)
        VALUES (NEW.id, NEW.version, NEW.last_seat, NEW.last_kind, NEW.last_action,
                NEW.updated_at);
    END;
    CREATE TABLE channel_settings (
        platform TEXT NOT NULL,
        channel  TEXT NOT NULL,
        key      TEXT NOT NULL,
        value    TEXT NOT NULL,
        PRIMARY KEY (platform, channel, key)
    );
    """,
    # 2: the daily Turing Machine challenge: where it is posted, and who played it.
    """
    CREATE TABLE daily_schedules (
        platform    TEXT NOT NULL,
        channel     TEXT NOT NULL,
        server      TEXT NOT NULL,
        post_time   TEXT NOT NULL,
        language    TEXT NOT NULL,
        last_posted TEXT,
        PRIMARY KEY (platform, channel)
    );
    CREATE TABLE daily_attempts (
        day          TEXT    NOT NULL,
        platform     TEXT    NOT NULL,
        user_id      TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        server       TEXT    NOT NULL,
        game_id      INTEGER,
        status       TEXT    NOT NULL CHECK (status IN ('playing', 'solved', 'failed')),
        rounds       INTEGER,
        tests        INTEGER,
        beat_machine INTEGER,
        finished_at  TEXT,
        PRIMARY KEY (day, platform, user_id)
    );
    CREATE INDEX daily_attempts_by_server ON daily_attempts (day, server);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
RUNNING = ("waiting", "active")


class ChannelBusy(Exception):
    """A channel already holds a running game."""


class NewerSchema(Exception):
    """The database was written by a newer version of the bot."""


def sql_statements(script: str) -> list[str]:
    """Split a script into statements; a trigger's body keeps its inner semicolons."""
    statements, buffer = [], ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \n;"):
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip(" \n;"):
        raise ValueError(f"incomplete SQL statement: {buffer.strip()[:60]}")
    return statements


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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


class Store(Protocol):
    async def create_game(self, platform: str, channel: str, game: str,
                          options: dict[str, Any], seed: int, state: dict[str, Any],
                          players: list[dict[str, Any]], status: str) -> GameRecord: ...

    async def running_game(self, platform: str, channel: str) -> GameRecord | None: ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    async def save_game(self, record: GameRecord, update: GameUpdate) -> GameRecord | None: ...

    async def set_board_ref(self, game_id: int, ref: dict[str, Any] | None) -> None: ...

    async def games_with_status(self, *statuses: str) -> list[GameRecord]: ...

    async def moves(self, game_id: int) -> list[MoveRecord]: ...

    async def get_setting(self, platform: str, channel: str, key: str) -> str | None: ...

    async def set_setting(self, platform: str, channel: str, key: str, value: str) -> None: ...

    async def set_daily_schedule(self, schedule: DailySchedule) -> None: ...

    async def remove_daily_schedule(self, platform: str, channel: str) -> bool: ...

    async def daily_schedules(self, platform: str | None = None) -> list[DailySchedule]: ...

    async def claim_daily_post(self, platform: str, channel: str, day: str) -> bool: ...

    async def release_daily_post(self, platform: str, channel: str, day: str,
                                 previous: str | None) -> None: ...

    async def start_daily_attempt(self, attempt: DailyAttempt) -> bool: ...

    async def set_daily_attempt_game(self, day: str, platform: str, user_id: str,
                                     game_id: int | None) -> None: ...

    async def forget_daily_attempt(self, day: str, platform: str, user_id: str) -> None: ...

    async def finish_daily_attempt(self, game_id: int, solved: bool, rounds: int, tests: int,
                                   beat_machine: bool) -> None: ...

    async def daily_attempt(self, day: str, platform: str, user_id: str
                            ) -> DailyAttempt | None: ...

    async def daily_attempts(self, day: str, server: str | None = None
                             ) -> list[DailyAttempt]: ...

    async def solved_days(self, platform: str, user_id: str, since: str) -> list[str]: ...

    async def close(self) -> None: ...


_GAME_COLUMNS = ("id, platform, channel, game, options, seed, state, version, players, status, "
                 "board_ref, created_at, updated_at")


def _record(row: sqlite3.Row | tuple[Any, ...]) -> GameRecord:
    (game_id, platform, channel, game, options, seed, state, version, players, status,
     board_ref, created_at, updated_at) = row
    return GameRecord(int(game_id), platform, channel, game, json.loads(options), int(seed),
                      json.loads(state), int(version), json.loads(players), status,
                      json.loads(board_ref) if board_ref else None, created_at, updated_at)


@dataclass
class DailySchedule:
    """A channel that gets the daily challenge post at ``post_time`` (HH:MM, UTC)."""

    platform: str
    channel: str
    server: str
    post_time: str
    language: str
    last_posted: str | None = None


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


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class SQLiteStore:
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    @classmethod
    async def open(cls, path: str | Path) -> SQLiteStore:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        store = cls(connection)
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute("PRAGMA synchronous=FULL")
            await connection.execute("PRAGMA foreign_keys=ON")
            await connection.execute("PRAGMA busy_timeout=5000")
            await store._migrate()
        except BaseException:
            await connection.close()
            raise
        return store

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        current = int(row[0]) if row else 0
        if current > SCHEMA_VERSION:
            raise NewerSchema(f"database schema {current} is newer than this bot's "
                              f"{SCHEMA_VERSION}; upgrade the bot")
        for version in range(current, SCHEMA_VERSION):
            # executescript would commit on its own; statements one by one keep the
            # migration and its version stamp in one transaction.
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in sql_statements(MIGRATIONS[version]):
                    await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {version + 1}")
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        await self._db.close()

    async def create_game(self, platform: str, channel: str, game: str,
                          options: dict[str, Any], seed: int, state: dict[str, Any],
                          players: list[dict[str, Any]], status: str) -> GameRecord:
        stamp = now()
        try:
            cursor = await self._db.execute(
                "INSERT INTO games (platform, channel, game, options, seed, state, version, "
                "players, status, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (platform, channel, game, _dumps(options), seed, _dumps(state), 1,
                 _dumps(players), status, stamp, stamp))
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(f"{platform}:{channel}") from error
        game_id = cursor.lastrowid
        assert game_id is not None
        return GameRecord(game_id, platform, channel, game, options, seed, state, 1, players,
                          status, None, stamp, stamp)

    async def _fetch_games(self, where: str, params: tuple[Any, ...]) -> list[GameRecord]:
        async with self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}",
                                    params) as cursor:
            return [_record(row) for row in await cursor.fetchall()]

    async def running_game(self, platform: str, channel: str) -> GameRecord | None:
        found = await self._fetch_games(
            "platform=? AND channel=? AND status IN ('waiting','active')", (platform, channel))
        return found[0] if found else None

    async def get_game(self, game_id: int) -> GameRecord | None:
        found = await self._fetch_games("id=?", (game_id,))
        return found[0] if found else None

    async def games_with_status(self, *statuses: str) -> list[GameRecord]:
        marks = ",".join("?" * len(statuses))
        return await self._fetch_games(f"status IN ({marks}) ORDER BY id", statuses)

    async def save_game(self, record: GameRecord, update: GameUpdate) -> GameRecord | None:
        """Write ``update`` over ``record`` if nobody else wrote since it was read.

        Returns the new record (version + 1), or ``None`` when the version moved on, in
        which case nothing was written.
        """
        stamp = now()
        new_version = record.version + 1
        move = update.move
        cursor = await self._db.execute(
            "UPDATE games SET state=?, version=?, players=?, status=?, updated_at=?, "
            "last_seat=?, last_kind=?, last_action=? WHERE id=? AND version=?",
            (_dumps(update.state), new_version, _dumps(update.players), update.status, stamp,
             move.seat if move else None, move.kind if move else None,
             move.action if move else None, record.id, record.version))
        if cursor.rowcount != 1:
            return None
        return GameRecord(record.id, record.platform, record.channel, record.game,
                          record.options, record.seed, update.state, new_version,
                          update.players, update.status, record.board_ref, record.created_at,
                          stamp)

    async def set_board_ref(self, game_id: int, ref: dict[str, Any] | None) -> None:
        await self._db.execute("UPDATE games SET board_ref=? WHERE id=?",
                               (_dumps(ref) if ref is not None else None, game_id))

    async def moves(self, game_id: int) -> list[MoveRecord]:
        async with self._db.execute(
                "SELECT seat, kind, action FROM moves WHERE game_id=? ORDER BY version",
                (game_id,)) as cursor:
            return [MoveRecord(seat, kind, action) for seat, kind, action
                    in await cursor.fetchall()]

    async def get_setting(self, platform: str, channel: str, key: str) -> str | None:
        async with self._db.execute(
                "SELECT value FROM channel_settings WHERE platform=? AND channel=? AND key=?",
                (platform, channel, key)) as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else None

    async def set_setting(self, platform: str, channel: str, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO channel_settings (platform, channel, key, value) VALUES (?,?,?,?) "
            "ON CONFLICT (platform, channel, key) DO UPDATE SET value=excluded.value",
            (platform, channel, key, value))

    # ------------------------------------------------------------ daily challenge
    async def set_daily_schedule(self, schedule: DailySchedule) -> None:
        await self._db.execute(
            "INSERT INTO daily_schedules (platform, channel, server, post_time, language, "
            "last_posted) VALUES (?,?,?,?,?,?) ON CONFLICT (platform, channel) DO UPDATE SET "
            "server=excluded.server, post_time=excluded.post_time, "
            "language=excluded.language",
            (schedule.platform, schedule.channel, schedule.server, schedule.post_time,
             schedule.language, schedule.last_posted))

    async def remove_daily_schedule(self, platform: str, channel: str) -> bool:
        cursor = await self._db.execute(
            "DELETE FROM daily_schedules WHERE platform=? AND channel=?", (platform, channel))
        return cursor.rowcount == 1

    async def daily_schedules(self, platform: str | None = None) -> list[DailySchedule]:
        query = ("SELECT platform, channel, server, post_time, language, last_posted "
                 "FROM daily_schedules")
        params: tuple[str, ...] = ()
        if platform is not None:
            query += " WHERE platform=?"
            params = (platform,)
        async with self._db.execute(query + " ORDER BY platform, channel", params) as cursor:
            return [DailySchedule(*row) for row in await cursor.fetchall()]

    async def claim_daily_post(self, platform: str, channel: str, day: str) -> bool:
        """Mark ``day`` posted in the channel; False when it already was. One guarded
        statement, so two processes or a restart can never post the same day twice."""
        cursor = await self._db.execute(
            "UPDATE daily_schedules SET last_posted=? WHERE platform=? AND channel=? "
            "AND (last_posted IS NULL OR last_posted < ?)", (day, platform, channel, day))
        return cursor.rowcount == 1

    async def release_daily_post(self, platform: str, channel: str, day: str,
                                 previous: str | None) -> None:
        """Undo a claim whose post failed, so that the next attempt posts it."""
        await self._db.execute(
            "UPDATE daily_schedules SET last_posted=? WHERE platform=? AND channel=? "
            "AND last_posted=?", (previous, platform, channel, day))

    async def start_daily_attempt(self, attempt: DailyAttempt) -> bool:
        """Record the attempt; False when this user already has one for that day."""
        try:
            await self._db.execute(
                "INSERT INTO daily_attempts (day, platform, user_id, name, server, game_id, "
                "status) VALUES (?,?,?,?,?,?,?)",
                (attempt.day, attempt.platform, attempt.user_id, attempt.name, attempt.server,
                 attempt.game_id, attempt.status))
        except sqlite3.IntegrityError:
            return False
        return True

    async def set_daily_attempt_game(self, day: str, platform: str, user_id: str,
                                     game_id: int | None) -> None:
        await self._db.execute(
            "UPDATE daily_attempts SET game_id=? WHERE day=? AND platform=? AND user_id=?",
            (game_id, day, platform, user_id))

    async def forget_daily_attempt(self, day: str, platform: str, user_id: str) -> None:
        """Drop an attempt whose game could not start, so the user may try again."""
        await self._db.execute(
            "DELETE FROM daily_attempts WHERE day=? AND platform=? AND user_id=? "
            "AND status='playing' AND game_id IS NULL", (day, platform, user_id))

    async def finish_daily_attempt(self, game_id: int, solved: bool, rounds: int, tests: int,
                                   beat_machine: bool) -> None:
        await self._db.execute(
            "UPDATE daily_attempts SET status=?, rounds=?, tests=?, beat_machine=?, "
            "finished_at=? WHERE game_id=? AND status='playing'",
            ("solved" if solved else "failed", rounds, tests, int(beat_machine), now(),
             game_id))

    async def daily_attempt(self, day: str, platform: str, user_id: str
                            ) -> DailyAttempt | None:
        rows = await self._attempts("day=? AND platform=? AND user_id=?",
                                    (day, platform, user_id))
        return rows[0] if rows else None

    async def daily_attempts(self, day: str, server: str | None = None
                             ) -> list[DailyAttempt]:
        if server is None:
            return await self._attempts("day=?", (day,))
        return await self._attempts("day=? AND server=?", (day, server))

    async def solved_days(self, platform: str, user_id: str, since: str) -> list[str]:
        async with self._db.execute(
                "SELECT day FROM daily_attempts WHERE platform=? AND user_id=? AND "
                "status='solved' AND day>=? ORDER BY day", (platform, user_id, since)) as cursor:
            return [str(row[0]) for row in await cursor.fetchall()]

    async def _attempts(self, where: str, params: tuple[Any, ...]) -> list[DailyAttempt]:
        async with self._db.execute(
                "SELECT day, platform, user_id, name, server, game_id, status, rounds, tests, "
                f"beat_machine, finished_at FROM daily_attempts WHERE {where}",
                params) as cursor:
            return [DailyAttempt(*row[:7], rounds=row[7], tests=row[8],
                                 beat_machine=bool(row[9]), finished_at=row[10])
                    for row in await cursor.fetchall()]

    async def integrity_ok(self) -> bool:
        async with self._db.execute("PRAGMA integrity_check") as cursor:
            row = await cursor.fetchone()
        return bool(row) and row[0] == "ok"
