"""The game service's core: the state every command shares (the store, the caches, the
locks, the workers, the rate limits) and the steps every change goes through: the game
read under its lock, the version-guarded save, and the reply drawn after it.

``Core`` is the collaborator the others (``openings``, ``turns``, ``moves``, ``endings``,
``records``) work through; ``bot.service.Service`` holds them all and is what the
adapters call.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from bot.events import Events, GameFinished
from bot.limits import Limits, RateLimiter, Workers
from bot.payloads import END_ACTIONS, Payload
from bot.replies import (
    Place,
    Reply,
    ServiceError,
    User,
)
from bot.service.dangers import DangerMarks
from bot.service.presenter import Presenter, hides_hands, player_names, t
from bot.store import GameRecord, GameUpdate, MoveRecord, Store
from bot.tables import room_of
from engines.base import (
    GameError,
    GameModule,
    GameState,
    StateError,
)
from engines.registry import get_game
from renderers.i18n import translate

log = logging.getLogger(__name__)

def quick_level(module: GameModule, level: str) -> bool:
    """A computer level whose move costs about a millisecond (the engine's
    ``quick_levels``): played on the event loop, where a worker would cost more."""
    return level in module.INFO.quick_levels


def needs_pool(module: GameModule, players: list[dict[str, Any]]) -> bool:
    """Whether a new game waits for the CPU pool: creating it is CPU work (a Turing puzzle
    and the machine's scores), or a computer in it thinks there at every move. While the
    pool is full such games are refused; other games cost nothing to create."""
    return module.INFO.costly_new_game or any(
        p.get("kind") == "ai" and not quick_level(module, str(p.get("level")))
        for p in players)


def agent_seed(record: GameRecord) -> int:
    """The computer's randomness for one move: the same move again after a restart."""
    return record.seed * 7919 + record.version


OPEN_SEAT: dict[str, Any] = {"kind": "open", "name": "…"}



def seat_of(record: GameRecord, user: User) -> int | None:
    for seat, player in enumerate(record.players):
        if (player.get("kind") == "human" and player.get("platform") == user.platform
                and player.get("id") == user.id):
            return seat
    return None


def has_left(record: GameRecord, seat: int | None) -> bool:
    return seat is not None and bool(record.players[seat].get("left"))


def turn_began(saved: GameRecord, state: GameState,
               waiting: set[int]) -> list[dict[str, Any]]:
    """The people whose turn has just begun: seats newly to move (the one who started
    or joined the game among them). A simultaneous round begins everyone's turn once,
    when it opens."""
    if saved.status != "active":
        return []
    return [saved.players[seat] for seat in state.to_move()
            if seat not in waiting and saved.players[seat].get("kind") == "human"]


def cued(saved: GameRecord, began: list[dict[str, Any]],
         actor: int | None) -> list[dict[str, Any]]:
    """Whom to cue of ``began``: not the one who acted, who is looking at the board,
    and nobody in a game of one person."""
    people = [p for p in saved.players if p.get("kind") == "human" and not p.get("left")]
    if len(people) < 2:
        return []
    own = saved.players[actor] if actor is not None else None
    return [p for p in began if p is not own]


class Core:
    """What every command of the service shares, and the path of every change: the
    store, this process's copies of the running games and their locks, the workers, the
    rate limits, the danger marks and the presenter that draws the replies."""

    def __init__(self, store: Store, seed_source: Callable[[], int] | None = None,
                 limits: Limits | None = None, events: Events | None = None) -> None:
        """``limits`` default to none at all, for scripted play; the bot passes
        ``Limits()``. ``events``: the hub the save publishes ``GameFinished`` to
        (``App.build``'s, which the features subscribe to; a bare service has its own)."""
        self.store = store
        self.events = events or Events()
        self.limits = limits or Limits.unlimited()
        self.rate = RateLimiter(self.limits.command_burst, self.limits.commands_per_second)
        self.workers = Workers(self.limits.cpu_workers, self.limits.queued_jobs,
                               processes=self.limits.cpu_processes)
        self.seed_source = seed_source or (lambda: secrets.randbits(31))
        self.dangers = DangerMarks(self.workers)
        self.presenter = Presenter(self.dangers)
        self.dangers.arrived_late = self.presenter.forget
        # Names this process in the database's computer-turn leases (several processes).
        self.process_id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.locks: dict[int, asyncio.Lock] = {}
        self.cache: dict[int, tuple[GameRecord, GameState]] = {}
        self.channel_games: dict[tuple[str, str], int] = {}

    # ----------------------------------------------------------------- helpers
    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """The game's lock: this process's first (its waiters queue in order without
        holding a database connection), then every process's (``Store.game_lock``: an
        advisory lock on PostgreSQL). The version-guarded save stays the safety net."""
        async with self.process_lock(game_id), self.store.game_lock(game_id):
            yield

    def process_lock(self, game_id: int) -> asyncio.Lock:
        """This process's lock of the game alone: enough for a command that only reads,
        as a change in this process (which changes the cached state in place before its
        save) holds it too, while another process's change is seen by reading afresh."""
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = asyncio.Lock()
        return lock

    def error_text(self, place: Place, error: GameError) -> str:
        return translate(place.language, error.key, error.default, **error.params)

    async def load(self, record: GameRecord) -> GameState:
        """The engine state of ``record``, from the cache when it is the same version."""
        cached = self.cache.get(record.id)
        if cached is not None and cached[0].version == record.version:
            return cached[1]
        module = get_game(record.game)
        state = module.State.from_dict(record.state)
        self.cache[record.id] = (record, state)
        return state

    async def running(self, place: Place, *, cached: bool = True) -> GameRecord | None:
        """The channel's running game, from memory when this process already holds it
        (unless ``cached`` is False).

        Skipping the read is safe across processes: a record another process has moved on
        fails the version guard when saved, and that failure drops the memory copy.
        """
        game_id = self.channel_games.get((place.platform, place.channel))
        held = self.cache.get(game_id) if game_id is not None and cached else None
        if held is not None and held[0].running:
            return held[0]
        record = await self.store.running_game(place.platform, place.channel)
        if record is not None:
            self.channel_games[(place.platform, place.channel)] = record.id
        return record

    async def current(self, place: Place) -> tuple[GameRecord, GameState]:
        record = await self.running(place)
        if record is None:
            raise ServiceError(t(place, "error.no_game"))
        return record, await self.load(record)

    async def reread(self, record: GameRecord) -> tuple[GameRecord, GameState]:
        """The game as the database has it now, replacing this process's copy."""
        fresh = await self.store.get_game(record.id)
        if fresh is None:
            raise ServiceError(translate("en", "error.no_game"))
        self.cache.pop(record.id, None)
        return fresh, await self.load(fresh)

    def cached_record(self, record: GameRecord) -> GameRecord:
        cached = self.cache.get(record.id)
        return cached[0] if cached is not None and cached[0].version >= record.version else record

    async def fresh(self, record: GameRecord) -> tuple[GameRecord, GameState]:
        """The newest record and state; call it holding the game's lock. With other
        processes on the same database (``Store.shared``) the database is asked, as one of
        them may have moved the game since this process's copy was read."""
        record = self.cached_record(record)
        if self.store.shared:
            latest = await self.store.get_game(record.id)
            if latest is not None and latest.version != record.version:
                self.cache.pop(record.id, None)
                record = latest
        return record, await self.load(record)

    @asynccontextmanager
    async def locked_game(self, place: Place) -> AsyncIterator[tuple[GameRecord, GameState]]:
        """The channel's game under its lock, re-read after the lock is taken, because the
        command that held the lock before may have moved it on."""
        record, _ = await self.current(place)
        async with self.lock(record.id):
            yield await self.fresh(record)

    async def ended_game(self, origin: Place, payload: Payload | None) -> GameRecord | None:
        """The ended game an end-panel button (``e``) names, when it ended in ``origin``'s
        channel: the only place its panel works. None for anything else, so a forged
        number reveals nothing."""
        if payload is None or payload.kind != "e" or payload.last_token not in END_ACTIONS:
            return None
        record = await self.store.get_game(payload.game_id)
        if (record is None or record.running or record.platform != origin.platform
                or room_of(record.channel) != room_of(origin.channel)):
            return None  # (a game that ended at a table of a group: its panel is there)
        return record

    async def refusal(self, place: Place, error: ServiceError,
                      user: User | None = None) -> Reply:
        """The notice, with the current board, and the current hand when ``user`` holds one,
        so that a refused click also refreshes whatever the user clicked on."""
        if error.record is not None and error.record.running:
            record = self.cached_record(error.record)
            try:
                state = await self.load(record)
                reply = self.presenter.board_reply(place, record, state, notice=error.notice,
                                                   ok=False)
                reply.light = error.light
                seat = seat_of(record, user) if user is not None else None
                if seat is not None and hides_hands(record):
                    reply.hand = self.presenter.render_hand(place, record, state, seat)
                return reply
            except (StateError, GameError):
                log.exception("could not render game %s", record.id)
        return Reply(ok=False, notice=error.notice, light=error.light)

    async def rate_refusal(self, place: Place, actor: User) -> str | None:
        """Count a command against ``actor``'s rate limit: ``None`` when they may go on,
        else the answer to give instead. Game commands get it through ``_guard``; adapters
        ask it for the commands that only read (stats, leaderboards, the game list, the
        export), which cost a query each."""
        wait = await self._rate_wait(actor)
        if not wait:
            return None
        return t(place, "error.rate_limited",
                 "⏳ That is a lot of commands at once. Try again in {seconds} s.",
                 seconds=wait)

    async def _rate_wait(self, actor: User) -> int:
        """The seconds ``actor`` must wait, counting this command. With other processes on
        the database (a balancer may send a person's commands to any of them) the bucket
        is the database's; one process keeps it in memory and spends no write on it. If
        the database cannot answer, the process's own bucket decides, so a command is
        never refused for the limiter's sake."""
        if self.store.shared and self.rate.burst is not None:
            try:
                return await self.store.take_rate_token(
                    actor.platform, actor.id, self.rate.burst, self.rate.per_second)
            except Exception:
                log.warning("shared rate limit unavailable; using this process's",
                            exc_info=True)
        return self.rate.wait_seconds(actor.platform, actor.id)

    async def guard(self, place: Place, work: Callable[[], Any],
                    user: User | None = None, *, actor: User | None = None) -> Reply:
        """Run a command; turn refusals into notices and crashes into a logged apology.

        ``actor`` is the person who sent the command, counted against their rate limit;
        ``user`` also gets their hand refreshed beside a refusal. A refusal for going too
        fast is answered like any other, with the board and hand as they are, so that an
        adapter redrawing the clicked message loses nothing."""
        if actor is not None:
            notice = await self.rate_refusal(place, actor)
            if notice is not None:
                return await self.refusal(place, ServiceError(notice,
                                                              await self.running(place)),
                                          user)
        try:
            result: Reply = await work()
            return result
        except ServiceError as error:
            return await self.refusal(place, error, user)
        except GameError as error:
            running = await self.running(place)
            return await self.refusal(place, ServiceError(self.error_text(place, error),
                                                          running), user)
        except Exception:
            log.exception("command failed in %s:%s", place.platform, place.channel)
            self.cache.clear()
            self.channel_games.clear()
            self.presenter.clear()
            return Reply(ok=False, notice=t(place, "error.internal"))

    async def resign_seats(self, place: Place, record: GameRecord, state: GameState,
                           seats: list[int], reason: str) -> Reply:
        """The engine's resignation for each of ``seats``, saved as one change. In a
        Turing game of three or more the others may play on: a seat that left is marked
        ``left``, so it no longer counts as one of its player's running games and its
        player can no longer end the game for the others."""
        for seat in seats:
            if state.outcome() is None:  # the first resignations may already end it
                state.resign(seat)
        status = "finished" if state.outcome() is not None else "active"
        players = [dict(p) for p in record.players]
        if status == "active":
            for seat in seats:
                players[seat]["left"] = True
        return await self.save_and_reply(place, record, state, players, status,
                                         MoveRecord(seats[0], "resign", reason), None)

    # ---------------------------------------------------------------- internals
    def acting_seat(self, place: Place, record: GameRecord, state: GameState,
                    user: User) -> int:
        seat = seat_of(record, user)
        if seat is None:
            raise ServiceError(t(place, "error.not_a_player"), light=True)
        if record.status != "active":
            raise ServiceError(t(place, "error.game_over"
                                 if not record.running else "error.cannot_join"), record)
        if seat not in state.to_move():
            waiting = [player_names(record)[s] for s in state.to_move()]
            raise ServiceError(t(place, "error.not_your_turn",
                                 name=", ".join(waiting) or "?"), record, light=True)
        return seat

    async def apply(self, place: Place, record: GameRecord, state: GameState, seat: int,
                    action: str) -> Reply:
        waiting = set(state.to_move())
        state.apply(seat, action)  # raises, and changes nothing, when the move is refused
        status = "finished" if state.outcome() is not None else "active"
        return await self.save_and_reply(place, record, state, record.players, status,
                                         MoveRecord(seat, "action", action), seat, waiting)

    async def changed_reply(self, place: Place, saved: GameRecord, state: GameState,
                       seat: int | None, waiting: set[int] | None = None) -> Reply:
        """After a saved change: the new board, and the actor's refreshed hand when the
        game hides hands (the move may have changed what they hold). ``waiting``: the
        seats that were to move before the change, so that those whose turn has just
        begun are cued (None: no cue)."""
        reply = self.presenter.board_reply(place, saved, state)
        reply.moved = True
        if saved.status == "finished" and reply.board is not None:
            # A copy: the drawn board is shared (``Presenter.boards``).
            reply.board = replace(reply.board, prompt=await self._finale(place, saved))
        if waiting is not None:
            reply.turn_began = turn_began(saved, state, waiting)
            reply.turn_cue = cued(saved, reply.turn_began, seat)
        if (seat is not None and saved.players[seat].get("kind") == "human"
                and hides_hands(saved)):
            reply.hand = self.presenter.render_hand(place, saved, state, seat)
        return reply

    async def _finale(self, place: Place, saved: GameRecord) -> str:
        """The end panel's line under a finished board: each person's rating change (a
        🏆 for the winners), or a 🏆 for the winners of an unrated game. The results were
        written by the subscribers of ``GameFinished`` inside ``save``, before this runs."""
        try:
            rows = {row.user_id: row for row in await self.store.game_results(saved.id)}
        except Exception:  # the board matters more than its rating line
            log.exception("could not read the results of game %s", saved.id)
            rows = {}
        lines = []
        for player in saved.players:
            row = rows.get(str(player.get("id"))) if player.get("kind") == "human" else None
            if row is None:
                continue
            mark = {"win": "🏆 ", "draw": "🤝 "}.get(row.outcome, "")
            if row.rating_before is None or row.rating_after is None:
                if mark == "🏆 ":
                    lines.append(t(place, "end.well_played", "🏆 Well played, {name}!",
                                   name=row.name))
                continue
            change = round(row.rating_after) - round(row.rating_before)
            lines.append(mark + t(place, "end.rating",
                                  "{name}: rating {before} → {after} ({change})",
                                  name=row.name, before=round(row.rating_before),
                                  after=round(row.rating_after),
                                  change=f"{change:+d}".replace("-", "−")))
        return "\n".join(lines)

    async def save_and_reply(self, place: Place, record: GameRecord, state: GameState,
                             players: list[dict[str, Any]], status: str, move: MoveRecord,
                             seat: int | None, waiting: set[int] | None = None) -> Reply:
        """Save a change, then draw its reply (``changed_reply``). One after the other:
        drawing it while the commit syncs saved nothing, as the database thread waits for
        Python's lock while the event loop draws (``docs/performance.md``)."""
        saved = await self.save(place, record, state, players, status, move)
        return await self.changed_reply(place, saved, state, seat, waiting=waiting)

    async def save(self, place: Place, record: GameRecord, state: GameState,
                   players: list[dict[str, Any]], status: str, move: MoveRecord) -> GameRecord:
        try:
            saved = await self.store.save_game(record, GameUpdate(state.to_dict(), status,
                                                                  players, move))
        except BaseException:
            # Cancelled or failed, the change may not be saved, yet ``state`` (this
            # process's copy) already holds it: read the game again next time.
            self.forget(record)
            raise
        if saved is None:
            # Another process wrote first: forget our copy, which already holds the move.
            self.forget(record)
            fresh = await self.store.get_game(record.id)
            raise ServiceError(t(place, "error.busy"), fresh)
        if saved.running:
            self.cache[record.id] = (saved, state)
            await self.dangers.refresh(saved, state)
        else:
            self.dangers.forget(saved.id)
            # The results, ratings, daily attempts and tournaments hear it here, before the
            # reply is drawn; a failing subscriber is logged and never undoes the move.
            await self.events.publish(GameFinished(saved, state))
            # Finished games are read again only to show a final board; keeping them would
            # grow the cache with every game ever played.
            self.forget(record)
            self.locks.pop(record.id, None)
        return saved

    def forget(self, record: GameRecord) -> None:
        self.cache.pop(record.id, None)
        self.presenter.forget(record.id)
        self.channel_games.pop((record.platform, record.channel), None)
