"""``python -m bot``: start every platform adapter that has a token, or the console game."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.config import Settings, load_settings
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


async def run(settings: Settings) -> int:
    try:
        store = await SQLiteStore.open(settings.database_path)
    except NewerSchema as error:
        print(f"Cannot open {settings.database_path}: {error}", file=sys.stderr)
        return 1
    try:
        service = Service(store)
        if settings.telegram_token and not settings.discord_token:
            print("TELEGRAM_TOKEN is set, but this version has no Telegram adapter yet. "
                  "Unset it to play in the console, or set DISCORD_TOKEN.", file=sys.stderr)
            return 2
        if settings.discord_token:
            if settings.telegram_token:
                log.warning("TELEGRAM_TOKEN is ignored: this version has no Telegram adapter")
            return await run_discord_or_explain(service, settings)
        from bot.adapters.console import run_console
        await run_console(service, settings)
        return 0
    finally:
        await store.close()


def main() -> int:
    settings = load_settings()
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.WARNING),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
