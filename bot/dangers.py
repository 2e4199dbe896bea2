"""Danger marks (issue 27): a learner's aid that shows on the board what the opponent could
take from them next move, before they lose it: Rithmomachia's pieces, bOOleO's and
Digitalo's gates a flip would break, the L-game's moves after which their L can be trapped.

A game asks for them with its ``danger`` option (set by default against the computer's
easiest level, ``GameInfo.beginner_options``). After each saved change, when a person is to
move, their threatened pieces are worked out in the CPU pool (about 12 ms a Rithmomachia
position, too much for the event loop; the L-game's by trying the opponent's replies,
``quick``, a few ms, rather than from its solved table, whose first use in each worker
took 1.1 s, the wait of that move's reply) and kept with the game's version; the board drawn
for that version carries them in its view as ``threats``, which the game's renderer marks.
Nothing is marked when the pool is busy or slow: the aid may miss a turn, a move never
waits long for it.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.limits import Workers
from bot.store import GameRecord
from engines.analysis import dangers
from engines.base import JSON, GameState

log = logging.getLogger(__name__)

DANGER_SECONDS = 2.0


class DangerMarks:
    def __init__(self, workers: Workers) -> None:
        self.workers = workers
        self._marks: dict[int, tuple[int, list[JSON]]] = {}  # game id -> (version, threats)

    @staticmethod
    def wanted(record: GameRecord) -> bool:
        return bool(record.options.get("danger"))

    async def refresh(self, record: GameRecord, state: GameState) -> None:
        """Work out the marks for ``record``'s version (or drop them when none apply)."""
        if not self.wanted(record):
            return
        people = [seat for seat in state.to_move()
                  if record.players[seat].get("kind") == "human"]
        if record.status != "active" or not people:
            self._marks.pop(record.id, None)
            return
        try:
            found = await self.workers.run(dangers, record.game, state.to_dict(), people[0],
                                           True, refuse_when_busy=True,
                                           timeout=DANGER_SECONDS)
        except Exception as error:  # busy, slow or crashed: this turn goes unmarked
            log.info("no danger marks for game %s: %r", record.id, error)
            self._marks.pop(record.id, None)
            return
        self._marks[record.id] = (record.version, found)

    def view_extra(self, record: GameRecord) -> dict[str, Any]:
        """What the board's view gets for ``record``'s version: ``{"threats": [...]}``."""
        marks = self._marks.get(record.id)
        if marks is None or marks[0] != record.version:
            return {}
        return {"threats": marks[1]}

    def forget(self, game_id: int) -> None:
        self._marks.pop(game_id, None)
