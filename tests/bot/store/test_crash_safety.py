"""Crash safety: kill the bot with SIGKILL anywhere, restart it, and lose nothing it said.

A player process (``tests/helpers/crash_player.py``) plays ten tables at once through the service
on a database file and prints a line per acknowledged move. The test kills it at a seeded
random point (after a random number of acknowledgements plus a random delay, so the kill
lands anywhere: inside a commit, between a commit and its reply, while starting up),
restarts it on the same file, and after every kill checks the database:

* ``PRAGMA integrity_check`` is ok and the store opens (migrations and all);
* every acknowledged move is there: the game's version is at least the acknowledged one,
  and the log line of that version is that seat's action;
* the acknowledged versions of each game only ever increase, across all lifetimes (a
  re-acknowledged version would mean an acknowledged move had been lost and replaced);
* every game loads (``State.from_dict``), its log is one line per version, and replaying
  the log from the seed rebuilds exactly the stored state;
* the restarted player resumes every game that was running (the restart mid-game path)
  and goes on acknowledging moves in them.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.store import GameRecord, GameUpdate, MoveRecord, SQLiteStore
from engines.base import GameState
from engines.registry import get_game
from tests.helpers.paths import REPO_ROOT

ROOT = REPO_ROOT
TABLES = 10  # one of each game with two people, one of each against the computer


@dataclass(frozen=True)
class Ack:
    game_id: int
    version: int
    seat: int
    action: str


@dataclass
class Lifetime:
    """What one run of the player printed before it died or finished."""

    acks: list[Ack] = field(default_factory=list)
    opened: dict[int, str] = field(default_factory=dict)  # game id -> "resumed" or "new"
    done: bool = False


def parse(output: str) -> Lifetime:
    """The complete lines of the player's output; a line cut by the kill is not an ack."""
    life = Lifetime()
    for line in output.split("\n")[:-1]:  # the last piece has no newline: incomplete
        words = line.split(" ")
        if words[0] == "ack":
            life.acks.append(Ack(int(words[1]), int(words[2]), int(words[3]),
                                 " ".join(words[4:])))
        elif words[0] == "open":
            life.opened[int(words[2])] = words[4]
        elif words[0] == "done":
            life.done = True
    return life


def run_player(db: Path, seed: int, moves: int, kill: tuple[int, float] | None,
               sync: str) -> Lifetime:
    """Run the player; with ``kill=(acks, delay)`` SIGKILL it ``delay`` seconds after its
    ``acks``-th acknowledgement (or when it finishes first, which fails the kill)."""
    command = [sys.executable, "-m", "tests.helpers.crash_player", str(db), "--tables", str(TABLES),
               "--moves", str(moves), "--seed", str(seed), "--sync", sync]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    output = b""
    try:
        if kill is not None:
            seen = 0
            while seen < kill[0]:
                line = process.stdout.readline()
                if not line:
                    break
                output += line
                seen += line.startswith(b"ack ")
            time.sleep(kill[1])
            process.send_signal(signal.SIGKILL)
        output += process.stdout.read()
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if kill is not None:
        assert process.returncode == -signal.SIGKILL, "the player ended before the kill"
    else:
        assert process.returncode == 0
    return parse(output.decode())


def replay(record: GameRecord, log: list[MoveRecord]) -> GameState:
    """The game rebuilt from its seed and its move log alone."""
    state = get_game(record.game).new_game(record.options, len(record.players), record.seed)
    for move in log:
        assert move.seat is not None, move
        if move.kind == "action":
            state.apply(move.seat, move.action)
        elif move.kind == "resign":
            state.resign(move.seat)
        else:
            raise AssertionError(f"game {record.id}: unexpected log line {move}")
    return state


