"""Keeping each game's board message equal to the stored game, whatever the platform does.

A press's answer, a computer's move or a command each try to draw the board once, at
once (the fast path). What the platform answers decides what follows (``Shown``):

* ``SHOWN``: the platform confirmed the board at that version;
* ``GONE``: the message was deleted: a new board is posted and the old one retired;
* ``LATER``: a passing fault (429, 5xx, a timeout, a reset connection): try again;
* ``REFUSED``: the bot cannot write there now (it lost the channel's access, or was
  removed from the group): try again, more rarely, until access returns.

Nothing is remembered "to be redrawn by the next change": a game whose board is behind
is handed to ``Redelivery``, which redraws the game *as stored then* (never the reply
that failed, which may be old by then) with backoff until the platform confirms it.
``ShownVersions`` writes the version each board was confirmed at into its stored board
reference (``"shown"``), one write at a time for all games confirmed meanwhile, so that a
restart finds the boards that are behind (a computer's edit lost to the restart) and
redraws them without anyone pressing or typing (``ChatAdapter.reconcile_boards``).
A late write is harmless: it only makes the restart redraw a board that was right.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Mapping

log = logging.getLogger(__name__)

# The first wait after a passing fault and after a refusal, and the longest waits
# between tries: a board comes back within a minute of the platform's recovery, and a
# channel whose access returned within ten minutes.
LATER_FIRST_SECONDS = 1.0
LATER_MAX_SECONDS = 60.0
REFUSED_FIRST_SECONDS = 30.0
REFUSED_MAX_SECONDS = 600.0
# An edit that failed by a timeout or a reset connection may still land, late, over a
# newer one: the board is drawn once more after this long, past any client's timeout.
VERIFY_SECONDS = 20.0


class Shown(enum.Enum):
    """What came of drawing a board on the platform."""

    SHOWN = "shown"
    GONE = "gone"
    LATER = "later"
    REFUSED = "refused"


class Drawn(enum.Enum):
    """How much of a change its caller already put on the platform (``game_changed``'s
    "shown where"): the delivery path does the rest."""

    NOTHING = "nothing"  # draw the board where it is, then say the news
    BOARD = "board"  # the caller drew the board (a press's answer, a /board): say the news
    NEWS = "news"  # the caller said the news (as its answer): draw the board
    BOARD_AND_NEWS = "board and news"  # the caller posted the board with the news on it


class Redelivery:
    """The games whose board the platform has not confirmed at the stored version, each
    with one task that redraws it (``redraw``: the game id to what came of it) until it
    is shown. One task per game: a newer change while it waits needs nothing more, as
    every try draws the game as stored at that moment."""

    def __init__(self, redraw: Callable[[int], Awaitable[Shown]],
                 doubt: Callable[[int], Awaitable[None]]) -> None:
        self._redraw = redraw
        self._doubt = doubt
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._checks: dict[int, asyncio.Task[None]] = {}
        self._closed = False  # the bot is stopping: a board left behind waits for the restart

    def verify_later(self, game_id: int, seconds: float | None = None) -> None:
        """An edit of ``game_id``'s board has an unknown fate (it timed out): after
        ``seconds``, forget what the board is believed to show (``doubt``) and draw the
        stored game again, so that an edit landing late is overwritten. A check already
        waiting is put off to this edit's: one that fired between a later edit's timeout
        and its late landing would leave that landing standing."""
        if self._closed:
            return
        waiting = self._checks.pop(game_id, None)
        if waiting is not None:
            waiting.cancel()

        async def check() -> None:
            await asyncio.sleep(VERIFY_SECONDS if seconds is None else seconds)
            await self._doubt(game_id)
            self.behind(game_id, at_once=True)

        task = asyncio.get_running_loop().create_task(check())
        self._checks[game_id] = task
        task.add_done_callback(lambda done: self._forget_check(game_id, done))

    def _forget_check(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._checks.get(game_id) is task:
            del self._checks[game_id]

    def behind(self, game_id: int, outcome: Shown = Shown.LATER, *,
               at_once: bool = False) -> None:
        """``game_id``'s board is behind because of ``outcome``; ``at_once``: try now."""
        if self._closed:
            return
        if game_id in self._tasks:
            if at_once:
                self._tasks.pop(game_id).cancel()
            else:
                return
        first = 0.0 if at_once else (REFUSED_FIRST_SECONDS if outcome is Shown.REFUSED
                                     else LATER_FIRST_SECONDS)
        task = asyncio.get_running_loop().create_task(self._until_shown(game_id, first))
        self._tasks[game_id] = task
        task.add_done_callback(lambda done: self._forget(game_id, done))

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is task:
            del self._tasks[game_id]

    @property
    def waiting(self) -> list[int]:
        return sorted(self._tasks)

    def retry_now(self) -> None:
        """Try every waiting game at once: the platform says it is back (a gateway
        resume), so nobody should wait out a long backoff."""
        for game_id in list(self._tasks):
            self.behind(game_id, at_once=True)

    async def _until_shown(self, game_id: int, delay: float) -> None:
        tries = 0
        while True:
            await asyncio.sleep(delay)
            tries += 1
            try:
                outcome = await self._redraw(game_id)
            except Exception:
                log.exception("redrawing the board of game %s failed", game_id)
                outcome = Shown.LATER
            if outcome in (Shown.SHOWN, Shown.GONE):
                if tries > 1:
                    log.info("the board of game %s is up to date again after %d tries",
                             game_id, tries)
                return
            limit = REFUSED_MAX_SECONDS if outcome is Shown.REFUSED else LATER_MAX_SECONDS
            first = REFUSED_FIRST_SECONDS if outcome is Shown.REFUSED else LATER_FIRST_SECONDS
            delay = min(max(delay * 2, first), limit)

    async def close(self) -> None:
        self._closed = True
        tasks = [*self._tasks.values(), *self._checks.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class ShownVersions:
    """The versions boards were confirmed at, written down in the background, many games
    in one write (``record``: the store's ``record_shown``)."""

    def __init__(self, record: Callable[[Mapping[int, int]], Awaitable[None]]) -> None:
        self._record = record
        self._due: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._closed = False  # the store may be closing: what is left waits for a restart

    def confirm(self, game_id: int, version: int) -> None:
        self._due[game_id] = max(version, self._due.get(game_id, -1))
        if self._task is None and not self._closed:
            self._task = asyncio.get_running_loop().create_task(self._flush_while_due())

    async def _flush_while_due(self) -> None:
        """Write what is due, then what came meanwhile: one write at a time, so under
        load one write carries many boards, and nothing waits on a timer."""
        try:
            while self._due:
                await self.flush()
        finally:
            self._task = None

    async def flush(self) -> None:
        due, self._due = self._due, {}
        if not due:
            return
        try:
            await self._record(due)
        except Exception as error:
            # Not written: a restart then redraws these boards once more, which is right.
            log.warning("could not note the versions of %d shown boards: %s", len(due), error)

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.flush()
