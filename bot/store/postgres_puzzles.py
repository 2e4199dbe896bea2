"""The PostgreSQL store's puzzle-trainer queries; see ``sqlite_puzzles``. Several bot
processes may answer puzzles at once here: an answer's transaction writes both ratings
only over the rows it read (their ``tried`` count), else writes nothing ("conflict"), and
the trainer reads again and retries."""

from __future__ import annotations

import asyncpg

from bot.store.puzzle_rows import (
    ATTEMPT_COLUMNS,
    PLAYER_COLUMNS,
    RATING_COLUMNS,
    AnswerOutcome,
    NewPuzzleAttempt,
    PuzzleAnswer,
    PuzzleAttempt,
    PuzzlePlayer,
    PuzzleRating,
    SolvedPuzzle,
    attempt_records,
    player_record,
    rating_record,
    themes_text,
)
from bot.store.records import dumps, now


def _one_row(status: str) -> bool:
    """Whether asyncpg's command status (``UPDATE 1``, ``INSERT 0 1``) counts one row."""
    return str(status).endswith(" 1")


class _Conflict(Exception):
    """Rolls the answer's transaction back: a rating changed since it was read."""


class PostgresPuzzleQueries:
    """Mixed into ``PostgresStore``, whose pool ``_pool`` these statements run on."""

    _pool: asyncpg.Pool

    async def open_puzzle_attempt(self, attempt: NewPuzzleAttempt) -> PuzzleAttempt | None:
        try:
            attempt_id = await self._pool.fetchval(
                "INSERT INTO puzzle_attempts (platform, user_id, name, server, game, code, "
                "themes, theme, daily, puzzle, status, started_at) "
                "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,'open',$11) RETURNING id",
                attempt.platform, attempt.user_id, attempt.name, attempt.server, attempt.game,
                attempt.code, themes_text(attempt.themes), attempt.theme, attempt.daily,
                dumps(attempt.puzzle), now())
        except asyncpg.UniqueViolationError:
            return None
        return await self.puzzle_attempt(int(attempt_id))

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttempt | None:
        rows = await self._pool.fetch(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE id=$1", attempt_id)
        found = attempt_records(tuple(row) for row in rows)
        return found[0] if found else None

    async def open_puzzle(self, platform: str, user_id: str, game: str) -> PuzzleAttempt | None:
        rows = await self._pool.fetch(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE platform=$1 AND user_id=$2 "
            "AND game=$3 AND status='open' AND daily=''", platform, user_id, game)
        found = attempt_records(tuple(row) for row in rows)
        return found[0] if found else None

    async def daily_puzzle_attempt(self, platform: str, user_id: str, game: str,
                                   day: str) -> PuzzleAttempt | None:
        rows = await self._pool.fetch(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE platform=$1 AND user_id=$2 "
            "AND game=$3 AND daily=$4", platform, user_id, game, day)
        found = attempt_records(tuple(row) for row in rows)
        return found[0] if found else None

    async def recent_puzzle_codes(self, platform: str, user_id: str, game: str,
                                  limit: int) -> list[str]:
        rows = await self._pool.fetch(
            "SELECT code FROM puzzle_attempts WHERE platform=$1 AND user_id=$2 AND game=$3 "
            "ORDER BY id DESC LIMIT $4", platform, user_id, game, limit)
        return [str(row[0]) for row in rows]

    async def puzzle_player(self, platform: str, user_id: str, game: str
                            ) -> PuzzlePlayer | None:
        row = await self._pool.fetchrow(
            f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE platform=$1 AND user_id=$2 "
            "AND game=$3", platform, user_id, game)
        return player_record(tuple(row)) if row is not None else None

    async def puzzle_players(self, platform: str, user_id: str) -> list[PuzzlePlayer]:
        rows = await self._pool.fetch(
            f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE platform=$1 AND user_id=$2 "
            "ORDER BY game", platform, user_id)
        return [player_record(tuple(row)) for row in rows]

    async def puzzle_ratings(self, codes: list[str]) -> dict[str, PuzzleRating]:
        if not codes:
            return {}
        rows = await self._pool.fetch(
            f"SELECT {RATING_COLUMNS} FROM puzzle_ratings WHERE code = ANY($1::text[])", codes)
        return {str(row[0]): rating_record(tuple(row)) for row in rows}

    async def record_puzzle_answer(self, answer: PuzzleAnswer) -> AnswerOutcome:
        player, puzzle = answer.player, answer.puzzle
        try:
            async with self._pool.acquire() as connection, connection.transaction():
                status = await connection.execute(
                    "UPDATE puzzle_attempts SET status=$1, answer=$2, verdict=$3, "
                    "answered_at=$4, rating_before=$5, rating_after=$6 "
                    "WHERE id=$7 AND status='open'",
                    answer.status, answer.answer, dumps(answer.verdict), answer.answered_at,
                    answer.rating_before, player.rating, answer.attempt_id)
                if not _one_row(status):
                    return "answered"  # nothing else was written: the commit is empty
                values = (player.rating, player.deviation, player.volatility, player.tried,
                          player.solved, player.streak, player.best_streak)
                if answer.player_tried_before is None:
                    status = await connection.execute(
                        f"INSERT INTO puzzle_players ({PLAYER_COLUMNS}) VALUES "
                        "($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT DO NOTHING",
                        player.platform, player.user_id, player.game, *values)
                else:
                    status = await connection.execute(
                        "UPDATE puzzle_players SET rating=$1, deviation=$2, volatility=$3, "
                        "tried=$4, solved=$5, streak=$6, best_streak=$7 WHERE platform=$8 "
                        "AND user_id=$9 AND game=$10 AND tried=$11", *values, player.platform,
                        player.user_id, player.game, answer.player_tried_before)
                if not _one_row(status):
                    raise _Conflict
                puzzle_values = (puzzle.rating, puzzle.deviation, puzzle.volatility,
                                 puzzle.tried, puzzle.solved)
                if answer.puzzle_tried_before is None:
                    status = await connection.execute(
                        f"INSERT INTO puzzle_ratings ({RATING_COLUMNS}) VALUES "
                        "($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING",
                        puzzle.code, puzzle.game, *puzzle_values)
                else:
                    status = await connection.execute(
                        "UPDATE puzzle_ratings SET rating=$1, deviation=$2, volatility=$3, "
                        "tried=$4, solved=$5 WHERE code=$6 AND tried=$7", *puzzle_values,
                        puzzle.code, answer.puzzle_tried_before)
                if not _one_row(status):
                    raise _Conflict
        except _Conflict:
            return "conflict"
        return "recorded"

    async def daily_puzzle_attempts(self, day: str, game: str, server: str | None = None
                                    ) -> list[PuzzleAttempt]:
        if server is None:
            rows = await self._pool.fetch(
                f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE daily=$1 AND game=$2 "
                "ORDER BY id", day, game)
        else:
            rows = await self._pool.fetch(
                f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE daily=$1 AND game=$2 "
                "AND server=$3 ORDER BY id", day, game, server)
        return attempt_records(tuple(row) for row in rows)

    async def solved_puzzles_between(self, platform: str, since: str, until: str
                                     ) -> list[SolvedPuzzle]:
        rows = await self._pool.fetch(
            "SELECT user_id, name, server, game, code, themes, answered_at "
            "FROM puzzle_attempts WHERE platform=$1 AND status='solved' "
            "AND answered_at BETWEEN $2 AND $3 ORDER BY id", platform, since, until)
        return [SolvedPuzzle(str(row[0]), str(row[1]), str(row[2]), str(row[3]),
                             str(row[4]), tuple(str(row[5]).split()), str(row[6]))
                for row in rows]

    async def forget_puzzle_player(self, platform: str, user_id: str) -> int:
        async with self._pool.acquire() as connection, connection.transaction():
            status = await connection.execute(
                "DELETE FROM puzzle_attempts WHERE platform=$1 AND user_id=$2",
                platform, user_id)
            await connection.execute(
                "DELETE FROM puzzle_players WHERE platform=$1 AND user_id=$2",
                platform, user_id)
        return int(str(status).rsplit(" ", 1)[-1])
