"""SQLite's schema: the numbered migrations (``schema``) in SQLite's words, which
``SQLiteStore`` applies, each in one transaction with its version stamp
(``PRAGMA user_version``)."""

from __future__ import annotations

import sqlite3

from bot.store.schema import LOG_MOVE, migrations

WORDS = {
    "id": "INTEGER PRIMARY KEY AUTOINCREMENT",
    "bigint": "INTEGER",
    "real": "REAL",
    "json": "TEXT",
    "bool": "INTEGER",
    "unlogged": "",
    "log_each_move": f"""CREATE TRIGGER log_each_move AFTER UPDATE OF version ON games
    WHEN NEW.last_kind IS NOT NULL
    BEGIN
        {LOG_MOVE}
    END;""",
    # A trigger's upsert: the row replaced, its games counted on from the one before.
    "rate_each_result": """CREATE TRIGGER rate_each_result AFTER INSERT ON results
    WHEN NEW.rating_after IS NOT NULL
    BEGIN
        INSERT OR REPLACE INTO ratings (platform, user_id, game, name, rating, games)
        VALUES (NEW.platform, NEW.user_id, NEW.game, NEW.name, NEW.rating_after,
                COALESCE((SELECT games FROM ratings WHERE platform=NEW.platform
                          AND user_id=NEW.user_id AND game=NEW.game), 0) + 1);
    END;""",
    "lock_game": "",  # the game lock stays in the process
}

MIGRATIONS: list[str] = migrations(WORDS)
SCHEMA_VERSION = len(MIGRATIONS)


def sql_statements(script: str) -> list[str]:
    """Split a script into statements; a trigger's body keeps its inner semicolons."""
    statements, buffer = [], ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \n;"):
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip(" \n;"):
        raise ValueError(f"incomplete SQL statement: {buffer.strip()[:60]}")
    return statements
