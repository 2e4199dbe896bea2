"""``python -m bot backup PATH``: a consistent copy of the SQLite database while the bot
runs, through SQLite's online backup API.

The copy is taken in one step (``pages=0``), so it reads the database inside one read
transaction: every game's state and its move log are of the same moment, and in WAL mode
that read blocks no save. (Copied a few pages at a time, a save by the bot between two steps
would restart the copy, and under steady play it might never finish.) The copy is written
beside its destination and renamed into place only once ``PRAGMA quick_check`` passed, so a
backup file is always whole: a crash halfway leaves the previous one.

A PostgreSQL database is backed up with PostgreSQL's own tools (``pg_dump``); see
docs/operations.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import aiosqlite

from bot.config import load_settings
from bot.store import is_postgres_url
from bot.store.errors import StoreUnavailable, unusable_file


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int
    games: int
    seconds: float


def destination(target: str | Path, now: datetime | None = None) -> Path:
    """``target`` itself, or a dated file inside it when it is a folder (for a schedule
    that keeps one copy a day or an hour)."""
    path = Path(target)
    if path.is_dir():
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
        return path / f"logic-bot-{stamp}.sqlite3"
    return path


async def backup_sqlite(source: str | Path, target: str | Path) -> Backup:
    """Copy the database at ``source`` to ``target`` (a file, or a folder for a dated file);
    ``StoreUnavailable`` when the source cannot be read or the copy is not sound."""
    started = asyncio.get_running_loop().time()
    if not Path(source).is_file():
        raise StoreUnavailable(unusable_file(source, "there is no such file to back up"))
    final = destination(target)
    partial = final.with_name(final.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        async with aiosqlite.connect(str(source)) as reader, \
                aiosqlite.connect(str(partial)) as copy:
            await reader.execute("PRAGMA busy_timeout=5000")
            await reader.backup(copy, pages=0)
            await copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            check = [str(row[0]) for row in await copy.execute_fetchall("PRAGMA quick_check")]
            if check != ["ok"]:
                raise StoreUnavailable(unusable_file(
                    source, "its copy fails PRAGMA quick_check: " + "; ".join(check[:3])))
            games = await copy.execute_fetchall("SELECT COUNT(*) FROM games")
        os.replace(partial, final)
    except (aiosqlite.Error, OSError) as error:
        partial.unlink(missing_ok=True)
        raise StoreUnavailable(unusable_file(source, f"the backup to {final} failed: {error}")
                               ) from error
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    count = int(next(iter(games))[0])
    seconds = asyncio.get_running_loop().time() - started
    return Backup(final, final.stat().st_size, count, seconds)


def main(argv: list[str], out: TextIO = sys.stdout) -> int:
    """The ``backup`` sub-command: ``backup PATH`` (a leading ``backup`` is ignored) copies
    the database DATABASE_PATH names. 0 when the copy is whole, 1 otherwise."""
    if argv[:1] == ["backup"]:
        argv = argv[1:]
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy the bot's SQLite database while the bot runs. PATH is a file, or "
                    "a folder that gets a dated file.")
    parser.add_argument("path")
    parser.add_argument("--database", default=None,
                        help="the SQLite file to copy (default: DATABASE_PATH)")
    args = parser.parse_args(argv)
    settings = load_settings()
    if args.database is None and is_postgres_url(settings.database_url):
        print("DATABASE_URL names PostgreSQL: back it up with pg_dump "
              "(docs/operations.md).", file=sys.stderr)
        return 2
    source = args.database or settings.database_path
    try:
        made = asyncio.run(backup_sqlite(source, args.path))
    except StoreUnavailable as error:
        print(error, file=sys.stderr)
        return 1
    print(f"Backed up {source} to {made.path}: {made.games} games, {made.size} bytes, "
          f"{made.seconds:.2f} s.", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
