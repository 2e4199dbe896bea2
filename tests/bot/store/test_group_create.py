"""New games share the group commit (issue 25): many created at once are written by few
statements, each gets its own id and row, and a channel that already has a running game
refuses only its own new game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import ChannelBusy, GameUpdate, SQLiteStore, Store
from tests.helpers.databases import two_processes


async def _create(store: Store, channel: str) -> int:
    record = await store.create_game("test", channel, "lgame", {"c": channel}, 7,
                                     {"channel": channel}, [{"kind": "open"}], "waiting")
    return record.id


async def _count_inserts(store: SQLiteStore) -> list[str]:
    """Every INSERT INTO games the connection runs (SQLite's own trace callback)."""
    sent: list[str] = []

    def note(sql: str) -> None:
        if sql.startswith("INSERT INTO games"):
            sent.append(sql)

    await store._db.set_trace_callback(note)
    return sent


async def test_games_created_at_once_share_statements_and_keep_their_rows(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    try:
        inserts = await _count_inserts(store)
        channels = [f"c{n}" for n in range(40)]
        ids = await asyncio.gather(*(_create(store, channel) for channel in channels))
        assert len(set(ids)) == 40
        assert len(inserts) < 40  # the first alone, the rest together while it commits
        for game_id, channel in zip(ids, channels, strict=True):
            record = await store.get_game(game_id)
            assert record is not None
            assert (record.channel, record.state, record.options) == (
                channel, {"channel": channel}, {"c": channel})
        assert await store.integrity_ok()
    finally:
        await store.close()
    reopened = await SQLiteStore.open(db_path)  # on disk, not only in the connection
    try:
        assert len(await reopened.games_with_status("waiting")) == 40
    finally:
        await reopened.close()


async def test_a_busy_channel_refuses_only_its_own_new_game(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    try:
        await _create(store, "busy")
        results = await asyncio.gather(*(_create(store, channel) for channel in
                                         ("a", "busy", "b", "c", "busy")),
                                       return_exceptions=True)
        assert [type(r) for r in results] == [int, ChannelBusy, int, int, ChannelBusy]
        running = await store.games_with_status("waiting")
        assert sorted(r.channel for r in running) == ["a", "b", "busy", "c"]
        with pytest.raises(ChannelBusy):
            await _create(store, "a")
    finally:
        await store.close()


async def test_a_batch_with_a_lost_race_saves_the_others(tmp_path: Path) -> None:
    """Saves are counted, not returned row by row: when another process wrote one game of
    a batch first, only that save is lost, and the others are saved and reported so."""
    async with two_processes("sqlite", tmp_path) as (here, there):
        ids = await asyncio.gather(*(_create(here, f"c{n}") for n in range(5)))
        records = [await here.get_game(game_id) for game_id in ids]
        assert all(record is not None for record in records)
        theirs = await there.get_game(ids[2])
        assert theirs is not None
        assert await there.save_game(theirs, GameUpdate({"by": "there"}, "waiting",
                                                        theirs.players)) is not None
        saved = await asyncio.gather(*(here.save_game(record, GameUpdate(
            {"by": "here"}, "waiting", record.players)) for record in records if record))
        assert [s is not None for s in saved] == [True, True, False, True, True]
        for n, game_id in enumerate(ids):
            row = await there.get_game(game_id)
            assert row is not None
            assert (row.version, row.state) == (2, {"by": "there" if n == 2 else "here"})
