"""The game service: platform-neutral commands in, platform-neutral replies out.

It is the only code that changes game state. For every command it loads the channel's
game, checks turn and permission, applies the action, saves it under the version guard
and answers with a ``Reply``. Adapters translate platform events into these calls and
replies into messages; they hold no game logic.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot.limits import WorkersBusy
from bot.payloads import Payload
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
from bot.service.core import agent_seed as agent_seed
from bot.service.openings import GameOpening
from bot.service.turns import ComputerAndTimers
from bot.store import GameRecord, MoveRecord
from bot.tables import free_table, room_of, same_pairing, seated_games
from engines.base import (
    GRID_TOKEN,
    Choice,
    GameError,
    GameState,
    StateError,
)
from engines.registry import game_names, get_game, resolve_name
from renderers import renderer_for
from renderers.i18n import localise, translate

log = logging.getLogger(__name__)


class Service(GameOpening, ComputerAndTimers):
    """Every command of the game service (see the module's docstring)."""

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

    async def stored_board(self, place: Place, record: GameRecord) -> Reply:
        """``record``'s board as stored (running or ended), to redraw a board message the
        platform did not take: no command, no seat, nothing changes."""
        return self._board_reply(place, record, await self._load(record))

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
            offered = {c.token: c for c in self.menu_at(record, state, seat, path[:-1])}
        except GameError:
            offered = {}
        choice: Choice | None = offered.get(path[-1])
        if choice is None:
            raise ServiceError(self._t(place, "error.not_in_menu"), record)
        if choice.unavailable is not None:
            raise ServiceError(localise(place.language, choice.unavailable), record)
        while choice.action is None:
            following = self.menu_at(record, state, seat, path)
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
