"""``python -m bot``: start every platform adapter that has a token, or the console game."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.config import Settings, load_settings
from bot.service import Service
from bot.store import NewerSchema, SQLiteStore


async def run(settings: Settings) -> int:
    try:
        store = await SQLiteStore.open(settings.database_path)
    except NewerSchema as error:
        print(f"Cannot open {settings.database_path}: {error}", file=sys.stderr)
        return 1
    try:
        service = Service(store)
        if settings.has_platform:
            missing = [name for name, token in (("DISCORD_TOKEN", settings.discord_token),
                                                ("TELEGRAM_TOKEN", settings.telegram_token))
                       if token]
            print(f"{' and '.join(missing)} is set, but this version has no adapter for that "
                  "platform yet. Unset it to play in the console.", file=sys.stderr)
            return 2
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
