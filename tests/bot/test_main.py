"""``python -m bot`` picks the adapter from the tokens it finds."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import discord
import pytest
from telegram.error import InvalidToken

import bot.adapters.discord as discord_adapter
import bot.adapters.telegram as telegram_adapter
from bot.__main__ import run
from bot.app import App
from bot.config import Settings, load_settings
from bot.limits import Limits
from bot.store import SQLiteStore
from tests.helpers.paths import REPO_ROOT
from tests.helpers.telegram_fake import FakeTelegram


@pytest.mark.parametrize(("adapter", "runner", "token"), [
    (discord_adapter, "run_discord", "discord_token"),
    (telegram_adapter, "run_telegram", "telegram_token")])
async def test_a_token_starts_its_adapter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          adapter: object, runner: str, token: str) -> None:
    started: list[Settings] = []
    limits: list[Limits] = []

    async def fake_run(app: App) -> None:
        started.append(app.settings)
        limits.append(app.service.limits)

    monkeypatch.setattr(adapter, runner, fake_run)
    settings = Settings(database_path=str(tmp_path / "db.sqlite3"), **{token: "token-1"})
    assert await run(settings) == 0
    assert [getattr(s, token) for s in started] == ["token-1"]
    assert limits == [Limits()], "the bot runs with its resource bounds switched on"


async def test_a_refused_token_is_a_message_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    async def refuse(app: App) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord_adapter, "run_discord", refuse)
    settings = Settings(database_path=str(tmp_path / "db.sqlite3"), discord_token="bad")
    assert await run(settings) == 1
    assert "Discord refused the token" in capsys.readouterr().err


async def test_both_tokens_run_side_by_side_until_one_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    stopped: list[str] = []

    async def serve_forever(app: App) -> None:
        try:
            await asyncio.Event().wait()
        finally:
            stopped.append("discord")

    async def refuse(app: App) -> None:
        await asyncio.sleep(0.01)
        raise InvalidToken("Not Found")

    monkeypatch.setattr(discord_adapter, "run_discord", serve_forever)
    monkeypatch.setattr(telegram_adapter, "run_telegram", refuse)
    settings = Settings(database_path=str(tmp_path / "db.sqlite3"), discord_token="d",
                        telegram_token="bad")
    assert await run(settings) == 1
    assert stopped == ["discord"], "a broken configuration stops the whole bot"
    assert "Telegram refused the token" in capsys.readouterr().err


async def test_a_refused_telegram_token_is_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake = FakeTelegram()
    url = await fake.start()
    try:
        settings = Settings(database_path=str(tmp_path / "db.sqlite3"),
                            telegram_token="999:WRONG", telegram_base_url=url)
        assert await run(settings) == 1
    finally:
        await fake.close()
    assert "Telegram refused the token" in capsys.readouterr().err


async def test_an_unreachable_telegram_is_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Two tries (one second's wait) instead of five (15 s): the retries themselves are
    # tests/adapters/telegram/test_faults.py's.
    monkeypatch.setattr("bot.adapters.telegram.client.STARTUP_TRIES", 2)
    settings = Settings(database_path=str(tmp_path / "db.sqlite3"), telegram_token="1:x",
                        telegram_base_url="http://127.0.0.1:9")
    assert await run(settings) == 1
    assert "Could not reach Telegram" in capsys.readouterr().err


GARBAGE_SCRIPT = """
import asyncio, gc, sys, weakref
from bot.runtime import collect_garbage, prepare_interpreter

class Node:
    pass

def cycle():
    node = Node()
    node.me = node
    return node

async def main():
    prepare_interpreter()
    print(not gc.isenabled() and gc.get_freeze_count() > 1000
          and sys.getswitchinterval() < 0.005)
    collector = asyncio.ensure_future(collect_garbage(young_seconds=0.05, full_seconds=2.0))
    young = weakref.ref(cycle())
    await asyncio.sleep(0.3)
    print(young() is None)
    old = cycle()
    survivor = weakref.ref(old)
    await asyncio.sleep(0.3)
    del old
    await asyncio.sleep(0.3)
    print(survivor() is not None)
    await asyncio.sleep(2.5)
    print(survivor() is None)
    collector.cancel()

