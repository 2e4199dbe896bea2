"""Progress lines for benchmarks.

They go to stderr, so that stdout holds only the numbers (and ``--json`` output stays one
parseable document), and at most every few seconds, so that a long loop shows it is alive
without flooding the terminal.
"""

from __future__ import annotations

import sys
import time

# A loop says where it is at most this often (seconds), unless a step forces a line.
EVERY_SECONDS = 5.0


class Progress:
    """``progress(done)`` prints ``label: done/total, note (12 s)`` when it is time."""

    def __init__(self, label: str, total: int | None = None,
                 every: float = EVERY_SECONDS) -> None:
        self.label = label
        self.total = total
        self.every = every
        self.began = time.perf_counter()
        self.last = self.began

    def __call__(self, done: int, note: str = "", *, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < self.every:
            return
        self.last = now
        count = f"{done}/{self.total}" if self.total is not None else str(done)
        detail = f", {note}" if note else ""
        print(f"{self.label}: {count}{detail} ({now - self.began:.0f} s)", file=sys.stderr,
              flush=True)

    def say(self, note: str) -> None:
        """A line now, whatever the count."""
        now = time.perf_counter()
        self.last = now
        print(f"{self.label}: {note} ({now - self.began:.0f} s)", file=sys.stderr, flush=True)