def normal(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def stored_games(db: Path) -> tuple[bool, list[tuple[GameRecord, list[MoveRecord]]]]:
    store = await SQLiteStore.open(db)
    try:
        records = await store.games_with_status("waiting", "active", "finished", "abandoned")
        return (await store.integrity_ok(),
                [(record, await store.moves(record.id)) for record in records])
    finally:
        await store.close()


def check_database(db: Path, acks: list[Ack]) -> dict[int, GameRecord]:
    """Every check of the module docstring on the database; returns the games by id."""
    ok, games = asyncio.run(stored_games(db))
    assert ok, "PRAGMA integrity_check failed"
    records = {record.id: record for record, _ in games}
    logs = {record.id: log for record, log in games}
    for record, log in games:
        module = get_game(record.game)
        loaded = module.State.from_dict(record.state)
        assert len(log) == record.version - 1, f"game {record.id}: log and version differ"
        assert normal(replay(record, log).to_dict()) == normal(loaded.to_dict()) \
            == record.state, f"game {record.id} does not replay to its stored state"
    for ack in acks:
        stored = records.get(ack.game_id)
        assert stored is not None, f"acknowledged game {ack.game_id} is missing"
        assert stored.version >= ack.version, f"{ack} lost: the game is at {stored.version}"
        logged = logs[ack.game_id][ack.version - 2]
        assert (logged.seat, logged.action) == (ack.seat, ack.action), (ack, logged)
    last: dict[int, int] = {}
    for ack in acks:
        assert ack.version > last.get(ack.game_id, 1), f"{ack} acknowledged twice"
        last[ack.game_id] = ack.version
    return records


def crash_and_restart(db: Path, kills: int, seed: int, sync: str = "full") -> tuple[int, int]:
    """``kills`` seeded kill points, then a last run to the end; returns how many games
    were resumed and how many acknowledgements were checked."""
    rng = random.Random(seed)
    acks: list[Ack] = []
    resumed = 0
    for lifetime in range(kills + 1):
        running = {game_id for game_id, record in
                   (check_database(db, acks) if db.exists() else {}).items() if record.running}
        kill = (rng.randint(0, 40), rng.uniform(0.0, 0.05)) if lifetime < kills else None
        life = run_player(db, seed * 1000 + lifetime, 1000 if kill else 3, kill, sync)
        acks += life.acks
        if kill is None:
            assert life.done
            # The restart path: every game that was running was found again and played on.
            assert running <= {g for g, how in life.opened.items() if how == "resumed"}
            assert running <= {ack.game_id for ack in life.acks}
        resumed += sum(how == "resumed" for how in life.opened.values())
    check_database(db, acks)
    return resumed, len(acks)


@pytest.mark.parametrize("sync", ["full", "normal"])
def test_acknowledged_moves_survive_kills(db_path: Path, sync: str) -> None:
    # DATABASE_SYNC=normal gives up only a power cut's durability, never a crash's.
    resumed, acks = crash_and_restart(db_path, kills=4, seed=1, sync=sync)
    assert resumed > 0 and acks > 0


@pytest.mark.slow
@pytest.mark.parametrize("sync", ["full", "normal"])
def test_acknowledged_moves_survive_many_kills(db_path: Path, sync: str) -> None:
    resumed, acks = crash_and_restart(db_path, kills=60, seed=2, sync=sync)
    assert resumed > 0 and acks > 0


# ------------------------------------------------- group commit (bot/store.py save_game)
# Saves that arrive together share one statement; these pin down that sharing a commit
# keeps every guarantee of the one-row write.

async def started_games(store: SQLiteStore, count: int) -> list[GameRecord]:
    return [await store.create_game("test", f"c{n}", "lgame", {}, n, {"n": n},
                                    [{"kind": "open"}], "waiting") for n in range(count)]


def move_update(record: GameRecord, action: str, status: str = "active") -> GameUpdate:
    return GameUpdate({"after": action}, status, record.players, MoveRecord(0, "action", action))


async def test_concurrent_saves_share_commits_and_each_is_logged(
        sqlite_store: SQLiteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    store = sqlite_store  # SQLite's group commit
    records = await started_games(store, 40)
    writes: list[str] = []
    connection = store._db
    for name in ("execute", "execute_fetchall"):  # count the statements that save games
        original = getattr(connection, name)

        def counting(sql: str, *args: Any, _original: Any = original) -> Any:
            if sql.startswith("UPDATE games SET"):
                writes.append(sql)
            return _original(sql, *args)

        monkeypatch.setattr(connection, name, counting)
    saved = await asyncio.gather(*(store.save_game(r, move_update(r, f"m{r.id}"))
                                   for r in records))
    assert [s.version if s else None for s in saved] == [2] * len(records)
    assert 1 <= len(writes) < len(records)
    for record in records:
        stored = await store.get_game(record.id)
        assert stored is not None and stored.state == {"after": f"m{record.id}"}
        assert await store.moves(record.id) == [MoveRecord(0, "action", f"m{record.id}")]


async def test_a_lost_race_in_a_batch_writes_nothing(store: SQLiteStore) -> None:
    first, other = await started_games(store, 2)
    # The second save of ``first`` carries the same old version: whichever batch it lands
    # in, exactly one of the two may win, and only the winner is logged.
    results = await asyncio.gather(store.save_game(other, move_update(other, "x")),
                                   store.save_game(first, move_update(first, "a")),
                                   store.save_game(first, move_update(first, "b")))
    assert results[0] is not None
    winners = [r for r in results[1:] if r is not None]
    assert len(winners) == 1
    stored = await store.get_game(first.id)
    assert stored is not None and stored.version == 2 and stored.state == winners[0].state
    assert [m.action for m in await store.moves(first.id)] == [winners[0].state["after"]]


async def test_a_follow_up_save_in_the_same_batch_goes_after_the_first(
        sqlite_store: SQLiteStore) -> None:
    store = sqlite_store  # SQLite's group commit
    other, game = await started_games(store, 2)
    following = GameRecord(**{**vars(game), "version": 2})
    results = await asyncio.gather(store.save_game(other, move_update(other, "x")),
                                   store.save_game(game, move_update(game, "a")),
                                   store.save_game(following, move_update(following, "b")))
    assert [r.version if r else None for r in results] == [2, 2, 3]
    assert [m.action for m in await store.moves(game.id)] == ["a", "b"]


async def test_a_failing_row_fails_only_its_own_save(sqlite_store: SQLiteStore) -> None:
    store = sqlite_store  # SQLite's group commit
    first, bad, last = await started_games(store, 3)
    # Queued together, the three go out as one statement, which the bad row fails.
    results = await asyncio.gather(
        store.save_game(first, move_update(first, "fine")),
        store.save_game(last, move_update(last, "fine")),
        store.save_game(bad, move_update(bad, "x", status="no such status")),
        return_exceptions=True)
    assert isinstance(results[2], sqlite3.IntegrityError)
    assert [r.version for r in results[:2] if isinstance(r, GameRecord)] == [2, 2]
    stored = await store.get_game(bad.id)
    assert stored is not None and stored.version == 1 and await store.moves(bad.id) == []


async def test_close_writes_the_saves_it_accepted(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    records = await started_games(store, 5)
    saves = [asyncio.ensure_future(store.save_game(r, move_update(r, "m"))) for r in records]
    await asyncio.sleep(0)  # the saves are queued, not yet written
    await store.close()
    assert all(s.done() and s.result() is not None for s in saves)
    ok, games = await stored_games(db_path)
    assert ok and all(record.version == 2 for record, _ in games)
