"""Faults of Discord at start-up, with the HTTP errors discord.py raises."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

import bot.adapters.discord as discord_adapter
from bot.adapters.discord.client import LogicBot
from bot.app import App
from bot.config import Settings
from bot.store import SQLiteStore


async def test_a_server_error_at_log_in_is_retried(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """One 502 at log-in ended the process; it is tried again, a refused token is not."""
    tries: list[str] = []

    async def login(self: LogicBot, token: str) -> None:
        tries.append(token)
        if len(tries) == 1:
            raise discord.DiscordServerError(SimpleNamespace(status=502, reason="Bad Gateway"),
                                             "Bad Gateway")

    async def connect(self: LogicBot, *, reconnect: bool = True) -> None:
        return None

    monkeypatch.setattr(LogicBot, "login", login)
    monkeypatch.setattr(LogicBot, "connect", connect)
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        app = App.build(Settings(database_path=str(tmp_path / "bot.sqlite3"),
                                 discord_token="t"), store)
        await discord_adapter.run_discord(app)
        assert tries == ["t", "t"]
    finally:
        await store.close()
