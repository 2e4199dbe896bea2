"""PostgreSQL's own set-up: numbered migrations with a ``schema_version`` table, migrated
once when several processes start together, a newer bot's database refused, and a server
that cannot be used reported as ``StoreUnavailable`` with the password left out."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.config import Settings
from bot.store import SCHEMA_VERSION, NewerSchema, SQLiteStore, StoreUnavailable, open_store
from bot.store.postgres import PostgresStore
from bot.store.postgres_schema import MIGRATIONS
from tests.helpers.databases import postgres_schema, postgres_url


async def test_a_fresh_database_is_migrated_once_to_sqlite_s_version() -> None:
    assert len(MIGRATIONS) == SCHEMA_VERSION  # the same numbered steps as SQLite's
    async with postgres_schema() as url:
        stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(3)))
        try:
            versions = [row[0] for row in await stores[0]._pool.fetch(
                "SELECT version FROM schema_version ORDER BY version")]
            assert versions == list(range(1, SCHEMA_VERSION + 1))
            assert await stores[1].schema_version() == SCHEMA_VERSION
            assert await stores[2].integrity_ok()
        finally:
            for store in stores:
                await store.close()
        reopened = await PostgresStore.open(url)  # migrations do not run twice
        assert await reopened.schema_version() == SCHEMA_VERSION
        await reopened.close()


async def test_a_failed_migration_leaves_nothing_behind() -> None:
    async with postgres_schema() as url:
        connection = await asyncpg.connect(url)
        try:
            # Someone made a table that migration 1 creates: its transaction must fail
            # whole: no half-made tables, no version stamp (nor its table, made in it).
            await connection.execute("CREATE TABLE moves (x INTEGER)")
            with pytest.raises(StoreUnavailable, match="already exists"):
                await PostgresStore.open(url)
            tables = {row[0] for row in await connection.fetch(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()")}
            assert tables == {"moves"}
        finally:
            await connection.close()


async def test_a_database_from_a_newer_bot_is_refused() -> None:
    async with postgres_schema() as url:
        store = await PostgresStore.open(url)
        await store._pool.execute("INSERT INTO schema_version VALUES ($1, 'later')",
                                  SCHEMA_VERSION + 1)
        await store.close()
        with pytest.raises(NewerSchema):
            await PostgresStore.open(url)


async def test_a_wrong_password_is_a_paragraph_without_the_password() -> None:
    url = postgres_url()
    scheme, _, rest = url.partition("://")
    credentials, _, host = rest.rpartition("@")
    wrong = f"{scheme}://{credentials.partition(':')[0]}:not-the-password-42@{host}"
    with pytest.raises(StoreUnavailable) as raised:
        await PostgresStore.open(wrong)
    text = str(raised.value)
    assert "not-the-password-42" not in text and ":***@" in text
    assert "DATABASE_URL" in text


async def test_no_server_at_the_address_is_a_paragraph() -> None:
    with pytest.raises(StoreUnavailable, match="server runs"):
        await PostgresStore.open("postgresql://nobody:secret@127.0.0.1:9/none")


async def test_open_store_chooses_the_database_from_the_settings(tmp_path: object) -> None:
    async with postgres_schema() as url:
        chosen = await open_store(Settings(database_url=url))
        assert isinstance(chosen, PostgresStore)
        await chosen.close()
    path = f"{tmp_path}/bot.sqlite3"
    for settings in (Settings(database_path=path), Settings(database_url=f"sqlite:{path}")):
        default = await open_store(settings)
        assert isinstance(default, SQLiteStore)
        await default.close()
