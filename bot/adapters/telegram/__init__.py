"""The Telegram adapter, built on python-telegram-bot: ``run_telegram`` serves until
cancelled."""

from __future__ import annotations

from bot.adapters.telegram.client import TelegramBot
from bot.config import Settings
from bot.service import Service

__all__ = ["TelegramBot", "run_telegram"]


async def run_telegram(service: Service, settings: Settings) -> None:
    await TelegramBot(service, settings).run_forever()
