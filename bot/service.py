"""The game service: platform-neutral commands in, platform-neutral replies out.

It is the only code that changes game state. For every command it loads the channel's
game, checks turn and permission, applies the action, saves it under the version guard
and answers with a ``Reply``. Adapters translate platform events into these calls and
replies into messages; they hold no game logic.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from bot.dangers import DangerMarks
from bot.drawing import BoardDrawing
from bot.jobs import computer_move, new_game_state
from bot.limits import Limits, RateLimiter, WorkerCrashed, Workers, WorkersBusy
from bot.payloads import END_ACTIONS, Payload
from bot.replies import (  # re-exported: adapters import them from here
    Board as Board,
)
from bot.replies import (
    Button as Button,
)
from bot.replies import (
    Hand as Hand,
)
from bot.replies import (
    Opponent as Opponent,
)
from bot.replies import (
    Place as Place,
)
from bot.replies import (
    Reply as Reply,
)
from bot.replies import (
    ServiceError as ServiceError,
)
from bot.replies import (
    User as User,
)
from bot.replies import (
    ai_player as ai_player,
)
from bot.replies import (
    human_player as human_player,
)
from bot.replies import (
    place_of_record as place_of_record,
)
from bot.store import ChannelBusy, GameRecord, GameUpdate, MoveRecord, Store
from bot.tables import free_table, room_of, same_pairing, seated_games
from engines.base import (
    GRID_TOKEN,
    Choice,
    GameError,
    GameModule,
    GameState,
    StateError,
    parse_option_text,
)
from engines.registry import game_names, get_game, make_agent, resolve_name
from renderers import renderer_for
from renderers.i18n import localise, translate

log = logging.getLogger(__name__)
# A computer turn's lease outlasts its thinking budget by this much, so a slow save does not
# let another process take the turn over while this one still plays it.
AI_LEASE_MARGIN_SECONDS = 15.0



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


class Service(BoardDrawing):
    def __init__(self, store: Store, seed_source: Callable[[], int] | None = None,
                 limits: Limits | None = None) -> None:
        """``limits`` default to none at all, for scripted play; the bot passes
        ``Limits()``."""
        self.store = store
        self.limits = limits or Limits.unlimited()
        self.rate = RateLimiter(self.limits.command_burst, self.limits.commands_per_second)
        self.workers = Workers(self.limits.cpu_workers, self.limits.queued_jobs,
                               processes=self.limits.cpu_processes)
        self._seed_source = seed_source or (lambda: secrets.randbits(31))
        self.dangers = DangerMarks(self.workers)
        # Names this process in the database's computer-turn leases (several processes).
        self.process_id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[GameRecord, GameState]] = {}
        self._channel_games: dict[tuple[str, str], int] = {}
        # The texts last drawn per game: (seat or None for the board, language, emoji) ->
        # (record, state, text). A menu step or a hand press changes neither the record nor
        # the state object, so it reuses the text instead of rendering the whole board
        # again; most presses are such steps. Any save makes a new record object, so a hit
        # needs the very objects the text was drawn from.
        self._texts: dict[int, dict[tuple[int | None, str, bool],
                                    tuple[GameRecord, GameState, str]]] = {}
        # Called after a game is saved finished or abandoned, such as the daily challenge's
        # result keeping; a failing listener is logged and never undoes the move.
        self.finish_listeners: list[Callable[[GameRecord, GameState],
                                             Awaitable[None]]] = []

    # ----------------------------------------------------------------- helpers
    @asynccontextmanager
    async def _lock(self, game_id: int) -> AsyncIterator[None]:
        """The game's lock: this process's first (its waiters queue in order without
        holding a database connection), then every process's (``Store.game_lock``: an
        advisory lock on PostgreSQL). The version-guarded save stays the safety net."""
        async with self._process_lock(game_id), self.store.game_lock(game_id):
            yield

    def _process_lock(self, game_id: int) -> asyncio.Lock:
        """This process's lock of the game alone: enough for a command that only reads,
        as a change in this process (which changes the cached state in place before its
        save) holds it too, while another process's change is seen by reading afresh."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _error_text(self, place: Place, error: GameError) -> str:
        return translate(place.language, error.key, error.default, **error.params)

    async def _load(self, record: GameRecord) -> GameState:
        """The engine state of ``record``, from the cache when it is the same version."""
        cached = self._cache.get(record.id)
        if cached is not None and cached[0].version == record.version:
            return cached[1]
        module = get_game(record.game)
        state = module.State.from_dict(record.state)
        self._cache[record.id] = (record, state)
        return state

    async def _running(self, place: Place, *, cached: bool = True) -> GameRecord | None:
        """The channel's running game, from memory when this process already holds it
        (unless ``cached`` is False).

        Skipping the read is safe across processes: a record another process has moved on
        fails the version guard when saved, and that failure drops the memory copy.
        """
        game_id = self._channel_games.get((place.platform, place.channel))
        held = self._cache.get(game_id) if game_id is not None and cached else None
        if held is not None and held[0].running:
            return held[0]
        record = await self.store.running_game(place.platform, place.channel)
        if record is not None:
            self._channel_games[(place.platform, place.channel)] = record.id
        return record

    async def _current(self, place: Place) -> tuple[GameRecord, GameState]:
        record = await self._running(place)
        if record is None:
            raise ServiceError(self._t(place, "error.no_game"))
        return record, await self._load(record)

    async def _reread(self, record: GameRecord) -> tuple[GameRecord, GameState]:
        """The game as the database has it now, replacing this process's copy."""
        fresh = await self.store.get_game(record.id)
        if fresh is None:
            raise ServiceError(translate("en", "error.no_game"))
        self._cache.pop(record.id, None)
        return fresh, await self._load(fresh)

    def _cached_record(self, record: GameRecord) -> GameRecord:
        cached = self._cache.get(record.id)
        return cached[0] if cached is not None and cached[0].version >= record.version else record

    async def _fresh(self, record: GameRecord) -> tuple[GameRecord, GameState]:
        """The newest record and state; call it holding the game's lock. With other
        processes on the same database (``Store.shared``) the database is asked, as one of
        them may have moved the game since this process's copy was read."""
        record = self._cached_record(record)
        if self.store.shared:
            latest = await self.store.get_game(record.id)
            if latest is not None and latest.version != record.version:
                self._cache.pop(record.id, None)
                record = latest
        return record, await self._load(record)

    @asynccontextmanager
    async def _locked_game(self, place: Place) -> AsyncIterator[tuple[GameRecord, GameState]]:
        """The channel's game under its lock, re-read after the lock is taken, because the
        command that held the lock before may have moved it on."""
        record, _ = await self._current(place)
        async with self._lock(record.id):
            yield await self._fresh(record)

    @staticmethod
    def seat_of(record: GameRecord, user: User) -> int | None:
        for seat, player in enumerate(record.players):
            if (player.get("kind") == "human" and player.get("platform") == user.platform
                    and player.get("id") == user.id):
                return seat
        return None

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

    async def _refusal(self, place: Place, error: ServiceError,
                       user: User | None = None) -> Reply:
        """The notice, with the current board, and the current hand when ``user`` holds one,
        so that a refused click also refreshes whatever the user clicked on."""
        if error.record is not None and error.record.running:
            record = self._cached_record(error.record)
            try:
                state = await self._load(record)
                reply = self._board_reply(place, record, state, notice=error.notice, ok=False)
                reply.light = error.light
                seat = self.seat_of(record, user) if user is not None else None
                if seat is not None and self.hides_hands(record):
                    reply.hand = self.render_hand(place, record, state, seat)
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
        return self._t(place, "error.rate_limited",
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

    async def _guard(self, place: Place, work: Callable[[], Any],
                     user: User | None = None, *, actor: User | None = None) -> Reply:
        """Run a command; turn refusals into notices and crashes into a logged apology.

        ``actor`` is the person who sent the command, counted against their rate limit;
        ``user`` also gets their hand refreshed beside a refusal. A refusal for going too
        fast is answered like any other, with the board and hand as they are, so that an
        adapter redrawing the clicked message loses nothing."""
        if actor is not None:
            notice = await self.rate_refusal(place, actor)
            if notice is not None:
                return await self._refusal(place, ServiceError(notice,
                                                               await self._running(place)),
                                           user)
        try:
            result: Reply = await work()
            return result
        except ServiceError as error:
            return await self._refusal(place, error, user)
        except GameError as error:
            running = await self._running(place)
            return await self._refusal(place, ServiceError(self._error_text(place, error),
                                                           running), user)
        except Exception:
            log.exception("command failed in %s:%s", place.platform, place.channel)
            self._cache.clear()
            self._channel_games.clear()
            self._texts.clear()
            return Reply(ok=False, notice=self._t(place, "error.internal"))

    # ---------------------------------------------------------------- commands
    @staticmethod
    def _new_game_parts(user: User, game: str, opponent: Opponent, options: str
                        ) -> tuple[GameModule, dict[str, Any], dict[str, Any] | None]:
        """The game module, parsed options and the other player (None for a solo game,
        where "against the computer" means against the machine's score); raises on bad
        input."""
        module = get_game(resolve_name(game))
        level = opponent.level or "strong"
        if (opponent.kind == "ai" and not module.INFO.solo and module.INFO.levels
                and level == module.INFO.levels[0]):
            options = f"{module.INFO.beginner_options} {options}"  # typed ones come later
        parsed = parse_option_text(module.OPTIONS, options)
        if opponent.kind == "ai" and module.INFO.solo:
            return module, parsed, None
        if opponent.kind == "ai":
            make_agent(module.NAME, level, random.Random(0))  # validates the level
            return module, parsed, ai_player(level)
        if opponent.kind == "user" and opponent.user is not None:
            if opponent.user.platform == user.platform and opponent.user.id == user.id:
                return module, parsed, OPEN_SEAT
            return module, parsed, human_player(opponent.user)
        return module, parsed, OPEN_SEAT

    def check_start(self, place: Place, user: User, game: str, opponent: Opponent,
                    options: str = "") -> str | None:
        """Why ``start_game`` would refuse these settings, or None; changes nothing.

        Lets an adapter validate before it creates anything, such as a thread for the game.
        """
        try:
            self._new_game_parts(user, game, opponent, options)
        except GameError as error:
            return self._error_text(place, error)
        return None

    async def start_refusal(self, place: Place, user: User, game: str, opponent: Opponent,
                            options: str = "") -> str | None:
        """``check_start`` plus the limits a new game meets (games per person and per
        server, a full pool for games that need it); changes nothing. An adapter that
        opens a thread for the game asks this first, so a refusal leaves no empty thread."""
        problem = self.check_start(place, user, game, opponent, options)
        if problem is not None:
            return problem
        module, _, other = self._new_game_parts(user, game, opponent, options)
        players = [human_player(user)] + ([other] if other is not None else [])
        try:
            await self._check_game_limits(place, players)
        except ServiceError as error:
            return error.notice
        if needs_pool(module, players) and self.workers.busy:
            return self._t(place, "error.workers_busy",
                           "🧠 The computer is busy thinking for other games. Try again in a "
                           "minute.")
        return None

    async def start_game(self, place: Place, user: User, game: str, opponent: Opponent,
                         options: str = "", creator_seat: int | None = 0) -> Reply:
        async def work() -> Reply:
            module, parsed, other = self._new_game_parts(user, game, opponent, options)
            seed = self._seed_source()
            seat = creator_seat if creator_seat in (0, 1) else random.Random(seed).randrange(2)
            if other is None:
                players = [human_player(user)]
            elif seat == 0 or module.State.max_players > 2:
                players = [human_player(user), other]
            else:
                players = [other, human_player(user)]
            return await self._create(place, module, parsed, seed, players, user)
        return await self._guard(place, work, actor=user)

    async def start_marked_game(self, place: Place, creator: User, game: str,
                                players: list[dict[str, Any]], options: str,
                                marks: dict[str, Any]) -> Reply:
        """A game whose players were chosen by an event (a tournament's pairing), seated
        as given. ``marks`` join the stored options (``bot.hints.EVENT_OPTIONS``: no
        hints, no rematch) but never reach the engine, whose options they are not."""
        async def work() -> Reply:
            module = get_game(resolve_name(game))
            parsed = parse_option_text(module.OPTIONS, options)
            return await self._create(place, module, parsed, self._seed_source(), players,
                                      creator, marks)
        return await self._guard(place, work)

    async def _create(self, place: Place, module: GameModule, parsed: dict[str, Any],
                      seed: int, players: list[dict[str, Any]], creator: User,
                      marks: dict[str, Any] | None = None) -> Reply:
        status = "waiting" if any(p.get("kind") == "open" for p in players) else "active"
        await self._check_game_limits(place, players)
        try:
            if needs_pool(module, players) and self.workers.busy:
                raise WorkersBusy
            if module.INFO.costly_new_game:
                state = module.State.from_dict(await self.workers.run(
                    new_game_state, module.NAME, parsed, len(players), seed,
                    refuse_when_busy=True))
            else:
                state = module.new_game(parsed, len(players), seed)
        except WorkersBusy:
            raise ServiceError(self._t(
                place, "error.workers_busy",
                "🧠 The computer is busy thinking for other games. Try again in a "
                "minute."), await self._running(place)) from None
        try:
            record = await self.store.create_game(place.platform, place.channel,
                                                  module.NAME, {**parsed, **(marks or {})},
                                                  seed,
                                                  state.to_dict(), players, status,
                                                  server=place.server)
        except ChannelBusy:
            running = await self._running(place)
            title = get_game(running.game).TITLE if running else module.TITLE
            raise ServiceError(self._t(place, "error.game_running", game=title),
                               running) from None
        self._cache[record.id] = (record, state)
        self._channel_games[(place.platform, place.channel)] = record.id
        await self.dangers.refresh(record, state)
        reply = self._board_reply(place, record, state)
        # A game that starts at once between people (an invitation, a rematch): the first
        # to move is cued, unless it is the creator, who is looking at the board.
        reply.turn_began = self._turn_began(record, state, set())
        reply.turn_cue = self._cued(record, reply.turn_began, self.seat_of(record, creator))
        names = " vs ".join(p["name"] for p in record.players if p.get("kind") != "open")
        reply.announcements.append(self._t(place, "game.started", game=module.TITLE,
                                           players=names))
        return reply

    async def _check_game_limits(self, place: Place, players: list[dict[str, Any]],
                                 new_game: bool = True) -> None:
        """Refuse a new seat in a game to a person already in ``games_per_user`` running
        games, and a new game in a server that holds ``games_per_server``."""
        limits = self.limits
        if new_game and limits.games_per_server is not None and place.server:
            running = await self.store.count_running_games(place.platform, server=place.server)
            if running >= limits.games_per_server:
                raise ServiceError(self._t(
                    place, "error.server_games_limit",
                    "This server already has {count} games running, the most it may have. "
                    "Finish or /abandon one first.", count=running))
        if limits.games_per_user is None:
            return
        for player in players:
            if player.get("kind") != "human":
                continue
            running = await self.store.count_running_games(place.platform,
                                                           user_id=str(player.get("id")))
            if running >= limits.games_per_user:
                raise ServiceError(self._t(
                    place, "error.user_games_limit",
                    "{name} is already playing {count} games, the most one person may. "
                    "Finish or resign one first.", name=player.get("name", "?"),
                    count=running))

    async def rematch(self, place: Place, user: User, game_id: int | None = None) -> Reply:
        """The channel's last ended game again (``game_id``: that ended game of this
        channel, from its end panel): same game, options and players, seats swapped (two
        seats change places, more rotate by one), so whoever moved second moves first;
        against the computer the level stays and the person changes seat. Only a player
        of that game may ask. A new seed deals a new position."""
        async def work() -> Reply:
            if game_id is None:
                last = await self.store.last_finished_game(place.platform, place.channel)
            else:
                last = await self.store.get_game(game_id)
                if last is not None and (last.running or last.platform != place.platform
                                         or room_of(last.channel) != room_of(place.channel)):
                    last = None  # (``place`` may be another table of the same group)
            if last is None:
                raise ServiceError(self._t(place, "rematch.none",
                                           "There is no finished game here to play again."))
            if self.seat_of(last, user) is None:
                raise ServiceError(self._t(place, "rematch.not_player",
                                           "Only a player of the last game here can ask for "
                                           "a rematch."))
            if last.options.get("daily"):
                raise ServiceError(self._t(place, "rematch.daily",
                                           "The daily challenge is played once a day; it has "
                                           "no rematch."))
            if last.options.get("tournament"):
                raise ServiceError(self._t(place, "rematch.tournament",
                                           "A tournament game has no rematch: the tournament "
                                           "pairs the next round."))
            players = [dict(p) for p in last.players]
            if len(players) > 1:
                players = players[1:] + players[:1]
            for player in players:  # the asker's current name, not the one of back then
                if (player.get("kind") == "human" and player.get("platform") == user.platform
                        and player.get("id") == user.id):
                    player["name"] = user.name
            module = get_game(last.game)
            if game_id is None:
                return await self._create(place, module, dict(last.options),
                                          self._seed_source(), players, user)
            # One game again per panel, however often (or at once) its button is pressed,
            # even where a group's tables would seat a second one.
            async with self._lock(last.id):
                people = self._humans(last.players)
                if any(record.game == last.game and self._humans(record.players) == people
                       for record in await seated_games(self.store, place, user)):
                    raise ServiceError(self._t(place, "rematch.running",
                                               "This game is already being played again."))
                return await self._create(place, module, dict(last.options),
                                          self._seed_source(), players, user)
        return await self._guard(place, work, actor=user)

    @staticmethod
    def _humans(players: list[dict[str, Any]]) -> set[tuple[str, str]]:
        return {(str(p.get("platform")), str(p.get("id"))) for p in players
                if p.get("kind") == "human"}

    async def join(self, place: Place, user: User) -> Reply:
        async def work() -> Reply:
            async with self._locked_game(place) as (record, state):
                return await self._join_locked(place, record, state, user)
        return await self._guard(place, work, actor=user)

    async def _join_locked(self, place: Place, record: GameRecord, state: GameState,
                           user: User) -> Reply:
        if self.seat_of(record, user) is not None:
            raise ServiceError(self._t(place, "error.already_playing"), record)
        if record.status != "waiting":
            raise ServiceError(self._t(place, "error.cannot_join"), record)
        await self._check_game_limits(place, [human_player(user)], new_game=False)
        seat = next(i for i, p in enumerate(record.players) if p.get("kind") == "open")
        players = [dict(p) for p in record.players]
        players[seat] = human_player(user)
        status = "active"
        if self.is_lobby_game(record) and len(players) < state.max_players:
            players.append(dict(OPEN_SEAT))
            status = "waiting"
        state.resize(len(players))
        saved = await self._save(place, record, state, players, status,
                                 MoveRecord(seat, "join", user.id))
        # The game starts with this join: whoever moves first (not the joiner) is cued.
        reply = await self._changed_reply(place, saved, state, seat, waiting=set())
        reply.announcements.append(self._t(place, "game.joined", name=user.name))
        return reply

    async def _start_lobby_locked(self, place: Place, record: GameRecord, state: GameState,
                                  user: User) -> Reply:
        seat = self.seat_of(record, user)
        if seat is None:
            raise ServiceError(self._t(place, "error.start_players_only"), record)
        if record.status != "waiting":
            raise ServiceError(self._t(place, "error.already_started"), record)
        players = [dict(p) for p in record.players if p.get("kind") != "open"]
        state.resize(len(players))
        saved = await self._save(place, record, state, players, "active",
                                 MoveRecord(seat, "start", user.id))
        reply = await self._changed_reply(place, saved, state, seat, waiting=set())
        reply.announcements.append(self._t(place, "game.started",
                                           game=get_game(record.game).TITLE,
                                           players=", ".join(self.names(saved))))
        return reply

    async def hand(self, place: Place, user: User) -> Reply:
        """The user's private view of the channel's game, with their menu on their turn."""
        async def work() -> Reply:
            record, state = await self._current(place)
            seat = self.seat_of(record, user)
            if seat is None:
                raise ServiceError(self._t(place, "error.not_a_player"), light=True)
            if not self.hides_hands(record):
                return Reply(notice=self._t(place, "hand.none", game=get_game(record.game).TITLE))
            return Reply(hand=self.render_hand(place, record, state, seat))
        return await self._guard(place, work, user)

    async def move_suggestions(self, place: Place, user: User, typed: str,
                               limit: int = 25) -> list[str]:
        """Legal moves in notation for the user's seat, those containing ``typed`` first.

        For autocompletion: never raises, and offers nothing to a user who cannot move.
        """
        try:
            record, state = await self._current(place)
            seat = self.seat_of(record, user)
            if record.status != "active" or seat is None or seat not in state.to_move():
                return []
            texts = [state.action_text(action) for action in state.legal_actions(seat)]
        except (ServiceError, GameError, StateError):
            return []
        needle = " ".join(typed.lower().split())
        if not needle:
            return texts[:limit]
        starting = [t for t in texts if t.lower().startswith(needle)]
        containing = [t for t in texts if needle in t.lower() and t not in starting]
        return (starting + containing)[:limit]

    async def board(self, place: Place, user: User | None = None) -> Reply:
        async def work() -> Reply:
            record, state = await self._current(place)
            return self._board_reply(place, record, state)
        return await self._guard(place, work, actor=user)

    async def move(self, place: Place, user: User, text: str) -> Reply:
        """A typed move in the game's notation."""
        async def work() -> Reply:
            async with self._locked_game(place) as (record, state):
                seat = self._acting_seat(place, record, state, user)
                action = (self._suggested_action(state, seat, text)
                          or state.parse_action(text, seat))
                return await self._apply(place, record, state, seat, action)
        return await self._guard(place, work, actor=user)

    @staticmethod
    def _suggested_action(state: GameState, seat: int, text: str) -> str | None:
        """The legal action whose human text is ``text``: ``move_suggestions`` offers those
        texts (Discord's autocompletion, Telegram's /move hint), and an engine's parser
        need not read them back (Rithmomachia's "1b2 → 1a1, pushing the piece there to
        1b2")."""
        wanted = " ".join(text.split()).lower()
        if not wanted:
            return None
        for action in state.legal_actions(seat):
            if " ".join(str(state.action_text(action)).split()).lower() == wanted:
                return action
        return None

    async def press_place(self, origin: Place, user: User,
                          payload: Payload | None) -> Place | None:
        """Where a press is allowed to act, or None: the one rule for every platform.

        In the game's own channel every kind of button works (the service still checks
        the presser's seat where the kind needs one). Elsewhere only a player's private
        chat counts, and there only the hand and its menu (``h``, ``m``) of a running game
        with hidden hands that the presser sits in: that is where such a hand is sent.
        Joining and starting (``j``, ``g``) work only where everyone can see them.
        """
        if payload is None or payload.kind == "e":  # an ended game's panel: ``ended_game``
            return None
        running = await self._running(origin)
        if running is not None and payload.game_id > running.id:
            # A newer game than this process knows of here: another process may have
            # started it. Ask the database, not the cache.
            running = await self._running(origin, cached=False)
        if running is not None and running.id == payload.game_id:
            return origin
        cached = self._cache.get(payload.game_id)
        record = cached[0] if cached is not None else await self.store.get_game(
            payload.game_id)
        if (record is not None and record.running and record.platform == origin.platform
                and record.channel != origin.channel
                and room_of(record.channel) == origin.channel):
            # A game at a table of this group (``bot.tables``): its board is here.
            return replace(origin, channel=record.channel)
        if origin.server or not payload.private_ok:
            return None
        if (record is None or not record.running or record.platform != origin.platform
                or record.channel == origin.channel or not self.hides_hands(record)):
            return None
        seat = self.seat_of(record, user)
        if seat is None or self.has_left(record, seat):
            return None
        return place_of_record(record)

    async def press(self, origin: Place, user: User, payload: str) -> Reply:
        """A button: a step through the move menu, a whole move at its last step, the
        presser's hand, or taking the open seat. ``origin`` is where it was pressed; a
        press the rule of ``press_place`` does not allow changes nothing."""
        parsed = Payload.parse(payload)
        try:
            place = await self.press_place(origin, user, parsed)
        except Exception:
            log.exception("could not place a press in %s:%s", origin.platform, origin.channel)
            place = None
        if place is None or parsed is None:
            async def refuse() -> Reply:
                running = await self._running(origin)
                raise ServiceError(self._t(origin, "error.bad_payload" if running
                                           else "error.button_not_valid"), running)
            return await self._guard(origin, refuse, actor=user)
        # The hint button of a practice game: the hint, as ``/hint`` gives it.
        reply = (await self.hint(place, user) if parsed.kind == "i"
                 else await self._press(place, user, parsed))
        if place != origin:
            reply.place = place
        return reply

    async def _press(self, place: Place, user: User, parsed: Payload) -> Reply:
        async def work() -> Reply:
            running = await self._running(place)
            if running is not None and parsed.game_id > running.id:
                running = await self._running(place, cached=False)
            if running is None or parsed.game_id != running.id:
                raise ServiceError(self._t(place, "error.bad_payload" if running
                                           else "error.no_game"), running)
            kind, game_id = parsed.kind, parsed.game_id
            if kind in ("j", "g"):
                async with self._lock(game_id):
                    record, state = await self._fresh(running)
                    if kind == "j":
                        return await self._join_locked(place, record, state, user)
                    return await self._start_lobby_locked(place, record, state, user)
            # A hand or a menu step only reads: this process's lock keeps its copy still,
            # and the database's lock (a transaction on PostgreSQL) is taken only when the
            # press completes a move, then the move is checked again on the game as saved.
            async with self._process_lock(game_id):
                # A hand is shown as the database has it; a menu step may go by this
                # process's copy (its version is checked against the button's, a newer
                # button reads the game again, and a completed move is checked again under
                # the database's lock), which spares a read per tap on a shared database.
                if kind == "h":
                    record, state = await self._fresh(running)
                else:
                    record = self._cached_record(running)
                    state = await self._load(record)
                outcome = await self._resolve_press(place, user, parsed, record, state)
                if isinstance(outcome, Reply):
                    return outcome
                record, state, seat, action = outcome
                async with self.store.game_lock(game_id):
                    latest, latest_state = await self._fresh(record)
                    if latest is not record:
                        outcome = await self._resolve_press(place, user, parsed, latest,
                                                            latest_state)
                        if isinstance(outcome, Reply):
                            return outcome
                        record, state, seat, action = outcome
                    return await self._apply(place, record, state, seat, action)
        return await self._guard(place, work, user, actor=user)

    async def _resolve_press(self, place: Place, user: User, parsed: Payload,
                             record: GameRecord, state: GameState
                             ) -> Reply | tuple[GameRecord, GameState, int, str]:
        """What a hand or menu press means on ``record``: the reply of a step that changes
        nothing, or the move it completes (the game it was checked on, read again when the
        button was newer than this process's copy, the seat and the action). Refusals
        raise."""
        version, path = parsed.version, parsed.path
        if parsed.kind == "h":
            seat = self.seat_of(record, user)
            if seat is None:
                raise ServiceError(self._t(place, "error.not_a_player"), light=True)
            if not self.hides_hands(record):
                raise ServiceError(self._t(place, "hand.none",
                                           game=get_game(record.game).TITLE), record)
            return Reply(board=self.render_board(place, record, state),
                         hand=self.render_hand(place, record, state, seat))
        own = self.seat_of(record, user)
        per_seat = own is not None and state.seat_version(own) is not None
        known = state.seat_version(own) if per_seat and own is not None else record.version
        if known is not None and version > known:
            # The button is newer than this process's copy: another process moved the
            # game on. Read it again rather than refuse a current press.
            record, state = await self._reread(record)
            per_seat = own is not None and state.seat_version(own) is not None
        if not per_seat and version != record.version:
            raise ServiceError(self._t(place, "error.stale"), record)
        seat = self._acting_seat(place, record, state, user)
        if version != self.menu_version(record, state, seat):
            raise ServiceError(self._t(place, "error.stale"), record)
        private = self.hides_hands(record)
        if not path or (path == (GRID_TOKEN,) and state.offers_grid()):
            # The first step, as the list or as the board's grid (``drawing._menu``).
            return self._step_reply(place, record, state, seat, path, private)
        try:
            offered = {c.token: c for c in state.menu(seat, path[:-1])}
        except GameError:
            offered = {}
        choice: Choice | None = offered.get(path[-1])
        if choice is None:
            raise ServiceError(self._t(place, "error.not_in_menu"), record)
        if choice.unavailable is not None:
            raise ServiceError(localise(place.language, choice.unavailable), record)
        while choice.action is None:
            following = state.menu(seat, path)
            if len(following) != 1:
                return self._step_reply(place, record, state, seat, path, private)
            # A step with one option costs no tap: it is taken, and when it completes
            # the move, the move is made.
            choice = following[0]
            path = (*path, choice.token)
        return record, state, seat, choice.action

    def _step_reply(self, place: Place, record: GameRecord, state: GameState, seat: int,
                    path: tuple[str, ...], private: bool) -> Reply:
        """A menu step changes nothing; it shows the next options where the menu lives."""
        if private:
            return Reply(board=self.render_board(place, record, state),
                         hand=self.render_hand(place, record, state, seat, path))
        return self._board_reply(place, record, state, path=path)

    async def resign(self, place: Place, user: User) -> Reply:
        async def work() -> Reply:
            async with self._locked_game(place) as (record, state):
                seat = self.seat_of(record, user)
                if seat is None or record.status != "active":
                    raise ServiceError(self._t(place, "error.not_a_player"
                                               if seat is None else "error.cannot_join"),
                                       record)
                reply = await self._resign_seats(place, record, state, [seat], "resign")
                reply.announcements.append(self._t(place, "game.resigned", name=user.name))
                return reply
        return await self._guard(place, work, actor=user)

    async def _resign_seats(self, place: Place, record: GameRecord, state: GameState,
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
        saved = await self._save(place, record, state, players, status,
                                 MoveRecord(seats[0], "resign", reason))
        return await self._changed_reply(place, saved, state, None)

    @staticmethod
    def has_left(record: GameRecord, seat: int | None) -> bool:
        return seat is not None and bool(record.players[seat].get("left"))

    async def abandon(self, place: Place, user: User, game_id: int | None = None,
                      metered: bool = True) -> Reply:
        """End the channel's game without a result. ``game_id``, when given, must be the
        game running there (a moderator ending a game from elsewhere names its number,
        and a game that ended meanwhile must not take a new one down with it).
        ``metered=False`` is for the bot acting on a person's behalf (``/forget-me`` ends
        all their games at once), which their rate limit must not cut short."""
        async def work() -> Reply:
            async with self._locked_game(place) as (record, state):
                if game_id is not None and record.id != game_id:
                    raise ServiceError(self._t(
                        place, "abandon.no_such_game",
                        "No game #{number} is running in this server; /games lists them.",
                        number=game_id))
                seat = self.seat_of(record, user)
                if (seat is None or self.has_left(record, seat)) and not user.is_moderator:
                    raise ServiceError(self._t(place, "error.moderator_only"), record)
                state.abandon()
                saved = await self._save(place, record, state, record.players, "abandoned",
                                         MoveRecord(seat, "abandon", user.id))
                reply = await self._changed_reply(place, saved, state, None)
                reply.announcements.append(self._t(place, "game.abandoned_by", name=user.name))
                return reply
        return await self._guard(place, work, actor=user if metered else None)

    async def anonymise_left_seat(self, place: Place, user: User, token: str,
                                  name: str) -> bool:
        """Give ``user``'s seat in the running game at ``place`` the id ``token`` and
        ``name``, when they have left that game and the others play on. Saved like a move,
        under the game's lock, so the cached record cannot write the old name back."""
        try:
            async with self._locked_game(place) as (record, state):
                seat = self.seat_of(record, user)
                if seat is None or not self.has_left(record, seat):
                    return False
                players = [dict(p) for p in record.players]
                players[seat].update(id=token, name=name)
                await self._save(place, record, state, players, record.status,
                                 MoveRecord(seat, "forget", token))
                return True
        except (ServiceError, StateError):
            return False

    async def game_in_server(self, place: Place, game_id: int) -> GameRecord | None:
        """Running game ``game_id`` when it is in the server or group around ``place``:
        a game a moderator there may end from another channel (``abandon`` at its place).
        None for any other number, so a guessed number reveals nothing elsewhere."""
        if not place.server:
            return None
        record = await self.store.get_game(game_id)
        if (record is None or not record.running or record.platform != place.platform
                or record.server != place.server):
            return None
        return record

    async def timeout(self, place: Place, game_id: int, version: int, action: str) -> Reply:
        """A turn timer ran out on ``version`` of game ``game_id``: every human still to
        move (several in a simultaneous Turing round) forfeits (``action="forfeit"``, the
        engine's resignation) or has the computer play one move for them (``"ai"``).
        Refused (``ok=False``) when the game moved on since the timer was read, so a late
        timer never acts twice."""
        async def work() -> Reply:
            record, _ = await self._current(place)
            if record.id != game_id:
                raise ServiceError(self._t(place, "error.stale"), record)
            async with self._lock(record.id):
                record, state = await self._fresh(record)
                idle = [s for s in state.to_move() if record.players[s].get("kind") == "human"]
                if record.version != version or record.status != "active" or not idle:
                    raise ServiceError(self._t(place, "error.stale"), record)
                names = [self.names(record)[seat] for seat in idle]
                if action == "forfeit":
                    return await self._forfeit(place, record, state, idle, names)
                return await self._stand_in(place, record, state, idle, names)
        return await self._guard(place, work)

    async def _forfeit(self, place: Place, record: GameRecord, state: GameState,
                       idle: list[int], names: list[str]) -> Reply:
        """Everyone idle loses together. When that would leave one of them the winner
        (the engine ends a game at its last player standing, whoever is resigned first),
        nobody is left who played on, and the game ends without a result."""
        trial = get_game(record.game).State.from_dict(state.to_dict())
        for seat in idle:
            if trial.outcome() is not None:
                break
            trial.resign(seat)
        outcome = trial.outcome()
        if outcome is not None and set(outcome.winners) & set(idle):
            state.abandon()
            saved = await self._save(place, record, state, record.players, "abandoned",
                                     MoveRecord(None, "abandon", "timeout"))
            reply = await self._changed_reply(place, saved, state, None)
            reply.announcements.append(self._t(
                place, "timer.everyone_out",
                "⌛ {names} ran out of time; with nobody left playing, the game ends "
                "without a result.", names=", ".join(names)))
            return reply
        reply = await self._resign_seats(place, record, state, idle, "timeout")
        reply.announcements += [self._t(place, "timer.forfeit",
                                        "⌛ {name} ran out of time and loses the game.",
                                        name=name) for name in names]
        return reply

    async def _stand_in(self, place: Place, record: GameRecord, state: GameState,
                        idle: list[int], names: list[str]) -> Reply:
        """One move by the computer for each idle player, as gently as the game allows:
        it keeps the game going without deciding it for them. In a game with hidden
        information the announcement does not say the move, which may be private."""
        module = get_game(record.game)
        hidden = module.INFO.hidden_information
        announcements: list[str] = []
        reply = Reply()
        for seat, name in zip(idle, names, strict=True):
            if reply.finished:
                break
            if reply.moved:
                record, state = await self._fresh(record)
                if seat not in state.to_move():
                    continue
            chosen = await self._stand_in_move(record, state, seat)
            reply = await self._apply(place, record, state, seat, chosen)
            if hidden:
                announcements.append(self._t(
                    place, "timer.stand_in_hidden",
                    "⌛ {name} ran out of time; the computer moved for them.", name=name))
            else:
                announcements.append(self._t(
                    place, "timer.stand_in",
                    "⌛ {name} ran out of time; the computer played {move} for them.",
                    name=name, move=state.action_text(chosen)))
        reply.announcements.extend(announcements)
        return reply

    async def _stand_in_move(self, record: GameRecord, state: GameState, seat: int) -> str:
        """A game may say what a stand-in plays (``stand_in_action``: the Turing Machine
        never guesses for someone); otherwise its easiest computer level chooses."""
        rng = random.Random(agent_seed(record))
        gentle = getattr(state, "stand_in_action", None)
        if gentle is not None:
            chosen: str = gentle(seat, rng)
            return chosen
        try:
            chosen = await self._computer_move(record, state, seat, "easy")
        except (TimeoutError, WorkerCrashed):
            chosen = rng.choice(state.legal_actions(seat))
        return chosen

    async def _computer_move(self, record: GameRecord, state: GameState, seat: int,
                             level: str) -> str:
        """The computer's move at ``level``: at once when the level is quick, else in the
        pool, within the time budget (``TimeoutError`` past it, ``WorkerCrashed`` when
        its worker process died on every try)."""
        if quick_level(get_game(record.game), level):
            return computer_move(record.game, level, agent_seed(record), state.to_dict(),
                                 seat)
        return await self.workers.run(computer_move, record.game, level, agent_seed(record),
                                      state.to_dict(), seat,
                                      timeout=self.limits.computer_move_seconds)

    async def play_ai_turn(self, place: Place) -> Reply:
        """Let the computer move if it is its turn; the agent runs in a worker thread.
        With other processes on the database, the turn is first claimed for a lease
        (``Store.claim_computer_turn``): one process plays it, and another takes it over
        when the lease lapses because this one died."""
        async def work() -> Reply:
            record, state = await self._current(place)
            if self.store.shared:  # another process may have moved it: ask the database
                record, state = await self._fresh(record)
            seat = self._ai_seat_to_move(record, state)
            if seat is None:
                return self._board_reply(place, record, state)
            if not self.store.shared:
                return await self._play_ai_seat(place, record, state, seat)
            lease = self.limits.computer_move_seconds + AI_LEASE_MARGIN_SECONDS
            if not await self.store.claim_computer_turn(record.id, record.version,
                                                        self.process_id, lease):
                # Another process plays it and shows it: nothing to draw or wait for here.
                return Reply(ok=True)
            try:
                return await self._play_ai_seat(place, record, state, seat)
            finally:
                await self.store.release_computer_turn(record.id, self.process_id)
        return await self._guard(place, work)

    async def _play_ai_seat(self, place: Place, record: GameRecord, state: GameState,
                            seat: int) -> Reply:
        """The computer's move for ``seat``, worked out, then saved under the game's lock
        unless the game moved on meanwhile."""
        level = str(record.players[seat]["level"])
        fallback: str | None = None
        try:
            action = await self._computer_move(record, state, seat, level)
        except (TimeoutError, WorkerCrashed) as error:
            log.warning("AI %s failed in game %s (%r); playing a random move",
                        level, record.id, error)
            action = random.Random(record.version).choice(state.legal_actions(seat))
            fallback = (self._t(place, "ai.fallback.timeout", "🎲 The computer ran out "
                                "of thinking time and played a random move.")
                        if isinstance(error, TimeoutError) else
                        self._t(place, "ai.fallback.crashed", "🎲 The computer's "
                                "thinking broke down, so it played a random move."))
        async with self._lock(record.id):
            current, state = await self._fresh(record)
            if current.version != record.version:
                return self._board_reply(place, current, state)
            reply = await self._apply(place, current, state, seat, action)
            if fallback is not None:
                reply.announcements.append(fallback)
            return reply

    def help_text(self, place: Place, commands_key: str = "help.commands") -> str:
        """General help; ``commands_key`` names the adapter's own list of commands."""
        titles = ", ".join(f"{get_game(n).TITLE} ({n})" for n in game_names())
        return "\n".join([self._t(place, "help.title"), self._t(place, "help.games",
                                                                games=titles),
                          self._t(place, commands_key), self._t(place, "help.buttons")])

    def rules_text(self, place: Place, game: str) -> str:
        name = resolve_name(game)
        return translate(place.language, f"rules.{name}",
                         getattr(renderer_for(name), "RULES", name))

    # ---------------------------------------------------------------- internals
    def _acting_seat(self, place: Place, record: GameRecord, state: GameState,
                     user: User) -> int:
        seat = self.seat_of(record, user)
        if seat is None:
            raise ServiceError(self._t(place, "error.not_a_player"), light=True)
        if record.status != "active":
            raise ServiceError(self._t(place, "error.game_over"
                                       if not record.running else "error.cannot_join"), record)
        if seat not in state.to_move():
            waiting = [self.names(record)[s] for s in state.to_move()]
            raise ServiceError(self._t(place, "error.not_your_turn",
                                       name=", ".join(waiting) or "?"), record, light=True)
        return seat

    async def _apply(self, place: Place, record: GameRecord, state: GameState, seat: int,
                     action: str) -> Reply:
        waiting = set(state.to_move())
        state.apply(seat, action)  # raises, and changes nothing, when the move is refused
        status = "finished" if state.outcome() is not None else "active"
        saved = await self._save(place, record, state, record.players, status,
                                 MoveRecord(seat, "action", action))
        return await self._changed_reply(place, saved, state, seat, waiting=waiting)

    async def _changed_reply(self, place: Place, saved: GameRecord, state: GameState,
                       seat: int | None, waiting: set[int] | None = None) -> Reply:
        """After a saved change: the new board, and the actor's refreshed hand when the
        game hides hands (the move may have changed what they hold). ``waiting``: the
        seats that were to move before the change, so that those whose turn has just
        begun are cued (None: no cue)."""
        reply = self._board_reply(place, saved, state)
        reply.moved = True
        if saved.status == "finished" and reply.board is not None:
            reply.board.prompt = await self._finale(place, saved)
        if waiting is not None:
            reply.turn_began = self._turn_began(saved, state, waiting)
            reply.turn_cue = self._cued(saved, reply.turn_began, seat)
        if (seat is not None and saved.players[seat].get("kind") == "human"
                and self.hides_hands(saved)):
            reply.hand = self.render_hand(place, saved, state, seat)
        return reply

    async def _finale(self, place: Place, saved: GameRecord) -> str:
        """The end panel's line under a finished board: each person's rating change (a
        🏆 for the winners), or a 🏆 for the winners of an unrated game. The results were
        written by the finish listeners inside ``_save``, before this runs."""
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
                    lines.append(self._t(place, "end.well_played", "🏆 Well played, {name}!",
                                         name=row.name))
                continue
            change = round(row.rating_after) - round(row.rating_before)
            lines.append(mark + self._t(place, "end.rating",
                                        "{name}: rating {before} → {after} ({change})",
                                        name=row.name, before=round(row.rating_before),
                                        after=round(row.rating_after),
                                        change=f"{change:+d}".replace("-", "−")))
        return "\n".join(lines)

    @staticmethod
    def _turn_began(saved: GameRecord, state: GameState,
                    waiting: set[int]) -> list[dict[str, Any]]:
        """The people whose turn has just begun: seats newly to move (the one who started
        or joined the game among them). A simultaneous round begins everyone's turn once,
        when it opens."""
        if saved.status != "active":
            return []
        return [saved.players[seat] for seat in state.to_move()
                if seat not in waiting and saved.players[seat].get("kind") == "human"]

    @staticmethod
    def _cued(saved: GameRecord, began: list[dict[str, Any]],
              actor: int | None) -> list[dict[str, Any]]:
        """Whom to cue of ``began``: not the one who acted, who is looking at the board,
        and nobody in a game of one person."""
        people = [p for p in saved.players if p.get("kind") == "human" and not p.get("left")]
        if len(people) < 2:
            return []
        own = saved.players[actor] if actor is not None else None
        return [p for p in began if p is not own]

    async def _save(self, place: Place, record: GameRecord, state: GameState,
                    players: list[dict[str, Any]], status: str, move: MoveRecord) -> GameRecord:
        saved = await self.store.save_game(record, GameUpdate(state.to_dict(), status, players,
                                                              move))
        if saved is None:
            # Another process wrote first: forget our copy, which already holds the move.
            self._forget(record)
            fresh = await self.store.get_game(record.id)
            raise ServiceError(self._t(place, "error.busy"), fresh)
        if saved.running:
            self._cache[record.id] = (saved, state)
            await self.dangers.refresh(saved, state)
        else:
            self.dangers.forget(saved.id)
            for listener in self.finish_listeners:
                try:
                    await listener(saved, state)
                except Exception:
                    log.exception("finish listener failed for game %s", saved.id)
            # Finished games are read again only to show a final board; keeping them would
            # grow the cache with every game ever played.
            self._forget(record)
            self._locks.pop(record.id, None)
        return saved

    def _forget(self, record: GameRecord) -> None:
        self._cache.pop(record.id, None)
        self._texts.pop(record.id, None)
        self._channel_games.pop((record.platform, record.channel), None)

    async def end_games_in(self, platform: str, server: str) -> list[tuple[Place, Reply]]:
        """Abandon every running game of a server or group the bot was removed from: nobody
        can play them any more, and running they would count toward their players' limits
        forever. Returns each game's place and reply (its board and announcement)."""
        ended: list[tuple[Place, Reply]] = []
        bot_user = User(platform, "bot", "logic-bot", is_moderator=True)
        for record in await self.store.games_with_status("waiting", "active"):
            if record.platform != platform or record.server != server:
                continue
            place = place_of_record(record)
            reply = await self.abandon(place, bot_user, record.id, metered=False)
            if reply.ok:
                ended.append((place, reply))
        return ended

    # ------------------------------------------------- what adapters may read
    # Adapters reach the database only through these, never through ``store``.
    async def game_record(self, game_id: int) -> GameRecord | None:
        """The stored record, read afresh: its board reference may have been set by
        another process (or a moment ago by this one) since the cache was filled."""
        return await self.store.get_game(game_id)

    async def running_record(self, place: Place) -> GameRecord | None:
        return await self._running(place)

    async def table_for_new_game(self, place: Place, user: User, game: str, rival: Opponent
                                 ) -> Place | GameRecord:
        """Where a new game of a room with tables goes (``bot.tables``): ``place`` while
        it is free, else the room's lowest free table; or the running game of the room
        that already is this one (same game, same opponent), which is not started twice."""
        if await self._running(place) is None:
            return place
        for record in await seated_games(self.store, place, user):
            if same_pairing(record, game, user, rival):
                return record
        return await free_table(self.store, place)

    async def free_place(self, place: Place) -> Place:
        """``place`` while no game runs there, else the lowest free table of its room."""
        if await self._running(place) is None:
            return place
        return await free_table(self.store, place)

    async def seated_games(self, place: Place, user: User) -> list[GameRecord]:
        """The running games of ``place``'s room (its own and its tables') ``user`` sits in."""
        return await seated_games(self.store, place, user)

    async def set_board_ref(self, game_id: int, ref: dict[str, Any]) -> None:
        """Remember where the game's board message is (and its language and style), so
        that AI moves, timers and a restart can find and redraw it."""
        await self.store.set_board_ref(game_id, ref)
        cached = self._cache.get(game_id)
        if cached is not None:
            # The cached record is what a press from a private chat reads the board's
            # language and style from (``place_of_record``): a stale one drew a group's
            # text-style board in emoji after the first move made in a hand.
            self._cache[game_id] = (replace(cached[0], board_ref=dict(ref)), cached[1])

    async def get_setting(self, platform: str, scope: str, key: str) -> str | None:
        return await self.store.get_setting(platform, scope, key)

    async def set_setting(self, platform: str, scope: str, key: str, value: str) -> None:
        await self.store.set_setting(platform, scope, key, value)

    async def pending_ai_places(self) -> list[GameRecord]:
        """Active games where the computer should move: resumed after a restart."""
        pending = []
        for record in await self.store.games_with_status("active"):
            try:
                state = await self._load(record)
            except StateError:
                log.exception("game %s does not load", record.id)
                continue
            if self._ai_seat_to_move(record, state) is not None:
                pending.append(record)
        return pending

    async def hint(self, place: Place, user: User) -> Reply:
        """A hint for the user's move (``engines.analysis.hint``), as a notice only they
        see; refused in games between people and in events (``bot.hints``). It is worked
        out in the pool, and the game is saved with the seat's hint count raised (a
        ``hint`` line in the log), so the result is not counted; everyone is told."""
        from bot.hints import HINT_SECONDS, hint_refusal, with_hint
        from engines.analysis import hint as find_hint
        from renderers.replay import render_hint

        async def work() -> Reply:
            record, state = await self._current(place)
            seat = self._acting_seat(place, record, state, user)
            refusal = hint_refusal(record, place.language)
            if refusal is not None:
                raise ServiceError(refusal, record)
            asked_at = self.menu_version(record, state, seat)
            try:
                found = await self.workers.run(find_hint, record.game, state.to_dict(), seat,
                                               agent_seed(record), refuse_when_busy=True,
                                               timeout=HINT_SECONDS)
            except (WorkersBusy, TimeoutError):
                raise ServiceError(self._t(
                    place, "error.workers_busy",
                    "🧠 The computer is busy thinking for other games. Try again in a "
                    "minute."), record) from None
            async with self._lock(record.id):
                current, state = await self._fresh(record)
                if (current.status != "active" or seat not in state.to_move()
                        or self.menu_version(current, state, seat) != asked_at):
                    raise ServiceError(self._t(place, "error.stale"), current)
                saved = await self._save(place, current, state,
                                         with_hint(current.players, seat), current.status,
                                         MoveRecord(seat, "hint", str(found.get("kind", ""))))
            reply = await self._changed_reply(place, saved, state, seat)
            reply.notice = render_hint(found, place.language)
            reply.announcements.append(self._t(
                place, "hint.taken", "💡 {name} took a hint: this game's result is not "
                "counted.", name=user.name))
            return reply
        return await self._guard(place, work, user, actor=user)
