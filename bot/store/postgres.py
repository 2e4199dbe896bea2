"""PostgreSQL through an asyncpg pool: the same ``Store`` as ``SQLiteStore``, for a bot run
as several processes on one database (``DATABASE_URL=postgresql://…``).

* What both databases do alike is the shared queries' (``queries*.py``, run here by
  ``PostgresRunner`` in ``dialect.POSTGRES``'s words); this module keeps what is
  PostgreSQL's own: the pool, the migrations' lock, new games, the save and the game lock.
* The pool keeps asyncpg's statement cache per connection, so the frequent statements
  (save, read a game) are parsed and planned once per connection, not per call.
* Every game write is one statement guarded by the row's version, exactly as in SQLite;
  the trigger ``log_each_move`` appends the row's move to ``moves`` inside it, so the state
  and its log line commit together. PostgreSQL commits concurrent transactions with one
  WAL flush of its own (group commit in the server), so there is no batching here.
* The schema is ``postgres_schema``'s, migrated under an advisory lock, so two processes
  starting at once migrate once.
* Timestamps are ISO text, and text that is sorted is sorted with ``COLLATE "C"`` (byte
  order, as SQLite does), so both stores return the very same values in the same order.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.dialect import POSTGRES
from bot.store.errors import ChannelBusy, NewerSchema, StoreUnavailable, unreachable_server
from bot.store.postgres_schema import (
    GAME_LOCK_SPACE,
    MIGRATION_LOCK,
    MIGRATIONS,
    SCHEMA_TABLE,
    SCHEMA_VERSION,
)
from bot.store.queries import Queries
from bot.store.records import (
    GAME_COLUMNS,
    GameRecord,
    GameUpdate,
    dumps,
    loadable_games,
    now,
    record_after,
)
from bot.store.runner import Duplicate, Runner

log = logging.getLogger(__name__)

# Connections per process: enough for the moves in flight at once at a thousand tables,
# few enough that four processes stay inside PostgreSQL's default max_connections of 100.
POOL_SIZE = 20
# Game locks held at once by one process; each holds a connection (see ``game_lock``),
# which also serves the move's read and save, so the rest of the pool stays free for the
# commands that take no lock (settings, rate buckets, lists).
LOCK_CONNECTIONS = POOL_SIZE - 4
# The game lock the current task holds (``game_lock``): the move's read and save run on
# its connection, and the save lets it go (``_HeldLock``). A task
# started inside the lock (a background job copies the context) does not use it: it is
# the lock holder's alone, and only for the store that took it (two stores in one task, as
# tests open them, each keep their own).
_HELD: contextvars.ContextVar[_HeldLock | None] = contextvars.ContextVar(
    "logic_bot_held_game_lock", default=None)
# Prepared statements kept per connection (asyncpg's default is 100; the store has ~50).
STATEMENT_CACHE = 256

_LOCK_AND_READ = f"SELECT {GAME_COLUMNS} FROM logic_bot_lock_game($1, $2, $3)"
_UNLOCK = "SELECT pg_advisory_unlock($1, $2)"
_SAVE = ("UPDATE games SET state=$1, version=$2, players=$3, status=$4, updated_at=$5, "
         "last_seat=$6, last_kind=$7, last_action=$8 WHERE id=$9 AND version=$10")


async def _keep_session(connection: asyncpg.Connection[asyncpg.Record]) -> None:
    """How a connection is reset when it goes back to the pool: not at all. asyncpg rolls
    back an open transaction in any case; its default reset (unlisten, reset all, unlock
    advisory locks, close cursors) is one more round trip on every release, for session
    state this store never makes: it listens to nothing and sets nothing, and a game lock
    lets its advisory lock go, or closes the connection, before it gives the connection
    back (``_end_lock``). That round trip was one in four of a move's
    (``benchmarks/load.py --database``)."""


def _count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _game_row(row: asyncpg.Record) -> tuple[Any, ...]:
    return tuple(row)


class PostgresRunner:
    """The shared queries' ``Runner`` on the pool, or on one connection (a transaction's,
    or a held game lock's)."""

    def __init__(self, on: asyncpg.Pool | PoolConnectionProxy[asyncpg.Record]) -> None:
        self._on = on

    async def rows(self, query: str, **params: Any) -> list[Sequence[Any]]:
        text, args = POSTGRES.numbered_args(query, params)
        return [tuple(row) for row in await self._on.fetch(text, *args)]

    async def row(self, query: str, **params: Any) -> Sequence[Any] | None:
        text, args = POSTGRES.numbered_args(query, params)
        found = await self._on.fetchrow(text, *args)
        return None if found is None else tuple(found)

    async def value(self, query: str, **params: Any) -> Any:
        text, args = POSTGRES.numbered_args(query, params)
        return await self._on.fetchval(text, *args)

    async def execute(self, query: str, **params: Any) -> int:
        text, args = POSTGRES.numbered_args(query, params)
        try:
            return _count(await self._on.execute(text, *args))
        except asyncpg.UniqueViolationError as error:
            raise Duplicate(str(error)) from error

    async def insert(self, query: str, **params: Any) -> int:
        text, args = POSTGRES.numbered_args(query + " RETURNING id", params)
        try:
            return int(await self._on.fetchval(text, *args))
        except asyncpg.UniqueViolationError as error:
            raise Duplicate(str(error)) from error

    async def execute_many(self, query: str, rows: Sequence[Mapping[str, Any]]) -> None:
        text = POSTGRES.statement(query)  # asyncpg runs them in one transaction
        await self._on.executemany(text, [POSTGRES.numbered_args(query, row)[1]
                                          for row in rows])

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Runner]:
        if isinstance(self._on, asyncpg.Pool):
            async with self._on.acquire() as connection, connection.transaction():
                yield PostgresRunner(connection)
        else:
            async with self._on.transaction():
                yield self

    def session(self) -> contextlib.AbstractAsyncContextManager[Runner]:
        return self.transaction()  # other processes must not see it half done


