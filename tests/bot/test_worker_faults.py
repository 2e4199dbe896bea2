"""Worker processes that hang, freeze or die never stall the computer (issue 22, items 7
and 8): a job past its budget has its worker killed and replaced, a pool whose workers
cannot be reached is replaced, and a job whose worker dies is tried again, ending in an
announced random move when it keeps dying. Everything runs in real worker processes."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pebble.pool.process import WorkerManager

from bot.limits import WEDGED_AFTER_SECONDS, Limits, WorkerCrashed, Workers
from bot.service import Opponent, Place, Reply, Service
from bot.store import Store
from renderers.i18n import translate
from tests.helpers.people import ALICE
from tests.helpers.worker_jobs import die, die_once, hang, signal_all, worker_pids

BUDGET = 0.5
# Room for a slow machine on top of what the pool promises.
SLACK = 1.5


def process_service(store: Store, **limits: Any) -> Service:
    seeds = itertools.count(1)
    return Service(store, seed_source=lambda: next(seeds),
                   limits=replace(Limits.unlimited(), cpu_processes=True, **limits))


async def pool_pids(before: set[int], count: int) -> set[int]:
    """The pool's ``count`` worker processes once they are all up (pebble starts them
    with the pool), told apart from older ones by ``before``. Spawning a process imports
    the project, which on a loaded two-core machine has taken over 10 s: wait up to 60."""
    for _ in range(1200):
        pids = worker_pids() - before
        if len(pids) >= count:
            return pids
        await asyncio.sleep(0.05)
    raise AssertionError(f"{count} worker processes never started")


async def settled(workers: Workers) -> None:
    for _ in range(100):
        if workers.pending == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{workers.pending} jobs still counted")


async def test_a_hung_worker_is_killed_at_its_budget_and_the_next_job_runs() -> None:
    workers = Workers(1, queue_limit=None, processes=True)
    try:
        first = await workers.run(os.getpid)  # up: its start-up is not the budget's
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await workers.run(hang, timeout=BUDGET)
        assert time.monotonic() - started < BUDGET + SLACK
        # The hung worker does not keep the pool: the next job is answered by a new one.
        second = await asyncio.wait_for(workers.run(os.getpid), 10)
        assert second != first
        assert first not in worker_pids(), "the hung worker was killed"
        await settled(workers)
    finally:
        workers.shutdown()


async def test_frozen_workers_never_stall_the_next_jobs() -> None:
    """Every worker stopped (SIGSTOP): each job still ends within its budget plus the
    wedge allowance, the threads come free, and a new pool answers afterwards."""
    before = worker_pids()
    workers = Workers(2, queue_limit=None, processes=True)
    frozen: set[int] = set()
    try:
        await workers.run(os.getpid)
        frozen = await pool_pids(before, 2)
        signal_all(frozen, signal.SIGSTOP)
        for _ in range(3):
            asked = time.monotonic()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(workers.run(os.getpid, timeout=BUDGET), 10)
            waited = time.monotonic() - asked
            assert waited < BUDGET + WEDGED_AFTER_SECONDS + SLACK, waited
        answer = await asyncio.wait_for(workers.run(os.getpid), 10)
        assert answer not in frozen
        await settled(workers)
    finally:
        workers.shutdown()
        signal_all(frozen, signal.SIGCONT)


async def test_a_job_without_a_budget_leaves_frozen_workers_behind() -> None:
    """Work with no time budget (a new Turing puzzle) has no deadline to notice frozen
    workers by; a job no worker takes in time is sent to a new pool instead."""
    before = worker_pids()
    workers = Workers(2, queue_limit=None, processes=True, taken_within=BUDGET)
    frozen: set[int] = set()
    try:
        await workers.run(os.getpid)
        frozen = await pool_pids(before, 2)
        signal_all(frozen, signal.SIGSTOP)
        answer = await asyncio.wait_for(workers.run(os.getpid), 20)
        assert answer not in frozen
        await settled(workers)
    finally:
        workers.shutdown()
        signal_all(frozen, signal.SIGCONT)


async def test_a_job_whose_worker_dies_is_tried_again_on_a_new_worker(
        tmp_path: Path) -> None:
    workers = Workers(1, queue_limit=None, processes=True)
    try:
        first = await workers.run(os.getpid)
        marker = tmp_path / "died"
        answer = await asyncio.wait_for(workers.run(die_once, str(marker)), 20)
        assert marker.exists(), "the first try killed its worker"
        assert answer != first
        assert workers.pending == 0
    finally:
        workers.shutdown()


async def test_a_job_that_kills_every_worker_fails_and_the_pool_lives_on() -> None:
    workers = Workers(1, queue_limit=None, processes=True)
    try:
        with pytest.raises(WorkerCrashed):
            await asyncio.wait_for(workers.run(die), 30)
        assert await asyncio.wait_for(workers.run(sum, [1, 2]), 10) == 3
        assert workers.pending == 0
    finally:
        workers.shutdown()


async def ai_game(service: Service, place: Place, game: str,
                  level: str = "strong") -> tuple[int, int]:
    """A game where the computer at ``level`` moves first: its id and version."""
    started = await service.start_game(place, ALICE, game, Opponent("ai", level),
                                       creator_seat=1)
    assert started.ok and started.board is not None, started.notice
    return started.board.game_id, started.board.version


async def computer_turn(service: Service, place: Place) -> tuple[Reply, float]:
    asked = time.monotonic()
    reply = await asyncio.wait_for(service.play_ai_turn(place), 30)
    return reply, time.monotonic() - asked


async def test_frozen_workers_never_stall_the_computers_turns(store: Store) -> None:
    """Issue 22 item 7: with both workers stopped, every computer turn still moves within
    its budget plus a small margin, the third as well, and every move is saved."""
    before = worker_pids()
    service = process_service(store, cpu_workers=2, computer_move_seconds=BUDGET)
    frozen: set[int] = set()
    try:
        places = [Place("test", f"room-{n}") for n in range(3)]
        games = [(await ai_game(service, place, "lgame"))[0] for place in places]
        await service.workers.run(os.getpid)
        frozen = await pool_pids(before, 2)
        signal_all(frozen, signal.SIGSTOP)
        timeout_notice = translate("en", "ai.fallback.timeout")
        for number, (place, game_id) in enumerate(zip(places, games, strict=True)):
            reply, waited = await computer_turn(service, place)
            assert reply.moved, (number, reply.notice)
            assert waited < BUDGET + WEDGED_AFTER_SECONDS + SLACK, (number, waited)
            if number < 2:  # the third may find the new workers up in time
                assert timeout_notice in reply.announcements
            assert len(await store.moves(game_id)) == 1, "the computer's move is saved"
        # The frozen workers were replaced by new ones, which answer.
        answer = await asyncio.wait_for(service.workers.run(os.getpid), 10)
        assert answer not in frozen
    finally:
        service.workers.shutdown()
        signal_all(frozen, signal.SIGCONT)


async def test_a_worker_dying_on_every_try_ends_in_an_announced_random_move(
        store: Store) -> None:
    """Issue 22 item 8: the worker thinking for the computer is killed on every try; the
    pool is rebuilt each time, and in the end the computer plays a random move and says
    so, in the place's language, instead of leaving the game without buttons."""
    before = worker_pids()
    service = process_service(store, cpu_workers=1)
    dutch = Place("test", "room-nl", language="nl")
    try:
        # The expert Rithmomachia computer searches for 2 s: time to kill its worker.
        game_id, version = await ai_game(service, dutch, "rithmomachia", "expert")
        turn = asyncio.ensure_future(computer_turn(service, dutch))
        killed: set[int] = set()
        for _ in range(3):
            (victim, *_) = await pool_pids(before | killed, 1)
            await asyncio.sleep(0.3)  # the job reaches it (or it is still starting)
            os.kill(victim, signal.SIGKILL)
            killed.add(victim)
        reply, _ = await turn
        assert reply.moved, reply.notice
        announced = translate("nl", "ai.fallback.crashed")
        assert announced in reply.announcements
        assert announced != translate("en", "ai.fallback.crashed")
        assert len(await store.moves(game_id)) == 1, "the random move is saved"
        assert reply.board is not None and reply.board.version == version + 1
        assert await asyncio.wait_for(service.workers.run(sum, [1, 2]), 10) == 3
    finally:
        service.workers.shutdown()


async def test_a_shut_down_pool_ends_its_workers_before_it_closes_their_channel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pebble's own stop unlinks the channel's semaphores and only then terminates the
    workers, so a worker still starting on a loaded machine woke to a missing semaphore
    and printed a traceback into the terminal of someone who pressed Ctrl-C (CI saw it).
    The bot terminates them first, and waits for them when it exits."""
    alive_at_close: list[int] = []
    pebble_close = WorkerManager.close_channels

    def close_channels(manager: WorkerManager) -> None:
        alive_at_close.extend(pid for pid, process in manager.workers.items()
                              if process.is_alive())
        pebble_close(manager)

    monkeypatch.setattr(WorkerManager, "close_channels", close_channels)
    before = worker_pids()
    workers = Workers(2, queue_limit=None, processes=True)
    try:
        workers.start()
        pids = await pool_pids(before, 2)
    finally:
        await asyncio.to_thread(workers.shutdown, wait_seconds=10)
    assert alive_at_close == []
    assert not pids & worker_pids(), "the workers are gone when shutdown returns"
