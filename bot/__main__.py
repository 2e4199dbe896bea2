"""``python -m bot``: start every platform adapter that has a token, or the console game."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys

from bot.config import Settings, load_settings
from bot.limits import Limits
from bot.service import Service
from bot.store import NewerSchema, SQLiteStore

log = logging.getLogger("bot")

# Container allocations (minus deallocations) before a young-generation collection;
# Python's default is 700. Under load the bot makes short-lived dicts and lists by the
# hundred per command, so at 700 it collected 20 times a second, and the older generations
# so often that a 105 s run at 1000 games had 18 full collections (up to 440 ms each,
# everything stopped) and 11 s of pauses in all. At 10,000 the same run had no full
# collection and 3 s of pauses, the longest about 235 ms; 50,000 gave fewer but longer
# young collections (up to 330 ms). Measured with ``benchmarks/load.py`` and its
# ``--gc python``; ``docs/performance.md`` has the numbers.
GC_YOUNG_THRESHOLD = 10_000


def tune_garbage_collector() -> None:
    """Take what start-up made out of the cyclic collector's reach, and collect the young
    generation less often (``GC_YOUNG_THRESHOLD``).

    Called once start-up's imports are done. Modules, classes and the message catalogue
    live as long as the process, yet every full collection scanned them again: under load
    such pauses reached 230 to 250 ms (``docs/performance.md``). ``gc.freeze`` moves them
    to a generation that is never collected; objects that die later are still freed by
    reference counting. The load benchmark calls this too, so that it measures the bot as
    it runs.
    """
    gc.collect()  # what start-up left as garbage should not be frozen with the rest
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


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
        store = await SQLiteStore.open(settings.database_path)
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
    adapters close their connections and the database."""
    task = asyncio.current_task()
    assert task is not None
    with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        return await run(settings)
    except asyncio.CancelledError:
        return 0


def main() -> int:
    settings = load_settings()
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.WARNING),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    tune_garbage_collector()  # here, not in ``run``, which tests call in their own process
    try:
        return asyncio.run(run_until_stopped(settings))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
