"""A ready stock of puzzles per game and theme, shared by every player of the process
(issue 41: a puzzle ready at once). A player's own prefetch (``bot.puzzles.prefetch``)
serves a Next pressed after a moment; the first puzzle of a session, a change of theme or
a Next pressed before the prefetch is done would otherwise wait for their candidates to be
made. So, as puzzle sites serve from a pool rather than make on demand, the trainer keeps
``STOCK_SIZE`` made puzzles of each theme of each game, picks among those its player has
not had recently (of every stocked theme of the game for "any theme"), and takes the one
it gives out of the stock, which starts refilling that theme.

A refill makes one puzzle per job in the pool's background lane (``Workers.background``:
a worker stays free for the computer's moves in games), never starts while the pool is
busy, logs one line when it fails, and is cancelled when the bot stops (``close``). So a
class larger than the stock opening the same theme at once drains it, and the others'
first puzzles are made on the press, as they were before the stock, until it is refilled.

Stocking starts with ``start``: ``python -m bot`` fills every game's themes when the bot
starts, and a game is filled again whenever its puzzles are touched while short (the
first ``/puzzle`` of it in this process, a start-up fill the busy pool refused). Tests'
bots never start it, so they make their puzzles as asked unless a test starts it.

This is one process's memory and nothing depends on it: several processes each keep their
own, an empty stock leaves the pick making its puzzles, and no player's data is in it. The
daily puzzle never comes from it: it is one puzzle for everyone, made from the day's seed.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from bot.limits import Workers
from bot.puzzles.jobs import MAKE_SECONDS, SEED_BITS, Candidates, puzzle_candidates

log = logging.getLogger(__name__)

# A game and one of its themes.
Shelf = tuple[str, str]

# Puzzles kept per game and theme: enough for a class of fifteen opening one theme at
# once to find one each (``benchmarks/puzzle_trainer.py``'s "class"), and for the pick to
# have ratings to choose the nearest from. Memory: the four games with trainer puzzles
# have 17 themes, so at most 272 puzzles are held, 1 to 9 KB each as JSON (102 of them
# took 1.6 MB as Python objects, so about 4.3 MB).
STOCK_SIZE = 16
# Seeds without a new puzzle a refill tries before it stops (the next take starts another).
STOCK_MISSES = STOCK_SIZE


class PuzzleStock:
    """Up to ``size`` made puzzles of each game and theme, by share code."""

    def __init__(self, workers: Workers, themes: Callable[[str], Sequence[str]], *,
                 size: int = STOCK_SIZE) -> None:
        self.workers = workers
        self.themes = themes
        self.size = size
        self._random = random.Random()  # any seeds: the stock is nobody's in particular
        self._held: dict[Shelf, dict[str, dict[str, Any]]] = {}
        self._refills: dict[Shelf, asyncio.Task[None]] = {}
        # Off until ``start``; switched off again, it offers and makes nothing (benchmarks
        # measure what it saves).
        self.stocking = False
        self._closed = False

    def __len__(self) -> int:
        return sum(len(puzzles) for puzzles in self._held.values())

    def held(self, game: str, theme: str) -> int:
        return len(self._held.get((game, theme), {}))

    @property
    def refilling(self) -> int:
        return len(self._refills)

    def start(self, games: Iterable[str] = ()) -> None:
        """Stock from now on: ``games`` filled at once, every other game when touched."""
        self.stocking = True
        for game in games:
            self.touch(game)

    def touch(self, game: str) -> None:
        """``game``'s puzzles are wanted: refill each of its themes that is short."""
        for theme in self.themes(game):
            self._refill((game, theme))

    def offer(self, game: str, theme: str | None, recent: Collection[str]) -> Candidates:
        """The stocked puzzles of ``game`` in ``theme`` (None: of every theme) that are
        not in ``recent``, for the pick to choose from; nothing is taken yet."""
        if not self.stocking:
            return []
        shelves = [(game, theme)] if theme is not None else [
            shelf for shelf in self._held if shelf[0] == game]
        return [(code, puzzle) for shelf in shelves
                for code, puzzle in self._held.get(shelf, {}).items() if code not in recent]

    def holds(self, game: str, code: str) -> bool:
        return any(code in puzzles for (each, _), puzzles in self._held.items()
                   if each == game)

    def take(self, game: str, code: str) -> bool:
        """The puzzle ``code`` is given: out of the stock, whose theme starts refilling.
        False when it was not (or no longer) held."""
        for shelf, puzzles in self._held.items():
            if shelf[0] == game and puzzles.pop(code, None) is not None:
                self._refill(shelf)
                return True
        return False

    async def close(self) -> None:
        """Cancel the refills and start no more: the bot is stopping."""
        self._closed = True
        tasks = list(self._refills.values())
        self._refills.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _refill(self, shelf: Shelf) -> None:
        if (not self.stocking or self._closed or shelf in self._refills
                or self.held(*shelf) >= self.size or self.workers.busy):
            return
        task = asyncio.get_running_loop().create_task(self._fill(shelf))
        self._refills[shelf] = task
        task.add_done_callback(lambda done: self._refilled(shelf, done))

    def _refilled(self, shelf: Shelf, task: asyncio.Task[None]) -> None:
        if self._refills.get(shelf) is task:
            del self._refills[shelf]

    async def _fill(self, shelf: Shelf) -> None:
        """Make ``shelf``'s missing puzzles one job at a time, each its own turn of the
        background lane; stop when it is full, the pool is busy or seeds keep failing."""
        game, theme = shelf
        misses = 0
        try:
            while self.stocking and self.held(game, theme) < self.size and \
                    misses < STOCK_MISSES:
                if self.workers.busy:
                    return  # a computer's move or a person's puzzle comes first
                async with self.workers.background():
                    found: Candidates = await self.workers.run(
                        puzzle_candidates, game, theme, [self._random.getrandbits(SEED_BITS)],
                        refuse_when_busy=True, timeout=MAKE_SECONDS)
                puzzles = self._held.setdefault(shelf, {})
                fresh = [(code, puzzle) for code, puzzle in found if code not in puzzles]
                puzzles.update(fresh[:self.size - len(puzzles)])
                misses += not fresh
        except Exception as error:  # busy, slow, crashed: a pick makes its own meanwhile
            log.info("the %s %s puzzle stock was not refilled: %r", game, theme, error)
