"""The SQLite store's daily-challenge queries: schedules, the once-a-day post claim, and
each person's attempt. A part of :class:`bot.store.sqlite.SQLiteStore`, kept apart so
that the store's module stays about games, saves and checkpoints."""

from __future__ import annotations

import sqlite3
from typing import Any

import aiosqlite

from bot.store.records import DailyAttempt, DailySchedule, now


class SQLiteDailyQueries:
    """Mixed into ``SQLiteStore``, whose connection ``_db`` these statements run on."""

    _db: aiosqlite.Connection

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
        query = ("SELECT platform, channel, server, post_time, language, last_posted, "
                 "claimed_until "
                 "FROM daily_schedules")
        params: tuple[str, ...] = ()
        if platform is not None:
            query += " WHERE platform=?"
            params = (platform,)
        async with self._db.execute(query + " ORDER BY platform, channel", params) as cursor:
            return [DailySchedule(*row) for row in await cursor.fetchall()]

    async def claim_daily_post(self, platform: str, channel: str, day: str, now: str,
                               until: str) -> bool:
        """Claim the channel's post of ``day`` until ``until`` (UTC, ISO); False when it is
        posted already or another claim still runs. One guarded statement, so two
        processes or a restart never post the same day twice; a claim whose process died
        runs out, and the day is posted after all."""
        cursor = await self._db.execute(
            "UPDATE daily_schedules SET last_posted=?, claimed_until=? WHERE platform=? "
            "AND channel=? AND (last_posted IS NULL OR last_posted < ? OR (last_posted=? "
            "AND claimed_until IS NOT NULL AND claimed_until < ?))",
            (day, until, platform, channel, day, day, now))
        return cursor.rowcount == 1

    async def finish_daily_post(self, platform: str, channel: str, day: str) -> None:
        """The claimed post of ``day`` is out: it is never made again."""
        await self._db.execute(
            "UPDATE daily_schedules SET claimed_until=NULL WHERE platform=? AND channel=? "
            "AND last_posted=?", (platform, channel, day))

    async def release_daily_post(self, platform: str, channel: str, day: str,
                                 previous: str | None) -> None:
        """Undo a claim whose post failed, so that the next attempt posts it."""
        await self._db.execute(
            "UPDATE daily_schedules SET last_posted=?, claimed_until=NULL WHERE platform=? "
            "AND channel=? AND last_posted=?", (previous, platform, channel, day))

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

    async def withdraw_daily_attempt(self, day: str, platform: str, user_id: str,
                                     game_id: int) -> None:
        await self._db.execute(
            "DELETE FROM daily_attempts WHERE day=? AND platform=? AND user_id=? "
            "AND game_id=?", (day, platform, user_id, game_id))

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
            return [DailyAttempt(row[0], row[1], row[2], row[3], row[4], row[5], row[6],
                                 rounds=row[7], tests=row[8],
                                 beat_machine=bool(row[9]), finished_at=row[10])
                    for row in await cursor.fetchall()]
