"""Three bot processes on one PostgreSQL database run the turn timers and the daily posts
at once, as every bot process does (issue 26.7), and one is killed with SIGKILL midway:
each timer step (reminder, stand-in move) is taken by one process only, each stand-in move
is saved once, each channel gets its daily post once, and the others carry on."""

from __future__ import annotations

import asyncio
import collections
import os
import signal
import sys
import time

from bot.classroom import TIMER_SETTING
from bot.service import Opponent, Place, Service, User
from bot.store.postgres import PostgresStore
from bot.store.records import DailySchedule
from engines.registry import get_game
from tests.helpers.databases import postgres_schema
from tests.helpers.paths import REPO_ROOT

PEOPLE = [User("test", f"p{n}", f"Pupil {n}") for n in range(12)]
GAMES = 6
DAILY_CHANNELS = ("daily-a", "daily-b", "daily-c")
SECONDS = 9.0


async def set_up(url: str) -> list[int]:
    """Six L-games between people, each in a channel whose timer reminds after a minute
    and plays a stand-in move after two; three channels with a 07:30 daily post."""
    store = await PostgresStore.open(url)
    try:
        service = Service(store, seed_source=lambda: 11)
        for table in range(GAMES):
            place = Place("test", f"timed-{table}", server="school")
            await store.set_setting("test", place.channel, TIMER_SETTING, "1,2,ai")
            reply = await service.start_game(place, PEOPLE[table], "lgame",
                                             Opponent("user", user=PEOPLE[table + GAMES]))
            assert reply.ok, reply.notice
        for channel in DAILY_CHANNELS:
            await store.set_daily_schedule(DailySchedule("test", channel, "school", "07:30",
                                                         "en"))
        return [record.id for record in await store.games_with_status("active")]
    finally:
        await store.close()


async def start_driver(url: str, started: float) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.helpers.timer_driver", url, repr(started),
        str(SECONDS), cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})


async def read_lines(process: asyncio.subprocess.Process, into: list[str]) -> None:
    assert process.stdout is not None
    while line := await process.stdout.readline():
        into.append(line.decode().strip())


async def test_three_processes_run_each_timer_step_and_daily_post_once() -> None:
    async with postgres_schema() as url:
        games = await set_up(url)
        started = time.time()
        processes = [await start_driver(url, started) for _ in range(3)]
        outputs: list[list[str]] = [[], [], []]
        readers = [asyncio.create_task(read_lines(p, out))
                   for p, out in zip(processes, outputs, strict=True)]
        # The victim dies once it has taken timer steps of its own and the daily posts
        # are out (a post claimed and not yet sent when its process dies waits for its
        # lease, five class minutes: see docs/scaling.md), mid-work.
        victim, victim_lines = processes[2], outputs[2]
        for _ in range(200):
            posted = sum(line.startswith("posted") for out in outputs for line in out)
            if posted >= len(DAILY_CHANNELS) and sum(
                    line.startswith("claimed") for line in victim_lines) >= 2:
                break
            await asyncio.sleep(0.05)
        victim.send_signal(signal.SIGKILL)
        killed_at = time.time() - started
        for process in processes[:2]:
            assert await asyncio.wait_for(process.wait(), 60) == 0, \
                (await process.stderr.read()).decode()  # type: ignore[union-attr]
        await victim.wait()
        await asyncio.gather(*readers)

        lines = [line.split() for out in outputs for line in out]
        claims = collections.Counter(tuple(words[1:]) for words in lines
                                     if words[0] == "claimed")
        assert claims and max(claims.values()) == 1, \
            [claim for claim, times in claims.items() if times > 1]
        acted = collections.Counter(tuple(words[1:]) for words in lines if words[0] == "acted")
        assert acted and max(acted.values()) == 1
        posts = collections.Counter(tuple(words[1:]) for words in lines
                                    if words[0] == "posted")
        assert sorted(posts) == sorted((channel, "2026-11-26") for channel in DAILY_CHANNELS)
        assert set(posts.values()) == {1}
        # The survivors kept the timers going after the kill: steps claimed after it.
        survivors = [line.split() for out in outputs[:2] for line in out]
        assert any(words[0] == "claimed" for words in survivors), "the survivors took steps"
        assert killed_at < SECONDS

        store = await PostgresStore.open(url)
        try:
            for game in games:
                record = await store.get_game(game)
                assert record is not None
                logged = [m.action for m in await store.moves(game) if m.kind == "action"]
                state = get_game(record.game).State.from_dict(record.state)
                assert logged == state.to_dict()["actions"], game  # no move doubled or lost
            # Every move here is a stand-in (nobody pressed): each acted line is a saved
            # move, and at most one saved move has no line, the one the victim may have
            # saved just before it died.
            saved = {game: len([m for m in await store.moves(game) if m.kind == "action"])
                     for game in games}
            acted_per_game = collections.Counter(int(game) for game, _version in acted)
            assert all(acted_per_game[game] <= saved[game] for game in games), saved
            assert sum(saved.values()) - sum(acted_per_game.values()) <= 1, saved
        finally:
            await store.close()
