"""The store's core rules, on both databases (``any_store``), and SQLite's own set-up.
PostgreSQL's set-up is in test_postgres.py; the rest of the protocol in test_protocol.py."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.store import (
    SCHEMA_VERSION,
    ChannelBusy,
    GameUpdate,
    MoveRecord,
    NewerSchema,
    SQLiteStore,
    Store,
)
from tests.helpers.databases import DATABASES, reopenable_database


async def _new_game(store: Store, channel: str = "c1") -> int:
    record = await store.create_game("test", channel, "lgame", {}, 7, {"x": 1}, [{"kind": "open"}],
                                     "waiting")
    return record.id


async def test_fresh_database_gets_current_schema_in_wal_mode(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        async with store._db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
        assert await store.integrity_ok()
    finally:
        await store.close()
    reopened = await SQLiteStore.open(db_path)  # migrations must not run twice
    assert await reopened.schema_version() == SCHEMA_VERSION
    await reopened.close()


async def test_database_from_a_newer_bot_is_refused(db_path: Path) -> None:
    async with aiosqlite.connect(db_path) as raw:
        await raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        await raw.commit()
    with pytest.raises(NewerSchema):
        await SQLiteStore.open(db_path)


async def test_one_running_game_per_channel(any_store: Store) -> None:
    await _new_game(any_store, "c1")
    with pytest.raises(ChannelBusy):
        await _new_game(any_store, "c1")
    await _new_game(any_store, "c2")  # another channel is independent


async def test_versioned_write_refuses_a_stale_version(any_store: Store) -> None:
    game_id = await _new_game(any_store)
    record = await any_store.get_game(game_id)
    assert record is not None and record.version == 1
    first = await any_store.save_game(record, GameUpdate({"x": 2}, "active", record.players,
                                                     MoveRecord(0, "action", "a")))
    assert first is not None and first.version == 2
    lost = await any_store.save_game(record, GameUpdate({"x": 3}, "active", record.players,
                                                    MoveRecord(1, "action", "b")))
    assert lost is None
    current = await any_store.get_game(game_id)
    assert current is not None and current.state == {"x": 2} and current.version == 2
    assert [m.action for m in await any_store.moves(game_id)] == ["a"]


async def test_finished_game_frees_the_channel(any_store: Store) -> None:
    game_id = await _new_game(any_store)
    record = await any_store.get_game(game_id)
    assert record is not None
    await any_store.save_game(record, GameUpdate({}, "finished", record.players))
    assert await any_store.running_game("test", "c1") is None
    await _new_game(any_store, "c1")


async def test_settings_and_board_reference_round_trip(any_store: Store) -> None:
    assert await any_store.get_setting("test", "c1", "language") is None
    await any_store.set_setting("test", "c1", "language", "nl")
    await any_store.set_setting("test", "c1", "language", "de")
    assert await any_store.get_setting("test", "c1", "language") == "de"
    game_id = await _new_game(any_store)
    await any_store.set_board_ref(game_id, {"message": 42})
    record = await any_store.get_game(game_id)
    assert record is not None and record.board_ref == {"message": 42}


async def test_the_wal_is_copied_into_the_database_beside_the_saves(db_path: Path) -> None:
    """Saves never checkpoint (a checkpoint on the writer's thread held every command up);
    a connection of the store's own does it, and the WAL stays bounded even when saves
    follow each other without a gap."""
    saves = 1500
    store = await SQLiteStore.open(db_path, checkpoint_seconds=0.005, wal_restart_pages=40)
    try:
        async with store._db.execute("PRAGMA wal_autocheckpoint") as cursor:
            assert (await cursor.fetchone())[0] == 0
        record = await store.create_game("test", "room", "lgame", {}, 1, {"n": 0},
                                         [], "active")
        pad = "x" * 3000  # each save writes at least a page
        for n in range(1, saves + 1):
            saved = await store.save_game(record, GameUpdate({"n": n, "pad": pad}, "active",
                                                             record.players))
            assert saved is not None
            record = saved
        wal = Path(f"{db_path}-wal").stat().st_size
        # Without checkpoints it would hold every save's page or more.
        assert wal < saves * 4096 / 4, f"the WAL grew to {wal} bytes"
    finally:
        await store.close()
    reopened = await SQLiteStore.open(db_path)
    try:
        last = await reopened.get_game(record.id)
        assert last is not None and last.state["n"] == saves
    finally:
        await reopened.close()


@pytest.mark.parametrize("database", DATABASES)
async def test_a_reopened_database_keeps_its_games(tmp_path: Path, database: str) -> None:
    """What a restart of the bot does, on either database (tests/helpers/databases.py)."""
    async with reopenable_database(tmp_path, database) as open_store:
        first = await open_store()
        game_id = await _new_game(first)
        await first.close()
        second = await open_store()
        try:
            record = await second.running_game("test", "c1")
            assert record is not None and record.id == game_id
        finally:
            await second.close()
