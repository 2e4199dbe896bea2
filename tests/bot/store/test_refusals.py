"""A SQLite file the bot must not run on is refused at start-up with one exception,
``StoreUnavailable``, whose text says what is wrong, where the file is and how to restore a
backup: not a database, truncated, corrupt pages (``PRAGMA quick_check``), read-only."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import SQLiteStore, StoreUnavailable

PAGE = 4096


async def _filled_database(path: Path, games: int = 120) -> None:
    store = await SQLiteStore.open(path)
    try:
        for n in range(games):
            await store.create_game("test", f"c{n}", "lgame", {}, n, {"pad": "x" * 500},
                                    [{"kind": "open"}], "active")
    finally:
        await store.close()  # checkpoints: everything is in the main file


def _assert_explains(error: StoreUnavailable, path: Path) -> None:
    text = str(error)
    assert str(path) in text
    assert "backup" in text and "docs/operations.md" in text
    assert "\n" not in text  # one paragraph


async def test_a_file_that_is_no_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"these are the minutes of the staff meeting\n" * 200)
    with pytest.raises(StoreUnavailable) as raised:
        await SQLiteStore.open(path)
    _assert_explains(raised.value, path)
    assert "not a database" in str(raised.value)


async def test_a_truncated_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    await _filled_database(path)
    size = path.stat().st_size
    assert size > 10 * PAGE
    with path.open("r+b") as file:
        file.truncate(size // 2)
    with pytest.raises(StoreUnavailable) as raised:
        await SQLiteStore.open(path)
    _assert_explains(raised.value, path)


async def test_corrupt_pages_are_found_by_the_quick_check(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    await _filled_database(path)
    with path.open("r+b") as file:  # garbage over a few pages in the middle, header intact
        file.seek(6 * PAGE)
        file.write(bytes(range(256)) * (3 * PAGE // 256))
    with pytest.raises(StoreUnavailable) as raised:
        await SQLiteStore.open(path)
    _assert_explains(raised.value, path)


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """The folder read-only as a read-only mount makes it: a read-only bind mount as root
    (file modes do not stop root), the modes otherwise."""
    if os.geteuid() != 0:
        files = list(folder.iterdir())
        for file in files:
            file.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
            for file in files:
                file.chmod(0o644)
        return
    bound = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if bound.returncode != 0:
        pytest.skip(f"cannot make a read-only mount here: {bound.stderr.decode().strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


async def test_a_read_only_mount_is_refused_before_any_move(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "bot.sqlite3"
    await _filled_database(path, games=3)
    with _read_only(folder):
        with pytest.raises(StoreUnavailable) as raised:
            await SQLiteStore.open(path)
        _assert_explains(raised.value, path)
        assert "read-only" in str(raised.value)
    reopened = await SQLiteStore.open(path)  # writable again: it opens as ever
    assert len(await reopened.games_with_status("active")) == 3
    await reopened.close()


async def test_a_folder_that_cannot_be_made_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    path = blocker / "bot.sqlite3"
    with pytest.raises(StoreUnavailable) as raised:
        await SQLiteStore.open(path)
    _assert_explains(raised.value, path)


async def test_a_failing_checkpoint_is_said_once_not_every_second(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A full disk made the WAL checkpoint fail every second, and each failure was logged:
    now the first is said, then again only every few minutes (issue 22 item 11)."""
    import asyncio
    import sqlite3

    from bot.store import SQLiteStore

    class FullDisk:
        async def execute(self, sql: str) -> None:
            return None

        async def execute_fetchall(self, sql: str) -> list[tuple[int, int, int]]:
            raise sqlite3.OperationalError("database or disk is full")

        async def close(self) -> None:
            return None

    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        checkpoints = asyncio.create_task(store._checkpoint_until_closed(
            FullDisk(), 0.01, 10_000))  # type: ignore[arg-type]
        await asyncio.sleep(0.5)  # some fifty failed checkpoints
        store._closing.set()
        await checkpoints
    finally:
        await store.close()
    said = [r for r in caplog.records if "WAL checkpoint failed" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in said]
