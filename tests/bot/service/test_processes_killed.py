"""Bot processes on one PostgreSQL database, for real (issue 26.7): two separate Python
processes play the same games at once, then one is killed with SIGKILL in the middle of
its work. Afterwards every game's move log is its state's history exactly (one saved move
per version, none doubled, none missing), every move a process acknowledged is there, no
current press was refused for losing a race to the other process, and the computer turns
the dead process held were taken over by the other."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import sys

from bot.service import Opponent, Place, Service, User
from bot.store.postgres import PostgresStore
from engines.registry import get_game
from tests.helpers.databases import postgres_schema
from tests.helpers.paths import REPO_ROOT

PEOPLE = [User("test", f"p{n}", f"Pupil {n}") for n in range(8)]


async def start_games(url: str) -> list[int]:
    """Two L-games between people and two against the easy computer, which moves first
    in one of them: few enough that both processes often press the same game at once."""
    store = await PostgresStore.open(url)
    try:
        service = Service(store, seed_source=itertools.count(11).__next__)  # same games each run
        for table in range(4):
            place = Place("test", f"table-{table}", server="school")
            me = PEOPLE[table]
            rival = (Opponent("user", user=PEOPLE[table + 4]) if table < 2
                     else Opponent("ai", "easy"))
            reply = await service.start_game(place, me, "lgame", rival, "",
                                             creator_seat=table % 2)
            assert reply.ok, reply.notice
        return [record.id for record in await store.games_with_status("active")]
    finally:
        await store.close()


# Between two presses of one process: without a pause the first process to start could
# finish all four games before the other had saved the moves the test waits for.
PRESS_PAUSE_SECONDS = 0.02


async def run_driver(url: str, seed: int, seconds: float) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.helpers.process_driver", url, str(seed), str(seconds),
        str(PRESS_PAUSE_SECONDS),
        cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})


async def acknowledged(process: asyncio.subprocess.Process, until: int | None = None
                       ) -> list[tuple[int, int]]:
    """The moves a process printed as saved: all of them, or the first ``until``."""
    assert process.stdout is not None
    moves: list[tuple[int, int]] = []
    while until is None or len(moves) < until:
        line = await process.stdout.readline()
        if not line:
            break
        kind, game, version = line.decode().split()
        assert kind == "moved", f"a current press was refused: {line.decode()}"
        moves.append((int(game), int(version)))
    return moves


async def test_two_processes_share_games_and_one_is_killed_midway() -> None:
    async with postgres_schema() as url:
        games = await start_games(url)
        survivor = await run_driver(url, 1, 8.0)
        victim = await run_driver(url, 2, 30.0)
        # The victim dies with SIGKILL once it has saved a few moves, mid-work.
        victim_moves = await asyncio.wait_for(acknowledged(victim, until=6), 30)
        victim.send_signal(signal.SIGKILL)
        await victim.wait()
        survivor_moves = await asyncio.wait_for(acknowledged(survivor), 60)
        assert await survivor.wait() == 0, (await survivor.stderr.read()).decode()  # type: ignore[union-attr]
        assert len(victim_moves) == 6 and survivor_moves, "both processes played"

        store = await PostgresStore.open(url)
        try:
            saved = {game: await store.get_game(game) for game in games}
            for game, record in saved.items():
                assert record is not None
                logged = [m.action for m in await store.moves(game) if m.kind == "action"]
                state = get_game(record.game).State.from_dict(record.state)
                # The log is the state's own history: no move lost, doubled or reordered.
                assert logged == state.to_dict()["actions"], game
            for game, version in victim_moves + survivor_moves:
                record = saved[game]
                assert record is not None and record.version >= version, \
                    f"game {game}: acknowledged version {version} is not in the database"
            # No computer turn was left behind by the dead process: every game against the
            # computer that is still running waits for a person.
            for record in saved.values():
                assert record is not None
                state = get_game(record.game).State.from_dict(record.state)
                if record.status == "active":
                    assert record.players[state.to_move()[0]].get("kind") == "human", \
                        f"game {record.id}: the computer's turn was never played"
        finally:
            await store.close()
