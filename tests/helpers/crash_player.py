"""The crash-safety test's player, run as ``python -m tests.helpers.crash_player DB [options]``.

It plays scripted random games through the service on the database file ``DB``
(``tests/helpers/scripted_play.py``, several tables at once so that kills land with writes in
flight) and writes one line per event to stdout, each flushed in one write so that a kill
never leaves half a line that looks whole:

* ``open <channel> <game id> <version> resumed|new``: the table's game after ``open``;
  ``resumed`` means a running game was found in the database (the restart path).
* ``ack <game id> <version> <seat> <action>``: the service returned an ok reply for a
  saved move, so the player was told it happened; the game is at ``version`` now.
* ``done``: every table played its moves.

``tests/bot/store/test_crash_safety.py`` kills it with SIGKILL at random points and checks that
every acknowledged move is in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.service import Service
from bot.store import SQLiteStore
from tests.helpers.scripted_play import ScriptedPlayer, Table, make_table

PLATFORM = "crash"


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def acknowledge(table: Table, game_id: int, version: int, seat: int, action: str) -> None:
    say(f"ack {game_id} {version} {seat} {action}")


async def run_table(player: ScriptedPlayer, table: Table, moves: int) -> None:
    await player.open(table)
    assert table.record is not None
    say(f"open {table.place.channel} {table.record.id} {table.record.version} "
        f"{'resumed' if table.resumed else 'new'}")
    while table.moves < moves:
        await player.play_move(table)


async def play(db: Path, tables: int, moves: int, seed: int, sync: str) -> None:
    store = await SQLiteStore.open(db, sync=sync)
    try:
        player = ScriptedPlayer(Service(store), store, on_move=acknowledge)
        await asyncio.gather(*(run_table(player, make_table(i, seed, PLATFORM), moves)
                               for i in range(tables)))
    finally:
        await store.close()
    say("done")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="play until killed; report every ack")
    parser.add_argument("db", type=Path)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--moves", type=int, default=1000, help="saved moves per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    args = parser.parse_args(argv)
    asyncio.run(play(args.db, args.tables, args.moves, args.seed, args.sync))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
