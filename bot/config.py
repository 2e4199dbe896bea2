"""Settings from environment variables and an optional ``.env`` file (the environment wins)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = "data/logic-bot.sqlite3"
# How far a saved move is synced before the player sees it (SQLite's ``synchronous``):
# "full" keeps it through a power cut, "normal" through a crash of the bot only, and
# answers faster on a slow disk (docs/performance.md).
DATABASE_SYNCS = ("full", "normal")


@dataclass(frozen=True)
class Settings:
    database_path: str = DEFAULT_DATABASE
    database_sync: str = "full"
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
    language: str = "en"
    log_level: str = "WARNING"
    # Resource bounds (see bot/limits.py); 0 switches one off.
    games_per_user: int = 12
    games_per_server: int = 300

    @property
    def has_platform(self) -> bool:
        return bool(self.discord_token or self.telegram_token)


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; blank lines and ``#`` comments are skipped, quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def _port(text: str, default: int = 8443) -> int:
    """A TCP port; anything else is the default, as a typo must not stop the bot."""
    text = text.strip()
    return int(text) if text.isdigit() and 0 < int(text) < 65536 else default


def _count(text: str, default: int) -> int:
    """A whole number ≥ 0; anything else is the default, as a typo must not stop the bot."""
    text = text.strip()
    return int(text) if text.isdigit() else default


def _choice(text: str, choices: tuple[str, ...]) -> str:
    """One of ``choices``, any case; anything else is the first, the safe default, as a
    typo must not stop the bot."""
    text = text.strip().lower()
    return text if text in choices else choices[0]


def load_settings(environ: Mapping[str, str] | None = None,
                  env_file: Path | None = Path(".env")) -> Settings:
    merged = read_env_file(env_file) if env_file is not None else {}
    merged.update(os.environ if environ is None else environ)
    return Settings(
        database_path=merged.get("DATABASE_PATH") or DEFAULT_DATABASE,
        database_sync=_choice(merged.get("DATABASE_SYNC", ""), DATABASE_SYNCS),
        database_url=merged.get("DATABASE_URL", "").strip(),
        discord_token=merged.get("DISCORD_TOKEN", ""),
        discord_dev_guild=merged.get("DISCORD_DEV_GUILD", ""),
        telegram_token=merged.get("TELEGRAM_TOKEN", ""),
        telegram_base_url=merged.get("TELEGRAM_BASE_URL", ""),
        telegram_webhook_url=merged.get("TELEGRAM_WEBHOOK_URL", ""),
        telegram_webhook_listen=merged.get("TELEGRAM_WEBHOOK_LISTEN") or "0.0.0.0",
        telegram_webhook_port=_port(merged.get("TELEGRAM_WEBHOOK_PORT", "")),
        telegram_webhook_secret=merged.get("TELEGRAM_WEBHOOK_SECRET", ""),
        language=merged.get("BOT_LANGUAGE", "en"),
        log_level=merged.get("LOG_LEVEL", "WARNING").upper(),
        games_per_user=_count(merged.get("BOT_GAMES_PER_USER", ""), Settings.games_per_user),
        games_per_server=_count(merged.get("BOT_GAMES_PER_SERVER", ""),
                                Settings.games_per_server),
    )
