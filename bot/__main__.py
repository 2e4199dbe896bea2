"""``python -m bot``: start every platform adapter that has a token, or the console game.

Also ``python -m bot backup PATH`` (a consistent copy of the SQLite database while the bot
runs), ``python -m bot migrate-db --from sqlite:PATH --to postgresql://…`` and
``python -m bot --help``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from bot.app import App
from bot.config import Settings, load_settings, token_shape_problems
from bot.runtime import collect_garbage, prepare_interpreter, run_on_loop
from bot.store import NewerSchema, StoreUnavailable, open_store

log = logging.getLogger("bot")

USAGE = """usage: python -m bot [COMMAND]

With no command: run the bot on every platform that has a token (DISCORD_TOKEN,
TELEGRAM_TOKEN, in the environment or a .env file), or the local console game when
neither is set.

commands:
  backup PATH          copy the SQLite database to PATH (a file, or a folder that gets
                       a dated file) while the bot runs
  migrate-db --from sqlite:PATH --to postgresql://...
                       copy every game, result and setting into an empty PostgreSQL
                       database (stop the bot first)
  -h, --help           show this help

Settings are described in README.md (Configuration)."""


async def run_discord_or_explain(app: App) -> int:
    """Run the Discord adapter; a bad token or no connection is a message, not a trace."""
    import aiohttp
    import discord

    from bot.adapters.discord import run_discord
    try:
        await run_discord(app)
    except discord.LoginFailure as error:
        print(f"Discord refused the token in DISCORD_TOKEN: {error}", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError) as error:
        print(f"Could not reach Discord: {error}", file=sys.stderr)
        return 1
    return 0


async def run_telegram_or_explain(app: App) -> int:
    """Run the Telegram adapter; a bad token or no connection is a message, not a trace."""
    from telegram.error import InvalidToken, NetworkError

    from bot.adapters.telegram import run_telegram
    try:
        await run_telegram(app)
    except InvalidToken as error:
        print(f"Telegram refused the token in TELEGRAM_TOKEN: {error}", file=sys.stderr)
        return 1
    except (NetworkError, OSError) as error:
        print(f"Could not reach Telegram: {error}", file=sys.stderr)
        return 1
    return 0


async def run_platforms(app: App) -> int:
    """Every adapter with a token, side by side on the one ``App``; the first to fail
    stops the others, so that a broken configuration is noticed rather than
    half-running."""
    runs = []
    if app.settings.discord_token:
        runs.append(asyncio.ensure_future(run_discord_or_explain(app)))
    if app.settings.telegram_token:
        runs.append(asyncio.ensure_future(run_telegram_or_explain(app)))
    try:
        done, _ = await asyncio.wait(runs, return_when=asyncio.FIRST_COMPLETED)
        return max(task.result() for task in done)
    finally:
        for task in runs:
            task.cancel()
        await asyncio.gather(*runs, return_exceptions=True)


async def run(settings: Settings) -> int:
    try:
        store = await open_store(settings)
    except NewerSchema as error:
        print(f"Cannot open {settings.database_url or settings.database_path}: {error}",
              file=sys.stderr)
        return 1
    except StoreUnavailable as error:
        print(error, file=sys.stderr)
        return 1
    app = App.build(settings, store)
    app.start(puzzle_stock=True)
    try:
        if settings.has_platform:
            return await run_platforms(app)
        from bot.adapters.console import run_console
        return await run_console(app)
    finally:
        await app.close()


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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    if args and args[0] == "backup":
        from bot.store.backup import main as backup
        return backup(args[1:])
    if args and args[0] == "migrate-db":
        from bot.store.migrate import main as migrate
        return migrate(args[1:])
    if args:
        print(f"Unknown command {args[0]!r}.\n\n{USAGE}", file=sys.stderr)
        return 2
    settings = load_settings()
    problems = token_shape_problems(settings)
    for problem in problems:
        print(f"logic-bot: {problem}", file=sys.stderr)
    if problems:
        return 1
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.WARNING),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    prepare_interpreter()  # here, not in ``run``, which tests call in their own process
    try:
        return run_on_loop(run_until_stopped(settings), settings.event_loop)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
