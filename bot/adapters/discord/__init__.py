"""The Discord adapter: slash commands, buttons and select menus over the game service."""

from __future__ import annotations

from bot.adapters.discord.client import LogicBot
from bot.config import Settings
from bot.service import Service

__all__ = ["LogicBot", "run_discord"]


async def run_discord(service: Service, settings: Settings) -> None:
    """Log in with ``DISCORD_TOKEN`` and serve until stopped."""
    bot = LogicBot(service, settings)
    async with bot:
        await bot.start(settings.discord_token)
