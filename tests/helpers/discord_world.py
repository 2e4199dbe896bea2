"""An offline Discord for adapter tests: simcord runs the real discord.py client against an
in-memory Discord, so slash commands, buttons and edits go through discord.py unchanged,
down to its own HTTP code (``DiscordWire``): faults injected on the wire meet discord.py's
retries as Discord's would."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from simcord import MemberActor

from bot.adapters.discord import LogicBot, build_discord
from bot.app import App
from bot.clock import Clock, utc_now
from bot.config import Settings
from bot.limits import Limits
from bot.store import SQLiteStore
from tests.helpers.discord_strict import StrictRequests, strict_run
from tests.helpers.discord_text import interactive
from tests.helpers.discord_wire import DiscordWire


@dataclass
class World:
    env: Any
    bot: LogicBot
    store: SQLiteStore
    database: Path
    guild: Any
    channel: Any
    alice: MemberActor
    bob: MemberActor
    carol: MemberActor
    clock: Clock = utc_now
    wire: DiscordWire | None = None

    async def restart(self, settings: Settings | None = None) -> None:
        """Stop the bot and start a new process image on the same database."""
        await self.bot.wait_for_background()
        await self.bot.stop_loops()  # what the process writes on its way out, first
        await self.store.close()
        self.store = await SQLiteStore.open(self.database)
        self.bot = build_discord(App.build(settings or Settings(database_path=str(self.database)),
                                      self.store, clock=self.clock,
                                      seed_source=itertools.count(100).__next__,
                                      limits=Limits.unlimited()))
        self.bot.run_daily_schedule = False
        self.bot.run_turn_timers = False
        await self.env.restart_bot(self.bot)
        if self.wire is not None:
            self.wire.install(self.bot, self.env)


def stamp_requests(world: World) -> list[tuple[float, str, str]]:
    """Record the wall-clock time of every REST call the bot makes from now on, as
    (time, method, path): how tests and benchmarks time the first response."""
    stamps: list[tuple[float, str, str]] = []

    class StampedRequests(StrictRequests):
        def append(self, entry: Any) -> None:
            stamps.append((time.perf_counter(), entry.method, entry.path))
            super().append(entry)

    world.env.backend.http_requests = StampedRequests(world.env.backend.http_requests)
    return stamps


def components_of(message: discord.Message | Any) -> list[dict[str, Any]]:
    """Flat list of buttons and selects of a message, as Discord stores them, those beside
    a Components V2 section's text included."""
    return interactive(message)


@asynccontextmanager
async def discord_world(tmp_path: Path, clock: Clock = utc_now,
                        seed_source: Callable[[], int] | None = None,
                        **options: Any) -> AsyncIterator[World]:
    """``seed_source`` gives each new game its seed (1, 2, 3… by default); the fuzz tests
    pass a constant, so that a game depends only on what hypothesis drew."""
    database = tmp_path / "discord.sqlite3"
    store = await SQLiteStore.open(database)
    bot = build_discord(App.build(Settings(database_path=str(database)), store, clock=clock,
                             seed_source=seed_source or itertools.count(1).__next__,
                             limits=Limits.unlimited()))
    # Tests check turn timers themselves, against their own clock.
    bot.run_turn_timers = False
    # The daily loop sleeps to each real minute while simcord's clock jumps, which can
    # outlast a click's deadline; tests post daily challenges with post_daily_due.
    bot.run_daily_schedule = False
    try:
        async with strict_run(bot, **options) as env:
            guild = env.create_guild("Class 3B")
            channel = guild.create_text_channel("games")
            wire = DiscordWire(env.backend)
            wire.install(bot, env)
            world = World(env, bot, store, database, guild, channel,
                          guild.add_member(env.create_user("alice")),
                          guild.add_member(env.create_user("bob")),
                          guild.add_member(env.create_user("carol")), clock, wire)
            yield world
            await world.bot.wait_for_background()
    finally:
        await world.store.close() if "world" in locals() else await store.close()
