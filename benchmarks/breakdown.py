"""Where a command's time goes, stage by stage, for the load benchmark (issue 25).

``benchmarks/load.py`` times each command from the call to the returned ``Reply``; this
splits that time for every command that saves or creates a game, without a profiler and
without changing the bot: the benchmark wraps, on its own instances only, the game locks
of its ``Service``, its core's ``apply`` and ``save``, the store's ``save_game`` and
``_save_rows`` and the aiosqlite connection's ``_execute`` (the one door into the database
thread). The stages of a saved move, in the order they happen:

``lock``        waiting for the game's lock (another command of the same game holds it)
``service``     the rest of the service before the move: payload, lookups, the menu
                (for a command that saves nothing, everything but the stages below)
``workers``     a worker process computing (a computer move, a new Turing puzzle), and
                the trip there and back
``engine``      the engine applies the move and the state is serialised
``group``       queued for the group commit: the batch before this one is being written
``db_queue``    the batch's statement waits in aiosqlite's thread queue (reads and
                inserts ahead of it, and the thread waking up)
``commit``      the statement in the database thread, its commit and sync included
``loop``        the commit is done and the move waits for the event loop, twice: to
                hear it from the thread, then to resume the command
``render``      after the save: the board, the hand and the finish listeners
``other_db``    any other statement the command itself sent (a read, a new game's
                insert), queued and run; a new game from the call to its id

The stages add up to the command's time, up to the few microseconds between them.
"""

from __future__ import annotations

import contextvars
import time
from array import array
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.timing import summary
from bot.service import Reply, Service
from bot.store import SQLiteStore
from tests.helpers.scripted_play import ScriptedPlayer

STAGES = ("lock", "service", "workers", "engine", "group", "db_queue", "commit", "loop", "render",
          "other_db")
# Commands whose stages are kept: those that write to the database.
TRACED = ("press_move", "move", "ai_turn", "start", "rematch")


@dataclass
class Trace:
    """The moments of one command, ``time.perf_counter()`` seconds."""

    started: float
    lock: float = 0.0
    other_db: float = 0.0
    workers: float = 0.0
    applying: float | None = None  # Core.apply called: lock held, checks done
    saving: float | None = None  # store.save_game called: engine done
    batch_called: float | None = None  # the batch holding this save went to the database
    batch_ran: tuple[float, float] | None = None  # the statement in the database thread
    batch_returned: float | None = None  # the writer task heard the statement's result
    saved: float | None = None  # save_game returned to the command
    batch_size: int = 0

    def stages(self, ended: float) -> dict[str, float]:
        """Seconds per stage; a command that saved nothing has only lock, service (all
        its time in the service) and other_db."""
        total = ended - self.started
        if self.saving is None or self.saved is None or self.batch_ran is None \
                or self.batch_called is None or self.batch_returned is None:
            return {"lock": self.lock, "workers": self.workers,
                    "service": total - self.lock - self.other_db - self.workers,
                    "other_db": self.other_db, "total": total}
        applying = self.applying if self.applying is not None else self.saving
        thread_started, thread_ended = self.batch_ran
        return {
            "lock": self.lock,
            "service": applying - self.started - self.lock - self.other_db - self.workers,
            "workers": self.workers,
            "engine": self.saving - applying,
            "group": self.batch_called - self.saving,
            "db_queue": thread_started - self.batch_called,
            "commit": thread_ended - thread_started,
            "loop": (self.batch_returned - thread_ended) + (self.saved - self.batch_returned),
            "render": ended - self.saved,
            "other_db": self.other_db,
            "total": total,
        }


CURRENT: contextvars.ContextVar[Trace | None] = contextvars.ContextVar("trace", default=None)


class _TimedLock:
    """A game lock (``Core.lock``'s context manager) that adds the time spent waiting
    for it to the current trace."""

    def __init__(self, lock: Any) -> None:
        self._lock = lock

    async def __aenter__(self) -> None:
        started = time.perf_counter()
        await self._lock.__aenter__()
        trace = CURRENT.get()
        if trace is not None:
            trace.lock += time.perf_counter() - started

    async def __aexit__(self, *exc: Any) -> None:
        await self._lock.__aexit__(*exc)


