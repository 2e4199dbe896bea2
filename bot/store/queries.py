"""The statements both databases share, written once (issue 39): reading games, settings,
turn timers, and the leases and rate buckets several processes agree on. Each runs through
the store's ``Runner`` (``runner.py``) in its database's words (``dialect.py``).

What stays each database's own is in ``sqlite.py`` and ``postgres.py``: opening and
migrating, new games and saves (SQLite's group commit; PostgreSQL's save on the game lock's
connection) and the game lock itself (an asyncio lock; an advisory lock)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.store.queries_classes import AssignmentQueries, TournamentQueries
from bot.store.queries_daily import DailyQueries
from bot.store.queries_puzzles import PuzzleQueries
from bot.store.queries_results import ResultQueries
from bot.store.records import (
    GAME_COLUMNS,
    RATE_SWEEP_EVERY,
    GameRecord,
    MoveRecord,
    TurnTimer,
    dumps,
    loadable_games,
    rate_wait,
)
from bot.store.runner import Runner

# A bucket's tokens once refilled since it was last counted, at most ``burst``.
_REFILLED = ("{least}(CAST(:burst AS DOUBLE PRECISION), rate_buckets.tokens + "
             "{greatest}(0.0, excluded.at - rate_buckets.at) * :rate)")


class GameQueries:
    """Games, settings, timers and coordination, over ``_run``: mixed into both stores."""

    _run: Runner
    _rate_takes = 0

    def _game_run(self) -> Runner:
        """Where games are read and board references written: the store's runner, or on
        PostgreSQL the connection of the game lock this task holds."""
        return self._run

    async def _fetch_games(self, where: str, **params: Any) -> list[GameRecord]:
        return loadable_games(await self._game_run().rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE {where}", **params))

    async def running_game(self, platform: str, channel: str) -> GameRecord | None:
        found = await self._fetch_games(
            "platform=:platform AND channel=:channel AND status IN ('waiting','active')",
            platform=platform, channel=channel)
        return found[0] if found else None

    async def get_game(self, game_id: int) -> GameRecord | None:
        found = await self._fetch_games("id=:id", id=game_id)
        return found[0] if found else None

    async def games_with_status(self, *statuses: str) -> list[GameRecord]:
        return await self._fetch_games("status IN (:statuses) ORDER BY id",
                                       statuses=list(statuses))

    async def running_games(self, platform: str, server: str) -> list[GameRecord]:
        return await self._fetch_games(
            "platform=:platform AND server=:server AND status IN ('waiting','active') "
            "ORDER BY id", platform=platform, server=server)

    async def last_finished_game(self, platform: str, channel: str) -> GameRecord | None:
        found = await self._fetch_games(
            "platform=:platform AND channel=:channel AND status IN ('finished','abandoned') "
            "ORDER BY id DESC LIMIT 1", platform=platform, channel=channel)
        return found[0] if found else None

    async def count_running_games(self, platform: str, *, server: str | None = None,
                                  user_id: str | None = None) -> int:
        """Waiting and active games on ``platform``, within ``server`` and with
        ``user_id`` in a human seat when given: the numbers the service's limits count."""
        where = ["platform=:platform", "status IN ('waiting','active')"]
        if server is not None:
            where.append("server=:server")
        if user_id is not None:
            # A damaged row (not JSON) counts for nobody instead of failing the query.
            where.append("EXISTS (SELECT 1 FROM {seats} WHERE {seat[kind]}='human' "
                         "AND {seat[left]} IS NULL AND {seat[id]}=:user_id)")
        return int(await self._run.value(
            "SELECT COUNT(*) FROM games WHERE " + " AND ".join(where),
            platform=platform, server=server, user_id=user_id))

    async def set_board_ref(self, game_id: int, ref: dict[str, Any] | None) -> None:
        await self._game_run().execute("UPDATE games SET board_ref=:ref WHERE id=:id",
                                       ref=dumps(ref) if ref is not None else None,
                                       id=game_id)

    async def record_shown(self, shown: Mapping[int, int]) -> None:
        if not shown:
            return
        # One transaction for all: a sync per flush and not per board.
        await self._run.execute_many(
            "UPDATE games SET board_ref={shown_board_ref} "
            "WHERE id=:id AND board_ref IS NOT NULL",
            [{"version": version, "id": game_id} for game_id, version in shown.items()])

    async def moves(self, game_id: int) -> list[MoveRecord]:
        rows = await self._run.rows(
            "SELECT seat, kind, action FROM moves WHERE game_id=:game_id ORDER BY version",
            game_id=game_id)
        return [MoveRecord(seat, kind, action) for seat, kind, action in rows]

    # ----------------------------------------------------------------- settings
    async def get_setting(self, platform: str, channel: str, key: str) -> str | None:
        value = await self._run.value(
            "SELECT value FROM channel_settings WHERE platform=:platform "
            "AND channel=:channel AND key=:key", platform=platform, channel=channel, key=key)
        return None if value is None else str(value)

    async def set_setting(self, platform: str, channel: str, key: str, value: str) -> None:
        await self._run.execute(
            "INSERT INTO channel_settings (platform, channel, key, value) "
            "VALUES (:platform, :channel, :key, :value) "
            "ON CONFLICT (platform, channel, key) DO UPDATE SET value=excluded.value",
            platform=platform, channel=channel, key=key, value=value)

    # -------------------------------------------------------------- turn timers
    async def turn_timer(self, platform: str, channel: str) -> TurnTimer | None:
        row = await self._run.row(
            "SELECT platform, channel, game_id, version, started_at, reminded, acted "
            "FROM turn_timers WHERE platform=:platform AND channel=:channel",
            platform=platform, channel=channel)
        if row is None:
            return None
        return TurnTimer(str(row[0]), str(row[1]), int(row[2]), int(row[3]), str(row[4]),
                         bool(row[5]), bool(row[6]))

    async def start_turn_timer(self, timer: TurnTimer) -> None:
        """Time a new turn; a row already timing this very turn is kept, so that a second
        process (or a late call) cannot restart a running clock or clear its claims."""
        await self._run.execute(
            "INSERT INTO turn_timers (platform, channel, game_id, version, started_at) "
            "VALUES (:platform, :channel, :game_id, :version, :started_at) "
            "ON CONFLICT (platform, channel) DO UPDATE SET "
            "game_id=excluded.game_id, version=excluded.version, "
            "started_at=excluded.started_at, reminded=0, acted=0 "
            "WHERE turn_timers.game_id<>excluded.game_id "
            "OR turn_timers.version<>excluded.version",
            platform=timer.platform, channel=timer.channel, game_id=timer.game_id,
            version=timer.version, started_at=timer.started_at)

    async def claim_turn_timer(self, timer: TurnTimer, step: str) -> bool:
        """Mark ``step`` ("reminded" or "acted") done for exactly this turn; False when
        it already was or the turn changed. One guarded statement, as for daily posts."""
        if step not in ("reminded", "acted"):
            raise ValueError(step)
        return await self._run.execute(
            f"UPDATE turn_timers SET {step}=1 WHERE platform=:platform AND channel=:channel "
            f"AND game_id=:game_id AND version=:version AND {step}=0",
            platform=timer.platform, channel=timer.channel, game_id=timer.game_id,
            version=timer.version) == 1

    # ------------------------------------------- computer-turn leases, rate buckets
    async def claim_computer_turn(self, game_id: int, version: int, holder: str,
                                  seconds: float) -> bool:
        """By the database's clock (``{now}``), so that processes agree on a lapse."""
        return await self._run.execute(
            "INSERT INTO computer_turn_leases (game_id, version, holder, expires_at) "
            "VALUES (:game_id, :version, :holder, {now} + :seconds) "
            "ON CONFLICT (game_id) DO UPDATE SET version=excluded.version, "
            "holder=excluded.holder, expires_at=excluded.expires_at "
            "WHERE computer_turn_leases.version < excluded.version "
            "OR computer_turn_leases.expires_at < {now} "
            "OR (computer_turn_leases.holder = excluded.holder "
            "AND computer_turn_leases.version = excluded.version)",
            game_id=game_id, version=version, holder=holder, seconds=seconds) == 1

    async def release_computer_turn(self, game_id: int, holder: str) -> None:
        await self._run.execute(
            "DELETE FROM computer_turn_leases WHERE game_id=:game_id AND holder=:holder",
            game_id=game_id, holder=holder)

    async def take_rate_token(self, platform: str, user_id: str, burst: int,
                              per_second: float) -> int:
        row = await self._run.row(
            "INSERT INTO rate_buckets (platform, user_id, tokens, at, allowed) "
            "VALUES (:platform, :user, CAST(:burst AS DOUBLE PRECISION) - 1, {now}, true) "
            "ON CONFLICT (platform, user_id) DO UPDATE SET "
            f"allowed = ({_REFILLED} >= 1), "
            f"tokens = {_REFILLED} - (CASE WHEN {_REFILLED} >= 1 THEN 1 ELSE 0 END), "
            "at = excluded.at RETURNING tokens, allowed",
            platform=platform, user=user_id, burst=float(burst), rate=per_second)
        assert row is not None
        self._rate_takes += 1
        if self._rate_takes % RATE_SWEEP_EVERY == 0:
            await self._run.execute("DELETE FROM rate_buckets WHERE at < {now} - :age",
                                    age=burst / per_second)
        return rate_wait(float(row[0]), bool(row[1]), per_second)


class Queries(GameQueries, ResultQueries, DailyQueries, TournamentQueries, AssignmentQueries,
              PuzzleQueries):
    """Every method both stores share: ``SQLiteStore`` and ``PostgresStore`` are this and
    what is their own."""
