"""An offline Telegram for adapter tests: the real python-telegram-bot ``Application``,
long-polling the loopback ``FakeTelegram`` server, on a real SQLite database."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from telegram.ext import BaseRateLimiter

from bot.adapters.telegram import TelegramBot, build_telegram
from bot.app import App
from bot.clock import Clock, utc_now
from bot.config import Settings
from bot.limits import Limits
from bot.store import SQLiteStore
from tests.helpers.telegram_fake import TOKEN, FakeTelegram, Person, Sent, group_chat

ALICE = Person(1001, "Alice", username="alice")
BOB = Person(1002, "Bob", language_code="en")
CAROL = Person(1003, "Carol")
GROUP = group_chat(-1005001, "Class 3B")
SETTLE_SECONDS = 20.0


class NoRateLimits(BaseRateLimiter[int]):
    """Tests do not wait out Telegram's one-message-a-second per chat; the production
    limiter has its own test."""

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def process_request(self, callback: Callable[..., Coroutine[Any, Any, Any]],
                              args: Any, kwargs: dict[str, Any], endpoint: str,
                              data: dict[str, Any], rate_limit_args: int | None) -> Any:
        return await callback(*args, **kwargs)


@dataclass
class World:
    fake: FakeTelegram
    bot: TelegramBot
    store: SQLiteStore
    database: Path
    settings: Settings
    clock: Clock = utc_now
    # Each new game's seed (100, 101… by default); the fuzz tests pass a constant, so that
    # a game depends only on what hypothesis drew.
    seed_source: Callable[[], int] | None = None
    # The rate limiter each new bot gets: none by default, so tests run at full speed.
    limiter: Callable[[], BaseRateLimiter[Any]] = NoRateLimits

    def new_bot(self, settings: Settings | None = None) -> TelegramBot:
        seeds = itertools.count(100)
        app = App.build(settings or self.settings, self.store, clock=self.clock,
                        seed_source=self.seed_source or seeds.__next__,
                        limits=Limits.unlimited())
        bot = build_telegram(app, rate_limiter=self.limiter(), polling_timeout=1)
        # Turn timers are checked by the tests themselves (check_turn_timers), against
        # their own clock, so a background check can never race an assertion.
        bot.run_turn_timers = False
        return bot

    async def settle(self) -> None:
        """Wait until the bot has taken every update, handled it, and finished the
        background work (AI moves) it set off."""
        async with asyncio.timeout(SETTLE_SECONDS):
            while True:
                while self.fake.confirmed < self.fake.last_update_id:
                    await asyncio.sleep(0.002)
                await self.bot.application.update_queue.join()
                await self.bot.wait_for_background()
                await asyncio.sleep(0)
                if (self.fake.confirmed >= self.fake.last_update_id
                        and not self.bot.application.update_queue._unfinished_tasks):  # type: ignore[attr-defined]
                    return

    async def say(self, person: Person, chat: dict[str, Any], text: str,
                  reply_to: Sent | None = None, topic: int | None = None) -> Sent:
        sent = self.fake.user_message(person, chat, text, reply_to, topic)
        await self.settle()
        return sent

    async def press(self, person: Person, message: Sent, data: str) -> list[dict[str, Any]]:
        """Press a button (or forge one) and return the callback's answers."""
        query = self.fake.press(person, message, data)
        await self.settle()
        return self.fake.answers.get(query, [])

    async def click(self, person: Person, message: Sent, label: str) -> list[dict[str, Any]]:
        return await self.press(person, message, message.button(label)["callback_data"])

    def last(self, chat: dict[str, Any]) -> Sent:
        return self.fake.bot_messages(chat["id"])[-1]

    async def board(self, chat: dict[str, Any]) -> Sent:
        """The message the store names as the board of the chat's latest game."""
        records = [record for status in ("waiting", "active", "finished", "abandoned")
                   for record in await self.store.games_with_status(status)
                   if record.channel == str(chat["id"])]
        assert records, f"no game in chat {chat['id']}"
        ref = max(records, key=lambda record: record.id).board_ref or {}
        return self.fake.messages[(chat["id"], int(ref["message"]))]

    async def restart(self, settings: Settings | None = None) -> None:
        """Stop the bot and start a new one on the same database and fake Telegram."""
        await self.settle()
        await self.bot.stop()
        await self.store.close()
        self.store = await SQLiteStore.open(self.database)
        self.bot = self.new_bot(settings)
        await self.bot.start()
        await self.settle()


@asynccontextmanager
async def telegram_world(tmp_path: Path, clock: Clock = utc_now,
                         seed_source: Callable[[], int] | None = None,
                         limiter: Callable[[], BaseRateLimiter[Any]] = NoRateLimits,
                         **options: Any) -> AsyncIterator[World]:
    fake = FakeTelegram()
    url = await fake.start()
    database = tmp_path / "telegram.sqlite3"
    store = await SQLiteStore.open(database)
    settings = Settings(database_path=str(database), telegram_token=TOKEN,
                        telegram_base_url=url, **options)
    world = World(fake, None, store, database, settings, clock,  # type: ignore[arg-type]
                  seed_source, limiter)
    world.bot = world.new_bot()
    await world.bot.start()
    try:
        yield world
        assert world.fake.unanswered() == [], "every callback query is answered"
    finally:
        await world.bot.stop()
        await world.store.close()
        await fake.close()
