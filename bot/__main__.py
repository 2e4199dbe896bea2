"""``python -m bot``: start every platform adapter that has a token, or the console game."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from bot.config import Settings, load_settings
from bot.limits import Limits
from bot.runtime import collect_garbage, prepare_interpreter
from bot.service import Service
from bot.store import NewerSchema, SQLiteStore

log = logging.getLogger("bot")

async def run_discord_or_explain(service: Service, settings: Settings) -> int:
    """Run the Discord adapter; a bad token or no connection is a message, not a trace."""
    import aiohttp
    import discord

    from bot.adapters.discord import run_discord
    try:
        await run_discord(service, settings)
    except discord.LoginFailure as error:
        print(f"Discord refused the token in DISCORD_TOKEN: {error}", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError) as error:
        print(f"Could not reach Discord: {error}", file=sys.stderr)
        return 1
    return 0


async def run_telegram_or_explain(service: Service, settings: Settings) -> int:
    """Run the Telegram adapter; a bad token or no connection is a message, not a trace."""
    from telegram.error import InvalidToken, NetworkError

    from bot.adapters.telegram import run_telegram
    try:
        await run_telegram(service, settings)
    except InvalidToken as error:
        print(f"Telegram refused the token in TELEGRAM_TOKEN: {error}", file=sys.stderr)
        return 1
    except (NetworkError, OSError) as error:
        print(f"Could not reach Telegram: {error}", file=sys.stderr)
        return 1
    return 0


async def run_platforms(service: Service, settings: Settings) -> int:
    """Every adapter with a token, side by side; the first to fail stops the others, so
    that a broken configuration is noticed rather than half-running."""
    runs = []
    if settings.discord_token:
        runs.append(asyncio.ensure_future(run_discord_or_explain(service, settings)))
    if settings.telegram_token:
        runs.append(asyncio.ensure_future(run_telegram_or_explain(service, settings)))
    try:
        done, _ = await asyncio.wait(runs, return_when=asyncio.FIRST_COMPLETED)
        return max(task.result() for task in done)
    finally:
        for task in runs:
            task.cancel()
        await asyncio.gather(*runs, return_exceptions=True)


async def run(settings: Settings) -> int:
    try:
        store = await SQLiteStore.open(settings.database_path, sync=settings.database_sync)
    except NewerSchema as error:
        print(f"Cannot open {settings.database_path}: {error}", file=sys.stderr)
        return 1
    service = Service(store, limits=Limits.for_settings(settings.games_per_user,
                                                        settings.games_per_server))
    service.workers.start()
    try:
        if settings.has_platform:
            return await run_platforms(service, settings)
        from bot.adapters.console import run_console
        await run_console(service, settings)
        return 0
    finally:
        service.workers.shutdown()
        await store.close()


async def run_until_stopped(settings: Settings) -> int:
    """``run``, ended cleanly by SIGTERM (``docker stop``) as it is by Ctrl-C, so that the
    adapters close their connections and the database; garbage is collected meanwhile on
    the bot's schedule (``bot.runtime``)."""
    task = asyncio.current_task()
    assert task is not None
    with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    collector = asyncio.ensure_future(collect_garbage())
    try:
        return await run(settings)
    except asyncio.CancelledError:
        return 0
    finally:
        collector.cancel()


def main() -> int:
    settings = load_settings()
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.WARNING),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    prepare_interpreter()  # here, not in ``run``, which tests call in their own process
    try:
        return asyncio.run(run_until_stopped(settings))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
