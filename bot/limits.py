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
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import CancelledError, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from pebble import ProcessExpired, ProcessFuture, ProcessPool

log = logging.getLogger(__name__)

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
    # Seconds a computer move may think, counted from when a worker starts on it; past
    # them the computer plays a random legal move instead.
    computer_move_seconds: float = 20.0

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


class WorkerCrashed(Exception):
    """The work's worker process died on every try (killed, out of memory): the caller
    should do without the work, such as play a random move for the computer."""


# Tries of one job whose worker process dies under it: a process killed by the host (out
# of memory, an operator's kill) is usually not the job's fault, so it goes again, but a
# job that kills every process it touches must not take the pool down with it forever.
CRASH_TRIES = 3
# How long past its budget a job may stay unanswered before its pool counts as wedged:
# pebble kills a worker that overruns its budget within a tenth of a second, so a job
# still waiting a second later sits behind workers that cannot be reached at all (stopped
# by SIGSTOP, or holding the pool's channel while frozen), and only a new pool helps.
WEDGED_AFTER_SECONDS = 1.0
# How long a job may wait for a worker to take it before its pool counts as wedged. A pool
# has as many workers as threads feed it, so a job waits only while a worker starts (a
# new process imports the engines: about a second, several on a busy machine); idle
# workers that never take it are frozen. This catches jobs without a budget too, such as
# a new Turing puzzle.
TAKEN_WITHIN_SECONDS = 10.0
# The same for a pool none of whose workers has answered yet: a pool just started (or
# started again after a failure) on a loaded machine may take this long to import.
STARTING_POOL_SECONDS = 30.0
# How often a thread waiting for a worker looks whether its pool was replaced meanwhile.
POOL_CHECK_SECONDS = 0.1
# How long a stopping pool waits for its terminated workers to end, all together, before
# pebble kills those still there (a worker stopped by SIGSTOP ignores SIGTERM).
WORKERS_TERMINATE_SECONDS = 1.0


class _PoolReplaced(Exception):
    """The pool a job was sent to was given up on: send the job to the new one."""


class _NotTaken(Exception):
    """No worker took the job in time: its pool was replaced, and the job goes again."""


def _settle_worker_process() -> None:
    """Runs first in each worker process. Ctrl-C belongs to the bot, which shuts the pool
    down; a lower priority lets the event loop have a core the moment it has work, so
    answers come before the computer's thinking."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(AttributeError, OSError):  # no nice() on Windows
        os.nice(5)


def _usable(pool: ProcessPool) -> bool:
    """Whether pebble still runs ``pool``: not after it gave up on it (``active`` may try
    to start a pool that never started, and fail as that start did)."""
    try:
        return bool(pool.active)
    except RuntimeError:
        return False


def _stop_workers_then_pool(pool: ProcessPool) -> None:
    """Stop a pool, ending its workers before pebble closes its channels.

    pebble 5's ``join`` unlinks the channels' semaphores first and terminates the workers
    after. A worker still starting then (spawned workers take a second to import the
    engines on a busy machine) fails to open them and prints a traceback into the
    terminal of someone who only pressed Ctrl-C, before its SIGTERM arrives. So this
    waits for the loop that starts workers to end, terminates them, then lets pebble
    close the rest. It reads two of pebble's private attributes, and falls back to
    pebble's own order when they are missing."""
    pool.stop()  # type: ignore[no-untyped-call]  # pebble 5 leaves stop() unannotated
    starter = getattr(pool, "_pool_manager_loop", None)
    manager = getattr(getattr(pool, "_pool_manager", None), "worker_manager", None)
    processes = getattr(manager, "workers", None)
    if isinstance(starter, threading.Thread) and isinstance(processes, dict):
        starter.join()  # it checks the pool's state every tenth of a second
        for process in list(processes.values()):
            process.terminate()
        deadline = time.monotonic() + WORKERS_TERMINATE_SECONDS
        for process in list(processes.values()):  # pebble kills those still alive
            process.join(max(0.0, deadline - time.monotonic()))
    pool.join()


def _stop_in_background(pool: ProcessPool) -> threading.Thread:
    """Stop a pool without waiting: a frozen worker may take seconds to die, which no
    caller should sit through. Returns the thread that does it, for a caller that must
    know when the workers are gone."""
    stopping = threading.Thread(target=_stop_workers_then_pool, args=(pool,),
                                name="logic-bot-pool-stop", daemon=True)
    stopping.start()
    return stopping


