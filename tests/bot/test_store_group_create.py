"""New games share the group commit (issue 25): many created at once are written by few
statements, each gets its own id and row, and a channel that already has a running game
refuses only its own new game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import ChannelBusy, SQLiteStore


async def _create(store: SQLiteStore, channel: str) -> int:
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
