"""The composition root: one App per process, shared by every adapter."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from bot.adapters.discord import LogicBot
from bot.adapters.telegram import TelegramBot
from bot.app import App
from bot.config import Settings
from bot.events import GameFinished
from bot.service import Opponent, Place, User
from bot.store import SQLiteStore


async def test_both_adapters_on_one_app_register_each_finish_listener_once(
        tmp_path: Path) -> None:
    """Each adapter built its own Community and DailyChallenge, so with both tokens set
    every finished game was scored twice (only the results' primary key stopped the second
    write). Now the App holds one of each, and the adapters use them."""
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        settings = Settings(database_path=str(tmp_path / "bot.sqlite3"),
                            discord_token="x", telegram_token="1:x")
        app = App.build(settings, store)
        listeners = app.events.subscribers(GameFinished)
        discord_bot = LogicBot(app)
        telegram_bot = TelegramBot(app)
        assert app.events.subscribers(GameFinished) == listeners
        # The results (Community), the daily attempts and the tournaments' results.
        assert len(listeners) == 3
        for adapter in (discord_bot, telegram_bot):
            assert adapter.service is app.service
            assert adapter.community is app.community
            assert adapter.daily is app.daily and adapter.classroom is app.classroom
        # A game between two people, resigned: counted once, one row per person.
        place = Place("telegram", "-100", server="-100")
        alice, bob = User("telegram", "1", "Alice"), User("telegram", "2", "Bob")
        started = await app.service.start_game(place, alice, "lgame",
                                               Opponent("user", user=bob))
        assert started.ok
        resigned = await app.service.resign(place, bob)
        assert resigned.ok and resigned.finished
        alice_stats = await store.player_stats("telegram", "1")
        assert sum(row.wins for row in alice_stats) == 1
        await discord_bot.close()
    finally:
        await store.close()


async def test_the_console_on_the_app_adds_no_second_listener(tmp_path: Path) -> None:
    """The console built its own Community too: on the one App, a finished console game
    would have been scored twice (the second write refused, with an error logged)."""
    from bot.adapters.console import ConsoleSession

    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        app = App.build(Settings(database_path=str(tmp_path / "bot.sqlite3")), store)
        listeners = app.events.subscribers(GameFinished)
        async def read(prompt: str) -> str | None:
            return None

        session = ConsoleSession(app.service, read, lambda text: None,
                                 community=app.community)
        assert session.community is app.community
        assert app.events.subscribers(GameFinished) == listeners
    finally:
        await store.close()


async def test_closing_closes_the_store_even_when_cancelled_while_workers_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's connection runs in a thread that keeps the process alive until it is
    closed: a second Ctrl-C while the worker processes stop must not skip it, or the bot
    never exits."""
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    app = App.build(Settings(database_path=str(tmp_path / "bot.sqlite3")), store)
    workers_stopping = threading.Event()

    def slow_shutdown(*, wait_seconds: float = 0.0) -> None:
        workers_stopping.set()
        time.sleep(0.3)  # the workers take their time to end

    monkeypatch.setattr(app.service.workers, "shutdown", slow_shutdown)
    closing = asyncio.create_task(app.close())
    while not workers_stopping.is_set():
        await asyncio.sleep(0.01)
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing
    with pytest.raises(ValueError, match="no active connection"):
        await store.get_setting("test", "room", "language")
