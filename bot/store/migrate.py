"""``python -m bot migrate-db --from sqlite:PATH --to postgresql://…``: copy every row of a
SQLite database into an empty PostgreSQL database, for a bot that outgrew one process.

Stop the bot first (or take a backup and migrate that): the copy is of one moment.

* Both databases are brought to the current schema first (the stores' own migrations), so
  an older SQLite file is upgraded in place and the tables match column for column.
* The copy is one PostgreSQL transaction: it lands whole or not at all, and a target that
  already holds games is refused rather than merged.
* Rows are copied verbatim with ``COPY`` (ids, versions and times kept), a game row that
  does not load (see ``records.BadRow``) is left out with its moves and results, and named.
  The ``rate_each_result`` trigger would count every copied result again, so the ratings
  it builds are replaced by SQLite's own afterwards; the id sequence continues after the
  highest copied id.
* At the end the rows of each table are counted on both sides and must agree.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import aiosqlite
import asyncpg

from bot.store import is_postgres_url
from bot.store.errors import NewerSchema, StoreUnavailable, redact
from bot.store.postgres import PostgresStore
from bot.store.records import BadRow, game_record
from bot.store.sqlite import SQLiteStore

# Parents before children, for the foreign keys; ratings after results (see above).
# ``computer_turn_leases`` is not copied: its claims belong to processes that are stopped.
TABLES = ("games", "moves", "channel_settings", "daily_schedules", "daily_attempts",
          "results", "ratings", "turn_timers", "tournaments", "assignments",
          "puzzle_attempts", "puzzle_players", "puzzle_ratings")
# Tables whose rows belong to one game, by its ``game_id``.
PER_GAME = ("moves", "results")
CHUNK = 5000


class MigrationRefused(Exception):
    """The copy cannot start or did not check out; the message says why."""


def _converter(data_type: str) -> Any:
    """A function that turns a SQLite value into what asyncpg writes for ``data_type``."""
    if data_type in ("integer", "bigint", "smallint"):
        return lambda value: None if value is None else int(value)
    if data_type in ("double precision", "real"):
        return lambda value: None if value is None else float(value)
    return lambda value: None if value is None else str(value)


async def _columns(target: asyncpg.Connection, table: str) -> list[tuple[str, str]]:
    rows = await target.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table)
    return [(str(row[0]), str(row[1])) for row in rows]


async def _bad_games(source: aiosqlite.Connection, out: TextIO) -> set[int]:
    """Ids of game rows that do not load; each is named."""
    bad: set[int] = set()
    async with source.execute(
            "SELECT id, platform, channel, game, options, seed, state, version, players, "
            "status, board_ref, created_at, updated_at, server FROM games") as cursor:
        async for row in cursor:
            try:
                game_record(tuple(row))
            except BadRow as error:
                bad.add(int(row[0]))
                print(f"game {row[0]} does not load and is left out: {error}", file=out)
    return bad


async def copy_database(sqlite_path: str, postgres_url: str, out: TextIO) -> dict[str, int]:
    """Copy every table; the rows copied per table."""
    if not Path(sqlite_path).is_file():
        raise MigrationRefused(f"there is no SQLite database at {sqlite_path}")
    source_store = await SQLiteStore.open(sqlite_path)  # migrated and checked, then closed
    await source_store.close()
    try:
        target_store = await PostgresStore.open(postgres_url)
    except StoreUnavailable as error:
        # The bot's own paragraph speaks of DATABASE_URL, restoring backups and a bot that
        # has not started: none of which is what someone migrating needs to hear.
        raise MigrationRefused(
            f"cannot use the PostgreSQL database at {redact(postgres_url)}: "
            f"{error.__cause__ or error}. Check that the server runs and accepts connections "
            "from this machine, and that the user, password and database in --to are right "
            "(the user must be allowed to create tables there). The SQLite file was only "
            "read.") from error
    await target_store.close()
    copied: dict[str, int] = {}
    async with aiosqlite.connect(sqlite_path) as source:
        bad = await _bad_games(source, out)
        target = await asyncpg.connect(postgres_url)
        try:
            async with target.transaction():
                if await target.fetchval("SELECT EXISTS (SELECT 1 FROM games)"):
                    raise MigrationRefused(
                        f"{redact(postgres_url)} already holds games; migrate into an empty "
                        "database (a new one, or drop the old tables first)")
                for table in TABLES:
                    columns = await _columns(target, table)
                    if table == "ratings":
                        await target.execute("DELETE FROM ratings")
                    copied[table] = await _copy_table(source, target, table, columns, bad)
                    print(f"{table}: {copied[table]} rows", file=out)
                for serial in ("games", "tournaments", "assignments", "puzzle_attempts"):
                    await target.execute(
                        f"SELECT setval(pg_get_serial_sequence('{serial}', 'id'), "
                        f"COALESCE((SELECT MAX(id) FROM {serial}), 0) + 1, false)")
                await _check_counts(source, target, copied, bad)
        finally:
            await target.close()
    return copied


async def _copy_table(source: aiosqlite.Connection, target: asyncpg.Connection, table: str,
                      columns: Sequence[tuple[str, str]], bad: set[int]) -> int:
    names = [name for name, _ in columns]
    convert = [_converter(data_type) for _, data_type in columns]
    game_at = names.index("id" if table == "games" else "game_id") if (
        table == "games" or table in PER_GAME) else None
    count = 0
    async with source.execute(f"SELECT {', '.join(names)} FROM {table}") as cursor:
        while rows := await cursor.fetchmany(CHUNK):
            records = [tuple(c(v) for c, v in zip(convert, row, strict=True)) for row in rows
                       if game_at is None or int(row[game_at]) not in bad]
            if records:
                await target.copy_records_to_table(table, records=records, columns=names)
            count += len(records)
    return count


async def _check_counts(source: aiosqlite.Connection, target: asyncpg.Connection,
                        copied: dict[str, int], bad: set[int]) -> None:
    for table in TABLES:
        async with source.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
            row = await cursor.fetchone()
        in_source = int(row[0]) if row else 0
        if table == "games":
            in_source -= len(bad)
        elif table in PER_GAME and bad:
            marks = ",".join("?" * len(bad))
            async with source.execute(
                    f"SELECT COUNT(*) FROM {table} WHERE game_id IN ({marks})",
                    tuple(bad)) as cursor:
                left_out = await cursor.fetchone()
            in_source -= int(left_out[0]) if left_out else 0
        in_target = int(await target.fetchval(f"SELECT COUNT(*) FROM {table}"))
        if not in_source == in_target == copied[table]:
            raise MigrationRefused(f"{table}: {in_source} rows to copy but {in_target} in "
                                   "PostgreSQL; nothing was committed")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate-db",
        description="Copy every game, result, rating and setting from a SQLite database "
                    "into an empty PostgreSQL database. Stop the bot first.")
    parser.add_argument("--from", dest="source", required=True, metavar="sqlite:PATH",
                        help="the SQLite file, as sqlite:PATH (or just PATH)")
    parser.add_argument("--to", dest="target", required=True, metavar="postgresql://…",
                        help="the PostgreSQL database, as DATABASE_URL would name it")
    return parser


def main(argv: list[str], out: TextIO = sys.stdout) -> int:
    """The ``migrate-db`` sub-command; ``argv`` are its arguments (a leading
    ``migrate-db`` is ignored). 0 when everything was copied, 1 when nothing was."""
    return asyncio.run(run(argv, out))


async def run(argv: list[str], out: TextIO = sys.stdout) -> int:
    """``main`` inside a running event loop."""
    if argv[:1] == ["migrate-db"]:
        argv = argv[1:]
    args = _parser().parse_args(argv)
    source = str(args.source).removeprefix("sqlite:")
    if not is_postgres_url(args.target):
        print(f"--to must be a postgresql:// URL, not {redact(args.target)}", file=sys.stderr)
        return 2
    try:
        copied = await copy_database(source, args.target, out)
    except (MigrationRefused, StoreUnavailable, NewerSchema) as error:
        print(f"Nothing was migrated: {error}", file=sys.stderr)
        return 1
    print(f"Migrated {copied['games']} games, {copied['moves']} moves and "
          f"{copied['results']} results into {redact(args.target)}. Set DATABASE_URL to it "
          "and start the bot.", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
