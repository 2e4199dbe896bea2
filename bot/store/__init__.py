"""Persistent storage behind one protocol (``Store``), on SQLite (the embedded default) or
PostgreSQL (``DATABASE_URL=postgresql://…``, for several bot processes).

* ``records``: the plain records every database reads and writes;
* ``protocol``: the ``Store`` protocol, in slices per consumer (``GameStore``,
  ``SettingsStore`` …, and ``For…`` the slices a feature uses together);
* ``queries*``: the statements both databases share, written once, over ``runner``'s
  interface in ``dialect``'s words; ``schema``: the migrations, written once;
* ``errors``: ``ChannelBusy``, ``NewerSchema`` and ``StoreUnavailable``;
* ``sqlite_schema`` / ``sqlite``: SQLite's words for the migrations, and ``SQLiteStore``
  (what is SQLite's own: the file, checkpoints, the group commit, the in-process lock);
* ``postgres_schema`` / ``postgres``: the same for PostgreSQL and ``PostgresStore`` (the
  pool, the migrations' lock, the save and the game lock on a held connection);
* ``migrate``: ``python -m bot migrate-db``, a copy of every row from one to the other;
* ``backup``: a consistent copy of a running SQLite database.

Every name other code imported from the old ``bot/store.py`` is re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.store.errors import ChannelBusy, NewerSchema, StoreUnavailable
from bot.store.protocol import (
    AssignmentStore,
    CoordinationStore,
    DailyStore,
    ForAssignments,
    ForClassroom,
    ForCommunity,
    ForDailyChallenge,
    ForTournaments,
    GameStore,
    PuzzleStore,
    ResultStore,
    SettingsStore,
    Store,
    TimerStore,
    TournamentStore,
)
from bot.store.records import (
    FORMER_PLAYER,
    RUNNING,
    TURING_DAILY,
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
    "TURING_DAILY",
    "AssignmentStore",
    "ChannelBusy",
    "CoordinationStore",
    "DailyAttempt",
    "DailySchedule",
    "DailyStore",
    "ExportRow",
    "ForAssignments",
    "ForClassroom",
    "ForCommunity",
    "ForDailyChallenge",
    "ForTournaments",
    "Forgotten",
    "GameRecord",
    "GameStore",
    "GameUpdate",
    "MoveRecord",
    "NewerSchema",
    "PlayerStats",
    "PuzzleStore",
    "ResultRow",
    "ResultStore",
    "SQLiteStore",
    "SettingsStore",
    "Store",
    "StoreUnavailable",
    "TimerStore",
    "TournamentStore",
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
