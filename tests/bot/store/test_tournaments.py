"""Tournament rows on both databases (``any_store``): created taking sign-ups, one open per
channel, saves guarded by the version, listed by server and status."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import ChannelBusy, Store
from bot.store.tournament_rows import TournamentRecord


async def _tournament(store: Store, channel: str = "c1", server: str = "s1"
                      ) -> TournamentRecord:
    return await store.create_tournament("test", server, channel, {"game": "lgame",
                                                                   "entrants": []})


async def test_created_read_back_and_saved_with_the_version_guard(any_store: Store) -> None:
    created = await _tournament(any_store)
    assert (created.status, created.version, created.message_ref) == ("signup", 1, None)
    assert await any_store.get_tournament(created.id) == created
    saved = await any_store.save_tournament(created, "running", {"game": "lgame", "n": 1})
    assert saved is not None and (saved.version, saved.status) == (2, "running")
    # The stale copy loses: nothing is written.
    assert await any_store.save_tournament(created, "paused", {"lost": True}) is None
    read = await any_store.get_tournament(created.id)
    assert read is not None and read.state == {"game": "lgame", "n": 1}
    assert read.version == 2 and read.status == "running"
    await any_store.set_tournament_message(created.id, {"channel": "c1", "message": "9"})
    read = await any_store.get_tournament(created.id)
    assert read is not None and read.message_ref == {"channel": "c1", "message": "9"}
    assert await any_store.get_tournament(created.id + 1000) is None


async def test_two_writers_of_one_version_advance_it_once(any_store: Store) -> None:
    created = await _tournament(any_store)
    results = await asyncio.gather(*(any_store.save_tournament(created, "running",
                                                               {"writer": i})
                                     for i in range(5)))
    assert sum(result is not None for result in results) == 1
    read = await any_store.get_tournament(created.id)
    assert read is not None and read.version == 2


async def test_one_open_tournament_per_channel(any_store: Store) -> None:
    first = await _tournament(any_store)
    with pytest.raises(ChannelBusy):
        await _tournament(any_store)
    await _tournament(any_store, channel="c2")
    ended = await any_store.save_tournament(first, "ended", first.state)
    assert ended is not None
    again = await _tournament(any_store)
    assert again.id != first.id


async def test_listed_by_platform_server_and_status(any_store: Store) -> None:
    a = await _tournament(any_store, "c1", "s1")
    b = await _tournament(any_store, "c2", "s1")
    c = await _tournament(any_store, "c3", "s2")
    saved = await any_store.save_tournament(b, "finished", b.state)
    assert saved is not None
    assert [t.id for t in await any_store.tournaments("test")] == [a.id, b.id, c.id]
    assert [t.id for t in await any_store.tournaments("test", server="s1")] == [a.id, b.id]
    assert [t.id for t in await any_store.tournaments(
        "test", statuses=("signup", "running"))] == [a.id, c.id]
    assert [t.id for t in await any_store.tournaments(
        "test", server="s1", statuses=("finished",))] == [b.id]
    assert await any_store.tournaments("other") == []
