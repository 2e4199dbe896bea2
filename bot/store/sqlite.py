"""Persistent storage: SQLite through aiosqlite, behind a small interface.

* WAL journal, ``synchronous=FULL``: a move acknowledged to a player survives a power cut.
  A host may choose ``normal`` (``DATABASE_SYNC``): a crash of the bot, not a power cut.
* The schema version is SQLite's ``user_version``; ``MIGRATIONS`` upgrade older files.
* Every game write is one statement guarded by the row's version
  (``UPDATE … WHERE id=? AND version=?``), so a lost race is reported, never overwritten.
  The row carries the move just made and a trigger appends it to the ``moves`` log, so the
  state and its log line commit together in one autocommit transaction: one trip to
  aiosqlite's thread and one sync, and nothing for two coroutines' statements to interleave.
* Group commit: saves that arrive while one is being written go out together as the next
  statement (one multi-row ``UPDATE … FROM (VALUES …) RETURNING id``), so many games share
  one sync. Under load the sync, not the CPU, bounded the moves per second (one fsync per
  move on a busy disk: ~100 moves/s at 1000 games, see docs/performance.md); alone, a save
  is still the single-row statement.
* Checkpoints run on a connection of their own (``_checkpoint_until_closed``), not in the
  commit that happens to fill the WAL: there a checkpoint copied the WAL into the database
  and synced it on aiosqlite's one thread, and every read and save queued behind it
  (``press_move`` p99 760 ms at 1000 games, 169 ms without; docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.errors import ChannelBusy, NewerSchema, StoreUnavailable, unusable_file
from bot.store.records import (
    FORMER_PLAYER,
    GAME_COLUMNS,
    RATE_SWEEP_EVERY,
    ExportRow,
    Forgotten,
    GameRecord,
    GameUpdate,
    MoveRecord,
    PlayerStats,
    ResultRow,
    TurnTimer,
    loadable_games,
    now,
    rate_wait,
    record_after,
)
from bot.store.records import dumps as _dumps
from bot.store.sqlite_assignments import SQLiteAssignmentQueries
from bot.store.sqlite_daily import SQLiteDailyQueries
from bot.store.sqlite_puzzles import SQLitePuzzleQueries
from bot.store.sqlite_schema import MIGRATIONS, SCHEMA_VERSION, sql_statements
from bot.store.sqlite_tournaments import SQLiteTournamentQueries

log = logging.getLogger(__name__)

# Now in seconds since 1970 by the database's clock (``unixepoch`` needs SQLite 3.38).
_EPOCH = "((julianday('now') - 2440587.5) * 86400.0)"



_SAVE_COLUMNS = ("state=?, version=?, players=?, status=?, updated_at=?, last_seat=?, "
                 "last_kind=?, last_action=?")
# One save's parameters in a batch: id, old version, then the columns in _SAVE_COLUMNS'
# order (the new version is computed by the statement).
_BATCH_ROW = "(?,?,?,?,?,?,?,?,?)"
_BATCH_SET = ", ".join(f"{column}=b.column{n}" for n, column in enumerate(
    ("state", "players", "status", "updated_at", "last_seat", "last_kind", "last_action"),
    start=3))
# Every row is nine parameters; SQLite allows 32766 in a statement since 3.32.
MAX_BATCH = 500
# How often the checkpointer copies the WAL into the database: often enough that little
# is left to copy when saves are held (below), seldom enough to cost nothing when idle.
CHECKPOINT_SECONDS = 1.0
# How often a checkpoint that keeps failing is said again in the log.
CHECKPOINT_LOG_SECONDS = 600
# The WAL only starts again from its beginning when a save finds it all copied, which never
# happens while saves follow each other without a gap, and at once in any lull. Past this
# many pages (200 MB; 40 s of a thousand games without a lull) the checkpointer holds saves
# back for one checkpoint of what is left, so the file stays bounded. Holding saves costs
# a sync of the database file, which this machine's disk can stretch to seconds, so it
# is kept for when the WAL has grown large, and what is left to copy is made small first.
WAL_RESTART_PAGES = 50_000
# Pages left uncopied below which the held checkpoint may start.
HOLD_PAGES = 256
# UPDATE … FROM needs SQLite 3.33 and RETURNING 3.35; older libraries save one at a time.
_CAN_BATCH = sqlite3.sqlite_version_info >= (3, 35)


@dataclass
class _HeldLock:
    """A game's in-process lock and how many hold or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


