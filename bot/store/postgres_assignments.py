"""The PostgreSQL store's assignment queries; see ``sqlite_assignments``."""

from __future__ import annotations

from typing import Any

import asyncpg

from bot.store.assignment_rows import (
    ASSIGNMENT_COLUMNS,
    AssignmentRecord,
    assignment_records,
)
from bot.store.records import GAME_COLUMNS, GameRecord, dumps, loadable_games, now


class PostgresAssignmentQueries:
    """Mixed into ``PostgresStore``, whose pool ``_pool`` these statements run on."""

    _pool: asyncpg.Pool

    async def create_assignment(self, platform: str, server: str, channel: str,
                                task: dict[str, Any], created_by: str,
                                deadline: str) -> AssignmentRecord:
        stamp = now()
        assignment_id = await self._pool.fetchval(
            "INSERT INTO assignments (platform, server, channel, task, created_by, "
            "created_at, deadline, status) VALUES ($1,$2,$3,$4,$5,$6,$7,'open') RETURNING id",
            platform, server, channel, dumps(task), created_by, stamp, deadline)
        return AssignmentRecord(int(assignment_id), platform, server, channel, task,
                                created_by, stamp, deadline, "open")

    async def assignments(self, platform: str, server: str) -> list[AssignmentRecord]:
        rows = await self._pool.fetch(
            f"SELECT {ASSIGNMENT_COLUMNS} FROM assignments WHERE platform=$1 AND server=$2 "
            "AND status='open' ORDER BY id", platform, server)
        return assignment_records(tuple(row) for row in rows)

    async def close_assignment(self, platform: str, server: str, assignment_id: int) -> bool:
        status = await self._pool.execute(
            "UPDATE assignments SET status='closed' WHERE id=$1 AND platform=$2 AND server=$3 "
            "AND status='open'", assignment_id, platform, server)
        return str(status).endswith(" 1")

    async def finished_games_between(self, platform: str, since: str, until: str
                                     ) -> list[GameRecord]:
        rows = await self._pool.fetch(
            f"SELECT {GAME_COLUMNS} FROM games WHERE platform=$1 AND status='finished' "
            "AND updated_at BETWEEN $2 AND $3 ORDER BY id", platform, since, until)
        return loadable_games(tuple(row) for row in rows)

    async def people_of_server(self, platform: str, server: str) -> list[tuple[str, str]]:
        rows = await self._pool.fetch(
            "SELECT seat->>'id', MAX(seat->>'name') FROM games, jsonb_array_elements("
            "CASE WHEN jsonb_typeof(players)='array' THEN players ELSE '[]'::jsonb END) "
            "AS seat WHERE platform=$1 AND server=$2 AND seat->>'kind'='human' "
            "GROUP BY seat->>'id'", platform, server)
        return [(str(row[0]), str(row[1])) for row in rows if row[0] is not None]