class Workers:
    """A fixed pool for CPU-heavy work, with a count of what is queued.

    Each of the pool's threads takes one job at a time, and a job starts when a thread
    takes it: that is when its time budget begins. With ``processes``, the thread hands
    the job to a pebble ``ProcessPool`` of as many spawned worker processes and waits for
    the answer without holding Python's lock, so the work must be a module-level function
    with arguments and a result that pickle (``bot.jobs``). pebble kills a worker that
    overruns the job's budget and starts a new one; a job whose worker dies is tried
    again, up to ``CRASH_TRIES`` times, then fails with ``WorkerCrashed``. A pool whose
    workers take no job (``taken_within``) or do not answer past a job's budget
    (``WEDGED_AFTER_SECONDS``), or that pebble gave up on, is replaced by a new one, and
    its jobs go to the new pool. So a thread never waits past its job's budget for long,
    and no worker stalls the computer's next moves.

    Work nobody waits for (danger marks) goes through ``background``, which lets it hold
    at most all but one of the workers, so that a computer move, a new puzzle or a hint
    never queues behind it.
    """

    def __init__(self, workers: int, queue_limit: int | None, *,
                 processes: bool = False,
                 taken_within: float = TAKEN_WITHIN_SECONDS) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers,
                                            thread_name_prefix="logic-bot-cpu")
        self._size = workers
        self._processes = processes
        self._process_pool: ProcessPool | None = None
        self._process_lock = threading.Lock()
        self._closed = False
        self._taken_within = taken_within
        self._answered_pool: ProcessPool | None = None  # the last pool that answered
        self.queue_limit = queue_limit
        self.pending = 0
        # Made at first use, on the loop of the work it admits.
        self._background_lane: asyncio.Semaphore | None = None

    def _pool(self) -> ProcessPool:
        with self._process_lock:
            if self._closed:
                raise CancelledError("the pool was shut down")
            pool = self._process_pool
            if pool is None or not _usable(pool):
                if pool is not None:  # pebble gave up on it (every worker died at once)
                    _stop_in_background(pool)
                # spawn, not fork: the bot has threads (SQLite's, this pool's), and a fork
                # copies their locks in whatever state they are.
                pool = ProcessPool(max_workers=self._size,
                                   initializer=_settle_worker_process,
                                   context=multiprocessing.get_context("spawn"))
                # Start its workers here, under the lock, not at its first job: then a
                # ``shutdown`` never stops a pool while another thread is still starting
                # workers that the stop would miss.
                _usable(pool)
                self._process_pool = pool
            return pool

    def _replace_pool(self, failed: ProcessPool, why: str) -> None:
        with self._process_lock:
            if self._process_pool is not failed:
                return  # another thread replaced it already
            self._process_pool = None
        log.warning("%s; starting new worker processes", why)
        _stop_in_background(failed)

    def _answer(self, pool: ProcessPool, future: ProcessFuture[Result],
                wedged_at: float | None) -> Result:
        """The job's result, waiting in short steps to notice a replaced pool, or one
        whose workers do not take the job or do not answer in time."""
        window = self._taken_within
        if pool is not self._answered_pool:
            window = max(window, STARTING_POOL_SECONDS)
        take_by = time.monotonic() + window
        while True:
            step = POOL_CHECK_SECONDS
            if not (future.running() or future.done()) and time.monotonic() > take_by:
                self._replace_pool(pool, "no worker process took a job")
                raise _NotTaken
            if wedged_at is not None:
                step = min(step, wedged_at - time.monotonic())
                if step <= 0:
                    self._replace_pool(pool, "worker processes stopped answering")
                    raise TimeoutError("the worker did not answer within its budget")
            done, _ = wait([future], timeout=step)
            if done:
                if future.exception() is None:
                    self._answered_pool = pool
                return future.result()  # pebble's TimeoutError when the worker overran
            if self._process_pool is not pool:
                raise _PoolReplaced

    def _in_process(self, work: Callable[..., Result], args: tuple[Any, ...],
                    budget: float | None) -> Result:
        started = time.monotonic()
        wedged_at = None if budget is None else started + budget + WEDGED_AFTER_SECONDS
        crashes = 0
        while True:
            left = None if budget is None else budget - (time.monotonic() - started)
            if left is not None and left <= 0:
                raise TimeoutError("the job's budget ran out before a worker took it")
            pool = self._pool()
            failure: Exception
            try:
                # pebble counts ``timeout`` from when a worker takes the job.
                future = pool.schedule(work, args, timeout=left)
            except RuntimeError as error:  # the pool broke, or could not start a worker
                if self._process_pool is not pool:
                    continue  # another thread replaced it meanwhile
                failure = error
                self._replace_pool(pool, f"the worker pool failed ({error})")
            else:
                try:
                    return self._answer(pool, future, wedged_at)
                except _PoolReplaced:
                    continue
                except ProcessExpired as error:  # pebble has started another worker
                    failure = error
                except _NotTaken as error:
                    failure = error
                except BrokenProcessPool as error:
                    failure = error
                    self._replace_pool(pool, f"the worker pool broke ({error})")
            if self._closed:
                raise CancelledError("the pool was shut down") from failure
            crashes += 1
            log.warning("a worker process failed during %s (%s), try %d of %d",
                        getattr(work, "__name__", work), failure, crashes, CRASH_TRIES)
            if crashes >= CRASH_TRIES:
                raise WorkerCrashed(str(failure)) from failure

    def start(self) -> None:
        """Start the worker processes now rather than at the first computer move, which
        would otherwise wait for them to import the engines."""
        if self._processes:
            for _ in range(self._size):
                self._executor.submit(self._in_process, int, (), None)

    @contextlib.asynccontextmanager
    async def background(self) -> AsyncIterator[None]:
        """A turn for work that nobody waits on, to ``run`` within: at most all but one of
        the workers do such work at once. Marks of a Rithmomachia position take 15 ms (57
        at p99) in a worker; with both workers on them, computer moves and new Turing
        puzzles waited up to 60 ms at 100 tables (``docs/performance.md``)."""
        if self._background_lane is None:
            self._background_lane = asyncio.Semaphore(max(1, self._size - 1))
        async with self._background_lane:
            yield

    @property
    def busy(self) -> bool:
        return self.queue_limit is not None and self.pending >= self.queue_limit

    async def run(self, work: Callable[..., Result], *args: Any,
                  refuse_when_busy: bool = False, timeout: float | None = None) -> Result:
        """``work(*args)`` in the pool. With ``refuse_when_busy``, raise ``WorkersBusy``
        instead of queueing behind a full pool (for work a person can simply ask again).
        ``timeout`` counts from when the work starts, not from when it was queued: a job
        that waited its turn behind a flood still gets its whole budget. Past it the caller
        gets ``TimeoutError``; a worker process is then killed and replaced, while a job
        in a thread (without ``processes``) runs on unobserved. Either way the job stays
        counted in ``pending`` until its thread is free again. With ``processes``, a job
        whose worker died on every try raises ``WorkerCrashed``."""
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
                return self._in_process(work, args, timeout)
            return work(*args)

        def finished(_: object) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._finished)

        self.pending += 1
        future = self._executor.submit(job)
        future.add_done_callback(finished)
        result = asyncio.wrap_future(future, loop=loop)
        # A caller cancelled at shutdown never reads the job's end; reading it here keeps
        # asyncio from logging "exception was never retrieved" for it.
        result.add_done_callback(lambda done: done.cancelled() or done.exception())
        if timeout is None:
            return await result
        either: list[asyncio.Future[Any]] = [result, started]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        return await asyncio.wait_for(result, timeout)

    def _finished(self) -> None:
        self.pending -= 1

    def shutdown(self, *, wait_seconds: float = 0.0) -> None:
        """Drop the queued work (a computer move left undone is resumed after a restart)
        and stop the worker processes, waiting up to ``wait_seconds`` until they are gone.

        The bot waits when it exits: a worker still starting when its parent exits reads
        the parent's semaphores after Python's exit removed them, and prints a traceback
        into the terminal of someone who only pressed Ctrl-C. Python terminates the
        children only after removing them."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        with self._process_lock:
            self._closed = True
            pool, self._process_pool = self._process_pool, None
        if pool is not None:
            _stop_in_background(pool).join(wait_seconds)
