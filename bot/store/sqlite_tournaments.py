"""The SQLite store's tournament queries (``tournament_rows``): a part of
:class:`bot.store.sqlite.SQLiteStore`, kept apart so that its module stays about games."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from typing import Any

import aiosqlite

from bot.store.errors import ChannelBusy
from bot.store.records import dumps, now
from bot.store.tournament_rows import (
    TOURNAMENT_COLUMNS,
    TournamentRecord,
    tournament_record,
    tournament_records,
)


class SQLiteTournamentQueries:
    """Mixed into ``SQLiteStore``, whose connection ``_db`` these statements run on."""

    _db: aiosqlite.Connection

    async def create_tournament(self, platform: str, server: str, channel: str,
                                state: dict[str, Any]) -> TournamentRecord:
        """A new tournament taking sign-ups; ``ChannelBusy`` when the channel has an open
        one."""
        stamp = now()
        try:
            cursor = await self._db.execute(
                "INSERT INTO tournaments (platform, server, channel, status, state, version, "
                "created_at, updated_at) VALUES (?,?,?,'signup',?,1,?,?)",
                (platform, server, channel, dumps(state), stamp, stamp))
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(f"{platform}:{channel}") from error
        assert cursor.lastrowid is not None
        return TournamentRecord(cursor.lastrowid, platform, server, channel, "signup", state,
                                1, None, stamp, stamp)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        async with self._db.execute(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id=?",
                (tournament_id,)) as cursor:
            row = await cursor.fetchone()
        return tournament_record(row) if row is not None else None

    async def tournaments(self, platform: str, *, server: str | None = None,
                          statuses: tuple[str, ...] = ()) -> list[TournamentRecord]:
        """The platform's tournaments, oldest first, within ``server`` and with one of
        ``statuses`` when given."""
        where, params = ["platform=?"], [platform]
        if server is not None:
            where.append("server=?")
            params.append(server)
        if statuses:
            where.append(f"status IN ({','.join('?' * len(statuses))})")
            params.extend(statuses)
        async with self._db.execute(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE {' AND '.join(where)} "
                "ORDER BY id", params) as cursor:
            return tournament_records(await cursor.fetchall())

    async def save_tournament(self, record: TournamentRecord, status: str,
                              state: dict[str, Any]) -> TournamentRecord | None:
        """Write the next version; None (and nothing written) when another writer saved
        ``record``'s version first."""
        stamp = now()
        cursor = await self._db.execute(
            "UPDATE tournaments SET status=?, state=?, version=?, updated_at=? "
            "WHERE id=? AND version=?",
            (status, dumps(state), record.version + 1, stamp, record.id, record.version))
        if cursor.rowcount != 1:
            return None
        return replace(record, status=status, state=state, version=record.version + 1,
                       updated_at=stamp)

    async def set_tournament_message(self, tournament_id: int,
                                     ref: dict[str, Any] | None) -> None:
        await self._db.execute("UPDATE tournaments SET message_ref=? WHERE id=?",
                               (dumps(ref) if ref is not None else None, tournament_id))
