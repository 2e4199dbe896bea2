"""The next puzzle, made before it is asked for (issue 41: a puzzle ready when "Next" is
pressed). When a student opens or answers a puzzle they will likely press Next, and making
the candidates of a pick takes several generations (a Rithmomachia victory in two, up to
``PICK_SECONDS``); so the trainer starts making them then, and keeps the result here, per
player, game and theme, for the next pick to choose from by the rating at that moment.

This is one process's memory and nothing depends on it: a press handled by another
process (several bots on one database), an entry dropped or expired, or a prefetch that
failed, and the pick makes its candidates as it always did. So a prefetch never makes a
person wait or see an error: it gives up at once when the pool is busy, runs in the pool's
background lane (``Workers.background``: a worker stays free for the computer's moves in
games), logs one line when it fails, and is cancelled when the bot stops (``close``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.limits import Workers
from bot.puzzles.jobs import Candidates

log = logging.getLogger(__name__)

# A player, a game and a theme ("" for any): whose next puzzle an entry holds.
Key = tuple[str, str, str, str]

# Entries kept, the least recently used dropped first: each holds a handful of puzzles,
# a few kilobytes each, so memory stays within a few megabytes.
PREFETCH_ENTRIES = 256
# An entry older than this is dropped: its player left, and ratings moved meanwhile.
PREFETCH_SECONDS = 600.0
# Prefetches running or waiting for the background lane at once; past them, none starts
# (a class opening puzzles together gets its next ones made on Next, as before).
PREFETCH_RUNNING = 8


def prefetch_key(platform: str, user_id: str, game: str, theme: str | None) -> Key:
    return platform, user_id, game, theme or ""


@dataclass(eq=False)
class _Prefetch:
    made_at: float
    started: bool = False  # it had its turn of the background lane
    task: asyncio.Task[Candidates | None] = field(init=False)


class Prefetches:
    def __init__(self, workers: Workers, *, entries: int = PREFETCH_ENTRIES,
                 seconds: float = PREFETCH_SECONDS, running: int = PREFETCH_RUNNING,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.workers = workers
        self.entries = entries
        self.seconds = seconds
        self.running = running
        self.clock = clock
        self._held: OrderedDict[Key, _Prefetch] = OrderedDict()
        self._closed = False

    def __contains__(self, key: Key) -> bool:
        return key in self._held

    def __len__(self) -> int:
        return len(self._held)

    def start(self, key: Key, make: Callable[[], Awaitable[Candidates]]) -> bool:
        """Start making ``key``'s candidates with ``make`` unless they are being made or
        made already (that one is kept: never two for one key), the pool is busy, too many
        are running, or the bot is stopping. True when one was started."""
        self._drop_expired()
        if key in self._held:
            self._held.move_to_end(key)
            return False
        if self._closed or self.workers.busy or sum(
                not entry.task.done() for entry in self._held.values()) >= self.running:
            return False
        entry = _Prefetch(self.clock())
        entry.task = asyncio.get_running_loop().create_task(self._make(entry, key, make))
        self._held[key] = entry
        while len(self._held) > self.entries:
            _, oldest = self._held.popitem(last=False)
            oldest.task.cancel()
        return True

    async def _make(self, entry: _Prefetch, key: Key,
                    make: Callable[[], Awaitable[Candidates]]) -> Candidates | None:
        try:
            async with self.workers.background():
                entry.started = True
                return await make()
        except Exception as error:  # busy, slow, crashed: the pick makes its own
            log.info("no next %s puzzle prefetched for %s:%s: %r", key[2], key[0], key[1],
                     error)
            return None

    async def take(self, key: Key, *, wait: bool = True) -> Candidates | None:
        """``key``'s candidates, once: waited for while they are being made, None when
        there are none (never made, failed, expired, or still waiting for a worker, when
        making them afresh is no slower). Without ``wait`` (the stock has a puzzle
        ready), ones not made yet are left for the pick after this one."""
        self._drop_expired()
        entry = self._held.get(key)
        if entry is None or not (wait or entry.task.done()):
            return None
        del self._held[key]
        if not entry.started:
            entry.task.cancel()
            return None
        try:
            return await entry.task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # the press itself is cancelled
            return None  # the prefetch was, by ``close``

    def forget(self, platform: str, user_id: str) -> None:
        """``/forget-me``: nothing of the person's stays, not even here."""
        for key in [key for key in self._held if key[:2] == (platform, user_id)]:
            self._held.pop(key).task.cancel()

    async def close(self) -> None:
        """Cancel every prefetch and start no more: the bot is stopping."""
        self._closed = True
        tasks = [entry.task for entry in self._held.values()]
        self._held.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _drop_expired(self) -> None:
        oldest = self.clock() - self.seconds
        for key in [key for key, entry in self._held.items() if entry.made_at < oldest]:
            self._held.pop(key).task.cancel()
