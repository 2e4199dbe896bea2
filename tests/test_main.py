"""``python -m bot`` picks the adapter from the tokens it finds."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

import bot.adapters.discord as discord_adapter
from bot.__main__ import run
from bot.config import Settings
from bot.service import Service


async def test_discord_token_starts_the_discord_adapter(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []

    async def fake_run(service: Service, settings: Settings) -> None:
        started.append(settings.discord_token)

    monkeypatch.setattr(discord_adapter, "run_discord", fake_run)
    settings = Settings(database_path=str(tmp_path / "db.sqlite3"), discord_token="token-1")
    assert await run(settings) == 0
    assert started == ["token-1"]


async def test_a_refused_token_is_a_message_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    async def refuse(service: Service, settings: Settings) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord_adapter, "run_discord", refuse)
    settings = Settings(database_path=str(tmp_path / "db.sqlite3"), discord_token="bad")
    assert await run(settings) == 1
    assert "Discord refused the token" in capsys.readouterr().err


async def test_telegram_alone_explains_it_is_not_there_yet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(database_path=str(tmp_path / "db.sqlite3"), telegram_token="t")
    assert await run(settings) == 2
    assert "no Telegram adapter" in capsys.readouterr().err
