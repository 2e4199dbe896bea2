"""Persistent storage behind one protocol (``Store``), on SQLite (the embedded default) or
PostgreSQL (``DATABASE_URL=postgresql://…``, for several bot processes).

* ``records``: the plain records every database reads and writes;
* ``protocol``: the ``Store`` protocol the service and its helpers call;
* ``errors``: ``ChannelBusy``, ``NewerSchema`` and ``StoreUnavailable``;
* ``sqlite_schema`` / ``sqlite``: SQLite's migrations and ``SQLiteStore``;
* ``postgres_schema`` / ``postgres``: PostgreSQL's migrations and ``PostgresStore``;
* ``migrate``: ``python -m bot migrate-db``, a copy of every row from one to the other;
* ``backup``: a consistent copy of a running SQLite database.

Every name other code imported from the old ``bot/store.py`` is re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.store.errors import ChannelBusy, NewerSchema, StoreUnavailable
from bot.store.protocol import Store
from bot.store.records import (
    FORMER_PLAYER,
    RUNNING,
    DailyAttempt,
    DailySchedule,
    ExportRow,
    Forgotten,
    GameRecord,
    GameUpdate,
    MoveRecord,
    PlayerStats,
    ResultRow,
    TurnTimer,
    now,
)
from bot.store.sqlite import SQLiteStore
from bot.store.sqlite_schema import MIGRATIONS, SCHEMA_VERSION, sql_statements

if TYPE_CHECKING:
    from bot.config import Settings

__all__ = [
    "FORMER_PLAYER",
    "MIGRATIONS",
    "RUNNING",
    "SCHEMA_VERSION",
    "ChannelBusy",
    "DailyAttempt",
    "DailySchedule",
    "ExportRow",
    "Forgotten",
    "GameRecord",
    "GameUpdate",
    "MoveRecord",
    "NewerSchema",
    "PlayerStats",
    "ResultRow",
    "SQLiteStore",
    "Store",
    "StoreUnavailable",
    "TurnTimer",
    "now",
    "open_store",
    "sql_statements",
]


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


async def open_store(settings: Settings) -> Store:
    """The store the settings name: PostgreSQL when ``database_url`` is a
    ``postgresql://`` URL, else SQLite at ``database_path`` (synced as ``database_sync``).

    Raises ``NewerSchema`` for a database of a newer bot and ``StoreUnavailable`` (a
    paragraph to print) for one that cannot be used."""
    url = settings.database_url
    if is_postgres_url(url):
        from bot.store.postgres import PostgresStore
        return await PostgresStore.open(url)
    path = url.removeprefix("sqlite:") if url.startswith("sqlite:") else ""
    return await SQLiteStore.open(path or settings.database_path, sync=settings.database_sync)
