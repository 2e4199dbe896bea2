"""Backups of a running bot's SQLite database: taken while saves go on, every game in the
copy agrees with its own move log, the copy opens as the bot's database, and a failed
backup leaves the previous file alone."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.store import GameUpdate, MoveRecord, SQLiteStore, StoreUnavailable
from bot.store.backup import backup_sqlite, destination, main


async def test_a_backup_during_play_is_consistent_and_opens(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    store = await SQLiteStore.open(source)
    records = [await store.create_game("test", f"c{n}", "lgame", {}, n, {"n": 0}, [],
                                       "active") for n in range(30)]
    stop = asyncio.Event()

    async def play(index: int) -> int:
        record, saves = records[index], 0
        while not stop.is_set():
            saved = await store.save_game(record, GameUpdate(
                {"n": saves + 1, "pad": "x" * 400}, "active", [],
                MoveRecord(0, "action", f"m{saves + 1}")))
            assert saved is not None
            record, saves = saved, saves + 1
            await asyncio.sleep(0)
        return saves

    players = [asyncio.create_task(play(n)) for n in range(len(records))]
    await asyncio.sleep(0.2)
    made = await backup_sqlite(source, tmp_path / "backups" / "copy.sqlite3")
    await asyncio.sleep(0.1)
    stop.set()
    saves = await asyncio.gather(*players)
    await store.close()
    assert made.games == 30 and made.size > 0
    assert sum(saves) > 0
    copy = await SQLiteStore.open(made.path)
    try:
        copied = await copy.games_with_status("active")
        assert len(copied) == 30
        for game in copied:  # the state and its log are of one moment
            log = await copy.moves(game.id)
            assert game.version == len(log) + 1 == game.state["n"] + 1
            assert [m.action for m in log] == [f"m{n}" for n in range(1, game.version)]
        assert any(game.version > 1 for game in copied)
    finally:
        await copy.close()
    assert not list((tmp_path / "backups").glob("*.partial"))


def test_a_folder_gets_a_dated_file(tmp_path: Path) -> None:
    moment = datetime(2026, 11, 25, 7, 30, 5, tzinfo=UTC)
    assert destination(tmp_path, moment) == tmp_path / "logic-bot-20261125-073005.sqlite3"
    assert destination(tmp_path / "one.sqlite3") == tmp_path / "one.sqlite3"


async def test_a_damaged_source_is_refused_and_the_last_backup_kept(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    source.write_bytes(b"not a database at all\n" * 300)
    previous = tmp_path / "copy.sqlite3"
    previous.write_bytes(b"yesterday's backup")
    with pytest.raises(StoreUnavailable, match="backup"):
        await backup_sqlite(source, previous)
    assert previous.read_bytes() == b"yesterday's backup"
    assert not (tmp_path / "copy.sqlite3.partial").exists()


def test_the_command_copies_database_path(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "bot.sqlite3"

    async def make() -> None:
        store = await SQLiteStore.open(source)
        await store.create_game("test", "c", "lgame", {}, 1, {}, [], "active")
        await store.close()

    asyncio.run(make())
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("DATABASE_PATH", str(source))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    out = io.StringIO()
    assert main(["backup", str(tmp_path / "b.sqlite3")], out) == 0
    assert "1 games" in out.getvalue() and (tmp_path / "b.sqlite3").is_file()
    assert main([str(tmp_path / "c.sqlite3"), "--database", str(tmp_path / "none")], out) == 1
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@localhost/db")
    assert main([str(tmp_path / "d.sqlite3")], out) == 2
