"""The Telegram adapter, built on python-telegram-bot: ``build_telegram`` assembles the
client and its handlers around the App, ``run_telegram`` serves until cancelled."""

from __future__ import annotations

from typing import Any

from bot.adapters.telegram import handlers
from bot.adapters.telegram.client import TelegramBot
from bot.app import App

__all__ = ["TelegramBot", "build_telegram", "run_telegram"]


def build_telegram(app: App, **options: Any) -> TelegramBot:
    """The client with every handler installed; ``options`` go to ``TelegramBot``."""
    client = TelegramBot(app, **options)
    handlers.install(client)
    return client


async def run_telegram(app: App) -> None:
    await build_telegram(app).run_forever()
