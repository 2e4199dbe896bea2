"""Persistent storage: SQLite through aiosqlite, behind a small interface.

* What both databases do alike is the shared queries' (``queries*.py``, run here by
  ``SQLiteRunner`` in ``dialect.SQLITE``'s words); this module keeps what is SQLite's own:
  opening and checking the file, migrations, checkpoints, the group commit of new games
  and saves, and the game lock (within the process).
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
import logging
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.dialect import SQLITE
from bot.store.errors import ChannelBusy, NewerSchema, StoreUnavailable, unusable_file
from bot.store.queries import Queries
from bot.store.records import GameRecord, GameUpdate, now, record_after
from bot.store.records import dumps as _dumps
from bot.store.runner import Duplicate, Runner
from bot.store.sqlite_schema import MIGRATIONS, SCHEMA_VERSION, sql_statements

log = logging.getLogger(__name__)

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


class SQLiteRunner:
    """The shared queries' ``Runner`` on the store's one connection. Its transactions hold
    the saves' lock: the group commit's writer opens transactions on this connection too."""

    def __init__(self, connection: aiosqlite.Connection, saving: asyncio.Lock) -> None:
        self._db = connection
        self._saving = saving

    async def rows(self, query: str, **params: Any) -> list[Sequence[Any]]:
        text, bound = SQLITE.named(query, params)
        async with self._db.execute(text, bound) as cursor:
            return list(await cursor.fetchall())

    async def row(self, query: str, **params: Any) -> Sequence[Any] | None:
        text, bound = SQLITE.named(query, params)
        async with self._db.execute(text, bound) as cursor:
            found: Sequence[Any] | None = await cursor.fetchone()
        return found

    async def value(self, query: str, **params: Any) -> Any:
        found = await self.row(query, **params)
        return found[0] if found else None

    async def _cursor(self, query: str, params: Mapping[str, Any]) -> aiosqlite.Cursor:
        text, bound = SQLITE.named(query, params)
        try:
            return await self._db.execute(text, bound)
        except sqlite3.IntegrityError as error:
            raise Duplicate(str(error)) from error

    async def execute(self, query: str, **params: Any) -> int:
        return (await self._cursor(query, params)).rowcount

    async def insert(self, query: str, **params: Any) -> int:
        cursor = await self._cursor(query, params)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def execute_many(self, query: str, rows: Sequence[Mapping[str, Any]]) -> None:
        async with self._saving:  # one transaction, so one sync for all
            await self._db.execute("BEGIN")
            try:
                await self._db.executemany(SQLITE.statement(query), rows)
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Runner]:
        async with self._saving:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[Runner]:
        yield self  # one statement at a time, each its own transaction


class SQLiteStore(Queries):
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
        self._run: Runner = SQLiteRunner(connection, self._saving)

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
