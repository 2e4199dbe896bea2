"""Settings from environment variables and an optional ``.env`` file (the environment wins).

A typo must not stop the bot, so an invalid value falls back to the default; but it must
not pass silently either: each one is reported by ``warn`` (a line on stderr, and a
WARNING in the log once logging is set up) naming the variable, the value and what is used
instead.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from renderers.i18n import LANGUAGES

logger = logging.getLogger(__name__)
Warn = Callable[[str], None]
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG", "NOTSET")

DEFAULT_DATABASE = "data/logic-bot.sqlite3"
# How far a saved move is synced before the player sees it (SQLite's ``synchronous``):
# "full" keeps it through a power cut, "normal" through a crash of the bot only, and
# answers faster on a slow disk (docs/performance.md).
DATABASE_SYNCS = ("full", "normal")
# The event loop the bot runs on (``bot.runtime.run_on_loop``): uvloop, libuv's loop for
# asyncio, where it is installed (not on Windows), else Python's own.
EVENT_LOOPS = ("uvloop", "asyncio")
# Every name ``load_settings`` reads. A name in the environment or ``.env`` with one of
# the bot's prefixes that is not here is a typo until proved otherwise, and is reported.
KNOWN_NAMES = frozenset({
    "DATABASE_PATH", "DATABASE_URL", "DATABASE_SYNC", "EVENT_LOOP",
    "DISCORD_TOKEN", "DISCORD_DEV_GUILD", "SHARD_COUNT", "SHARD_IDS",
    "TELEGRAM_TOKEN", "TELEGRAM_BASE_URL", "TELEGRAM_WEBHOOK_URL", "TELEGRAM_WEBHOOK_LISTEN",
    "TELEGRAM_WEBHOOK_PORT", "TELEGRAM_WEBHOOK_SECRET", "TELEGRAM_WEBHOOK_WORKER",
    "BOT_LANGUAGE", "BOT_GAMES_PER_USER", "BOT_GAMES_PER_SERVER", "LOG_LEVEL",
})
CHECKED_PREFIXES = ("BOT_", "DISCORD_", "TELEGRAM_", "DATABASE_")
# A token's shape, checked before the network is asked (a wrong one would cost a 15 s
# round of retries to be refused): Discord's is three base64url parts joined by dots,
# Telegram's the bot's number, a colon and 35 characters.
DISCORD_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
TELEGRAM_TOKEN_SHAPE = re.compile(r"[0-9]+:[A-Za-z0-9_-]{35}")


@dataclass(frozen=True)
class Settings:
    database_path: str = DEFAULT_DATABASE
    database_sync: str = "full"
    event_loop: str = "uvloop"
    # ``postgresql://user:password@host/db`` runs on PostgreSQL (several bot processes);
    # empty keeps the SQLite file at ``database_path`` (bot.store.open_store).
    database_url: str = ""
    discord_token: str = ""
    discord_dev_guild: str = ""
    telegram_token: str = ""
    telegram_base_url: str = ""
    telegram_webhook_url: str = ""
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: str = ""
    # This process's number among several webhook workers behind a proxy (0, 1, …;
    # docs/scaling.md, bot/adapters/telegram/webhook.py); worker 0 registers the webhook.
    # None: one process, PTB's own webhook server (or polling without a URL).
    telegram_webhook_worker: int | None = None
    # Discord shards (docs/scaling.md): the total, and the ones this process runs; 0 and ()
    # run one unsharded connection, as a bot in fewer than 2,500 servers may.
    shard_count: int = 0
    shard_ids: tuple[int, ...] = ()
    language: str = "en"
    log_level: str = "WARNING"
    # Resource bounds (see bot/limits.py); 0 switches one off.
    games_per_user: int = 12
    games_per_server: int = 300

    @property
    def has_platform(self) -> bool:
        return bool(self.discord_token or self.telegram_token)


def warn_on_stderr(message: str) -> None:
    """One clear line on stderr; and a log WARNING when logging is already configured
    (before that, Python's fallback handler would print the same line a second time)."""
    print(f"logic-bot: {message}", file=sys.stderr, flush=True)
    if logging.getLogger().handlers:
        logger.warning("%s", message)


def env_value(raw: str) -> str:
    """A ``.env`` value as dotenv readers take it: a quoted value is what lies between its
    quotes; an unquoted one ends at a ``#`` that follows whitespace (an inline comment)."""
    value = raw.strip()
    if value[:1] in ("'", '"'):
        closing = value.find(value[0], 1)
        if closing > 0:
            return value[1:closing]
    for index, char in enumerate(value):
        if char == "#" and index > 0 and value[index - 1] in " \t":
            return value[:index].rstrip()
    return value


def read_env_file(path: Path, warn: Warn = warn_on_stderr) -> dict[str, str]:
    """``KEY=value`` lines; blank lines and ``#`` comments are skipped, quotes and inline
    comments stripped; any other line is reported and skipped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, equals, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        if not equals or not key or not key.replace("_", "").isalnum():
            warn(f"{path} line {number} is not KEY=value; it is ignored.")
            continue
        values[key] = env_value(value)
    return values


class _Checker:
    """Reads one setting at a time, reporting each invalid value with its fallback."""

    def __init__(self, merged: Mapping[str, str], warn: Warn) -> None:
        self.merged = merged
        self.warn = warn

    def text(self, name: str, default: str = "") -> str:
        return self.merged.get(name, default)

    def invalid(self, name: str, value: str, expected: str, fallback: object) -> None:
        self.warn(f"{name}={value!r} is not valid ({expected}); using {fallback!r}.")

    def port(self, name: str, default: int) -> int:
        value = self.text(name).strip()
        if value.isascii() and value.isdigit() and 0 < int(value) < 65536:
            return int(value)
        if value:
            self.invalid(name, value, "a port from 1 to 65535", default)
        return default

    def count(self, name: str, default: int) -> int:
        value = self.text(name).strip()
        if value.isascii() and value.isdigit():
            return int(value)
        if value:
            self.invalid(name, value, "a whole number, 0 for no limit", default)
        return default

    def choice(self, name: str, choices: tuple[str, ...], default: str, *,
               upper: bool = False) -> str:
        """One of ``choices``, any case; the default (the safe one) otherwise."""
        value = self.text(name).strip()
        wanted = value.upper() if upper else value.lower()
        if wanted in choices:
            return wanted
        if value:
            self.invalid(name, value, "one of " + ", ".join(choices), default)
        return default

    def shards(self) -> tuple[int, tuple[int, ...]]:
        """``SHARD_COUNT`` and ``SHARD_IDS`` (``0``, ``1,3`` or a range ``0-3``; all shards
        when unset). Anything invalid runs unsharded, with a warning."""
        count_text = self.text("SHARD_COUNT").strip()
        ids_text = self.text("SHARD_IDS").strip()
        if not count_text:
            if ids_text:
                self.invalid("SHARD_IDS", ids_text, "needs SHARD_COUNT as well", "no shards")
            return 0, ()
        if not (count_text.isascii() and count_text.isdigit() and int(count_text) > 0):
            self.invalid("SHARD_COUNT", count_text, "a whole number from 1", "no shards")
            return 0, ()
        count = int(count_text)
        ids: list[int] = []
        for part in filter(None, (part.strip() for part in (ids_text or f"0-{count - 1}")
                                  .split(","))):
            low, dash, high = part.partition("-")
            if not (low.isdigit() and (not dash or high.isdigit())):
                self.invalid("SHARD_IDS", ids_text, "shard numbers such as 0, 1,3 or 0-3",
                             "no shards")
                return 0, ()
            ids += range(int(low), int(high if dash else low) + 1)
        if not ids or len(set(ids)) != len(ids) or not all(0 <= i < count for i in ids):
            self.invalid("SHARD_IDS", ids_text, f"distinct numbers from 0 to {count - 1}",
                         "no shards")
            return 0, ()
        return count, tuple(ids)

    def webhook_worker(self) -> int | None:
        """``TELEGRAM_WEBHOOK_WORKER``: a whole number, and only with a webhook URL to take
        the path from. Invalid, it runs as one process (PTB's webhook server, or polling),
        with a warning; a worker without a secret takes updates from anyone, also warned."""
        value = self.text("TELEGRAM_WEBHOOK_WORKER").strip()
        if not value:
            return None
        if not (value.isascii() and value.isdigit()):
            self.invalid("TELEGRAM_WEBHOOK_WORKER", value, "a worker number: 0, 1, 2…",
                         "one webhook process")
            return None
        if not self.text("TELEGRAM_WEBHOOK_URL").strip():
            self.invalid("TELEGRAM_WEBHOOK_WORKER", value, "needs TELEGRAM_WEBHOOK_URL as well",
                         "long polling")
            return None
        if not self.text("TELEGRAM_WEBHOOK_SECRET").strip():
            self.warn("TELEGRAM_WEBHOOK_WORKER is set without TELEGRAM_WEBHOOK_SECRET: the "
                      "worker takes updates from anyone who can reach it; set a secret.")
        return int(value)

    def digits(self, name: str) -> str:
        """An id such as a Discord server's: digits only, or unset."""
        value = self.text(name).strip()
        if value and not (value.isascii() and value.isdigit()):
            self.invalid(name, value, "a server id, digits only", "")
            return ""
        return value


def warn_unknown_names(names: Iterable[str], warn: Warn) -> None:
    """One line per name with the bot's prefixes that it does not read, with the name it
    was probably meant to be: a misspelt setting otherwise leaves its default in force
    without a word."""
    for name in sorted(set(names)):
        if not name.startswith(CHECKED_PREFIXES) or name in KNOWN_NAMES:
            continue
        close = difflib.get_close_matches(name, sorted(KNOWN_NAMES), n=1, cutoff=0.75)
        if close:
            warn(f"{name}: did you mean {close[0]}? {name} is not a setting; it is ignored.")
        else:
            warn(f"{name} is not a setting of logic-bot (README.md, Configuration lists "
                 "them); it is ignored.")


def token_shape_problems(settings: Settings) -> list[str]:
    """A line for each token that cannot be one, whatever the platform would say, so that
    a pasted half or a swapped token is named at once instead of after the network's
    retries; empty when every set token has the right shape."""
    problems = []
    if settings.discord_token and not DISCORD_TOKEN_SHAPE.fullmatch(settings.discord_token):
        problems.append(
            f"DISCORD_TOKEN does not look like a Discord bot token ({len(settings.discord_token)}"
            " characters; expected three parts of letters, digits, '-' and '_' joined by "
            "dots). Copy it again from the Developer Portal (Bot, Reset Token).")
    if (settings.telegram_token
            and not TELEGRAM_TOKEN_SHAPE.fullmatch(settings.telegram_token)):
        problems.append(
            f"TELEGRAM_TOKEN does not look like a Telegram bot token "
            f"({len(settings.telegram_token)} characters; expected the bot's number, a colon"
            " and 35 letters, digits, '-' or '_', such as 123456789:AAH…). Copy it again "
            "from @BotFather.")
    return problems


def load_settings(environ: Mapping[str, str] | None = None,
                  env_file: Path | None = Path(".env"), warn: Warn = warn_on_stderr
                  ) -> Settings:
    merged = read_env_file(env_file, warn) if env_file is not None else {}
    merged.update(os.environ if environ is None else environ)
    warn_unknown_names(merged, warn)
    check = _Checker(merged, warn)
    shard_count, shard_ids = check.shards()
    return Settings(
        shard_count=shard_count,
        shard_ids=shard_ids,
        database_path=merged.get("DATABASE_PATH") or DEFAULT_DATABASE,
        database_sync=check.choice("DATABASE_SYNC", DATABASE_SYNCS, DATABASE_SYNCS[0]),
        event_loop=check.choice("EVENT_LOOP", EVENT_LOOPS, EVENT_LOOPS[0]),
        database_url=merged.get("DATABASE_URL", "").strip(),
        discord_token=check.text("DISCORD_TOKEN").strip(),
        discord_dev_guild=check.digits("DISCORD_DEV_GUILD"),
        telegram_token=check.text("TELEGRAM_TOKEN").strip(),
        telegram_base_url=check.text("TELEGRAM_BASE_URL").strip(),
        telegram_webhook_url=check.text("TELEGRAM_WEBHOOK_URL").strip(),
        telegram_webhook_listen=merged.get("TELEGRAM_WEBHOOK_LISTEN") or "0.0.0.0",
        telegram_webhook_port=check.port("TELEGRAM_WEBHOOK_PORT", Settings.telegram_webhook_port),
        telegram_webhook_secret=check.text("TELEGRAM_WEBHOOK_SECRET").strip(),
        telegram_webhook_worker=check.webhook_worker(),
        language=check.choice("BOT_LANGUAGE", LANGUAGES, Settings.language),
        log_level=check.choice("LOG_LEVEL", LOG_LEVELS, Settings.log_level, upper=True),
        games_per_user=check.count("BOT_GAMES_PER_USER", Settings.games_per_user),
        games_per_server=check.count("BOT_GAMES_PER_SERVER", Settings.games_per_server),
    )
