"""The bot's typed events: what happened, published by the one part that knows it, heard by
the features that care, each subscribed by one line in ``App.build`` (as lila's
``Finisher`` publishes one ``FinishGame`` and each module subscribes in its own
``Env.scala``). The service knows no feature; a feature knows no other; they meet here.

* ``GameFinished``: a game was saved finished or abandoned (``record.status`` says which).
  The service publishes it inside the save, before it draws the reply, so the results,
  ratings, the daily attempt and the tournament's result are written by then (the end
  panel reads the ratings back). A failing subscriber is logged and never undoes the move;
  the others still hear it.
* ``PlayerForgotten``: ``/forget-me`` deleted what the results keep of a person; whatever
  else keeps their name or id forgets it too (tournaments, the puzzle trainer). A failing
  subscriber stops the command, so it never says "done" while something still holds the
  person.

Subscribers are awaited one after another, in the order they subscribed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from bot.store import GameRecord
from engines.base import GameState

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameFinished:
    record: GameRecord  # as saved: ``status`` is "finished" or "abandoned"
    state: GameState
    # A failing subscriber is logged, and the others still hear the event.
    isolated: ClassVar[bool] = True

    def __str__(self) -> str:
        return f"game {self.record.id}"


@dataclass(frozen=True)
class PlayerForgotten:
    platform: str
    user_id: str
    isolated: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"a person of {self.platform}"


Event = GameFinished | PlayerForgotten
E = TypeVar("E", GameFinished, PlayerForgotten)


class Events:
    """The hub: ``subscribe`` a coroutine function to a kind of event, ``publish`` one."""

    def __init__(self) -> None:
        self._subscribers: dict[type[Any], list[Callable[[Any], Awaitable[None]]]] = {}

    def subscribe(self, kind: type[E], subscriber: Callable[[E], Awaitable[None]]) -> None:
        self._subscribers.setdefault(kind, []).append(subscriber)

    def unsubscribe(self, kind: type[E], subscriber: Callable[[E], Awaitable[None]]) -> None:
        self._subscribers.get(kind, []).remove(subscriber)

    def subscribers(self, kind: type[E]) -> list[Callable[[E], Awaitable[None]]]:
        return list(self._subscribers.get(kind, ()))

    async def publish(self, event: Event) -> None:
        for subscriber in list(self._subscribers.get(type(event), ())):
            if not event.isolated:
                await subscriber(event)
                continue
            try:
                await subscriber(event)
            except Exception:
                log.exception("%s subscriber failed for %s", type(event).__name__, event)
