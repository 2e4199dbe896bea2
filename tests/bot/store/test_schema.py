"""The migrations are written once for both databases (``bot/store/schema.py``, issue 39)
and rendered in each one's words: what they render must stay what the databases out there
were built by, and a database of an older version is brought up to date with its rows."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bot.store import SCHEMA_VERSION, Store
from bot.store import postgres_schema as postgres_ddl
from bot.store import sqlite_schema as sqlite_ddl
from bot.store.puzzle_rows import NewPuzzleAttempt
from tests.helpers.databases import DATABASES, old_database_store

# Each released migration's text, whitespace aside, as each database ran it: taken from the
# two hand-written schemas before they became one. A new migration adds its fingerprint
# here; an old one never changes (a database of that version would not get the change).
RELEASED = {
    "sqlite": ["0f76365c12cc26c0", "6e19fe4ae0ae9551", "6907921a836ab4cb", "07f690b5a1312c9e",
               "88c57def31811817", "3a2c8e0e609b6992", "674fd15a006d9017", "454b8aab17c7e83c",
               "da696b0385482228", "6bbdb597f6cca83d", "e3b0c44298fc1c14", "1a62e0a0df8f0ab4",
               "25470afa325ed2d0"],
    "postgres": ["5c3e999cf52fb5d2", "1b1f918de1deb2b7", "2c68ed21d21f97fd",
                 "ed36ad6ead4bb1aa", "88c57def31811817", "2cddfcc062a1e3ac",
                 "881b1bc34e97f647", "a5bf5c823df1867d", "7ae08aba283d5c84",
                 "6bbdb597f6cca83d", "d547e528531a5d0b", "7c32309ea917200c",
                 "25470afa325ed2d0"],
}
OLD_VERSION = 9  # before the daily post's lease, the lock function and the puzzle trainer
# Rows an older bot wrote, in SQL both databases take.
OLD_ROWS = [
    "INSERT INTO games (platform, channel, game, options, seed, state, version, players, "
    "status, created_at, updated_at, server) VALUES ('test', 'c1', 'lgame', '{}', 7, "
    "'{\"n\": 3}', 4, '[{\"kind\": \"human\", \"platform\": \"test\", \"id\": \"ann\", "
    "\"name\": \"Ann\"}]', 'finished', '2026-01-05T10:00', '2026-01-05T11:00', 'school')",
    "INSERT INTO results (game_id, platform, user_id, name, server, game, opponent, outcome, "
    "rating_before, rating_after, at) VALUES (1, 'test', 'ann', 'Ann', 'school', 'lgame', "
    "'human', 'win', 1500, 1516, '2026-01-05T11:00')",
    "INSERT INTO daily_schedules (platform, channel, server, post_time, language, "
    "last_posted) VALUES ('test', 'c1', 'school', '07:30', 'en', '2026-01-04')",
]


def _fingerprint(migration: str) -> str:
    return hashlib.sha256(" ".join(migration.split()).encode()).hexdigest()[:16]


def test_every_released_migration_renders_as_it_was_run() -> None:
    for database, migrations in (("sqlite", sqlite_ddl.MIGRATIONS),
                                 ("postgres", postgres_ddl.MIGRATIONS)):
        assert len(migrations) == SCHEMA_VERSION
        released = RELEASED[database]
        assert [_fingerprint(m) for m in migrations[:len(released)]] == released, database
    assert len(RELEASED["sqlite"]) == len(RELEASED["postgres"])


def test_the_words_leave_no_brace_unfilled() -> None:
    for migration in (*sqlite_ddl.MIGRATIONS, *postgres_ddl.MIGRATIONS):
        assert "{" not in migration and "}" not in migration


async def _check_upgraded(store: Store) -> None:
    game = await store.get_game(1)
    assert game is not None and (game.state, game.version, game.server) == (
        {"n": 3}, 4, "school")
    [ann] = await store.player_stats("test", "ann")
    assert (ann.wins, ann.rating) == (1, 1516.0)  # the trigger of then kept the rating
    assert await store.claim_daily_post("test", "c1", "2026-01-05", "2026-01-05T07:30",
                                        "2026-01-05T07:35")  # migration 10's lease
    assert [s.claimed_until for s in await store.daily_schedules("test")] == [
        "2026-01-05T07:35"]
    async with store.game_lock(1):  # on PostgreSQL migration 11's function
        locked = await store.get_game(1)
    assert locked == game
    attempt = await store.open_puzzle_attempt(NewPuzzleAttempt(  # migration 12's tables
        "test", "ann", "Ann", "school", "lgame", "code", ("mate",), "", "", {"p": 1}))
    assert attempt is not None and attempt.open
    later = await store.create_game("test", "c2", "lgame", {}, 1, {}, [], "waiting")
    assert later.id == 2


@pytest.mark.parametrize("database", DATABASES)
async def test_an_older_database_is_upgraded_with_its_rows(tmp_path: Path,
                                                          database: str) -> None:
    async with old_database_store(database, tmp_path, OLD_VERSION, OLD_ROWS) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        await _check_upgraded(store)
