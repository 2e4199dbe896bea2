"""The SQLite store's assignment queries (``assignment_rows``): a part of
:class:`bot.store.sqlite.SQLiteStore`, kept apart so that its module stays about games."""

from __future__ import annotations

from typing import Any

import aiosqlite

from bot.store.assignment_rows import (
    ASSIGNMENT_COLUMNS,
    AssignmentRecord,
    assignment_records,
)
from bot.store.records import GAME_COLUMNS, GameRecord, dumps, loadable_games, now


class SQLiteAssignmentQueries:
    """Mixed into ``SQLiteStore``, whose connection ``_db`` these statements run on."""

    _db: aiosqlite.Connection

    async def create_assignment(self, platform: str, server: str, channel: str,
                                task: dict[str, Any], created_by: str,
                                deadline: str) -> AssignmentRecord:
        stamp = now()
        cursor = await self._db.execute(
            "INSERT INTO assignments (platform, server, channel, task, created_by, "
            "created_at, deadline, status) VALUES (?,?,?,?,?,?,?,'open')",
            (platform, server, channel, dumps(task), created_by, stamp, deadline))
        assert cursor.lastrowid is not None
        return AssignmentRecord(cursor.lastrowid, platform, server, channel, task,
                                created_by, stamp, deadline, "open")

    async def assignments(self, platform: str, server: str) -> list[AssignmentRecord]:
        async with self._db.execute(
                f"SELECT {ASSIGNMENT_COLUMNS} FROM assignments WHERE platform=? AND server=? "
                "AND status='open' ORDER BY id", (platform, server)) as cursor:
            return assignment_records(await cursor.fetchall())

    async def close_assignment(self, platform: str, server: str, assignment_id: int) -> bool:
        cursor = await self._db.execute(
            "UPDATE assignments SET status='closed' WHERE id=? AND platform=? AND server=? "
            "AND status='open'", (assignment_id, platform, server))
        return cursor.rowcount == 1

    async def finished_games_between(self, platform: str, since: str, until: str
                                     ) -> list[GameRecord]:
        async with self._db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE platform=? AND status='finished' "
                "AND updated_at BETWEEN ? AND ? ORDER BY id", (platform, since, until)
        ) as cursor:
            return loadable_games(await cursor.fetchall())

    async def people_of_server(self, platform: str, server: str) -> list[tuple[str, str]]:
        async with self._db.execute(
                "SELECT json_extract(seat.value, '$.id'), "
                "MAX(json_extract(seat.value, '$.name')) FROM games, "
                "json_each(CASE WHEN json_valid(games.players) THEN games.players ELSE '[]' "
                "END) AS seat WHERE games.platform=? AND games.server=? "
                "AND json_extract(seat.value, '$.kind')='human' "
                "GROUP BY json_extract(seat.value, '$.id')", (platform, server)) as cursor:
            return [(str(row[0]), str(row[1])) for row in await cursor.fetchall()
                    if row[0] is not None]