asyncio.run(main())
"""


def test_the_bot_collects_garbage_on_its_own_schedule() -> None:
    """Start-up is frozen, the automatic collector off and the thread switch shorter than
    Python's 5 ms; a cycle that dies young is found by the next young collection, one
    that dies old by the next full one."""
    # In a process of its own: the set-up is global, and this test process keeps Python's.
    done = subprocess.run([sys.executable, "-c", GARBAGE_SCRIPT], capture_output=True,
                          text=True, check=True, timeout=60,
                          cwd=REPO_ROOT)
    assert done.stdout.split() == ["True"] * 4, done.stdout + done.stderr


GAMES_LOADED_SCRIPT = """
import gc, sys
from bot.runtime import prepare_interpreter
from engines.registry import game_names, get_game
paths = []
for name in game_names():
    paths += [f"engines.{name}", f"renderers.{name}"]
    agents = get_game(name).INFO.agents if f"engines.{name}" in sys.modules else None
    paths += [agents] if agents else []
print(any(path in sys.modules for path in paths))
prepare_interpreter()
for name in game_names():
    agents = get_game(name).INFO.agents
    paths += [agents] if agents else []
print(all(path in sys.modules for path in paths))
# Frozen with start-up: no generation the collector scans holds the modules' classes.
classes = {id(get_game(name).State) for name in game_names()}
scanned = {id(item) for generation in range(3) for item in gc.get_objects(generation)}
print(not classes & scanned)
"""


def test_the_bot_loads_every_game_before_it_freezes_start_up() -> None:
    """The registry loads a game on its first use; ``python -m bot`` loads them all at
    start, so that no table's move waits for another game's first import."""
    done = subprocess.run([sys.executable, "-c", GAMES_LOADED_SCRIPT], capture_output=True,
                          text=True, check=True, timeout=60, cwd=REPO_ROOT)
    assert done.stdout.split() == ["False", "True", "True"], done.stdout + done.stderr


@pytest.mark.parametrize(("value", "pragma"), [("", 2), ("normal", 1), (" Normal ", 1),
                                                ("fast", 2), ("full", 2)])
async def test_the_host_chooses_how_far_moves_are_synced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, pragma: int) -> None:
    """DATABASE_SYNC: full (SQLite's 2) unless the host says normal (1); a typo keeps the
    safe default."""
    seen: list[int] = []

    async def fake_run(app: App) -> None:
        store = app.store
        assert isinstance(store, SQLiteStore)
        async with store._db.execute("PRAGMA synchronous") as cursor:
            row = await cursor.fetchone()
        assert row is not None
        seen.append(int(row[0]))

    monkeypatch.setattr(discord_adapter, "run_discord", fake_run)
    settings = load_settings({"DATABASE_PATH": str(tmp_path / "db.sqlite3"),
                              "DISCORD_TOKEN": "token-1", "DATABASE_SYNC": value},
                             env_file=None)
    assert await run(settings) == 0
    assert seen == [pragma]


def test_help_prints_the_commands_and_starts_nothing(tmp_path: Path) -> None:
    """``python -m bot --help`` started the console game; now it explains the commands,
    and an unknown command is refused with the same text."""
    env = {"PATH": "/usr/bin:/bin", "DATABASE_PATH": str(tmp_path / "db.sqlite3")}
    shown = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True,
                           text=True, timeout=60, cwd=REPO_ROOT, env=env,
                           stdin=subprocess.DEVNULL)
    assert shown.returncode == 0, shown.stderr
    assert "backup PATH" in shown.stdout and "migrate-db" in shown.stdout
    assert not (tmp_path / "db.sqlite3").exists(), "no database was opened"
    unknown = subprocess.run([sys.executable, "-m", "bot", "frobnicate"], capture_output=True,
                             text=True, timeout=60, cwd=REPO_ROOT, env=env,
                             stdin=subprocess.DEVNULL)
    assert unknown.returncode == 2 and "Unknown command 'frobnicate'" in unknown.stderr


# ------------------------------------------------- issue 40, defect 12: headless starts
def headless_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    """The environment of a container: no tokens but the ones given, no terminal."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DISCORD_", "TELEGRAM_", "BOT_", "DATABASE_"))}
    env["DATABASE_PATH"] = str(tmp_path / "db.sqlite3")
    env.update(settings)
    return env


def test_no_token_and_no_input_exits_non_zero_and_says_why(tmp_path: Path) -> None:
    """``python -m bot < /dev/null`` (Docker without a token) played the console against
    the end of its input and exited 0, which a restart policy turns into a loop."""
    done = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env=headless_env(tmp_path),
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert "no DISCORD_TOKEN or TELEGRAM_TOKEN set" in done.stderr
    assert "Traceback" not in done.stderr


