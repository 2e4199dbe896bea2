"""The SQLite store's puzzle-trainer queries (``puzzle_rows``): a part of
:class:`bot.store.sqlite.SQLiteStore`, kept apart so that its module stays about games."""

from __future__ import annotations

import asyncio
import sqlite3

import aiosqlite

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


class SQLitePuzzleQueries:
    """Mixed into ``SQLiteStore``, whose connection ``_db`` these statements run on, and
    whose ``_saving`` lock keeps a transaction from interleaving with its group commits."""

    _db: aiosqlite.Connection
    _saving: asyncio.Lock

    async def open_puzzle_attempt(self, attempt: NewPuzzleAttempt) -> PuzzleAttempt | None:
        """The new attempt, or None when the person has an open puzzle of that game (or
        the day's puzzle of that game) already: the unique indexes decide."""
        stamp = now()
        try:
            cursor = await self._db.execute(
                "INSERT INTO puzzle_attempts (platform, user_id, name, server, game, code, "
                "themes, theme, daily, puzzle, status, started_at) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,'open',?)",
                (attempt.platform, attempt.user_id, attempt.name, attempt.server,
                 attempt.game, attempt.code, themes_text(attempt.themes), attempt.theme,
                 attempt.daily, dumps(attempt.puzzle), stamp))
        except sqlite3.IntegrityError:
            return None
        assert cursor.lastrowid is not None
        return await self.puzzle_attempt(cursor.lastrowid)

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttempt | None:
        async with self._db.execute(
                f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE id=?",
                (attempt_id,)) as cursor:
            found = attempt_records(await cursor.fetchall())
        return found[0] if found else None

    async def open_puzzle(self, platform: str, user_id: str, game: str) -> PuzzleAttempt | None:
        """The person's open trainer puzzle of ``game`` (not a puzzle of the day)."""
        async with self._db.execute(
                f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE platform=? AND "
                "user_id=? AND game=? AND status='open' AND daily=''",
                (platform, user_id, game)) as cursor:
            found = attempt_records(await cursor.fetchall())
        return found[0] if found else None

    async def daily_puzzle_attempt(self, platform: str, user_id: str, game: str,
                                   day: str) -> PuzzleAttempt | None:
        async with self._db.execute(
                f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE platform=? AND "
                "user_id=? AND game=? AND daily=?", (platform, user_id, game, day)) as cursor:
            found = attempt_records(await cursor.fetchall())
        return found[0] if found else None

    async def recent_puzzle_codes(self, platform: str, user_id: str, game: str,
                                  limit: int) -> list[str]:
        async with self._db.execute(
                "SELECT code FROM puzzle_attempts WHERE platform=? AND user_id=? AND game=? "
                "ORDER BY id DESC LIMIT ?", (platform, user_id, game, limit)) as cursor:
            return [str(row[0]) for row in await cursor.fetchall()]

    async def puzzle_player(self, platform: str, user_id: str, game: str
                            ) -> PuzzlePlayer | None:
        async with self._db.execute(
                f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE platform=? AND user_id=? "
                "AND game=?", (platform, user_id, game)) as cursor:
            row = await cursor.fetchone()
        return player_record(tuple(row)) if row is not None else None

    async def puzzle_players(self, platform: str, user_id: str) -> list[PuzzlePlayer]:
        async with self._db.execute(
                f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE platform=? AND user_id=? "
                "ORDER BY game", (platform, user_id)) as cursor:
            return [player_record(tuple(row)) for row in await cursor.fetchall()]

    async def puzzle_ratings(self, codes: list[str]) -> dict[str, PuzzleRating]:
        if not codes:
            return {}
        marks = ",".join("?" * len(codes))
        async with self._db.execute(
                f"SELECT {RATING_COLUMNS} FROM puzzle_ratings WHERE code IN ({marks})",
                tuple(codes)) as cursor:
            return {str(row[0]): rating_record(tuple(row)) for row in await cursor.fetchall()}

    async def record_puzzle_answer(self, answer: PuzzleAnswer) -> AnswerOutcome:
        """The first answer and both new ratings in one transaction, or nothing."""
        player, puzzle = answer.player, answer.puzzle
        async with self._saving:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                outcome = await self._write_answer(answer, player, puzzle)
                await self._db.execute("COMMIT" if outcome == "recorded" else "ROLLBACK")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
        return outcome

    async def _write_answer(self, answer: PuzzleAnswer, player: PuzzlePlayer,
                            puzzle: PuzzleRating) -> AnswerOutcome:
        cursor = await self._db.execute(
            "UPDATE puzzle_attempts SET status=?, answer=?, verdict=?, answered_at=?, "
            "rating_before=?, rating_after=? WHERE id=? AND status='open'",
            (answer.status, answer.answer, dumps(answer.verdict), answer.answered_at,
             answer.rating_before, player.rating, answer.attempt_id))
        if cursor.rowcount != 1:
            return "answered"
        player_values = (player.rating, player.deviation, player.volatility, player.tried,
                         player.solved, player.streak, player.best_streak)
        if answer.player_tried_before is None:
            cursor = await self._db.execute(
                f"INSERT INTO puzzle_players ({PLAYER_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT DO NOTHING",
                (player.platform, player.user_id, player.game, *player_values))
        else:
            cursor = await self._db.execute(
                "UPDATE puzzle_players SET rating=?, deviation=?, volatility=?, tried=?, "
                "solved=?, streak=?, best_streak=? WHERE platform=? AND user_id=? AND game=? "
                "AND tried=?", (*player_values, player.platform, player.user_id, player.game,
                                answer.player_tried_before))
        if cursor.rowcount != 1:
            return "conflict"
        puzzle_values = (puzzle.rating, puzzle.deviation, puzzle.volatility, puzzle.tried,
                         puzzle.solved)
        if answer.puzzle_tried_before is None:
            cursor = await self._db.execute(
                f"INSERT INTO puzzle_ratings ({RATING_COLUMNS}) VALUES (?,?,?,?,?,?,?) "
                "ON CONFLICT DO NOTHING", (puzzle.code, puzzle.game, *puzzle_values))
        else:
            cursor = await self._db.execute(
                "UPDATE puzzle_ratings SET rating=?, deviation=?, volatility=?, tried=?, "
                "solved=? WHERE code=? AND tried=?",
                (*puzzle_values, puzzle.code, answer.puzzle_tried_before))
        return "recorded" if cursor.rowcount == 1 else "conflict"

    async def daily_puzzle_attempts(self, day: str, game: str, server: str | None = None
                                    ) -> list[PuzzleAttempt]:
        """The attempts at ``game``'s puzzle of ``day`` (of one server, or everyone's)."""
        query = (f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE daily=? AND game=?")
        params: tuple[str, ...] = (day, game)
        if server is not None:
            query += " AND server=?"
            params += (server,)
        async with self._db.execute(query + " ORDER BY id", params) as cursor:
            return attempt_records(await cursor.fetchall())

    async def solved_puzzles_between(self, platform: str, since: str, until: str
                                     ) -> list[SolvedPuzzle]:
        async with self._db.execute(
                "SELECT user_id, name, server, game, code, themes, answered_at "
                "FROM puzzle_attempts WHERE platform=? AND status='solved' "
                "AND answered_at BETWEEN ? AND ? ORDER BY id", (platform, since, until)) as cursor:
            return [SolvedPuzzle(str(row[0]), str(row[1]), str(row[2]), str(row[3]),
                                 str(row[4]), tuple(str(row[5]).split()), str(row[6]))
                    for row in await cursor.fetchall()]

    async def forget_puzzle_player(self, platform: str, user_id: str) -> int:
        """Delete the person's attempts and puzzle ratings; the attempts deleted. The
        puzzles' own ratings stay: they hold nothing about anyone."""
        async with self._saving:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = await self._db.execute(
                    "DELETE FROM puzzle_attempts WHERE platform=? AND user_id=?",
                    (platform, user_id))
                await self._db.execute(
                    "DELETE FROM puzzle_players WHERE platform=? AND user_id=?",
                    (platform, user_id))
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
        return cursor.rowcount