class Breakdown:
    """Installs the timing on one service and its store and keeps every traced command's
    stages; ``player`` wraps each scripted command in a trace."""

    def __init__(self, service: Service, store: SQLiteStore) -> None:
        # Command -> stage -> seconds, one value per command, in arrays of doubles: dicts
        # per command added some 20 MB to the run's peak RSS at a thousand games.
        self.rows: dict[str, dict[str, array[float]]] = defaultdict(
            lambda: {stage: array("d") for stage in (*STAGES, "total")})
        self.batch_sizes: list[int] = []
        # Seconds in the database thread by kind of statement, whoever sent it.
        self.thread_time: dict[str, list[float]] = defaultdict(list)
        self._waiting: dict[int, Trace] = {}  # game id -> the trace of its pending save
        self._install(service, store)

    def _install(self, service: Service, store: SQLiteStore) -> None:
        lock_of = service.core.lock
        service.core.lock = lambda game_id: _TimedLock(lock_of(game_id))  # type: ignore[method-assign,assignment,return-value]

        run_job = service.workers.run

        async def timed_job(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await run_job(*args, **kwargs)
            finally:
                trace = CURRENT.get()
                if trace is not None:
                    trace.workers += time.perf_counter() - started

        service.workers.run = timed_job  # type: ignore[method-assign]

        apply = service.core.apply

        async def timed_apply(*args: Any, **kwargs: Any) -> Reply:
            trace = CURRENT.get()
            if trace is not None:
                trace.applying = time.perf_counter()
            return await apply(*args, **kwargs)

        service.core.apply = timed_apply  # type: ignore[method-assign]

        save_game = store.save_game

        async def timed_save(record: Any, update: Any) -> Any:
            trace = CURRENT.get()
            if trace is None:
                return await save_game(record, update)
            trace.saving = time.perf_counter()
            self._waiting[record.id] = trace
            try:
                return await save_game(record, update)
            finally:
                self._waiting.pop(record.id, None)
                trace.saved = time.perf_counter()

        store.save_game = timed_save  # type: ignore[method-assign]

        create_game = store.create_game

        async def timed_create(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await create_game(*args, **kwargs)
            finally:
                trace = CURRENT.get()
                if trace is not None:
                    trace.other_db += time.perf_counter() - started

        store.create_game = timed_create  # type: ignore[method-assign]

        ran: list[tuple[float, float]] = []
        save_rows = store._save_rows

        async def timed_rows(batch: list[Any]) -> set[int]:
            # The writer task: its context is whichever command created it, so the traces
            # come from ``_waiting``, never from CURRENT.
            called = time.perf_counter()
            ran.clear()
            try:
                return await save_rows(batch)
            finally:
                returned = time.perf_counter()
                self.batch_sizes.append(len(batch))
                for pending in batch:
                    trace = self._waiting.get(pending.game_id)
                    if trace is not None and ran:
                        trace.batch_called, trace.batch_ran = called, ran[-1]
                        trace.batch_returned, trace.batch_size = returned, len(batch)

        store._save_rows = timed_rows  # type: ignore[method-assign]

        db = store._db
        execute: Callable[..., Awaitable[Any]] = db._execute

        async def timed_execute(function: Callable[..., Any], *args: Any,
                                **kwargs: Any) -> Any:
            sql = args[0] if args and isinstance(args[0], str) else getattr(
                function, "__name__", "call")
            kind = " ".join(sql.split()[:3])[:40]
            moments: list[float] = []

            def run() -> Any:
                moments.append(time.perf_counter())
                try:
                    return function(*args, **kwargs)
                finally:
                    moments.append(time.perf_counter())

            sent = time.perf_counter()
            try:
                return await execute(run)
            finally:
                if len(moments) == 2:
                    self.thread_time[kind].append(moments[1] - moments[0])
                    if sql.startswith("UPDATE games SET"):
                        ran.append((moments[0], moments[1]))
                    elif not sql.startswith("INSERT INTO games"):  # timed_create counts it
                        trace = CURRENT.get()
                        if trace is not None and trace.saving is None:
                            trace.other_db += moments[1] - sent

        db._execute = timed_execute  # type: ignore[method-assign,assignment]

    async def traced(self, name: str, call: Callable[[], Awaitable[Reply]]) -> Reply:
        """Run one command, keeping its stages when it is one of ``TRACED``."""
        if name not in TRACED:
            return await call()
        trace = Trace(time.perf_counter())
        token = CURRENT.set(trace)
        try:
            return await call()
        finally:
            CURRENT.reset(token)
            stages = trace.stages(time.perf_counter())
            for stage, column in self.rows[name].items():
                column.append(stages.get(stage, 0.0))

    def player(self, service: Service, store: SQLiteStore, **options: Any) -> ScriptedPlayer:
        """A scripted player in this process whose commands are traced."""
        breakdown = self

        class TracedPlayer(ScriptedPlayer):
            async def _command(self, name: str, call: Callable[[], Awaitable[Reply]]) -> Reply:
                return await super()._command(name, lambda: breakdown.traced(name, call))

        return TracedPlayer(service, store, **options)

    def report(self) -> dict[str, Any]:
        """Per traced command: p50/p99 per stage, and the mean of each stage over the
        slowest 1% of that command (where its p99 goes)."""
        commands: dict[str, Any] = {}
        saves_only = ("engine", "group", "db_queue", "commit", "loop", "render")
        for name, columns in self.rows.items():
            totals = columns["total"]
            saved = name not in ("start", "rematch")
            stages = [s for s in columns if saved or s not in saves_only]
            table = {stage: summary(list(columns[stage])) for stage in stages}
            slowest = sorted(range(len(totals)), key=totals.__getitem__)[
                -max(1, len(totals) // 100):]
            tail = {stage: round(1000 * sum(columns[stage][i] for i in slowest)
                                 / len(slowest), 3) for stage in stages}
            commands[name] = {"stages": table, "slowest_1pct_mean_ms": tail}
        return {
            "commands": commands,
            "batch_size": summary([float(n) for n in self.batch_sizes] or [0.0]),
            "db_thread_ms": {kind: {"n": len(times),
                                    "total_ms": round(1000 * sum(times), 1),
                                    "p99_ms": summary(times)["p99_ms"]}
                             for kind, times in sorted(
                                 self.thread_time.items(), key=lambda kv: -sum(kv[1]))},
        }


def print_breakdown(report: dict[str, Any]) -> None:
    """The stage table: p50 and p99 per stage, and the slowest 1%'s mean."""
    print("where the time goes (ms): p50 / p99 per stage, and the mean over the slowest 1%")
    for name, row in report["commands"].items():
        stages = row["stages"]
        tail = row["slowest_1pct_mean_ms"]
        print(f"  {name} (n={stages['total']['n']}):")
        print("    " + "  ".join(f"{stage[:8]:>8}" for stage in stages))
        print("    " + "  ".join(f"{stages[stage]['p50_ms']:>8.2f}" for stage in stages)
              + "  p50")
        print("    " + "  ".join(f"{stages[stage]['p99_ms']:>8.2f}" for stage in stages)
              + "  p99")
        print("    " + "  ".join(f"{tail[stage]:>8.2f}" for stage in stages)
              + "  slowest 1%")
    sizes = report["batch_size"]
    print(f"  group commit: {sizes['n']} batches, saves per batch p50 {sizes['p50_ms'] / 1000:.0f}"
          f", p99 {sizes['p99_ms'] / 1000:.0f}")
    print("  database thread, by statement: " + "; ".join(
        f"{kind} {row['n']}x {row['total_ms']:.0f} ms (p99 {row['p99_ms']:.2f})"
        for kind, row in list(report["db_thread_ms"].items())[:6]))
