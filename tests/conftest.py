from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import Place, Service, User
from bot.store import SQLiteStore

ALICE = User("test", "alice", "Alice")
BOB = User("test", "bob", "Bob")
CAROL = User("test", "carol", "Carol")
PLACE = Place("test", "channel-1", emoji=False)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SQLiteStore]:
    opened = await SQLiteStore.open(db_path)
    yield opened
    await opened.close()


@pytest.fixture
def service(store: SQLiteStore) -> Service:
    seeds = itertools.count(1000)
    return Service(store, seed_source=lambda: next(seeds))
