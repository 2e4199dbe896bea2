"""Results, ratings and what is kept about a person, written once for both databases
(issue 39; see ``queries``)."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from bot.store.records import (
    FORMER_PLAYER,
    ExportRow,
    Forgotten,
    PlayerStats,
    ResultRow,
    dumps,
    now,
)
from bot.store.runner import Duplicate, Runner

log = logging.getLogger("bot.store")

_RESULT_COLUMNS = ("game_id", "platform", "user_id", "name", "server", "game", "opponent",
                   "outcome", "rating_before", "rating_after")


def _count(condition: str) -> str:
    return f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)"


# A player's counts per game: the newest name, the human and computer results, the rating.
_STATS_SELECT = (
    "SELECT r.platform, r.user_id, "
    "(SELECT name FROM results n WHERE n.platform=r.platform AND n.user_id=r.user_id "
    " ORDER BY n.at{bytewise} DESC LIMIT 1), r.game, "
    + ", ".join(_count(f"r.opponent='human' AND r.outcome='{o}'")
                for o in ("win", "loss", "draw")) + ", "
    "(SELECT rating FROM ratings g WHERE g.platform=r.platform AND g.user_id=r.user_id "
    " AND g.game=r.game), "
    + ", ".join(_count(f"r.opponent='ai' AND r.outcome='{o}'")
                for o in ("win", "loss", "draw")) + " FROM results r ")


def _stats(row: Sequence[Any]) -> PlayerStats:
    return PlayerStats(str(row[0]), str(row[1]), str(row[2]), str(row[3]),
                       int(row[4] or 0), int(row[5] or 0), int(row[6] or 0),
                       None if row[7] is None else float(row[7]),
                       int(row[8] or 0), int(row[9] or 0), int(row[10] or 0))


class ResultQueries:
    """Mixed into both stores, over ``_run``."""

    _run: Runner

    async def ratings_of(self, platform: str, user_ids: list[str], game: str
                         ) -> dict[str, float]:
        rows = await self._run.rows(
            "SELECT user_id, rating FROM ratings WHERE platform=:platform AND game=:game "
            "AND user_id IN (:user_ids)", platform=platform, game=game,
            user_ids=list(user_ids))
        return {str(user): float(rating) for user, rating in rows}

    async def record_results(self, rows: list[ResultRow]) -> bool:
        """Record every seat of one game in one statement; False when the game was already
        counted. One statement is atomic, and the trigger ``rate_each_result`` moves the
        ratings inside it, so a game counts exactly once or not at all."""
        if not rows:
            return False
        values: list[str] = []
        params: dict[str, Any] = {"at": now()}
        for n, row in enumerate(rows):
            names = [f"{column}_{n}" for column in _RESULT_COLUMNS]
            values.append("(" + ", ".join(f":{name}" for name in names) + ", :at)")
            params.update(zip(names, (row.game_id, row.platform, row.user_id, row.name,
                                      row.server, row.game, row.opponent, row.outcome,
                                      row.rating_before, row.rating_after), strict=True))
        try:
            await self._run.execute(
                f"INSERT INTO results ({', '.join(_RESULT_COLUMNS)}, at) "
                f"VALUES {', '.join(values)}", **params)
        except Duplicate:
            return False
        return True

    async def game_results(self, game_id: int) -> list[ResultRow]:
        """The recorded seats of one finished game (none when it was not counted)."""
        rows = await self._run.rows(
            f"SELECT {', '.join(_RESULT_COLUMNS)} FROM results WHERE game_id=:game_id "
            "ORDER BY user_id", game_id=game_id)
        return [ResultRow(*row) for row in rows]

    async def player_stats(self, platform: str, user_id: str) -> list[PlayerStats]:
        rows = await self._run.rows(
            _STATS_SELECT + "WHERE r.platform=:platform AND r.user_id=:user_id "
            "GROUP BY r.platform, r.user_id, r.game ORDER BY r.game{bytewise}",
            platform=platform, user_id=user_id)
        return [_stats(row) for row in rows]

    async def leaderboard(self, platform: str, game: str, server: str | None,
                          limit: int) -> list[PlayerStats]:
        """Players of ``game`` against people, best rating first (unrated last), then most
        wins; within ``server`` the counts are of games played there."""
        where = "WHERE r.platform=:platform AND r.game=:game AND r.opponent='human' "
        if server is not None:
            where += "AND r.server=:server "
        rows = [_stats(row) for row in await self._run.rows(
            _STATS_SELECT + where + "GROUP BY r.platform, r.user_id, r.game",
            platform=platform, game=game, server=server)]
        rows.sort(key=lambda s: (s.rating is None, -(s.rating or 0.0), -s.wins, s.losses,
                                 s.name))
        return rows[:limit]

    async def forget_user(self, platform: str, user_id: str) -> Forgotten:
        """Delete a person's results, ratings and daily attempts, and anonymise their seat
        in the games they played: the name becomes ``FORMER_PLAYER`` and the id a random
        token (a new one per game, so the games cannot be linked to each other either).

        Call it when none of their games is running. Every statement is idempotent, so a
        request interrupted halfway is completed by asking again (``Runner.session``).
        """
        person = {"platform": platform, "user_id": user_id}
        async with self._run.session() as run:
            results = await run.execute(
                "DELETE FROM results WHERE platform=:platform AND user_id=:user_id", **person)
            ratings = await run.execute(
                "DELETE FROM ratings WHERE platform=:platform AND user_id=:user_id", **person)
            attempts = await run.execute(
                "DELETE FROM daily_attempts WHERE platform=:platform AND user_id=:user_id",
                **person)
            # A Telegram private chat's id is the user's id: its settings (language,
            # boards) are the person's own. Elsewhere no channel has a user's id.
            await run.execute(
                "DELETE FROM channel_settings WHERE platform=:platform AND channel=:user_id",
                **person)
            found = await run.rows(
                "SELECT id, players FROM games WHERE EXISTS (SELECT 1 FROM {seats} "
                "WHERE {seat[kind]}='human' AND {seat[platform]}=:platform "
                "AND {seat[id]}=:user_id)", **person)
            for game_id, players_json in found:
                await self._anonymise(run, game_id, players_json, platform, user_id)
        return Forgotten(results, ratings, attempts, len(found))

    @staticmethod
    async def _anonymise(run: Runner, game_id: int, players_json: str, platform: str,
                         user_id: str) -> None:
        token = "former-" + secrets.token_hex(8)
        try:
            players = json.loads(players_json)
            if not isinstance(players, list):
                raise ValueError(f"players is {type(players).__name__}")
        except ValueError as error:
            log.error("game %s does not load and is skipped: %s", game_id, error)
            return
        for player in players:
            if (isinstance(player, dict) and player.get("kind") == "human"
                    and player.get("platform") == platform and player.get("id") == user_id):
                player.update(id=token, name=FORMER_PLAYER)
        # A Telegram private chat's id is the user's id: rename that channel too.
        await run.execute(
            "UPDATE games SET players=:players, channel=CASE WHEN channel=:user_id "
            "THEN :token ELSE channel END "
            "WHERE id=:id AND status IN ('finished','abandoned')",
            players=dumps(players), user_id=user_id, token=token, id=game_id)
        await run.execute(
            "UPDATE moves SET action=:token WHERE game_id=:id AND action=:user_id "
            "AND kind IN ('join','start','abandon')", token=token, id=game_id,
            user_id=user_id)

    async def server_results(self, platform: str, server: str) -> list[ExportRow]:
        rows = await self._run.rows(
            "SELECT substr(at, 1, 10), game, name, opponent, outcome, rating_after "
            "FROM results WHERE platform=:platform AND server=:server "
            "ORDER BY at{bytewise}, game_id, name{bytewise}", platform=platform, server=server)
        return [ExportRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]),
                          None if r[5] is None else float(r[5]))
                for r in rows]
