"""The Discord adapter: slash commands, buttons and select menus over the game service.
``build_discord`` assembles the client and its commands around the App; ``run_discord``
logs in and serves until stopped."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.adapters.discord.client import LogicBot, ShardedLogicBot
from bot.adapters.discord.commands import CommandKit
from bot.adapters.discord.commands.assignments import add_assignment_commands
from bot.adapters.discord.commands.classroom import add_classroom_commands
from bot.adapters.discord.commands.community import add_community_commands
from bot.adapters.discord.commands.games import add_game_commands
from bot.adapters.discord.commands.learn import add_learn_commands
from bot.adapters.discord.commands.puzzles import add_puzzle_items
from bot.adapters.discord.commands.tournament import add_tournament_commands
from bot.app import App

__all__ = ["LogicBot", "ShardedLogicBot", "build_discord", "run_discord"]

log = logging.getLogger(__name__)


def build_discord(app: App) -> LogicBot:
    """The client with every slash command, by topic."""
    bot = ShardedLogicBot(app) if app.settings.shard_count else LogicBot(app)
    kit = CommandKit(bot)
    add_game_commands(bot, kit)
    add_community_commands(bot, kit)
    add_classroom_commands(bot, kit)
    add_tournament_commands(bot, kit)
    add_assignment_commands(bot, kit)
    add_learn_commands(bot, kit)
    add_puzzle_items(bot)
    return bot


# Tries of the log-in when Discord answers with a server error, 1, 2, 4… s apart.
STARTUP_TRIES = 5


async def run_discord(app: App) -> None:
    """Log in with ``DISCORD_TOKEN`` and serve until stopped. A server error at log-in (a
    deploy of Discord's, a 502 at the edge) is tried again with backoff; a refused token
    is not. Once connected, discord.py reconnects by itself."""
    bot = build_discord(app)
    async with bot:
        for attempt in range(STARTUP_TRIES):
            try:
                await bot.login(app.settings.discord_token)
                break
            except discord.DiscordServerError as error:
                if attempt == STARTUP_TRIES - 1:
                    raise
                log.warning("Discord failed at log-in (%s); trying again in %d s", error,
                            2 ** attempt)
                await asyncio.sleep(2 ** attempt)
        await bot.connect()
