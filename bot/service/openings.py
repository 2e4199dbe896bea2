"""Starting games: new games and their limits, rematches, joining and lobbies: the
service's ``Openings``, which work through its core."""

from __future__ import annotations

import random
from typing import Any

from bot.jobs import new_game_state
from bot.limits import WorkersBusy
from bot.replies import (
    Opponent,
    Place,
    Reply,
    ServiceError,
    User,
    ai_player,
    human_player,
)
from bot.service.core import OPEN_SEAT, Core, cued, needs_pool, seat_of, turn_began
from bot.service.presenter import is_lobby_game, t
from bot.store import ChannelBusy, GameRecord, MoveRecord
from bot.tables import room_of, seated_games
from engines.base import (
    GameError,
    GameModule,
    GameState,
    parse_option_text,
)
from engines.registry import get_game, make_agent, resolve_name


class Openings:
    """New games, rematches, joins and lobbies."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.presenter = core.presenter

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
            return self.core.error_text(place, error)
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
        if needs_pool(module, players) and self.core.workers.busy:
            return t(place, "error.workers_busy",
                     "🧠 The computer is busy thinking for other games. Try again in a "
                     "minute.")
        return None

    async def start_game(self, place: Place, user: User, game: str, opponent: Opponent,
                         options: str = "", creator_seat: int | None = 0) -> Reply:
        async def work() -> Reply:
            module, parsed, other = self._new_game_parts(user, game, opponent, options)
            seed = self.core.seed_source()
            seat = creator_seat if creator_seat in (0, 1) else random.Random(seed).randrange(2)
            if other is None:
                players = [human_player(user)]
            elif seat == 0 or module.State.max_players > 2:
                players = [human_player(user), other]
            else:
                players = [other, human_player(user)]
            return await self._create(place, module, parsed, seed, players, user)
        return await self.core.guard(place, work, actor=user)

    async def start_marked_game(self, place: Place, creator: User, game: str,
                                players: list[dict[str, Any]], options: str,
                                marks: dict[str, Any]) -> Reply:
        """A game whose players were chosen by an event (a tournament's pairing), seated
        as given. ``marks`` join the stored options (``bot.hints.EVENT_OPTIONS``: no
        hints, no rematch) but never reach the engine, whose options they are not."""
        async def work() -> Reply:
            module = get_game(resolve_name(game))
            parsed = parse_option_text(module.OPTIONS, options)
            return await self._create(place, module, parsed, self.core.seed_source(), players,
                                      creator, marks)
        return await self.core.guard(place, work)

    async def _create(self, place: Place, module: GameModule, parsed: dict[str, Any],
                      seed: int, players: list[dict[str, Any]], creator: User,
                      marks: dict[str, Any] | None = None) -> Reply:
        status = "waiting" if any(p.get("kind") == "open" for p in players) else "active"
        await self._check_game_limits(place, players)
        try:
            if needs_pool(module, players) and self.core.workers.busy:
                raise WorkersBusy
            if module.INFO.costly_new_game:
                state = module.State.from_dict(await self.core.workers.run(
                    new_game_state, module.NAME, parsed, len(players), seed,
                    refuse_when_busy=True))
            else:
                state = module.new_game(parsed, len(players), seed)
        except WorkersBusy:
            raise ServiceError(t(
                place, "error.workers_busy",
                "🧠 The computer is busy thinking for other games. Try again in a "
                "minute."), await self.core.running(place)) from None
        try:
            record = await self.core.store.create_game(place.platform, place.channel,
                                                       module.NAME, {**parsed, **(marks or {})},
                                                       seed,
                                                       state.to_dict(), players, status,
                                                       server=place.server)
        except ChannelBusy:
            running = await self.core.running(place)
            title = get_game(running.game).TITLE if running else module.TITLE
            raise ServiceError(t(place, "error.game_running", game=title),
                               running) from None
        self.core.cache[record.id] = (record, state)
        self.core.channel_games[(place.platform, place.channel)] = record.id
        await self.core.dangers.refresh(record, state)
        reply = self.presenter.board_reply(place, record, state)
        reply.started = True
        # A game that starts at once between people (an invitation, a rematch): the first
        # to move is cued, unless it is the creator, who is looking at the board.
        reply.turn_began = turn_began(record, state, set())
        reply.turn_cue = cued(record, reply.turn_began, seat_of(record, creator))
        names = " vs ".join(p["name"] for p in record.players if p.get("kind") != "open")
        reply.announcements.append(t(place, "game.started", game=module.TITLE,
                                     players=names))
        return reply

    async def _check_game_limits(self, place: Place, players: list[dict[str, Any]],
                                 new_game: bool = True) -> None:
        """Refuse a new seat in a game to a person already in ``games_per_user`` running
        games, and a new game in a server that holds ``games_per_server``."""
        limits = self.core.limits
        if new_game and limits.games_per_server is not None and place.server:
            running = await self.core.store.count_running_games(place.platform, server=place.server)
            if running >= limits.games_per_server:
                one = running == 1
                raise ServiceError(t(
                    place, "error.server_games_limit.one" if one else "error.server_games_limit",
                    "This server already has a game running, the most it may have. Finish or "
                    "/abandon it first." if one else "This server already has {count} games "
                    "running, the most it may have. Finish or /abandon one first.",
                    count=running))
        if limits.games_per_user is None:
            return
        for player in players:
            if player.get("kind") != "human":
                continue
            running = await self.core.store.count_running_games(place.platform,
                                                                user_id=str(player.get("id")))
            if running >= limits.games_per_user:
                one = running == 1
                raise ServiceError(t(
                    place, "error.user_games_limit.one" if one else "error.user_games_limit",
                    "{name} is already playing a game, the most one person may. Finish or "
                    "resign it first." if one else "{name} is already playing {count} games, "
                    "the most one person may. Finish or resign one first.",
                    name=player.get("name", "?"), count=running))

    async def rematch(self, place: Place, user: User, game_id: int | None = None) -> Reply:
        """The channel's last ended game again (``game_id``: that ended game of this
        channel, from its end panel): same game, options and players, seats swapped (two
        seats change places, more rotate by one), so whoever moved second moves first;
        against the computer the level stays and the person changes seat. Only a player
        of that game may ask. A new seed deals a new position."""
        async def work() -> Reply:
            if game_id is None:
                last = await self.core.store.last_finished_game(place.platform, place.channel)
            else:
                last = await self.core.store.get_game(game_id)
                if last is not None and (last.running or last.platform != place.platform
                                         or room_of(last.channel) != room_of(place.channel)):
                    last = None  # (``place`` may be another table of the same group)
            if last is None:
                raise ServiceError(t(place, "rematch.none",
                                     "There is no finished game here to play again."))
            if seat_of(last, user) is None:
                raise ServiceError(t(place, "rematch.not_player",
                                     "Only a player of the last game here can ask for "
                                     "a rematch."))
            if last.options.get("daily"):
                raise ServiceError(t(place, "rematch.daily",
                                     "The daily challenge is played once a day; it has "
                                     "no rematch."))
            if last.options.get("tournament"):
                raise ServiceError(t(place, "rematch.tournament",
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
                                          self.core.seed_source(), players, user)
            # One game again per panel, however often (or at once) its button is pressed,
            # even where a group's tables would seat a second one.
            async with self.core.lock(last.id):
                people = self._humans(last.players)
                if any(record.game == last.game and self._humans(record.players) == people
                       for record in await seated_games(self.core.store, place, user)):
                    raise ServiceError(t(place, "rematch.running",
                                         "This game is already being played again."))
                return await self._create(place, module, dict(last.options),
                                          self.core.seed_source(), players, user)
        return await self.core.guard(place, work, actor=user)

    @staticmethod
    def _humans(players: list[dict[str, Any]]) -> set[tuple[str, str]]:
        return {(str(p.get("platform")), str(p.get("id"))) for p in players
                if p.get("kind") == "human"}

    async def join(self, place: Place, user: User) -> Reply:
        async def work() -> Reply:
            async with self.core.locked_game(place) as (record, state):
                return await self.join_locked(place, record, state, user)
        return await self.core.guard(place, work, actor=user)

    async def join_locked(self, place: Place, record: GameRecord, state: GameState,
                          user: User) -> Reply:
        if seat_of(record, user) is not None:
            raise ServiceError(t(place, "error.already_playing"), record)
        if record.status != "waiting":
            raise ServiceError(t(place, "error.cannot_join"), record)
        await self._check_game_limits(place, [human_player(user)], new_game=False)
        seat = next(i for i, p in enumerate(record.players) if p.get("kind") == "open")
        players = [dict(p) for p in record.players]
        players[seat] = human_player(user)
        status = "active"
        if is_lobby_game(record) and len(players) < state.max_players:
            players.append(dict(OPEN_SEAT))
            status = "waiting"
        state.resize(len(players))
        # The game starts with this join: whoever moves first (not the joiner) is cued.
        reply = await self.core.save_and_reply(place, record, state, players, status,
                                               MoveRecord(seat, "join", user.id), seat,
                                               waiting=set())
        reply.announcements.append(t(place, "game.joined", name=user.name))
        return reply

    async def start_lobby_locked(self, place: Place, record: GameRecord, state: GameState,
                                 user: User) -> Reply:
        seat = seat_of(record, user)
        if seat is None:
            raise ServiceError(t(place, "error.start_players_only"), record)
        if record.status != "waiting":
            raise ServiceError(t(place, "error.already_started"), record)
        players = [dict(p) for p in record.players if p.get("kind") != "open"]
        state.resize(len(players))
        reply = await self.core.save_and_reply(place, record, state, players, "active",
                                               MoveRecord(seat, "start", user.id), seat,
                                               waiting=set())
        reply.announcements.append(t(place, "game.started",
                                     game=get_game(record.game).TITLE,
                                     players=", ".join(str(p.get("name", "?")) for p in players)))
        return reply
