"""Replays of finished games, step by step, for adapters to show with start / back /
forward / end buttons.

Platform-neutral like the service. A replay is built once per game in the service's CPU
pool (``engines.analysis.replay``: the frames and the analysis, which for the L-game and
the Turing Machine is solver work) and kept in a small in-memory cache; each step is then
drawn in the asker's language and style (``renderers.replay``). Only games that are over
have replays, so no hand, test result or secret code is shown while a game runs; a daily
challenge's only once its day is over everywhere (UTC), as its solution is the day's.

Who may watch: anyone in the game's channel or in its server or group, and its players
anywhere on the same platform; a number from anywhere else is "not found", so a guessed
number reveals nothing.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.limits import WorkersBusy
from bot.service import Place, Service, User
from bot.store import GameRecord
from engines.analysis import replay as build_replay
from renderers.i18n import translate
from renderers.replay import render_step

log = logging.getLogger(__name__)

# Replays kept in memory; a class steps through a handful of games at a time. A long
# card game's replay is about half a megabyte pickled (every step's views of both seats).
CACHED_REPLAYS = 16
# A replay of a long game with the Turing machine's tree takes a few seconds at most.
BUILD_SECONDS = 60.0


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay as text (prose with fenced code blocks, as boards are).

    ``index`` runs from 0 (the start) to ``last`` (the end); ``ok`` is False for a
    refusal, whose ``text`` says why. The navigation targets are indices the adapter
    passes back to ``Replays.step``.
    """

    game_id: int
    index: int
    last: int
    text: str
    ok: bool = True

    @property
    def first(self) -> int:
        return 0

    @property
    def back(self) -> int:
        return max(0, self.index - 1)

    @property
    def forward(self) -> int:
        return min(self.last, self.index + 1)

    @property
    def end(self) -> int:
        return self.last


class Replays:
    def __init__(self, service: Service, cached: int = CACHED_REPLAYS,
                 today: Callable[[], dt.date] | None = None) -> None:
        """``today`` is the UTC date (a test's fake clock)."""
        self.service = service
        self._today = today or (lambda: dt.datetime.now(dt.UTC).date())
        self._cached = cached
        self._replays: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._building: dict[int, asyncio.Task[dict[str, Any]]] = {}

    @staticmethod
    def may_watch(record: GameRecord, place: Place, user: User | None) -> bool:
        """The game's channel, its server or group, or one of its players."""
        if record.platform != place.platform:
            return False
        if record.channel == place.channel or (record.server and record.server == place.server):
            return True
        return user is not None and Service.seat_of(record, user) is not None

    async def last_game(self, place: Place) -> int | None:
        """The number of the channel's last ended game, for ``/replay`` without one."""
        record = await self.service.store.last_finished_game(place.platform, place.channel)
        return record.id if record is not None else None

    async def step(self, game_id: int, index: int, language: str, emoji: bool, *,
                   place: Place | None = None, user: User | None = None) -> ReplayStep:
        """Step ``index`` of game ``game_id`` (clamped to the replay; -1 or any index past
        the end is the end). With ``place`` (and ``user``), only a game they may watch
        (``may_watch``); without, any game (the caller decided)."""
        record = (await self.service.store.get_game(game_id)
                  if 0 < game_id < 2 ** 63 else None)  # a typed number may be anything
        if record is None or (place is not None and not self.may_watch(record, place, user)):
            return self._refusal(game_id, translate(language, "replay.not_found",
                                                    "There is no game #{number} here.",
                                                    number=game_id))
        if record.running:
            return self._refusal(game_id, translate(
                language, "replay.running",
                "Game #{number} is still being played; its replay opens when it is over.",
                number=game_id))
        day = str(record.options.get("daily") or "")
        if day and day >= self._today().isoformat():
            # A finished attempt would show the day's solution to those still playing it.
            return self._refusal(game_id, translate(
                language, "replay.daily_today",
                "The daily challenge of {day} can be replayed from the next day (UTC) on.",
                day=day))
        try:
            replay = await self._replay(record)
        except WorkersBusy:
            return self._refusal(game_id, translate(
                language, "error.workers_busy",
                "🧠 The computer is busy thinking for other games. Try again in a minute."))
        except Exception:  # a log that no engine reads any more, a crashed worker
            log.exception("no replay of game %s", game_id)
            return self._refusal(game_id, translate(language, "replay.broken",
                                                    "Game #{number} cannot be replayed.",
                                                    number=game_id))
        last = len(replay["frames"]) - 1
        chosen = last if index < 0 or index > last else index
        text = render_step(replay, chosen, Service.names(record), language, emoji)
        return ReplayStep(game_id, chosen, last, text)

    @staticmethod
    def _refusal(game_id: int, text: str) -> ReplayStep:
        return ReplayStep(game_id, 0, 0, text, ok=False)

    async def _replay(self, record: GameRecord) -> dict[str, Any]:
        """The game's frames and analysis, built once (one build for concurrent askers)."""
        cached = self._replays.get(record.id)
        if cached is not None:
            self._replays.move_to_end(record.id)
            return cached
        task = self._building.get(record.id)
        if task is None:
            task = asyncio.ensure_future(self.service.workers.run(
                build_replay, record.game, record.state, len(record.players),
                refuse_when_busy=True, timeout=BUILD_SECONDS))
            self._building[record.id] = task
            task.add_done_callback(lambda _: self._building.pop(record.id, None))
        replay = await asyncio.shield(task)
        self._replays[record.id] = replay
        while len(self._replays) > self._cached:
            self._replays.popitem(last=False)
        return replay
