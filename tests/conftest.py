from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

# The shared checks in tests/helpers assert too; registered before their first import, their
# failures show the compared values as a test's own asserts do.
pytest.register_assert_rewrite("tests.helpers")

from bot.service import Service  # noqa: E402
from bot.store import SQLiteStore, Store  # noqa: E402
from engines.registry import register_game, unregister_game  # noqa: E402
from renderers import register_renderer  # noqa: E402
from tests.helpers.databases import DATABASES, open_test_store  # noqa: E402


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture(params=DATABASES)
async def store(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Store]:
    """A fresh store on each database in turn, named in the test's id (``test_x[sqlite]``,
    ``test_x[postgres]``): every test that takes it (the store, service and adapter tests)
    runs on both. SQLite's file is ``db_path``; PostgreSQL is a schema of its own, and
    without a server that half skips (fails under LOGIC_BOT_REQUIRE_POSTGRES=1, as in CI).
    ``-k "not postgres"`` runs the SQLite half alone."""
    async with open_test_store(request.param, db_path.parent) as opened:
        yield opened


@pytest.fixture(params=["sqlite"])
async def sqlite_store(db_path: Path) -> AsyncIterator[SQLiteStore]:
    """SQLite alone, for tests of SQLite's own machinery (group commit, query plans, the raw
    connection); named in the test's id too (``test_x[sqlite]``)."""
    opened = await SQLiteStore.open(db_path)
    yield opened
    await opened.close()


@pytest.fixture
def any_store(store: Store) -> Store:
    """The ``store`` fixture under the name the store tests (tests/bot/store/) use."""
    return store


@pytest.fixture
def service(store: Store) -> Service:
    seeds = itertools.count(1000)
    return Service(store, seed_source=lambda: next(seeds))


@pytest.fixture
def secret_cards() -> Iterator[None]:
    """Registers Secret Cards, the test-only game with hidden hands (tests/helpers/hidden_game.py),
    for the length of one test."""
    register_game("secrets", "tests.helpers.hidden_game")
    register_renderer("secrets", "tests.helpers.hidden_game_renderer")
    try:
        yield
    finally:
        unregister_game("secrets")
        register_renderer("secrets", None)


@pytest.fixture
def fast_rithmomachia_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rithmomachia's computer thinks 0.2 s a move instead of 2 s, so that whole games
    against it fit the suite."""
    from engines.rithmomachia import agents as rithmomachia_agent
    from engines.rithmomachia.agents import RithmomachiaAgent

    def make_agent(level: str, rng: random.Random) -> RithmomachiaAgent:
        return RithmomachiaAgent(level, rng, budget_seconds=0.2)

    monkeypatch.setattr(rithmomachia_agent, "make_agent", make_agent)
