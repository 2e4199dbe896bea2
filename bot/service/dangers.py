"""Danger marks (issue 27): a learner's aid that shows on the board what the opponent could
take from them next move, before they lose it: Rithmomachia's pieces, bOOleO's and
Digitalo's gates a flip would break, the L-game's moves after which their L can be trapped.

A game asks for them with its ``danger`` option (set by default against the computer's
easiest level, ``GameInfo.beginner_options``). After each saved change, when a person is to
move, their threatened pieces are worked out in the CPU pool (about 15 ms a Rithmomachia
position, too much for the event loop; the L-game's by trying the opponent's replies,
``quick``, a few ms, rather than from its solved table, whose first use in each worker
took 1.1 s, the wait of that move's reply) and kept with the game's version; the board drawn
for that version carries them in its view as ``threats``, which the game's renderer marks.
Nothing is marked when the pool is busy or slow: the aid may miss a turn, a move never
waits long for it. The marks hold at most all but one of the pool's workers
(``Workers.background``), so computer moves and new puzzles never queue behind them.
A move's reply waits at most ``DANGER_WAIT_SECONDS`` for its marks,
queueing for a worker included (behind new Turing puzzles and computer moves the marks'
job waited up to 0.6 s at 1000 tables, and held every bOOleO learner's reply as long):
marks that come later are kept for their version, and the caches of what was drawn
without them are dropped (``arrived_late``), so the next board or hand drawn shows them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.limits import Workers
from bot.store import GameRecord
from engines.analysis import dangers
from engines.base import JSON, GameState

log = logging.getLogger(__name__)

DANGER_SECONDS = 2.0
DANGER_WAIT_SECONDS = 0.15


class DangerMarks:
    def __init__(self, workers: Workers, wait_seconds: float = DANGER_WAIT_SECONDS) -> None:
        self.workers = workers
        self.wait_seconds = wait_seconds
        self._marks: dict[int, tuple[int, list[JSON]]] = {}  # game id -> (version, threats)
        self._wanted: dict[int, int] = {}  # game id -> the version whose marks are wanted
        self._late: set[asyncio.Task[bool]] = set()  # jobs still running after the reply
        # Called with a game's id when its marks came after the reply was drawn.
        self.arrived_late: Callable[[int], None] = lambda game_id: None

    @staticmethod
    def wanted(record: GameRecord) -> bool:
        return bool(record.options.get("danger"))

    async def refresh(self, record: GameRecord, state: GameState) -> None:
        """Work out the marks for ``record``'s version (or drop them when none apply)."""
        if not self.wanted(record):
            return
        people = [seat for seat in state.to_move()
                  if record.players[seat].get("kind") == "human"]
        self._marks.pop(record.id, None)
        if record.status != "active" or not people:
            self._wanted.pop(record.id, None)
            return
        self._wanted[record.id] = record.version
        job = asyncio.ensure_future(self._work_out(record.id, record.version, record.game,
                                                   state.to_dict(), people[0]))
        done, _ = await asyncio.wait({job}, timeout=self.wait_seconds)
        if not done:
            self._late.add(job)
            job.add_done_callback(lambda task: self._arrived(task, record.id))

    async def _work_out(self, game_id: int, version: int, game: str, state: JSON,
                        seat: int) -> bool:
        """The marks of one version, kept unless a newer version asked for its own. They
        wait for a turn of the pool's background lane, and a version that a newer one
        replaced meanwhile is never worked out."""
        try:
            async with self.workers.background():
                if self._wanted.get(game_id) != version:
                    return False
                found = await self.workers.run(dangers, game, state, seat, True,
                                               refuse_when_busy=True, timeout=DANGER_SECONDS)
        except Exception as error:  # busy, slow or crashed: this turn goes unmarked
            log.info("no danger marks for game %s: %r", game_id, error)
            return False
        if self._wanted.get(game_id) != version:
            return False
        self._marks[game_id] = (version, found)
        return True

    def _arrived(self, task: asyncio.Task[bool], game_id: int) -> None:
        self._late.discard(task)
        if not task.cancelled() and task.result():
            self.arrived_late(game_id)

    def view_extra(self, record: GameRecord) -> dict[str, Any]:
        """What the board's view gets for ``record``'s version: ``{"threats": [...]}``."""
        marks = self._marks.get(record.id)
        if marks is None or marks[0] != record.version:
            return {}
        return {"threats": marks[1]}

    def forget(self, game_id: int) -> None:
        self._marks.pop(game_id, None)
        self._wanted.pop(game_id, None)
