"""The daily challenge's statements, written once for both databases (issue 39; see
``queries``): schedules (one per channel and game), the once-a-day post claim, and each
person's attempt."""

from __future__ import annotations

from typing import Any

from bot.store.records import TURING_DAILY, DailyAttempt, DailySchedule, now
from bot.store.runner import Duplicate, Runner

_ATTEMPT_COLUMNS = ("day, platform, user_id, name, server, game_id, status, rounds, tests, "
                    "beat_machine, finished_at")


class DailyQueries:
    """Mixed into both stores, over ``_run``."""

    _run: Runner

    async def set_daily_schedule(self, schedule: DailySchedule) -> None:
        await self._run.execute(
            "INSERT INTO daily_schedules (platform, channel, game, server, post_time, "
            "language, last_posted) VALUES (:platform, :channel, :game, :server, :post_time, "
            ":language, :last_posted) ON CONFLICT (platform, channel, game) DO UPDATE SET "
            "server=excluded.server, post_time=excluded.post_time, "
            "language=excluded.language",
            platform=schedule.platform, channel=schedule.channel, game=schedule.game,
            server=schedule.server, post_time=schedule.post_time, language=schedule.language,
            last_posted=schedule.last_posted)

    async def remove_daily_schedule(self, platform: str, channel: str,
                                    game: str = TURING_DAILY) -> bool:
        return await self._run.execute(
            "DELETE FROM daily_schedules WHERE platform=:platform AND channel=:channel "
            "AND game=:game", platform=platform, channel=channel, game=game) == 1

    async def daily_schedules(self, platform: str | None = None) -> list[DailySchedule]:
        query = ("SELECT platform, channel, server, post_time, language, last_posted, "
                 "claimed_until, game FROM daily_schedules")
        if platform is not None:
            query += " WHERE platform=:platform"
        rows = await self._run.rows(
            query + " ORDER BY platform{bytewise}, channel{bytewise}, game{bytewise}",
            platform=platform)
        return [DailySchedule(*row) for row in rows]

    async def claim_daily_post(self, platform: str, channel: str, day: str, now: str,
                               until: str, game: str = TURING_DAILY) -> bool:
        """Claim the channel's post of ``game`` for ``day`` until ``until`` (UTC, ISO);
        False when it is posted already or another claim still runs. One guarded
        statement, so two processes or a restart never post the same day twice; a claim
        whose process died runs out, and the day is posted after all."""
        return await self._run.execute(
            "UPDATE daily_schedules SET last_posted=:day, claimed_until=:until "
            "WHERE platform=:platform AND channel=:channel AND game=:game "
            "AND (last_posted IS NULL OR last_posted{bytewise} < :day OR (last_posted=:day "
            "AND claimed_until IS NOT NULL AND claimed_until{bytewise} < :at))",
            day=day, until=until, platform=platform, channel=channel, game=game,
            at=now) == 1

    async def finish_daily_post(self, platform: str, channel: str, day: str,
                                game: str = TURING_DAILY) -> None:
        """The claimed post of ``day`` is out: it is never made again."""
        await self._run.execute(
            "UPDATE daily_schedules SET claimed_until=NULL WHERE platform=:platform "
            "AND channel=:channel AND game=:game AND last_posted=:day",
            platform=platform, channel=channel, game=game, day=day)

    async def release_daily_post(self, platform: str, channel: str, day: str,
                                 previous: str | None, game: str = TURING_DAILY) -> None:
        """Undo a claim whose post failed, so that the next attempt posts it."""
        await self._run.execute(
            "UPDATE daily_schedules SET last_posted=:previous, claimed_until=NULL "
            "WHERE platform=:platform AND channel=:channel AND game=:game "
            "AND last_posted=:day",
            previous=previous, platform=platform, channel=channel, game=game, day=day)

    async def start_daily_attempt(self, attempt: DailyAttempt) -> bool:
        """Record the attempt; False when this user already has one for that day."""
        try:
            await self._run.execute(
                "INSERT INTO daily_attempts (day, platform, user_id, name, server, game_id, "
                "status) VALUES (:day, :platform, :user_id, :name, :server, :game_id, "
                ":status)", day=attempt.day, platform=attempt.platform,
                user_id=attempt.user_id, name=attempt.name, server=attempt.server,
                game_id=attempt.game_id, status=attempt.status)
        except Duplicate:
            return False
        return True

    async def set_daily_attempt_game(self, day: str, platform: str, user_id: str,
                                     game_id: int | None) -> None:
        await self._run.execute(
            "UPDATE daily_attempts SET game_id=:game_id WHERE day=:day "
            "AND platform=:platform AND user_id=:user_id",
            game_id=game_id, day=day, platform=platform, user_id=user_id)

    async def forget_daily_attempt(self, day: str, platform: str, user_id: str) -> None:
        """Drop an attempt whose game could not start, so the user may try again."""
        await self._run.execute(
            "DELETE FROM daily_attempts WHERE day=:day AND platform=:platform "
            "AND user_id=:user_id AND status='playing' AND game_id IS NULL",
            day=day, platform=platform, user_id=user_id)

    async def withdraw_daily_attempt(self, day: str, platform: str, user_id: str,
                                     game_id: int) -> None:
        await self._run.execute(
            "DELETE FROM daily_attempts WHERE day=:day AND platform=:platform "
            "AND user_id=:user_id AND game_id=:game_id",
            day=day, platform=platform, user_id=user_id, game_id=game_id)

    async def finish_daily_attempt(self, game_id: int, solved: bool, rounds: int, tests: int,
                                   beat_machine: bool) -> None:
        await self._run.execute(
            "UPDATE daily_attempts SET status=:status, rounds=:rounds, tests=:tests, "
            "beat_machine=:beat_machine, finished_at=:finished_at "
            "WHERE game_id=:game_id AND status='playing'",
            status="solved" if solved else "failed", rounds=rounds, tests=tests,
            beat_machine=int(beat_machine), finished_at=now(), game_id=game_id)

    async def daily_attempt(self, day: str, platform: str, user_id: str
                            ) -> DailyAttempt | None:
        rows = await self._attempts("day=:day AND platform=:platform AND user_id=:user_id",
                                    day=day, platform=platform, user_id=user_id)
        return rows[0] if rows else None

    async def daily_attempts(self, day: str, server: str | None = None
                             ) -> list[DailyAttempt]:
        if server is None:
            return await self._attempts("day=:day", day=day)
        return await self._attempts("day=:day AND server=:server", day=day, server=server)

    async def solved_days(self, platform: str, user_id: str, since: str) -> list[str]:
        rows = await self._run.rows(
            "SELECT day FROM daily_attempts WHERE platform=:platform AND user_id=:user_id "
            "AND status='solved' AND day{bytewise} >= :since ORDER BY day{bytewise}",
            platform=platform, user_id=user_id, since=since)
        return [str(row[0]) for row in rows]

    async def _attempts(self, where: str, **params: Any) -> list[DailyAttempt]:
        rows = await self._run.rows(
            f"SELECT {_ATTEMPT_COLUMNS} FROM daily_attempts WHERE {where}", **params)
        return [DailyAttempt(row[0], row[1], row[2], row[3], row[4], row[5], row[6],
                             rounds=row[7], tests=row[8], beat_machine=bool(row[9]),
                             finished_at=row[10])
                for row in rows]
