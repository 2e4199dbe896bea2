"""The load benchmark's probes in the bot's process (``benchmarks/load.py``): the
collector's pauses, bare commits sampled during the run, and a full collection at the end.
"""

from __future__ import annotations

import gc
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.timing import summary
from bot.store import MIGRATIONS, sql_statements

SAMPLE_PERIOD_S = 0.05
SAMPLE_STATE = "x" * 900  # as long as a typical stored state (250 to 950 characters)


class GcPauses:
    """How long each cyclic garbage collection took, by generation (``gc.callbacks``).
    A collection holds the interpreter lock from start to end, so it stops the event loop
    and every command in flight for that long."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._started)

    def summary(self) -> dict[str, Any]:
        return {f"gen{generation}": summary(pauses) if pauses else {"n": 0}
                for generation, pauses in self.pauses.items()}


class CommitSampler(threading.Thread):
    """Bare commits on a file of their own while the load runs, one every
    ``SAMPLE_PERIOD_S``, from a plain thread: what one commit costs on this disk at the same
    moments, other processes' I/O included, with no event loop in between. The disk of a
    shared machine changes from minute to minute, so a baseline taken before or after the
    run alone can be off by an order of magnitude."""

    def __init__(self, path: Path, sync: str) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.sync = sync
        self.timings: list[float] = []
        self.stop = threading.Event()
        self.cpu = 0.0  # this thread's CPU seconds: in the bot's process, not the bot's

    def run(self) -> None:
        started = time.thread_time()
        try:
            self._sample()
        finally:
            self.cpu = time.thread_time() - started

    def _sample(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            for pragma in ("journal_mode=WAL", f"synchronous={self.sync}"):  # as the store
                db.execute(f"PRAGMA {pragma}")
            for statement in sql_statements(MIGRATIONS[0]):
                db.execute(statement)
            db.execute("INSERT INTO games (id, platform, channel, game, options, seed, state, "
                       "version, players, status, created_at, updated_at) "
                       "VALUES (1,'bare','c','lgame','{}',1,'',1,'[]','active','','')")
            version = 1
            while True:  # one sample at least, however short the run
                started = time.perf_counter()
                db.execute("UPDATE games SET state=?, version=?, last_seat=0, "
                           "last_kind='action', last_action='a' WHERE id=1 AND version=?",
                           (SAMPLE_STATE, version + 1, version))
                self.timings.append(time.perf_counter() - started)
                version += 1
                if self.stop.wait(SAMPLE_PERIOD_S):
                    break
        finally:
            db.close()


def full_collection() -> dict[str, float]:
    """One full collection with every game in memory, as ``collect_garbage`` makes every
    ``FULL_SECONDS``: how long it stops the bot, and how much garbage had waited for it."""
    started = time.perf_counter()
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return {"ms": round((time.perf_counter() - started) * 1000, 1), "unreachable": found}
