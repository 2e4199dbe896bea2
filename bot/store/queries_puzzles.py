"""The puzzle trainer's statements (``puzzle_rows``, issue 41), written once for both
databases (issue 39; see ``queries``). Several bot processes may answer puzzles at once on
PostgreSQL: an answer's transaction writes both ratings only over the rows it read (their
``tried`` count), else writes nothing ("conflict"), and the trainer reads again and
retries."""

from __future__ import annotations

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
from bot.store.runner import Duplicate, Runner

_PLAYER_VALUES = ("rating", "deviation", "volatility", "tried", "solved", "streak",
                  "best_streak")
_RATING_VALUES = ("rating", "deviation", "volatility", "tried", "solved")


def _placeholders(columns: str) -> str:
    return ", ".join(f":{column.strip()}" for column in columns.split(","))


def _assignments(columns: tuple[str, ...]) -> str:
    return ", ".join(f"{column}=:{column}" for column in columns)


class _Undone(Exception):
    """Rolls an answer's transaction back: it was answered already, or a rating changed
    since it was read."""

    def __init__(self, outcome: AnswerOutcome) -> None:
        super().__init__(outcome)
        self.outcome = outcome


class PuzzleQueries:
    """Mixed into both stores, over ``_run``."""

    _run: Runner

    async def open_puzzle_attempt(self, attempt: NewPuzzleAttempt) -> PuzzleAttempt | None:
        """The new attempt, or None when the person has an open puzzle of that game (or
        the day's puzzle of that game) already: the unique indexes decide."""
        try:
            attempt_id = await self._run.insert(
                "INSERT INTO puzzle_attempts (platform, user_id, name, server, game, code, "
                "themes, theme, daily, puzzle, status, started_at) VALUES (:platform, "
                ":user_id, :name, :server, :game, :code, :themes, :theme, :daily, :puzzle, "
                "'open', :started_at)",
                platform=attempt.platform, user_id=attempt.user_id, name=attempt.name,
                server=attempt.server, game=attempt.game, code=attempt.code,
                themes=themes_text(attempt.themes), theme=attempt.theme, daily=attempt.daily,
                puzzle=dumps(attempt.puzzle), started_at=now())
        except Duplicate:
            return None
        return await self.puzzle_attempt(attempt_id)

    async def _attempt(self, where: str, **params: object) -> PuzzleAttempt | None:
        found = attempt_records(await self._run.rows(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE {where}", **params))
        return found[0] if found else None

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttempt | None:
        return await self._attempt("id=:id", id=attempt_id)

    async def open_puzzle(self, platform: str, user_id: str, game: str) -> PuzzleAttempt | None:
        """The person's open trainer puzzle of ``game`` (not a puzzle of the day)."""
        return await self._attempt(
            "platform=:platform AND user_id=:user_id AND game=:game AND status='open' "
            "AND daily=''", platform=platform, user_id=user_id, game=game)

    async def daily_puzzle_attempt(self, platform: str, user_id: str, game: str,
                                   day: str) -> PuzzleAttempt | None:
        return await self._attempt(
            "platform=:platform AND user_id=:user_id AND game=:game AND daily=:day",
            platform=platform, user_id=user_id, game=game, day=day)

    async def recent_puzzle_codes(self, platform: str, user_id: str, game: str,
                                  limit: int) -> list[str]:
        rows = await self._run.rows(
            "SELECT code FROM puzzle_attempts WHERE platform=:platform AND user_id=:user_id "
            "AND game=:game ORDER BY id DESC LIMIT :limit",
            platform=platform, user_id=user_id, game=game, limit=limit)
        return [str(row[0]) for row in rows]

    async def puzzle_player(self, platform: str, user_id: str, game: str
                            ) -> PuzzlePlayer | None:
        row = await self._run.row(
            f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE platform=:platform "
            "AND user_id=:user_id AND game=:game", platform=platform, user_id=user_id,
            game=game)
        return player_record(row) if row is not None else None

    async def puzzle_players(self, platform: str, user_id: str) -> list[PuzzlePlayer]:
        rows = await self._run.rows(
            f"SELECT {PLAYER_COLUMNS} FROM puzzle_players WHERE platform=:platform "
            "AND user_id=:user_id ORDER BY game", platform=platform, user_id=user_id)
        return [player_record(row) for row in rows]

    async def puzzle_ratings(self, codes: list[str]) -> dict[str, PuzzleRating]:
        if not codes:
            return {}
        rows = await self._run.rows(
            f"SELECT {RATING_COLUMNS} FROM puzzle_ratings WHERE code IN (:codes)",
            codes=list(codes))
        return {str(row[0]): rating_record(row) for row in rows}

    async def record_puzzle_answer(self, answer: PuzzleAnswer) -> AnswerOutcome:
        """The first answer and both new ratings in one transaction, or nothing."""
        try:
            async with self._run.transaction() as run:
                outcome = await self._write_answer(run, answer)
                if outcome != "recorded":
                    raise _Undone(outcome)
        except _Undone as undone:
            return undone.outcome
        return "recorded"

    @staticmethod
    async def _write_answer(run: Runner, answer: PuzzleAnswer) -> AnswerOutcome:
        player, puzzle = answer.player, answer.puzzle
        if await run.execute(
                "UPDATE puzzle_attempts SET status=:status, answer=:answer, "
                "verdict=:verdict, answered_at=:answered_at, rating_before=:rating_before, "
                "rating_after=:rating_after WHERE id=:id AND status='open'",
                status=answer.status, answer=answer.answer, verdict=dumps(answer.verdict),
                answered_at=answer.answered_at, rating_before=answer.rating_before,
                rating_after=player.rating, id=answer.attempt_id) != 1:
            return "answered"
        values = {column: getattr(player, column) for column in _PLAYER_VALUES}
        mine = {"platform": player.platform, "user_id": player.user_id, "game": player.game}
        if answer.player_tried_before is None:
            written = await run.execute(
                f"INSERT INTO puzzle_players ({PLAYER_COLUMNS}) "
                f"VALUES ({_placeholders(PLAYER_COLUMNS)}) ON CONFLICT DO NOTHING",
                **mine, **values)
        else:
            written = await run.execute(
                f"UPDATE puzzle_players SET {_assignments(_PLAYER_VALUES)} "
                "WHERE platform=:platform AND user_id=:user_id AND game=:game "
                "AND tried=:tried_before", **mine, **values,
                tried_before=answer.player_tried_before)
        if written != 1:
            return "conflict"
        values = {column: getattr(puzzle, column) for column in _RATING_VALUES}
        if answer.puzzle_tried_before is None:
            written = await run.execute(
                f"INSERT INTO puzzle_ratings ({RATING_COLUMNS}) "
                f"VALUES ({_placeholders(RATING_COLUMNS)}) ON CONFLICT DO NOTHING",
                code=puzzle.code, game=puzzle.game, **values)
        else:
            written = await run.execute(
                f"UPDATE puzzle_ratings SET {_assignments(_RATING_VALUES)} "
                "WHERE code=:code AND tried=:tried_before", code=puzzle.code, **values,
                tried_before=answer.puzzle_tried_before)
        return "recorded" if written == 1 else "conflict"

    async def daily_puzzle_attempts(self, day: str, game: str, server: str | None = None
                                    ) -> list[PuzzleAttempt]:
        """The attempts at ``game``'s puzzle of ``day`` (of one server, or everyone's)."""
        where = "daily=:day AND game=:game" + (" AND server=:server" if server is not None
                                               else "")
        return attempt_records(await self._run.rows(
            f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE {where} ORDER BY id",
            day=day, game=game, server=server))

    async def solved_puzzles_between(self, platform: str, since: str, until: str
                                     ) -> list[SolvedPuzzle]:
        rows = await self._run.rows(
            "SELECT user_id, name, server, game, code, themes, answered_at "
            "FROM puzzle_attempts WHERE platform=:platform AND status='solved' "
            "AND answered_at BETWEEN :since AND :until ORDER BY id",
            platform=platform, since=since, until=until)
        return [SolvedPuzzle(str(row[0]), str(row[1]), str(row[2]), str(row[3]),
                             str(row[4]), tuple(str(row[5]).split()), str(row[6]))
                for row in rows]

    async def forget_puzzle_player(self, platform: str, user_id: str) -> int:
        """Delete the person's attempts and puzzle ratings; the attempts deleted. The
        puzzles' own ratings stay: they hold nothing about anyone."""
        async with self._run.transaction() as run:
            deleted = await run.execute(
                "DELETE FROM puzzle_attempts WHERE platform=:platform AND user_id=:user_id",
                platform=platform, user_id=user_id)
            await run.execute(
                "DELETE FROM puzzle_players WHERE platform=:platform AND user_id=:user_id",
                platform=platform, user_id=user_id)
        return deleted