@dataclass
class _PendingSave:
    """A save waiting for the next group commit; ``done`` says whether the guard held."""

    game_id: int
    version: int
    params: tuple[Any, ...]  # the _SAVE_COLUMNS values, the new version among them
    done: asyncio.Future[bool] = field(repr=False)


@dataclass
class _PendingCreate:
    """A new game waiting for the next group commit; ``done`` gets its id (issue 25: one
    synced INSERT per new game took more of the database thread than all the saves)."""

    params: tuple[Any, ...]  # the _INSERT_COLUMNS values
    done: asyncio.Future[int] = field(repr=False)


_INSERT_COLUMNS = ("platform, channel, game, options, seed, state, version, players, status, "
                   "created_at, updated_at, server")
_INSERT_ROW = "(?,?,?,?,?,?,?,?,?,?,?,?)"


class SQLiteStore(SQLiteDailyQueries, SQLiteTournamentQueries, SQLiteAssignmentQueries,
                  SQLitePuzzleQueries):
    shared = False  # a SQLite file is served by one bot process

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._pending: list[_PendingSave] = []
        self._creates: list[_PendingCreate] = []
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._saving = asyncio.Lock()  # held by each batch and by a checkpoint that must end
        self._closing = asyncio.Event()
        self._game_locks: dict[int, _HeldLock] = {}
        self._rate_takes = 0

    @classmethod
    async def open(cls, path: str | Path, checkpoint_seconds: float = CHECKPOINT_SECONDS,
                   wal_restart_pages: int = WAL_RESTART_PAGES,
                   sync: str = "full") -> SQLiteStore:
        """``sync`` "full" (the default) syncs every commit, so an acknowledged move
        survives a power cut; "normal" leaves the sync to checkpoints, so it survives a
        crash of the bot but perhaps not a power cut (``bot.config.DATABASE_SYNCS``)."""
        if sync not in ("full", "normal"):
            raise ValueError(f"sync must be 'full' or 'normal', not {sync!r}")
        in_memory = str(path) == ":memory:"
        try:
            if not in_memory:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(str(path), isolation_level=None)
        except (sqlite3.Error, OSError) as error:
            raise StoreUnavailable(unusable_file(path, error)) from error
        store = cls(connection)
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute(f"PRAGMA synchronous={sync.upper()}")
            await connection.execute("PRAGMA foreign_keys=ON")
            await connection.execute("PRAGMA busy_timeout=5000")
            await store._check_readable_and_writable(path)
            await store._migrate()
            if not in_memory:
                await connection.execute("PRAGMA wal_autocheckpoint=0")
                checkpoints = await aiosqlite.connect(str(path), isolation_level=None)
                store._checkpointer = asyncio.create_task(store._checkpoint_until_closed(
                    checkpoints, checkpoint_seconds, wal_restart_pages))
        except (sqlite3.Error, OSError) as error:
            await connection.close()
            raise StoreUnavailable(unusable_file(path, error)) from error
        except BaseException:
            await connection.close()
            raise
        return store

    async def _checkpoint_until_closed(self, checkpoints: aiosqlite.Connection,
                                       seconds: float, restart_pages: int) -> None:
        """Copy the WAL into the database every ``seconds``, beside the saves.

        PASSIVE never waits for the writer or a reader: it copies what it can now and the
        rest next time. Once the WAL holds ``restart_pages``, saves are held for one more
        checkpoint, which then copies everything, so the next save starts the WAL again.
        Never cancelled mid-statement: ``close`` asks it to stop and waits."""

        async def checkpoint() -> int:
            """Checkpoint what it can; the pages the WAL held."""
            rows = await checkpoints.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            _, pages, _ = next(iter(rows))
            return int(pages)

        failures, said_at = 0, 0.0
        try:
            await checkpoints.execute("PRAGMA synchronous=FULL")
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closing.wait(), seconds)
                if self._closing.is_set():
                    return
                try:
                    pages = await checkpoint()
                    if pages >= restart_pages:
                        # Copy what came meanwhile, saves still going, until little is left.
                        for _ in range(3):
                            grown = await checkpoint() - pages
                            pages += grown
                            if grown <= HOLD_PAGES:
                                break
                        async with self._saving:
                            await checkpoint()
                    if failures:
                        log.warning("WAL checkpoints work again, after %d failed", failures)
                        failures = 0
                except sqlite3.Error as error:  # tried again next time; saves go on
                    failures += 1
                    now = asyncio.get_running_loop().time()
                    if failures == 1 or now - said_at >= CHECKPOINT_LOG_SECONDS:
                        # Once, then every few minutes: a full disk fails every second.
                        said_at = now
                        log.warning("WAL checkpoint failed (%d times so far; said again "
                                    "every %d min while it goes on): %s", failures,
                                    CHECKPOINT_LOG_SECONDS // 60, error)
        finally:
            await checkpoints.close()

    async def _check_readable_and_writable(self, path: str | Path) -> None:
        """Refuse a damaged file or one the bot cannot write, before anything is played:
        ``quick_check`` reads every page (a corrupt or truncated file fails it, in about a
        second per gigabyte), and a write that is rolled back finds a read-only file or
        mount, which would otherwise open fine and refuse only the first move."""
        problems = [str(row[0]) for row in await self._db.execute_fetchall(
            "PRAGMA quick_check")]
        if problems != ["ok"]:
            raise StoreUnavailable(unusable_file(path, "PRAGMA quick_check found: "
                                                 + "; ".join(problems[:3])))
        version = await self.schema_version()
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            await self._db.execute(f"PRAGMA user_version = {version}")
        finally:
            await self._db.execute("ROLLBACK")

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
        self._closing.set()
        if self._checkpointer is not None:
            await self._checkpointer
        if self._writer is not None:  # saves already accepted are written, not dropped
            await self._writer
        await self._db.close()  # the last connection to close checkpoints what is left

    async def create_game(self, platform: str, channel: str, game: str,
                          options: dict[str, Any], seed: int, state: dict[str, Any],
                          players: list[dict[str, Any]], status: str,
                          server: str = "") -> GameRecord:
        stamp = now()
        pending = _PendingCreate(
            (platform, channel, game, _dumps(options), seed, _dumps(state), 1,
             _dumps(players), status, stamp, stamp, server),
            asyncio.get_running_loop().create_future())
        self._creates.append(pending)  # written with the next group commit
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_pending())
        try:
            game_id = await asyncio.shield(pending.done)
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(f"{platform}:{channel}") from error
        return GameRecord(game_id, platform, channel, game, options, seed, state, 1, players,
                          status, None, stamp, stamp, server)

    async def _fetch_games(self, where: str, params: tuple[Any, ...]) -> list[GameRecord]:
        async with self._db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE {where}",
                                    params) as cursor:
            return loadable_games(await cursor.fetchall())

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

        Returns the new record (version + 1) once it is committed, or ``None`` when the
        version moved on, in which case nothing was written. Saves of other games that
        arrive meanwhile share the commit (see ``_write_pending``).
        """
        stamp = now()
        new_version = record.version + 1
        move = update.move
        pending = _PendingSave(
            record.id, record.version,
            (_dumps(update.state), new_version, _dumps(update.players), update.status, stamp,
             move.seat if move else None, move.kind if move else None,
             move.action if move else None),
            asyncio.get_running_loop().create_future())
        self._pending.append(pending)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_pending())
        if not await asyncio.shield(pending.done):
            return None
        return record_after(record, update, stamp)

    async def _write_pending(self) -> None:
        """Write the waiting saves, a batch per statement, until none is left.

        A batch holds at most one save per game: two guarded writes of one row in one
        ``UPDATE … FROM`` would leave it to SQLite which one wins, so a second one waits
        for the next batch, where its guard is checked against the first's result.
        """
        batch: list[_PendingSave] = []
        creates: list[_PendingCreate] = []
        try:
            while self._pending or self._creates:
                creates, self._creates = self._creates, []
                if creates:
                    async with self._saving:
                        await self._write_creates(creates)
                    creates = []
                if not self._pending:
                    continue
                batch, later = [], []
                games: set[int] = set()
                for pending in self._pending:
                    if (pending.game_id in games or len(batch) >= MAX_BATCH
                            or (batch and not _CAN_BATCH)):
                        later.append(pending)
                    else:
                        batch.append(pending)
                        games.add(pending.game_id)
                self._pending = later
                async with self._saving:
                    await self._write_batch(batch)
        finally:
            self._writer = None
            # Only when this task itself was cancelled (the loop shutting down): nobody
            # may wait forever for a save whose fate is unknown.
            waiting: list[_PendingSave | _PendingCreate] = [*batch, *self._pending, *creates,
                                                            *self._creates]
            for one in waiting:
                if not one.done.done():
                    one.done.set_exception(RuntimeError("the store stopped writing"))
            self._pending = []
            self._creates = []

    async def _write_creates(self, creates: list[_PendingCreate]) -> None:
        """New games, many to a statement (``INSERT … VALUES (…),(…) RETURNING``): one
        transaction and one sync for all of them. A channel's second new game waits for
        the next statement; when a statement fails (a channel already has a running game),
        its rows are written one by one, so only the offending one fails."""
        while creates:
            batch: list[_PendingCreate] = []
            later: list[_PendingCreate] = []
            channels: set[tuple[Any, Any]] = set()
            for pending in creates:
                channel = (pending.params[0], pending.params[1])
                if (channel in channels or len(batch) >= MAX_BATCH
                        or (batch and not _CAN_BATCH)):
                    later.append(pending)
                else:
                    batch.append(pending)
                    channels.add(channel)
            creates = later
            if len(batch) == 1:
                (one,) = batch
                try:
                    cursor = await self._db.execute(
                        f"INSERT INTO games ({_INSERT_COLUMNS}) VALUES {_INSERT_ROW}", one.params)
                    assert cursor.lastrowid is not None
                    one.done.set_result(cursor.lastrowid)
                except Exception as error:
                    one.done.set_exception(error)
                continue
            params = [value for pending in batch for value in pending.params]
            try:
                rows = await self._db.execute_fetchall(
                    f"INSERT INTO games ({_INSERT_COLUMNS}) VALUES "
                    f"{','.join([_INSERT_ROW] * len(batch))} RETURNING id, platform, channel",
                    params)
            except Exception:
                for pending in batch:  # one by one, each its own statement
                    await self._write_creates([pending])
                continue
            ids = {(platform, channel): int(game_id) for game_id, platform, channel in rows}
            for pending in batch:
                pending.done.set_result(ids[(pending.params[0], pending.params[1])])

    async def _write_batch(self, batch: list[_PendingSave]) -> None:
        try:
            saved = await self._save_rows(batch)
        except Exception as error:
            if len(batch) == 1:
                batch[0].done.set_exception(error)
                return
            # One bad row must not fail the others' moves: write them one by one.
            for pending in batch:
                await self._write_batch([pending])
            return
        for pending in batch:
            pending.done.set_result(pending.game_id in saved)

    async def _save_rows(self, batch: list[_PendingSave]) -> set[int]:
        """The ids of ``batch`` whose guard held, written in one autocommit statement: one
        transaction, one sync, and the trigger logs each row's move inside it."""
        if len(batch) == 1:
            (one,) = batch
            cursor = await self._db.execute(
                f"UPDATE games SET {_SAVE_COLUMNS} WHERE id=? AND version=?",
                (*one.params, one.game_id, one.version))
            return {one.game_id} if cursor.rowcount == 1 else set()
        params: list[Any] = []
        for pending in batch:
            state, _, players, status, stamp, seat, kind, action = pending.params
            params += [pending.game_id, pending.version, state, players, status, stamp, seat,
                       kind, action]
        # Counted, not RETURNING the ids: Python's sqlite3 lets go of the interpreter lock
        # and takes it back at every step, and RETURNING steps once per row, so under load
        # a batch of 300 waited for the busy event loop 300 times (13 ms instead of 2.4 ms
        # with a busy thread beside it; docs/performance.md, section 9).
        cursor = await self._db.execute(
            f"UPDATE games SET version=b.column2 + 1, {_BATCH_SET} FROM (VALUES "
            f"{','.join([_BATCH_ROW] * len(batch))}) AS b "
            "WHERE games.id=b.column1 AND games.version=b.column2", params)
        if cursor.rowcount == len(batch):  # every guard held (one row per game in a batch)
            return {pending.game_id for pending in batch}
        # Another process wrote some of these games first: the rows that hold this batch's
        # version, state and time stamp are the ones written. (Should it write one of them
        # again in between, that save is reported lost though written; a lost save is
        # never reported written.)
        written = {(pending.game_id, pending.params[1], pending.params[0], pending.params[4])
                   for pending in batch}
        rows = await self._db.execute_fetchall(
            f"SELECT id, version, state, updated_at FROM games WHERE id IN "
            f"({','.join('?' * len(batch))})", [pending.game_id for pending in batch])
        return {int(row[0]) for row in rows
                if (int(row[0]), int(row[1]), row[2], row[3]) in written}

    async def set_board_ref(self, game_id: int, ref: dict[str, Any] | None) -> None:
        await self._db.execute("UPDATE games SET board_ref=? WHERE id=?",
                               (_dumps(ref) if ref is not None else None, game_id))

    async def record_shown(self, shown: Mapping[int, int]) -> None:
        if not shown:
            return
        # One transaction for all, a sync per flush and not per board; under the saves'
        # lock, since the group-commit writer opens transactions on this connection too.
        async with self._saving:
            await self._db.execute("BEGIN")
            try:
                await self._db.executemany(
                    "UPDATE games SET board_ref=json_set(board_ref, '$.shown', ?) "
                    "WHERE id=? AND board_ref IS NOT NULL",
                    [(version, game_id) for game_id, version in shown.items()])
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

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

    # ------------------------------------------------------- results and ratings
    async def running_games(self, platform: str, server: str) -> list[GameRecord]:
        return await self._fetch_games(
            "platform=? AND server=? AND status IN ('waiting','active') ORDER BY id",
            (platform, server))

    async def count_running_games(self, platform: str, *, server: str | None = None,
                                  user_id: str | None = None) -> int:
        """Waiting and active games on ``platform``, within ``server`` and with
        ``user_id`` in a human seat when given: the numbers the service's limits count."""
        where = ["platform=?", "status IN ('waiting','active')"]
        params: list[Any] = [platform]
        if server is not None:
            where.append("server=?")
            params.append(server)
        if user_id is not None:
            # A damaged row (not JSON) counts for nobody instead of failing the query.
            where.append("CASE WHEN json_valid(games.players) THEN EXISTS (SELECT 1 FROM"
                         " json_each(games.players) AS seat"
                         " WHERE json_extract(seat.value, '$.kind')='human'"
                         " AND json_extract(seat.value, '$.left') IS NULL"
                         " AND json_extract(seat.value, '$.id')=?) ELSE 0 END")
            params.append(user_id)
        async with self._db.execute(
                f"SELECT COUNT(*) FROM games WHERE {' AND '.join(where)}", params) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def last_finished_game(self, platform: str, channel: str) -> GameRecord | None:
        found = await self._fetch_games(
            "platform=? AND channel=? AND status IN ('finished','abandoned') "
            "ORDER BY id DESC LIMIT 1", (platform, channel))
        return found[0] if found else None

    async def ratings_of(self, platform: str, user_ids: list[str], game: str
                         ) -> dict[str, float]:
        marks = ",".join("?" * len(user_ids))
        async with self._db.execute(
                f"SELECT user_id, rating FROM ratings WHERE platform=? AND game=? "
                f"AND user_id IN ({marks})", (platform, game, *user_ids)) as cursor:
            return {str(user): float(rating) for user, rating in await cursor.fetchall()}

    async def record_results(self, rows: list[ResultRow]) -> bool:
        """Record every seat of one game in one statement; False when the game was already
        counted. One statement is atomic, and the trigger ``rate_each_result`` moves the
        ratings inside it, so a game counts exactly once or not at all."""
        if not rows:
            return False
        stamp = now()
        values = ",".join(["(?,?,?,?,?,?,?,?,?,?,?)"] * len(rows))
        params: list[Any] = []
        for row in rows:
            params += [row.game_id, row.platform, row.user_id, row.name, row.server, row.game,
                       row.opponent, row.outcome, row.rating_before, row.rating_after, stamp]
        try:
            await self._db.execute(
                "INSERT INTO results (game_id, platform, user_id, name, server, game, opponent, "
                f"outcome, rating_before, rating_after, at) VALUES {values}", params)
        except sqlite3.IntegrityError:
            return False
        return True

    async def game_results(self, game_id: int) -> list[ResultRow]:
        """The recorded seats of one finished game (none when it was not counted)."""
        async with self._db.execute(
                "SELECT game_id, platform, user_id, name, server, game, opponent, outcome, "
                "rating_before, rating_after "
                "FROM results WHERE game_id=? ORDER BY user_id", (game_id,)) as cursor:
            return [ResultRow(*row) for row in await cursor.fetchall()]

    _STATS_SELECT = (
        "SELECT r.platform, r.user_id, "
        "(SELECT name FROM results n WHERE n.platform=r.platform AND n.user_id=r.user_id "
        " ORDER BY n.at DESC LIMIT 1), r.game, "
        "SUM(r.opponent='human' AND r.outcome='win'), "
        "SUM(r.opponent='human' AND r.outcome='loss'), "
        "SUM(r.opponent='human' AND r.outcome='draw'), "
        "(SELECT rating FROM ratings g WHERE g.platform=r.platform AND g.user_id=r.user_id "
        " AND g.game=r.game), "
        "SUM(r.opponent='ai' AND r.outcome='win'), "
        "SUM(r.opponent='ai' AND r.outcome='loss'), "
        "SUM(r.opponent='ai' AND r.outcome='draw') FROM results r ")

    @staticmethod
    def _stats(row: Sequence[Any]) -> PlayerStats:
        return PlayerStats(str(row[0]), str(row[1]), str(row[2]), str(row[3]),
                           int(row[4] or 0), int(row[5] or 0), int(row[6] or 0),
                           None if row[7] is None else float(row[7]),
                           int(row[8] or 0), int(row[9] or 0), int(row[10] or 0))

    async def player_stats(self, platform: str, user_id: str) -> list[PlayerStats]:
        async with self._db.execute(
                self._STATS_SELECT + "WHERE r.platform=? AND r.user_id=? "
                "GROUP BY r.game ORDER BY r.game", (platform, user_id)) as cursor:
            return [self._stats(row) for row in await cursor.fetchall()]

    async def leaderboard(self, platform: str, game: str, server: str | None,
                          limit: int) -> list[PlayerStats]:
        """Players of ``game`` against people, best rating first (unrated last), then most
        wins; within ``server`` the counts are of games played there."""
        where = "WHERE r.platform=? AND r.game=? AND r.opponent='human' "
        params: tuple[Any, ...] = (platform, game)
        if server is not None:
            where += "AND r.server=? "
            params += (server,)
        async with self._db.execute(
                self._STATS_SELECT + where + "GROUP BY r.user_id", params) as cursor:
            rows = [self._stats(row) for row in await cursor.fetchall()]
        rows.sort(key=lambda s: (s.rating is None, -(s.rating or 0.0), -s.wins, s.losses,
                                 s.name))
        return rows[:limit]

    async def forget_user(self, platform: str, user_id: str) -> Forgotten:
        """Delete a person's results, ratings and daily attempts, and anonymise their seat
        in the games they played: the name becomes ``FORMER_PLAYER`` and the id a random
        token (a new one per game, so the games cannot be linked to each other either).

        Call it when none of their games is running. Every statement is idempotent, so a
        request interrupted halfway is completed by asking again.
        """
        results = await self._db.execute(
            "DELETE FROM results WHERE platform=? AND user_id=?", (platform, user_id))
        ratings = await self._db.execute(
            "DELETE FROM ratings WHERE platform=? AND user_id=?", (platform, user_id))
        attempts = await self._db.execute(
            "DELETE FROM daily_attempts WHERE platform=? AND user_id=?", (platform, user_id))
        # A Telegram private chat's id is the user's id: its settings (language, boards)
        # are the person's own. Elsewhere no channel has a user's id, so nothing matches.
        await self._db.execute(
            "DELETE FROM channel_settings WHERE platform=? AND channel=?", (platform, user_id))
        async with self._db.execute(
                "SELECT id, players FROM games g WHERE CASE WHEN json_valid(g.players) THEN "
                "EXISTS (SELECT 1 FROM json_each(g.players) p WHERE "
                "json_extract(p.value, '$.kind')='human' AND "
                "json_extract(p.value, '$.platform')=? AND json_extract(p.value, '$.id')=?) "
                "ELSE 0 END",
                (platform, user_id)) as cursor:
            found = list(await cursor.fetchall())
        for game_id, players_json in found:
            token = "former-" + secrets.token_hex(8)
            players = json.loads(players_json)  # valid JSON: the query checked
            if not isinstance(players, list):
                log.error("game %s does not load and is skipped: players is %s",
                          game_id, type(players).__name__)
                continue
            for player in players:
                if (isinstance(player, dict) and player.get("kind") == "human"
                        and player.get("platform") == platform and player.get("id") == user_id):
                    player.update(id=token, name=FORMER_PLAYER)
            # A Telegram private chat's id is the user's id: rename that channel too.
            await self._db.execute(
                "UPDATE games SET players=?, channel=CASE WHEN channel=? THEN ? ELSE channel "
                "END WHERE id=? AND status IN ('finished','abandoned')",
                (_dumps(players), user_id, token, game_id))
            await self._db.execute(
                "UPDATE moves SET action=? WHERE game_id=? AND action=? "
                "AND kind IN ('join','start','abandon')", (token, game_id, user_id))
        return Forgotten(results.rowcount, ratings.rowcount, attempts.rowcount, len(found))

    # ------------------------------------------------------------- turn timers
    async def turn_timer(self, platform: str, channel: str) -> TurnTimer | None:
        async with self._db.execute(
                "SELECT platform, channel, game_id, version, started_at, reminded, acted "
                "FROM turn_timers WHERE platform=? AND channel=?", (platform, channel)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return TurnTimer(str(row[0]), str(row[1]), int(row[2]), int(row[3]), str(row[4]),
                         bool(row[5]), bool(row[6]))

    async def start_turn_timer(self, timer: TurnTimer) -> None:
        """Time a new turn; a row already timing this very turn is kept, so that a second
        process (or a late call) cannot restart a running clock or clear its claims."""
        await self._db.execute(
            "INSERT INTO turn_timers (platform, channel, game_id, version, started_at) "
            "VALUES (?,?,?,?,?) ON CONFLICT (platform, channel) DO UPDATE SET "
            "game_id=excluded.game_id, version=excluded.version, "
            "started_at=excluded.started_at, reminded=0, acted=0 "
            "WHERE game_id<>excluded.game_id OR version<>excluded.version",
            (timer.platform, timer.channel, timer.game_id, timer.version, timer.started_at))

    async def claim_turn_timer(self, timer: TurnTimer, step: str) -> bool:
        """Mark ``step`` ("reminded" or "acted") done for exactly this turn; False when
        it already was or the turn changed. One guarded statement, as for daily posts."""
        if step not in ("reminded", "acted"):
            raise ValueError(step)
        cursor = await self._db.execute(
            f"UPDATE turn_timers SET {step}=1 WHERE platform=? AND channel=? AND game_id=? "
            f"AND version=? AND {step}=0",
            (timer.platform, timer.channel, timer.game_id, timer.version))
        return cursor.rowcount == 1

    async def server_results(self, platform: str, server: str) -> list[ExportRow]:
        async with self._db.execute(
                "SELECT substr(at, 1, 10), game, name, opponent, outcome, rating_after "
                "FROM results WHERE platform=? AND server=? ORDER BY at, game_id, name",
                (platform, server)) as cursor:
            return [ExportRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]),
                              None if r[5] is None else float(r[5]))
                    for r in await cursor.fetchall()]

    async def integrity_ok(self) -> bool:
        async with self._db.execute("PRAGMA integrity_check") as cursor:
            row = await cursor.fetchone()
        return row is not None and bool(row) and row[0] == "ok"

    # ------------------------------------------------- computer turns, game locks
    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Within this process only: a SQLite file is served by one bot process."""
        held = self._game_locks.get(game_id)
        if held is None:
            held = self._game_locks[game_id] = _HeldLock()
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:
            held.users -= 1
            if not held.users:  # nobody holds or waits: forget it, so the map stays small
                del self._game_locks[game_id]

    async def claim_computer_turn(self, game_id: int, version: int, holder: str,
                                  seconds: float) -> bool:
        cursor = await self._db.execute(
            f"INSERT INTO computer_turn_leases (game_id, version, holder, expires_at) "
            f"VALUES (?,?,?,{_EPOCH} + ?) ON CONFLICT (game_id) DO UPDATE SET "
            "version=excluded.version, holder=excluded.holder, expires_at=excluded.expires_at "
            "WHERE computer_turn_leases.version < excluded.version "
            f"OR computer_turn_leases.expires_at < {_EPOCH} "
            "OR (computer_turn_leases.holder = excluded.holder "
            "AND computer_turn_leases.version = excluded.version)",
            (game_id, version, holder, seconds))
        return cursor.rowcount == 1

    async def release_computer_turn(self, game_id: int, holder: str) -> None:
        await self._db.execute(
            "DELETE FROM computer_turn_leases WHERE game_id=? AND holder=?", (game_id, holder))

    async def take_rate_token(self, platform: str, user_id: str, burst: int,
                              per_second: float) -> int:
        refilled = ("MIN(:burst, rate_buckets.tokens + "
                    "MAX(0.0, excluded.at - rate_buckets.at) * :rate)")
        async with self._db.execute(
                "INSERT INTO rate_buckets (platform, user_id, tokens, at, allowed) "
                f"VALUES (:platform, :user, :burst - 1, {_EPOCH}, 1) "
                "ON CONFLICT (platform, user_id) DO UPDATE SET "
                f"allowed = ({refilled} >= 1), "
                f"tokens = {refilled} - (CASE WHEN {refilled} >= 1 THEN 1 ELSE 0 END), "
                "at = excluded.at RETURNING tokens, allowed",
                {"platform": platform, "user": user_id, "burst": burst,
                 "rate": per_second}) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        self._rate_takes += 1
        if self._rate_takes % RATE_SWEEP_EVERY == 0:
            await self._db.execute(f"DELETE FROM rate_buckets WHERE at < {_EPOCH} - ?",
                                   (burst / per_second,))
        return rate_wait(float(row[0]), bool(row[1]), per_second)
