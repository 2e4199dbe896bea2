"""The composition root: the one place where the bot is assembled.

``python -m bot``, the console and the test worlds build one :class:`App` and hand it to
every adapter they run (as discord.py's ``advanced_startup`` example injects its database
pool into the client). Everything that must exist once per process lives here: the
settings, the store, the event hub, the service, and the features around it: the
community, the daily challenge, the classroom, the replays' cache, tournaments,
assignments and the puzzle trainer.

The features hear the service and each other through the hub (``bot.events``), and
``build`` says who hears what, one line per subscriber: ``GameFinished`` is the results
and ratings (``Community``), the daily attempts (``DailyChallenge``) and the tournaments'
results; ``PlayerForgotten`` is the tournaments and the puzzle trainer forgetting a person
after ``/forget-me``. No constructor subscribes itself: built twice, a feature would hear
every game twice; built here, both platforms in one process share one of each.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from bot.classroom import Classroom
from bot.classroom.assignments import Assignments
from bot.clock import Clock, utc_now
from bot.community import Community
from bot.config import Settings
from bot.events import Events, GameFinished, PlayerForgotten
from bot.learn.replays import Replays
from bot.limits import Limits
from bot.puzzles.daily import DailyChallenge
from bot.puzzles.trainer import PuzzleTrainer
from bot.service import Service
from bot.store import Store
from bot.tournaments import Tournaments
from engines.puzzles import puzzle_games

# How long the bot waits, as it exits, for its worker processes to be gone: a SIGTERM ends
# one within milliseconds, and pebble kills one that ignores it after 3 s.
WORKERS_STOP_SECONDS = 5.0


@dataclass
class App:
    settings: Settings
    store: Store
    service: Service
    community: Community
    daily: DailyChallenge
    classroom: Classroom
    replays: Replays
    tournaments: Tournaments
    assignments: Assignments
    trainer: PuzzleTrainer
    events: Events

    @classmethod
    def build(cls, settings: Settings, store: Store, *, clock: Clock = utc_now,
              seed_source: Callable[[], int] | None = None,
              limits: Limits | None = None) -> App:
        """Assemble the bot around an open store. ``clock`` and ``seed_source`` are for
        tests: a clock they move by hand, and games that depend only on their seed."""
        events = Events()
        service = Service(store, seed_source=seed_source,
                          limits=limits or Limits.for_settings(settings.games_per_user,
                                                               settings.games_per_server),
                          events=events)
        community, tournaments = Community(service), Tournaments(service)
        daily, trainer = DailyChallenge(service, clock), PuzzleTrainer(service, clock)
        # Who hears what: one line per subscriber, heard in this order.
        events.subscribe(GameFinished, community.game_finished)  # results and ratings
        events.subscribe(GameFinished, tournaments.game_finished)  # results, next rounds
        events.subscribe(GameFinished, daily.game_finished)  # the daily attempts
        events.subscribe(PlayerForgotten, tournaments.player_forgotten)
        events.subscribe(PlayerForgotten, trainer.player_forgotten)
        community.stats_sources.append(trainer.stats_lines)  # /stats asks it for lines
        return cls(settings, store, service, community, daily, Classroom(service, clock),
                   Replays(service, today=lambda: clock().astimezone(dt.UTC).date()),
                   tournaments, Assignments(store, clock), trainer, events)

    def start(self, *, puzzle_stock: bool = False) -> None:
        """Start what works in the background for every adapter: the computer's workers,
        and with ``puzzle_stock`` (``python -m bot``) the filling of the puzzle trainer's
        stock of every game (``bot.puzzles.stock``), which tests' bots leave off."""
        self.service.workers.start()
        if puzzle_stock:
            self.trainer.stock.start(puzzle_games())

    async def close(self) -> None:
        """Stop the workers and close the store; adapters are stopped before this."""
        # Off the loop: the wait is a few milliseconds, or up to pebble's 3 s for a frozen
        # worker before it kills it. The store closes whatever happens meanwhile (a second
        # Ctrl-C): its open connection's thread would keep the process from ever exiting.
        try:
            await self.trainer.close()  # its next puzzles being made, before their pool
            await asyncio.to_thread(self.service.workers.shutdown,
                                    wait_seconds=WORKERS_STOP_SECONDS)
        finally:
            await self.store.close()