def test_moves_piped_into_the_console_still_end_with_status_zero(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot"], input="1\n2\n\n1\n", text=True,
                          capture_output=True, timeout=60, cwd=tmp_path,
                          env=headless_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "no DISCORD_TOKEN" not in done.stderr
    assert "Game saved" in done.stdout


@pytest.mark.parametrize(("name", "token"), [
    ("DISCORD_TOKEN", "MTIz.only-two-parts"),
    ("DISCORD_TOKEN", "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1"),  # Telegram's
    ("TELEGRAM_TOKEN", "123456789:too-short"),
    ("TELEGRAM_TOKEN", "MTIzNDU2.Gh1234.abcdefghijklmnopqrstuvwxyz0123"),  # Discord's
])
def test_a_token_of_the_wrong_shape_is_one_line_before_any_network(
        tmp_path: Path, name: str, token: str) -> None:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path,
                          env=headless_env(tmp_path, **{name: token}),
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and f"{name} does not look like" in lines[0], done.stderr
    assert token not in done.stderr, "a token is never printed back"
    assert time.monotonic() - started < 15, "refused before the network is tried"
    assert not (tmp_path / "db.sqlite3").exists(), "nothing was started"


def test_tokens_of_the_right_shape_pass_the_check() -> None:
    from bot.config import token_shape_problems
    settings = Settings(discord_token="MTIzNDU2Nzg5.GhAbCd.abcdefghijklmnopqrstuvwxyz-_0123",
                        telegram_token="123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1")
    assert token_shape_problems(settings) == []


# ------------------------------------------- issue 40, defect 13: help as plain text
def test_the_engines_tools_help_has_no_restructuredtext_markup() -> None:
    shown = subprocess.run([sys.executable, "-m", "engines", "--help"], capture_output=True,
                           text=True, timeout=60, cwd=REPO_ROOT)
    assert shown.returncode == 0, shown.stderr
    assert "python -m engines lgame solve" in shown.stdout
    assert "``" not in shown.stdout


LOG_ROW = re.compile(r"^\| `(?:ERROR|WARNING|INFO) ([\w.]+): ([^`]+)`", re.MULTILINE)


def loggers_by_name() -> dict[str, list[str]]:
    """The source of every module of the bot, by the name of the logger it logs with."""
    found: dict[str, list[str]] = {}
    for path in (REPO_ROOT / "bot").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        module = ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts)
        for name in re.findall(r'getLogger\((__name__|"[\w.]+")\)', source):
            found.setdefault(module if name == "__name__" else name.strip('"'), []).append(
                source)
    return found


def test_the_log_lines_operations_md_names_are_the_ones_the_bot_prints() -> None:
    """docs/operations.md named ``bot.service`` for lines the bot prints as
    ``bot.service.core`` (issue 40, defect 13): each row's logger must log its words."""
    table = (REPO_ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    rows = LOG_ROW.findall(table)
    assert len(rows) >= 5
    sources = loggers_by_name()
    for logger, message in rows:
        assert logger in sources, f"no logger {logger} in bot/"
        words = [part.strip(" :") for part in re.split(r"\d+|…|; ", message)]
        for part in (word for word in words if len(word) >= 6):
            assert any(part in source for source in sources[logger]), (logger, part)


async def test_migrating_to_an_unreachable_server_speaks_of_the_migration(
        tmp_path: Path) -> None:
    """It told of restoring backups, DATABASE_URL and a bot that has not started."""
    source = tmp_path / "bot.sqlite3"
    await (await SQLiteStore.open(source)).close()
    done = subprocess.run([sys.executable, "-m", "bot", "migrate-db", "--from",
                           f"sqlite:{source}", "--to", "postgresql://u:secret@127.0.0.1:9/db"],
                          capture_output=True, text=True, timeout=60, cwd=REPO_ROOT)
    assert done.returncode == 1
    assert done.stderr.startswith("Nothing was migrated: cannot use the PostgreSQL database "
                                  "at postgresql://u:***@127.0.0.1:9/db")
    assert "--to" in done.stderr and "secret" not in done.stderr
    for misleading in ("restore", "DATABASE_URL", "has not started"):
        assert misleading not in done.stderr, misleading


@pytest.mark.slow
def test_the_first_start_prints_no_setuptools_warning_block(tmp_path: Path) -> None:
    """The first ``./start`` greeted a newcomer with setuptools' "Editable installation
    !! ****" block (issue 40, defect 13). Sets up a fresh copy's venv (about 15 s)."""
    copy = tmp_path / "logic-bot"
    shutil.copytree(REPO_ROOT, copy, ignore=shutil.ignore_patterns(
        ".venv", ".git", "data", "__pycache__", "*.egg-info", ".mypy_cache", ".ruff_cache"))
    done = subprocess.run(["bash", str(copy / "scripts" / "ensure-venv.sh")],
                          capture_output=True, text=True, timeout=600, cwd=copy)
    assert done.returncode == 0, done.stderr
    assert "Editable installation" not in done.stderr and "*****" not in done.stderr
