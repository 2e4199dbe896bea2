"""Two bot processes on one database: each has its own cache, and neither may refuse a
press that is current in the database."""

from __future__ import annotations

from pathlib import Path

from bot.service import Opponent, Service
from bot.store import SQLiteStore
from tests.helpers.forged import whole_move
from tests.helpers.people import ALICE, BOB, PLACE


async def test_a_process_with_a_stale_copy_accepts_a_current_press(tmp_path: Path) -> None:
    """Behind a load balancer, 7 of 13 presses were refused as out of date although their
    version was the database's: the process that served them held an older copy. A press
    newer than the copy now re-reads the game."""
    first = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    second = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        one, two = Service(first), Service(second)
        started = await one.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
        assert started.ok and started.board is not None
        # The second process reads the game (and keeps it), then the first moves it on.
        assert (await two.board(PLACE)).ok
        for mover in (ALICE, BOB, ALICE):
            record = await first.running_game(PLACE.platform, PLACE.channel)
            assert record is not None
            moved = await one.press(PLACE, mover, whole_move(record))
            assert moved.ok and moved.moved, moved.notice
        # Bob's current button reaches the second process, whose copy is three moves old.
        record = await first.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        pressed = await two.press(PLACE, BOB, whole_move(record))
        assert pressed.ok and pressed.moved, pressed.notice
        saved = await first.get_game(record.id)
        assert saved is not None and saved.version == record.version + 1
    finally:
        await first.close()
        await second.close()


async def test_a_process_that_missed_a_new_game_accepts_its_buttons(tmp_path: Path) -> None:
    """The same for a game another process started after this one cached the last."""
    first = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    second = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        one, two = Service(first), Service(second)
        assert (await one.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))).ok
        assert (await two.board(PLACE)).ok  # cached in the second process
        assert (await one.abandon(PLACE, ALICE)).ok
        assert (await one.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))).ok
        record = await first.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        pressed = await two.press(PLACE, ALICE, whole_move(record))
        assert pressed.ok and pressed.moved, pressed.notice
    finally:
        await first.close()
        await second.close()
