"""The PostgreSQL store's tournament queries, the same as ``sqlite_tournaments``: a part of
:class:`bot.store.postgres.PostgresStore`, kept apart so that its module stays about
games."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import asyncpg

from bot.store.errors import ChannelBusy
from bot.store.records import dumps, now
from bot.store.tournament_rows import (
    TOURNAMENT_COLUMNS,
    TournamentRecord,
    tournament_record,
    tournament_records,
)


def _count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1``."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresTournamentQueries:
    """Mixed into ``PostgresStore``, whose pool ``_pool`` these statements run on."""

    _pool: asyncpg.Pool

    async def create_tournament(self, platform: str, server: str, channel: str,
                                state: dict[str, Any]) -> TournamentRecord:
        stamp = now()
        try:
            tournament_id = await self._pool.fetchval(
                "INSERT INTO tournaments (platform, server, channel, status, state, version, "
                "created_at, updated_at) VALUES ($1,$2,$3,'signup',$4,1,$5,$5) RETURNING id",
                platform, server, channel, dumps(state), stamp)
        except asyncpg.UniqueViolationError as error:
            raise ChannelBusy(f"{platform}:{channel}") from error
        return TournamentRecord(int(tournament_id), platform, server, channel, "signup",
                                state, 1, None, stamp, stamp)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        row = await self._pool.fetchrow(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id=$1", tournament_id)
        return tournament_record(tuple(row)) if row is not None else None

    async def tournaments(self, platform: str, *, server: str | None = None,
                          statuses: tuple[str, ...] = ()) -> list[TournamentRecord]:
        rows = await self._pool.fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE platform=$1 "
            "AND ($2::text IS NULL OR server=$2) "
            "AND (cardinality($3::text[]) = 0 OR status = ANY($3::text[])) ORDER BY id",
            platform, server, list(statuses))
        return tournament_records(tuple(row) for row in rows)

    async def save_tournament(self, record: TournamentRecord, status: str,
                              state: dict[str, Any]) -> TournamentRecord | None:
        stamp = now()
        result = await self._pool.execute(
            "UPDATE tournaments SET status=$1, state=$2, version=$3, updated_at=$4 "
            "WHERE id=$5 AND version=$6",
            status, dumps(state), record.version + 1, stamp, record.id, record.version)
        if _count(result) != 1:
            return None
        return replace(record, status=status, state=state, version=record.version + 1,
                       updated_at=stamp)

    async def set_tournament_message(self, tournament_id: int,
                                     ref: dict[str, Any] | None) -> None:
        await self._pool.execute("UPDATE tournaments SET message_ref=$1 WHERE id=$2",
                                 dumps(ref) if ref is not None else None, tournament_id)