@dataclass
class _HeldLock:
    """A game lock being held: its task, store, connection and key, until it is let go.

    The lock is for read-modify-save only, so the holder's save lets it go, which frees
    the connection and its slot at once. What follows the save inside the service's lock
    (the danger marks' worker job, the reply's rendering, the finish listeners) then holds
    neither a connection nor another process's move back, and the move is on disk before
    any of it, as on SQLite. At 1000 tables on this 2-core machine each round trip inside
    the lock costs a turn of the busy event loop (10-15 ms at the median), so the lock
    takes three: lock and read, save, unlock (``benchmarks/load.py --database``;
    ``docs/performance.md``).
    """

    task: asyncio.Task[Any] | None
    store: PostgresStore
    connection: PoolConnectionProxy[asyncpg.Record] | None
    key: int
    # The game as the lock's own round trip read it, for the holder's first read of it.
    read_ahead: tuple[int, GameRecord | None] | None = None
    # Whether the server may still hold the lock for the connection's session: then the
    # connection is closed rather than pooled (``_give_back``).
    locked: bool = True

    def serves(self, store: PostgresStore) -> bool:
        return (self.connection is not None and self.store is store
                and self.task is asyncio.current_task())


class PostgresStore(Queries):
    shared = True  # several bot processes may serve one database

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self._lock_slots = asyncio.Semaphore(LOCK_CONNECTIONS)
        self._run: Runner = PostgresRunner(pool)
        # Locks being let go after their holders' saves (``save_game``), awaited at close.
        self._letting_go: set[asyncio.Task[None]] = set()

    @classmethod
    async def open(cls, url: str, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Connect, migrate, and return the store; ``StoreUnavailable`` (a paragraph for
        the host) when the server cannot be reached or refuses, ``NewerSchema`` when the
        database is a newer bot's."""
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, statement_cache_size=STATEMENT_CACHE,
                command_timeout=60, reset=_keep_session)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
            raise StoreUnavailable(unreachable_server(url, error)) from error
        store = cls(pool, url)
        try:
            await store._migrate()
        except NewerSchema:
            await pool.close()
            raise
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            await pool.close()
            raise StoreUnavailable(unreachable_server(url, error)) from error
        except BaseException:
            await pool.close()
            raise
        return store

    async def _migrate(self) -> None:
        """Each migration in its own transaction with its ``schema_version`` row, under a
        transaction-scoped advisory lock: a second process waits, then finds it done."""
        async with self._pool.acquire() as connection:
            while True:
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock($1)",
                                             MIGRATION_LOCK)
                    await connection.execute(SCHEMA_TABLE)
                    current = int(await connection.fetchval(
                        "SELECT COALESCE(MAX(version), 0) FROM schema_version"))
                    if current > SCHEMA_VERSION:
                        raise NewerSchema(f"database schema {current} is newer than this "
                                          f"bot's {SCHEMA_VERSION}; upgrade the bot")
                    if current == SCHEMA_VERSION:
                        return
                    await connection.execute(MIGRATIONS[current])
                    await connection.execute(
                        "INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)",
                        current + 1, now())

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval(
            "SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    async def integrity_ok(self) -> bool:
        """PostgreSQL checks its pages itself; this says the database answers."""
        return bool(await self._pool.fetchval("SELECT true"))

    async def close(self) -> None:
        if self._letting_go:
            await asyncio.gather(*self._letting_go, return_exceptions=True)
        await self._pool.close()

    # ----------------------------------------------------------------- games
    async def create_game(self, platform: str, channel: str, game: str,
                          options: dict[str, Any], seed: int, state: dict[str, Any],
                          players: list[dict[str, Any]], status: str,
                          server: str = "") -> GameRecord:
        stamp = now()
        try:
            game_id = await self._pool.fetchval(
                "INSERT INTO games (platform, channel, game, options, seed, state, version, "
                "players, status, created_at, updated_at, server) "
                "VALUES ($1,$2,$3,$4,$5,$6,1,$7,$8,$9,$9,$10) RETURNING id",
                platform, channel, game, dumps(options), seed, dumps(state), dumps(players),
                status, stamp, server)
        except asyncpg.UniqueViolationError as error:
            raise ChannelBusy(f"{platform}:{channel}") from error
        return GameRecord(int(game_id), platform, channel, game, options, seed, state, 1,
                          players, status, None, stamp, stamp, server)

    def _game_connection(self) -> asyncpg.Pool | PoolConnectionProxy[asyncpg.Record]:
        """The held game lock's connection when this task holds one, else the pool."""
        held = _HELD.get()
        if held is not None and held.serves(self):
            assert held.connection is not None
            return held.connection
        return self._pool

    def _game_run(self) -> Runner:
        """Games are read, and board references written, on the held lock's connection."""
        held = _HELD.get()
        if held is not None and held.serves(self):
            assert held.connection is not None
            return PostgresRunner(held.connection)
        return self._run

    async def get_game(self, game_id: int) -> GameRecord | None:
        held = _HELD.get()
        if held is not None and held.serves(self) and held.read_ahead is not None:
            read_for, record = held.read_ahead
            held.read_ahead = None  # read once: the holder's own writes follow it
            if read_for == game_id:
                return record
        return await super().get_game(game_id)

    async def save_game(self, record: GameRecord, update: GameUpdate) -> GameRecord | None:
        """Write ``update`` over ``record`` if nobody else wrote since it was read: the new
        record once committed, or ``None`` (nothing written) when the version moved on."""
        stamp = now()
        new_version = record.version + 1
        move = update.move
        status = await self._game_connection().execute(
            _SAVE, dumps(update.state), new_version, dumps(update.players), update.status,
            stamp, move.seat if move else None, move.kind if move else None,
            move.action if move else None, record.id, record.version)
        if _count(status) != 1:
            return None
        held = _HELD.get()
        if held is not None and held.serves(self):
            # Committed, so on disk: the lock can go, and the holder need not wait for
            # that round trip (its later statements use the pool). Another process's
            # lock on the game waits for the unlock, and then reads this move.
            connection, held.connection = held.connection, None
            assert connection is not None
            letting_go = asyncio.create_task(self._let_go(held, connection))
            self._letting_go.add(letting_go)
            letting_go.add_done_callback(self._letting_go.discard)
        return record_after(record, update, stamp)

    async def set_board_ref(self, game_id: int, ref: dict[str, Any] | None) -> None:
        held = _HELD.get()
        if held is not None and held.serves(self):
            held.read_ahead = None  # the lock's read no longer shows the row
        await super().set_board_ref(game_id, ref)

    # ------------------------------------------------- computer turns, game locks
    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int) -> AsyncIterator[None]:
        """Across every process: a session-level advisory lock on (GAME_LOCK_SPACE, game
        id), held on a pooled connection, so at most ``LOCK_CONNECTIONS`` of this
        process's locks are held at once, and released when the session ends if the
        process dies. One round trip takes the lock and reads the game
        (``logic_bot_lock_game``), which the holder's first ``get_game`` of it returns;
        its other reads of games and its save run on that connection. Each statement
        commits on its own, the save included, which then lets the lock go
        (``_HeldLock``); without a save it goes at the end of the block. The version
        guard of the save stays the safety net."""
        key = int(game_id) % 2_147_483_647
        await self._lock_slots.acquire()
        try:
            connection = await self._pool.acquire()
        except BaseException:
            self._lock_slots.release()
            raise
        held = _HeldLock(asyncio.current_task(), self, connection, key)
        try:
            try:
                rows = await connection.fetch(_LOCK_AND_READ, GAME_LOCK_SPACE, key, game_id)
            except BaseException:
                # Failed or cancelled (a timeout) while it waited: whether the server has
                # granted the lock cannot be known until the cancel settles, so the
                # connection is closed, which ends the session and every lock it holds.
                held.connection = None
                await self._give_back(held, connection)  # closed: ``locked`` is still true
                raise
            found = loadable_games(_game_row(row) for row in rows)
            held.read_ahead = (game_id, found[0] if found else None)
            token = _HELD.set(held)
            try:
                yield
            finally:
                _HELD.reset(token)
        finally:
            await self._end_lock(held)

    async def _end_lock(self, held: _HeldLock) -> None:
        """Let the held lock go and give its connection and slot back; later statements
        of the holder use the pool. A connection that could not unlock is closed instead
        (``_give_back``): the session's end releases the lock just as surely, and the pool
        opens a new one. Connections go back without a reset (``_keep_session``), so none
        may keep a lock."""
        connection, held.connection = held.connection, None
        if connection is not None:
            await self._let_go(held, connection)

    async def _let_go(self, held: _HeldLock,
                      connection: PoolConnectionProxy[asyncpg.Record]) -> None:
        held.read_ahead = None
        try:
            await connection.execute(_UNLOCK, GAME_LOCK_SPACE, held.key)
            held.locked = False
        except Exception as error:  # the connection was lost: its session is gone
            log.warning("closing a connection that could not let game lock %d go: %s",
                        held.key, error)
        finally:  # cancelled too: then ``locked`` is still true and the connection closed
            await self._give_back(held, connection)

    async def _give_back(self, held: _HeldLock,
                         connection: PoolConnectionProxy[asyncpg.Record]) -> None:
        try:
            if held.locked and not connection.is_closed():
                connection.terminate()  # the session's end lets the lock go; never pooled
            await self._pool.release(connection)
        finally:
            self._lock_slots.release()
