"""Jobs for ``bot.limits.Workers`` that misbehave the way real worker processes do, and a
look at a pool's worker processes from the outside, for the worker fault tests.

The jobs are module-level functions, so a spawned worker process can import them by name.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from pathlib import Path

# The name pebble gives its worker processes.
WORKER_NAME = "pebble_pool_worker"


def hang() -> None:
    """Work that never ends, like a search caught in a loop."""
    while True:
        time.sleep(1.0)


def die() -> None:
    """The worker is killed under its job, as the out-of-memory killer does."""
    os.kill(os.getpid(), signal.SIGKILL)


def die_once(marker: str) -> int:
    """Kills its first worker; the next one, seeing ``marker``, answers its process id."""
    path = Path(marker)
    if not path.exists():
        path.touch()
        die()
    return os.getpid()


def worker_pids() -> set[int]:
    """The live worker processes of every pool this process runs."""
    return {child.pid for child in multiprocessing.active_children()
            if child.name == WORKER_NAME and child.pid is not None}


def signal_all(pids: set[int], signum: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)
