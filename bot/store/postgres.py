"""PostgreSQL through an asyncpg pool: the same ``Store`` as ``SQLiteStore``, for a bot run
as several processes on one database (``DATABASE_URL=postgresql://…``).

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
import json
import logging
import secrets
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.errors import ChannelBusy, NewerSchema, StoreUnavailable, unreachable_server
from bot.store.postgres_assignments import PostgresAssignmentQueries
from bot.store.postgres_puzzles import PostgresPuzzleQueries
from bot.store.postgres_schema import (
    GAME_LOCK_SPACE,
    MIGRATION_LOCK,
    MIGRATIONS,
    SCHEMA_TABLE,
    SCHEMA_VERSION,
)
from bot.store.postgres_tournaments import PostgresTournamentQueries
from bot.store.records import (
    FORMER_PLAYER,
    GAME_COLUMNS,
    RATE_SWEEP_EVERY,
    DailyAttempt,
    DailySchedule,
    ExportRow,
    Forgotten,
    GameRecord,
    GameUpdate,
    MoveRecord,
    PlayerStats,
    ResultRow,
    TurnTimer,
    dumps,
    loadable_games,
    now,
    rate_wait,
    record_after,
)

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
# Now in seconds since 1970 by the server's clock, so processes on machines whose clocks
# differ agree on when a claim lapses.
_EPOCH = "extract(epoch FROM clock_timestamp())::double precision"
# Prepared statements kept per connection (asyncpg's default is 100; the store has ~50).
STATEMENT_CACHE = 256

_LOCK_AND_READ = f"SELECT {GAME_COLUMNS} FROM logic_bot_lock_game($1, $2, $3)"
_UNLOCK = "SELECT pg_advisory_unlock($1, $2)"
_SAVE = ("UPDATE games SET state=$1, version=$2, players=$3, status=$4, updated_at=$5, "
         "last_seat=$6, last_kind=$7, last_action=$8 WHERE id=$9 AND version=$10")

# A human seat that has not left, in ``players``; a row whose players are no array (a
# damaged one) matches nothing rather than failing the whole query.
_SEATED_HUMAN = ("CASE WHEN jsonb_typeof(players)='array' THEN EXISTS (SELECT 1 FROM "
                 "jsonb_array_elements(players) AS seat WHERE seat->>'kind'='human' "
                 "AND COALESCE(seat->'left', 'null'::jsonb)='null'::jsonb "
                 "AND seat->>'id'=$ID) ELSE false END")


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


class PostgresStore(PostgresTournamentQueries, PostgresAssignmentQueries,
                    PostgresPuzzleQueries):
    shared = True  # several bot processes may serve one database

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self._lock_slots = asyncio.Semaphore(LOCK_CONNECTIONS)
        self._rate_takes = 0
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

    async def _fetch_games(self, where: str, *params: Any) -> list[GameRecord]:
        rows = await self._game_connection().fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE {where}", *params)
        return loadable_games(_game_row(row) for row in rows)

    async def running_game(self, platform: str, channel: str) -> GameRecord | None:
        found = await self._fetch_games(
            "platform=$1 AND channel=$2 AND status IN ('waiting','active')", platform, channel)
        return found[0] if found else None

    async def get_game(self, game_id: int) -> GameRecord | None:
        held = _HELD.get()
        if held is not None and held.serves(self) and held.read_ahead is not None:
            read_for, record = held.read_ahead
            held.read_ahead = None  # read once: the holder's own writes follow it
            if read_for == game_id:
                return record
        found = await self._fetch_games("id=$1", game_id)
        return found[0] if found else None

    async def games_with_status(self, *statuses: str) -> list[GameRecord]:
        return await self._fetch_games("status = ANY($1::text[]) ORDER BY id", list(statuses))

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
        await self._game_connection().execute("UPDATE games SET board_ref=$1 WHERE id=$2",
                                 dumps(ref) if ref is not None else None, game_id)

    async def record_shown(self, shown: Mapping[int, int]) -> None:
        if not shown:
            return
        await self._pool.executemany(
            "UPDATE games SET board_ref=(board_ref::jsonb || jsonb_build_object('shown', "
            "$1::bigint))::text WHERE id=$2 AND board_ref IS NOT NULL",
            [(version, game_id) for game_id, version in shown.items()])

    async def moves(self, game_id: int) -> list[MoveRecord]:
        rows = await self._pool.fetch(
            "SELECT seat, kind, action FROM moves WHERE game_id=$1 ORDER BY version", game_id)
        return [MoveRecord(row[0], row[1], row[2]) for row in rows]

    async def get_setting(self, platform: str, channel: str, key: str) -> str | None:
        value = await self._pool.fetchval(
            "SELECT value FROM channel_settings WHERE platform=$1 AND channel=$2 AND key=$3",
            platform, channel, key)
        return None if value is None else str(value)

    async def set_setting(self, platform: str, channel: str, key: str, value: str) -> None:
        await self._pool.execute(
            "INSERT INTO channel_settings (platform, channel, key, value) "
            "VALUES ($1,$2,$3,$4) ON CONFLICT (platform, channel, key) "
            "DO UPDATE SET value=EXCLUDED.value", platform, channel, key, value)

    # ------------------------------------------------------------ daily challenge
    async def set_daily_schedule(self, schedule: DailySchedule) -> None:
        await self._pool.execute(
            "INSERT INTO daily_schedules (platform, channel, server, post_time, language, "
            "last_posted) VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (platform, channel) "
            "DO UPDATE SET server=EXCLUDED.server, post_time=EXCLUDED.post_time, "
            "language=EXCLUDED.language",
            schedule.platform, schedule.channel, schedule.server, schedule.post_time,
            schedule.language, schedule.last_posted)

    async def remove_daily_schedule(self, platform: str, channel: str) -> bool:
        status = await self._pool.execute(
            "DELETE FROM daily_schedules WHERE platform=$1 AND channel=$2", platform, channel)
        return _count(status) == 1

    async def daily_schedules(self, platform: str | None = None) -> list[DailySchedule]:
        query = ("SELECT platform, channel, server, post_time, language, last_posted, "
                 "claimed_until "
                 "FROM daily_schedules")
        params: tuple[str, ...] = ()
        if platform is not None:
            query += " WHERE platform=$1"
            params = (platform,)
        rows = await self._pool.fetch(
            query + ' ORDER BY platform COLLATE "C", channel COLLATE "C"', *params)
        return [DailySchedule(*row) for row in rows]

    async def claim_daily_post(self, platform: str, channel: str, day: str, now: str,
                               until: str) -> bool:
        """As ``SQLiteStore.claim_daily_post``: a lease until ``until``, one guarded
        statement."""
        status = await self._pool.execute(
            "UPDATE daily_schedules SET last_posted=$1, claimed_until=$2 WHERE platform=$3 "
            'AND channel=$4 AND (last_posted IS NULL OR last_posted COLLATE "C" < $1 OR '
            '(last_posted=$1 AND claimed_until IS NOT NULL AND claimed_until COLLATE "C" < $5))',
            day, until, platform, channel, now)
        return _count(status) == 1

    async def finish_daily_post(self, platform: str, channel: str, day: str) -> None:
        await self._pool.execute(
            "UPDATE daily_schedules SET claimed_until=NULL WHERE platform=$1 AND channel=$2 "
            "AND last_posted=$3", platform, channel, day)

    async def release_daily_post(self, platform: str, channel: str, day: str,
                                 previous: str | None) -> None:
        await self._pool.execute(
            "UPDATE daily_schedules SET last_posted=$1, claimed_until=NULL WHERE platform=$2 "
            "AND channel=$3 AND last_posted=$4", previous, platform, channel, day)

    async def start_daily_attempt(self, attempt: DailyAttempt) -> bool:
        try:
            await self._pool.execute(
                "INSERT INTO daily_attempts (day, platform, user_id, name, server, game_id, "
                "status) VALUES ($1,$2,$3,$4,$5,$6,$7)",
                attempt.day, attempt.platform, attempt.user_id, attempt.name, attempt.server,
                attempt.game_id, attempt.status)
        except asyncpg.UniqueViolationError:
            return False
        return True

    async def set_daily_attempt_game(self, day: str, platform: str, user_id: str,
                                     game_id: int | None) -> None:
        await self._pool.execute(
            "UPDATE daily_attempts SET game_id=$1 WHERE day=$2 AND platform=$3 AND user_id=$4",
            game_id, day, platform, user_id)

    async def forget_daily_attempt(self, day: str, platform: str, user_id: str) -> None:
        await self._pool.execute(
            "DELETE FROM daily_attempts WHERE day=$1 AND platform=$2 AND user_id=$3 "
            "AND status='playing' AND game_id IS NULL", day, platform, user_id)

    async def withdraw_daily_attempt(self, day: str, platform: str, user_id: str,
                                     game_id: int) -> None:
        await self._pool.execute(
            "DELETE FROM daily_attempts WHERE day=$1 AND platform=$2 AND user_id=$3 "
            "AND game_id=$4", day, platform, user_id, game_id)

    async def finish_daily_attempt(self, game_id: int, solved: bool, rounds: int, tests: int,
                                   beat_machine: bool) -> None:
        await self._pool.execute(
            "UPDATE daily_attempts SET status=$1, rounds=$2, tests=$3, beat_machine=$4, "
            "finished_at=$5 WHERE game_id=$6 AND status='playing'",
            "solved" if solved else "failed", rounds, tests, int(beat_machine), now(),
            game_id)

    async def daily_attempt(self, day: str, platform: str, user_id: str
                            ) -> DailyAttempt | None:
        rows = await self._attempts("day=$1 AND platform=$2 AND user_id=$3",
                                    day, platform, user_id)
        return rows[0] if rows else None

    async def daily_attempts(self, day: str, server: str | None = None
                             ) -> list[DailyAttempt]:
        if server is None:
            return await self._attempts("day=$1", day)
        return await self._attempts("day=$1 AND server=$2", day, server)

    async def solved_days(self, platform: str, user_id: str, since: str) -> list[str]:
        rows = await self._pool.fetch(
            "SELECT day FROM daily_attempts WHERE platform=$1 AND user_id=$2 AND "
            'status=\'solved\' AND day COLLATE "C" >= $3 ORDER BY day COLLATE "C"',
            platform, user_id, since)
        return [str(row[0]) for row in rows]

    async def _attempts(self, where: str, *params: Any) -> list[DailyAttempt]:
        rows = await self._pool.fetch(
            "SELECT day, platform, user_id, name, server, game_id, status, rounds, tests, "
            f"beat_machine, finished_at FROM daily_attempts WHERE {where}", *params)
        return [DailyAttempt(row[0], row[1], row[2], row[3], row[4], row[5], row[6],
                             rounds=row[7], tests=row[8], beat_machine=bool(row[9]),
                             finished_at=row[10])
                for row in rows]

    # ------------------------------------------------------- results and ratings
    async def running_games(self, platform: str, server: str) -> list[GameRecord]:
        return await self._fetch_games(
            "platform=$1 AND server=$2 AND status IN ('waiting','active') ORDER BY id",
            platform, server)

    async def count_running_games(self, platform: str, *, server: str | None = None,
                                  user_id: str | None = None) -> int:
        where = ["platform=$1", "status IN ('waiting','active')"]
        params: list[Any] = [platform]
        if server is not None:
            params.append(server)
            where.append(f"server=${len(params)}")
        if user_id is not None:
            params.append(user_id)
            where.append(_SEATED_HUMAN.replace("$ID", f"${len(params)}"))
        return int(await self._pool.fetchval(
            f"SELECT COUNT(*) FROM games WHERE {' AND '.join(where)}", *params))

    async def last_finished_game(self, platform: str, channel: str) -> GameRecord | None:
        found = await self._fetch_games(
            "platform=$1 AND channel=$2 AND status IN ('finished','abandoned') "
            "ORDER BY id DESC LIMIT 1", platform, channel)
        return found[0] if found else None

    async def ratings_of(self, platform: str, user_ids: list[str], game: str
                         ) -> dict[str, float]:
        rows = await self._pool.fetch(
            "SELECT user_id, rating FROM ratings WHERE platform=$1 AND game=$2 "
            "AND user_id = ANY($3::text[])", platform, game, list(user_ids))
        return {str(row[0]): float(row[1]) for row in rows}

    async def record_results(self, rows: list[ResultRow]) -> bool:
        """Every seat of one game in one statement, ratings moved by ``rate_each_result``
        inside it; False (nothing written) when the game was already counted."""
        if not rows:
            return False
        stamp = now()
        values: list[str] = []
        params: list[Any] = []
        for row in rows:
            base = len(params)
            values.append("(" + ",".join(f"${base + n}" for n in range(1, 12)) + ")")
            params += [row.game_id, row.platform, row.user_id, row.name, row.server, row.game,
                       row.opponent, row.outcome, row.rating_before, row.rating_after, stamp]
        try:
            await self._pool.execute(
                "INSERT INTO results (game_id, platform, user_id, name, server, game, opponent, "
                f"outcome, rating_before, rating_after, at) VALUES {','.join(values)}",
                *params)
        except asyncpg.UniqueViolationError:
            return False
        return True

    async def game_results(self, game_id: int) -> list[ResultRow]:
        """The recorded seats of one finished game (none when it was not counted)."""
        rows = await self._pool.fetch(
            "SELECT game_id, platform, user_id, name, server, game, opponent, outcome, "
            "rating_before, rating_after "
            "FROM results WHERE game_id=$1 ORDER BY user_id", game_id)
        return [ResultRow(*row) for row in rows]

    _STATS_SELECT = (
        "SELECT r.platform, r.user_id, "
        "(SELECT name FROM results n WHERE n.platform=r.platform AND n.user_id=r.user_id "
        ' ORDER BY n.at COLLATE "C" DESC LIMIT 1), r.game, '
        "COUNT(*) FILTER (WHERE r.opponent='human' AND r.outcome='win'), "
        "COUNT(*) FILTER (WHERE r.opponent='human' AND r.outcome='loss'), "
        "COUNT(*) FILTER (WHERE r.opponent='human' AND r.outcome='draw'), "
        "(SELECT rating FROM ratings g WHERE g.platform=r.platform AND g.user_id=r.user_id "
        " AND g.game=r.game), "
        "COUNT(*) FILTER (WHERE r.opponent='ai' AND r.outcome='win'), "
        "COUNT(*) FILTER (WHERE r.opponent='ai' AND r.outcome='loss'), "
        "COUNT(*) FILTER (WHERE r.opponent='ai' AND r.outcome='draw') FROM results r ")

    @staticmethod
    def _stats(row: Sequence[Any] | asyncpg.Record) -> PlayerStats:
        return PlayerStats(str(row[0]), str(row[1]), str(row[2]), str(row[3]),
                           int(row[4] or 0), int(row[5] or 0), int(row[6] or 0),
                           None if row[7] is None else float(row[7]),
                           int(row[8] or 0), int(row[9] or 0), int(row[10] or 0))

    async def player_stats(self, platform: str, user_id: str) -> list[PlayerStats]:
        rows = await self._pool.fetch(
            self._STATS_SELECT + "WHERE r.platform=$1 AND r.user_id=$2 "
            'GROUP BY r.platform, r.user_id, r.game ORDER BY r.game COLLATE "C"',
            platform, user_id)
        return [self._stats(row) for row in rows]

    async def leaderboard(self, platform: str, game: str, server: str | None,
                          limit: int) -> list[PlayerStats]:
        where = "WHERE r.platform=$1 AND r.game=$2 AND r.opponent='human' "
        params: tuple[Any, ...] = (platform, game)
        if server is not None:
            where += "AND r.server=$3 "
            params += (server,)
        rows = [self._stats(row) for row in await self._pool.fetch(
            self._STATS_SELECT + where + "GROUP BY r.platform, r.user_id, r.game", *params)]
        rows.sort(key=lambda s: (s.rating is None, -(s.rating or 0.0), -s.wins, s.losses,
                                 s.name))
        return rows[:limit]

    async def forget_user(self, platform: str, user_id: str) -> Forgotten:
        """As ``SQLiteStore.forget_user``, in one transaction."""
        async with self._pool.acquire() as connection, connection.transaction():
            results = await connection.execute(
                "DELETE FROM results WHERE platform=$1 AND user_id=$2", platform, user_id)
            ratings = await connection.execute(
                "DELETE FROM ratings WHERE platform=$1 AND user_id=$2", platform, user_id)
            attempts = await connection.execute(
                "DELETE FROM daily_attempts WHERE platform=$1 AND user_id=$2",
                platform, user_id)
            await connection.execute(
                "DELETE FROM channel_settings WHERE platform=$1 AND channel=$2",
                platform, user_id)
            found = await connection.fetch(
                "SELECT id, players FROM games WHERE " + _SEATED_ANY.replace("$ID", "$2")
                .replace("$PLATFORM", "$1"), platform, user_id)
            for game_id, players_json in found:
                token = "former-" + secrets.token_hex(8)
                try:
                    players = json.loads(players_json)
                except ValueError as error:
                    log.error("game %s does not load and is skipped: %s", game_id, error)
                    continue
                for player in players:
                    if (isinstance(player, dict) and player.get("kind") == "human"
                            and player.get("platform") == platform
                            and player.get("id") == user_id):
                        player.update(id=token, name=FORMER_PLAYER)
                await connection.execute(
                    "UPDATE games SET players=$1, channel=CASE WHEN channel=$2 THEN $3 ELSE "
                    "channel END WHERE id=$4 AND status IN ('finished','abandoned')",
                    dumps(players), user_id, token, game_id)
                await connection.execute(
                    "UPDATE moves SET action=$1 WHERE game_id=$2 AND action=$3 "
                    "AND kind IN ('join','start','abandon')", token, game_id, user_id)
        return Forgotten(_count(results), _count(ratings), _count(attempts), len(found))

    # ------------------------------------------------------------- turn timers
    async def turn_timer(self, platform: str, channel: str) -> TurnTimer | None:
        row = await self._pool.fetchrow(
            "SELECT platform, channel, game_id, version, started_at, reminded, acted "
            "FROM turn_timers WHERE platform=$1 AND channel=$2", platform, channel)
        if row is None:
            return None
        return TurnTimer(str(row[0]), str(row[1]), int(row[2]), int(row[3]), str(row[4]),
                         bool(row[5]), bool(row[6]))

    async def start_turn_timer(self, timer: TurnTimer) -> None:
        await self._pool.execute(
            "INSERT INTO turn_timers (platform, channel, game_id, version, started_at) "
            "VALUES ($1,$2,$3,$4,$5) ON CONFLICT (platform, channel) DO UPDATE SET "
            "game_id=EXCLUDED.game_id, version=EXCLUDED.version, "
            "started_at=EXCLUDED.started_at, reminded=0, acted=0 "
            "WHERE turn_timers.game_id<>EXCLUDED.game_id "
            "OR turn_timers.version<>EXCLUDED.version",
            timer.platform, timer.channel, timer.game_id, timer.version, timer.started_at)

    async def claim_turn_timer(self, timer: TurnTimer, step: str) -> bool:
        if step not in ("reminded", "acted"):
            raise ValueError(step)
        status = await self._pool.execute(
            f"UPDATE turn_timers SET {step}=1 WHERE platform=$1 AND channel=$2 AND game_id=$3 "
            f"AND version=$4 AND {step}=0",
            timer.platform, timer.channel, timer.game_id, timer.version)
        return _count(status) == 1

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

    async def claim_computer_turn(self, game_id: int, version: int, holder: str,
                                  seconds: float) -> bool:
        status = await self._pool.execute(
            "INSERT INTO computer_turn_leases (game_id, version, holder, expires_at) "
            f"VALUES ($1,$2,$3,{_EPOCH} + $4) ON CONFLICT (game_id) DO UPDATE SET "
            "version=EXCLUDED.version, holder=EXCLUDED.holder, expires_at=EXCLUDED.expires_at "
            "WHERE computer_turn_leases.version < EXCLUDED.version "
            f"OR computer_turn_leases.expires_at < {_EPOCH} "
            "OR (computer_turn_leases.holder = EXCLUDED.holder "
            "AND computer_turn_leases.version = EXCLUDED.version)",
            game_id, version, holder, seconds)
        return _count(status) == 1

    async def release_computer_turn(self, game_id: int, holder: str) -> None:
        await self._pool.execute(
            "DELETE FROM computer_turn_leases WHERE game_id=$1 AND holder=$2", game_id, holder)

    async def take_rate_token(self, platform: str, user_id: str, burst: int,
                              per_second: float) -> int:
        refilled = ("LEAST($3::double precision, rate_buckets.tokens + "
                    "GREATEST(0.0, EXCLUDED.at - rate_buckets.at) * $4)")
        row = await self._pool.fetchrow(
            "INSERT INTO rate_buckets (platform, user_id, tokens, at, allowed) "
            f"VALUES ($1, $2, $3::double precision - 1, {_EPOCH}, true) "
            "ON CONFLICT (platform, user_id) DO UPDATE SET "
            f"allowed = ({refilled} >= 1), "
            f"tokens = {refilled} - (CASE WHEN {refilled} >= 1 THEN 1 ELSE 0 END), "
            "at = EXCLUDED.at RETURNING tokens, allowed",
            platform, user_id, float(burst), per_second)
        assert row is not None
        self._rate_takes += 1
        if self._rate_takes % RATE_SWEEP_EVERY == 0:
            await self._pool.execute(f"DELETE FROM rate_buckets WHERE at < {_EPOCH} - $1",
                                     burst / per_second)
        return rate_wait(float(row[0]), bool(row[1]), per_second)

    async def server_results(self, platform: str, server: str) -> list[ExportRow]:
        rows = await self._pool.fetch(
            "SELECT substr(at, 1, 10), game, name, opponent, outcome, rating_after "
            "FROM results WHERE platform=$1 AND server=$2 "
            'ORDER BY at COLLATE "C", game_id, name COLLATE "C"', platform, server)
        return [ExportRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]),
                          None if r[5] is None else float(r[5]))
                for r in rows]


# Any human seat of this person, left or not (for ``forget_user``).
_SEATED_ANY = ("CASE WHEN jsonb_typeof(players)='array' THEN EXISTS (SELECT 1 FROM "
               "jsonb_array_elements(players) AS seat WHERE seat->>'kind'='human' "
               "AND seat->>'platform'=$PLATFORM AND seat->>'id'=$ID) ELSE false END")
