"""The databases the store tests run on: a SQLite file, and a real PostgreSQL server.

``./run-tests`` starts PostgreSQL through ``scripts/ensure-postgres.sh`` and exports its URL
as ``LOGIC_BOT_TEST_POSTGRES``. Each test gets a schema of its own in that database (named
in the URL's ``search_path``), dropped afterwards, so tests never see each other's rows.
Without a server the PostgreSQL tests skip with one line, unless
``LOGIC_BOT_REQUIRE_POSTGRES=1`` (CI) turns that into a failure.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.store import SQLiteStore, Store
from bot.store import postgres_schema as postgres_ddl
from bot.store import sqlite_schema as sqlite_ddl
from bot.store.postgres import PostgresStore

# The ``store`` fixture's parameters: each test that takes it runs once on each, and its id
# names the database (``test_x[sqlite]``, ``test_x[postgres]``).
DATABASES = ("sqlite", "postgres")


def postgres_url() -> str:
    """The test server's URL, or a skip (a failure under ``LOGIC_BOT_REQUIRE_POSTGRES``)."""
    url = os.environ.get("LOGIC_BOT_TEST_POSTGRES", "")
    if url:
        return url
    message = ("PostgreSQL not available: LOGIC_BOT_TEST_POSTGRES is unset "
               "(./run-tests sets it through scripts/ensure-postgres.sh)")
    if os.environ.get("LOGIC_BOT_REQUIRE_POSTGRES") == "1":
        pytest.fail(message + ", and LOGIC_BOT_REQUIRE_POSTGRES=1 requires it")
    pytest.skip(message)


def with_search_path(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


@asynccontextmanager
async def postgres_schema() -> AsyncIterator[str]:
    """A URL whose connections see only a new, empty schema; the schema is dropped after."""
    url = postgres_url()
    schema = "test_" + secrets.token_hex(6)
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        try:
            yield with_search_path(url, schema)
        finally:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


@asynccontextmanager
async def closing(store: Store) -> AsyncIterator[Store]:
    """``store``, closed when the block is left (``contextlib.aclosing`` wants ``aclose``)."""
    try:
        yield store
    finally:
        await store.close()


@asynccontextmanager
async def open_test_store(database: str, tmp_path: Path) -> AsyncIterator[Store]:
    """A fresh store on ``database`` ("sqlite" or "postgres"), closed afterwards."""
    if database == "sqlite":
        async with closing(await SQLiteStore.open(tmp_path / "bot.sqlite3")) as sqlite:
            yield sqlite
        return
    async with postgres_schema() as url, closing(await PostgresStore.open(url)) as postgres:
        yield postgres


@asynccontextmanager
async def reopenable_database(tmp_path: Path, database: str
                              ) -> AsyncIterator[Callable[[], Awaitable[Store]]]:
    """A database that outlives its stores, for tests that restart the bot or run two
    processes: yields a function that opens a new store on the same ``database`` ("sqlite"
    or "postgres") each time it is called (close the previous one first, as a restart
    does, or keep both open, as two processes do)."""
    if database == "sqlite":
        path = tmp_path / "bot.sqlite3"

        async def open_sqlite() -> Store:
            return await SQLiteStore.open(path)

        yield open_sqlite
        return
    async with postgres_schema() as url:

        async def open_postgres() -> Store:
            return await PostgresStore.open(url)

        yield open_postgres


@asynccontextmanager
async def two_processes(database: str, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one ``database`` ("sqlite" or "postgres"), as two bot processes open
    it (on PostgreSQL each with its own connection pool); both closed afterwards."""
    async with reopenable_database(tmp_path, database) as open_store:
        first = await open_store()
        try:
            second = await open_store()
            try:
                yield first, second
            finally:
                await second.close()
        finally:
            await first.close()


@asynccontextmanager
async def old_database_store(database: str, tmp_path: Path, version: int,
                             rows: list[str]) -> AsyncIterator[Store]:
    """A store opened on a ``database`` ("sqlite" or "postgres") that an older bot left: built
    by the first ``version`` migrations, with ``rows`` (SQL both databases take) inserted, so
    opening it runs the later migrations over them; closed afterwards."""
    if database == "sqlite":
        path = tmp_path / "old.sqlite3"
        raw = sqlite3.connect(path, isolation_level=None)
        try:
            for migration in sqlite_ddl.MIGRATIONS[:version]:
                for statement in sqlite_ddl.sql_statements(migration):
                    raw.execute(statement)
            raw.execute(f"PRAGMA user_version = {version}")
            for row in rows:
                raw.execute(row)
        finally:
            raw.close()
        async with closing(await SQLiteStore.open(path)) as sqlite:
            yield sqlite
        return
    async with postgres_schema() as url:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(postgres_ddl.SCHEMA_TABLE)
            for number, migration in enumerate(postgres_ddl.MIGRATIONS[:version], 1):
                await connection.execute(migration)
                await connection.execute("INSERT INTO schema_version VALUES ($1, 'then')",
                                         number)
            for row in rows:
                await connection.execute(row)
        finally:
            await connection.close()
        async with closing(await PostgresStore.open(url)) as postgres:
            yield postgres
