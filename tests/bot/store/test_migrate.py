"""``migrate-db``: a SQLite database played through the real service, copied into
PostgreSQL, reads back the same through the other store; the command line end to end."""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
from pathlib import Path

import aiosqlite
import asyncpg

from bot.community import Community
from bot.events import GameFinished
from bot.service import Opponent, Place, Service
from bot.store import DailySchedule, SQLiteStore, Store, TurnTimer
from bot.store.migrate import run
from bot.store.postgres import PostgresStore
from tests.helpers.databases import postgres_schema
from tests.helpers.paths import REPO_ROOT as ROOT
from tests.helpers.people import ALICE, BOB, CAROL


async def _play_some_games(path: Path) -> None:
    """Finished, resigned and running games with results and ratings, a setting, a daily
    schedule and a turn timer, all through the service, as the bot writes them."""
    store = await SQLiteStore.open(path)
    seeds = itertools.count(7)
    service = Service(store, seed_source=lambda: next(seeds))
    # Records results and ratings as games finish.
    service.events.subscribe(GameFinished, Community(service).game_finished)
    try:
        for n in range(3):
            place = Place("test", f"room-{n}", server="school")
            await service.start_game(place, ALICE, "lgame", Opponent("user", user=BOB))
            await service.resign(place, BOB if n % 2 else ALICE)
        await service.start_game(Place("test", "room-9", server="school"), CAROL, "lgame",
                                 Opponent("user", user=ALICE))
        await store.set_setting("test", "room-1", "language", "nl")
        await store.set_daily_schedule(DailySchedule("test", "room-1", "school", "07:30", "nl",
                                                     "2026-11-24"))
        await store.start_turn_timer(TurnTimer("test", "room-9", 4, 1, "2026-11-25T08:00"))
    finally:
        await store.close()


async def _snapshot(store: Store) -> dict[str, object]:
    games = await store.games_with_status("waiting", "active", "finished", "abandoned")
    return {
        "games": games,
        "moves": {g.id: await store.moves(g.id) for g in games},
        "stats": {p.id: await store.player_stats("test", p.id) for p in (ALICE, BOB, CAROL)},
        "ratings": await store.ratings_of("test", [ALICE.id, BOB.id], "lgame"),
        "export": await store.server_results("test", "school"),
        "setting": await store.get_setting("test", "room-1", "language"),
        "daily": await store.daily_schedules(),
        "timer": await store.turn_timer("test", "room-9"),
    }


async def test_every_row_reads_back_the_same_from_postgresql(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    await _play_some_games(path)
    sqlite = await SQLiteStore.open(path)
    before = await _snapshot(sqlite)
    await sqlite.close()
    assert len(before["games"]) == 4 and before["ratings"]  # type: ignore[arg-type]
    async with postgres_schema() as url:
        out = io.StringIO()
        assert await run(["migrate-db", "--from", f"sqlite:{path}", "--to", url], out) == 0
        assert "Migrated 4 games" in out.getvalue()
        postgres = await PostgresStore.open(url)
        try:
            assert await _snapshot(postgres) == before
            later = await postgres.create_game("test", "room-new", "lgame", {}, 1, {}, [],
                                               "waiting")
            assert later.id > max(g.id for g in before["games"])  # type: ignore[attr-defined]
        finally:
            await postgres.close()
        again = io.StringIO()  # a second run must not merge into the copy
        assert await run(["--from", str(path), "--to", url], again) == 1


async def test_a_game_that_does_not_load_is_left_out_with_its_moves(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    await _play_some_games(path)
    async with aiosqlite.connect(path) as raw:
        await raw.execute("UPDATE games SET state='{broken' WHERE channel='room-0'")
        await raw.commit()
    async with postgres_schema() as url:
        out = io.StringIO()
        assert await run(["--from", f"sqlite:{path}", "--to", url], out) == 0
        assert "does not load and is left out" in out.getvalue()
        target = await asyncpg.connect(url)
        try:
            channels = {row[0] for row in await target.fetch("SELECT channel FROM games")}
            assert channels == {"room-1", "room-2", "room-9"}
        finally:
            await target.close()


async def test_the_command_line_end_to_end(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    await _play_some_games(path)
    async with postgres_schema() as url:
        done = subprocess.run(
            [sys.executable, "-m", "bot.store.migrate", "--from", f"sqlite:{path}", "--to",
             url], cwd=ROOT, capture_output=True, text=True, timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 0, done.stderr
        assert "games: 4 rows" in done.stdout
        missing = subprocess.run(
            [sys.executable, "-m", "bot.store.migrate", "--from", str(tmp_path / "none"),
             "--to", url], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert missing.returncode == 1
        assert "Nothing was migrated: there is no SQLite database" in missing.stderr
