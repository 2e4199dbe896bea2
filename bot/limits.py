"""Resource bounds: how many games, how many commands, how much computer thinking at once.

A class of thirty can start games, press buttons and ask the computer to move all at once;
one pupil can script a flood of commands. These limits keep one person or one server from
taking the bot away from the others, and keep CPU-heavy work (AI moves, Turing puzzles and
the machine's scores) off the event loop in a pool of fixed size, so that a flood of AI
games queues behind that pool instead of starving every other interaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

Result = TypeVar("Result")


@dataclass(frozen=True)
class Limits:
    """``None`` switches a limit off. ``Limits()`` holds the values the bot runs with."""

    # Running (waiting or active) games one person may be seated in, across all chats: a
    # pupil in a few class games and a few private puzzles stays far below it.
    games_per_user: int | None = 12
    # Running games in one Discord server or Telegram group: a few classes' worth.
    games_per_server: int | None = 300
    # A token bucket per person: this many commands at once, refilled at this pace. Moving
    # by buttons takes two to four presses per move, so a quick player stays within it.
    command_burst: int | None = 20
    commands_per_second: float = 2.0
    # Workers for CPU-heavy work, one per core of the machine the bot was sized for.
    cpu_workers: int = 2
    # Run that work in separate processes. Python runs one thread of Python code at a
    # time: two threads searching for the computer's moves held that lock so much that the
    # event loop, waiting its turn for every small step, took 5 s to answer an L-game click
    # under a flood of AI games (``benchmarks/ack_under_flood.py``). Processes leave the
    # event loop its own interpreter.
    cpu_processes: bool = True
    # Jobs submitted and not finished above which new CPU-heavy games are refused for a
    # while. Computer moves in running games always queue: they are bounded by the games.
    queued_jobs: int | None = 24

    @classmethod
    def for_settings(cls, games_per_user: int, games_per_server: int) -> Limits:
        """The bot's limits with the two a host may change; 0 switches one off."""
        return cls(games_per_user=games_per_user or None,
                   games_per_server=games_per_server or None)

    @classmethod
    def unlimited(cls) -> Limits:
        """No limits, for scripted play in tests and benchmarks that measure the rest."""
        return cls(games_per_user=None, games_per_server=None, command_burst=None,
                   cpu_workers=4, cpu_processes=False, queued_jobs=None)


class RateLimiter:
    """Per-person token buckets; ``clock`` is injectable so tests need no waiting."""

    def __init__(self, burst: int | None, per_second: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_second = per_second
        self._clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}

    def wait_seconds(self, platform: str, user_id: str) -> int:
        """0 when the person may act now (and counts the command), else the whole seconds
        until they may."""
        if self.burst is None:
            return 0
        now = self._clock()
        tokens, then = self._buckets.get((platform, user_id), (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        if tokens >= 1.0:
            self._buckets[(platform, user_id)] = (tokens - 1.0, now)
            if len(self._buckets) > 10_000:
                self._drop_full_buckets(now)
            return 0
        self._buckets[(platform, user_id)] = (tokens, now)
        return max(1, math.ceil((1.0 - tokens) / self.per_second))

    def _drop_full_buckets(self, now: float) -> None:
        """A bucket that has refilled says nothing a new bucket would not: forget it, so
        that memory follows the people active now, not everyone ever seen."""
        assert self.burst is not None
        refill = self.burst / self.per_second
        self._buckets = {key: value for key, value in self._buckets.items()
                         if now - value[1] < refill}


class WorkersBusy(Exception):
    """The pool's queue is full: the caller should ask the person to try again shortly."""


def _settle_worker_process() -> None:
    """Runs first in each worker process. Ctrl-C belongs to the bot, which shuts the pool
    down; a lower priority lets the event loop have a core the moment it has work, so
    answers come before the computer's thinking."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(AttributeError, OSError):  # no nice() on Windows
        os.nice(5)


class Workers:
    """A fixed pool for CPU-heavy work, with a count of what is queued.

    With ``processes``, each of the pool's threads hands its job to a worker process and
    waits for the answer without holding Python's lock, so the work must be a module-level
    function with arguments and a result that pickle (``bot.jobs``). A worker process that
    dies (killed, out of memory) is replaced and its job tried once more.
    """

    def __init__(self, workers: int, queue_limit: int | None, *,
                 processes: bool = False) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers,
                                            thread_name_prefix="logic-bot-cpu")
        self._size = workers
        self._processes = processes
        self._process_pool: ProcessPoolExecutor | None = None
        self._process_lock = threading.Lock()
        self.queue_limit = queue_limit
        self.pending = 0

    def _pool(self) -> ProcessPoolExecutor:
        with self._process_lock:
            if self._process_pool is None:
                # spawn, not fork: the bot has threads (SQLite's, this pool's), and a fork
                # copies their locks in whatever state they are.
                self._process_pool = ProcessPoolExecutor(
                    max_workers=self._size, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_settle_worker_process)
            return self._process_pool

    def _drop_pool(self, broken: ProcessPoolExecutor) -> None:
        with self._process_lock:
            if self._process_pool is broken:
                self._process_pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def _in_process(self, work: Callable[..., Result], args: tuple[Any, ...]) -> Result:
        for attempt in (1, 2):
            pool = self._pool()
            try:
                return pool.submit(work, *args).result()
            except BrokenProcessPool:
                self._drop_pool(pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def start(self) -> None:
        """Start the worker processes now rather than at the first computer move, which
        would otherwise wait for them to import the engines."""
        if self._processes:
            for _ in range(self._size):
                self._executor.submit(self._in_process, int, ())

    @property
    def busy(self) -> bool:
        return self.queue_limit is not None and self.pending >= self.queue_limit

    async def run(self, work: Callable[..., Result], *args: Any,
                  refuse_when_busy: bool = False, timeout: float | None = None) -> Result:
        """``work(*args)`` in the pool. With ``refuse_when_busy``, raise ``WorkersBusy``
        instead of queueing behind a full pool (for work a person can simply ask again).
        ``timeout`` counts from when the work starts, not from when it was queued: a job
        that waited its turn behind a flood still gets its whole budget. On a timeout
        the thread finishes the job unobserved, and it stays counted until it has."""
        if refuse_when_busy and self.busy:
            raise WorkersBusy
        loop = asyncio.get_running_loop()
        started: asyncio.Future[None] = loop.create_future()

        def mark_started(_: object = None) -> None:
            if not started.done():
                started.set_result(None)

        def job() -> Result:
            with contextlib.suppress(RuntimeError):  # the loop closed while the job waited
                loop.call_soon_threadsafe(mark_started)
            if self._processes:
                return self._in_process(work, args)
            return work(*args)

        def finished(_: object) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._finished)

        self.pending += 1
        future = self._executor.submit(job)
        future.add_done_callback(finished)
        result = asyncio.wrap_future(future, loop=loop)
        if timeout is None:
            return await result
        either: list[asyncio.Future[Any]] = [result, started]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        return await asyncio.wait_for(result, timeout)

    def _finished(self) -> None:
        self.pending -= 1

    def shutdown(self) -> None:
        # Queued work is dropped: a computer move left undone is resumed after a restart.
        self._executor.shutdown(wait=False, cancel_futures=True)
        with self._process_lock:
            pool, self._process_pool = self._process_pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
