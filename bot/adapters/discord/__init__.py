"""The Discord adapter: slash commands, buttons and select menus over the game service.
``build_discord`` assembles the client and its commands around the App; ``run_discord``
logs in and serves until stopped."""

from __future__ import annotations

from bot.adapters.discord.client import LogicBot
from bot.adapters.discord.commands import CommandKit
from bot.adapters.discord.commands_classroom import add_classroom_commands
from bot.adapters.discord.commands_community import add_community_commands
from bot.adapters.discord.commands_games import add_game_commands
from bot.app import App

__all__ = ["LogicBot", "build_discord", "run_discord"]


def build_discord(app: App) -> LogicBot:
    """The client with every slash command, by topic."""
    bot = LogicBot(app)
    kit = CommandKit(bot)
    add_game_commands(bot, kit)
    add_community_commands(bot, kit)
    add_classroom_commands(bot, kit)
    return bot


async def run_discord(app: App) -> None:
    """Log in with ``DISCORD_TOKEN`` and serve until stopped."""
    bot = build_discord(app)
    async with bot:
        await bot.start(app.settings.discord_token)
