"""The players' moves: typed moves and their suggestions, button presses (where a press
may act, and the menu step, hand or move it is), the board and hand shown on request,
and hints: the service's ``Moves``, which work through its core."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.limits import WorkersBusy
from bot.payloads import Payload
from bot.replies import Place, Reply, ServiceError, User, place_of_record
from bot.service.core import Core, agent_seed, has_left, seat_of
from bot.service.openings import Openings
from bot.service.presenter import hides_hands, menu_version, t
from bot.store import GameRecord, MoveRecord
from bot.tables import room_of
from engines.base import (
    GRID_TOKEN,
    Choice,
    GameError,
    GameState,
    StateError,
)
from engines.registry import get_game
from renderers.i18n import localise

log = logging.getLogger(__name__)


class Moves:
    """What a player does in a running game: typing, pressing, asking for a hint."""

    def __init__(self, core: Core, openings: Openings) -> None:
        self.core = core
        self.presenter = core.presenter
        self.openings = openings  # a join or a lobby's start arrives as a press

    async def hand(self, place: Place, user: User) -> Reply:
        """The user's private view of the channel's game, with their menu on their turn."""
        async def work() -> Reply:
            record, state = await self.core.current(place)
            seat = seat_of(record, user)
            if seat is None:
                raise ServiceError(t(place, "error.not_a_player"), light=True)
            if not hides_hands(record):
                return Reply(notice=t(place, "hand.none", game=get_game(record.game).TITLE))
            return Reply(hand=self.presenter.render_hand(place, record, state, seat))
        return await self.core.guard(place, work, user)

    async def move_suggestions(self, place: Place, user: User, typed: str,
                               limit: int = 25) -> list[str]:
        """Legal moves in notation for the user's seat, those containing ``typed`` first.

        For autocompletion: never raises, and offers nothing to a user who cannot move.
        """
        try:
            record, state = await self.core.current(place)
            seat = seat_of(record, user)
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
            record, state = await self.core.current(place)
            return self.presenter.board_reply(place, record, state)
        return await self.core.guard(place, work, actor=user)

    async def stored_board(self, place: Place, record: GameRecord) -> Reply:
        """``record``'s board as stored (running or ended), to redraw a board message the
        platform did not take: no command, no seat, nothing changes."""
        return self.presenter.board_reply(place, record, await self.core.load(record))

    async def move(self, place: Place, user: User, text: str) -> Reply:
        """A typed move in the game's notation."""
        async def work() -> Reply:
            async with self.core.locked_game(place) as (record, state):
                seat = self.core.acting_seat(place, record, state, user)
                action = (self._suggested_action(state, seat, text)
                          or state.parse_action(text, seat))
                return await self.core.apply(place, record, state, seat, action)
        return await self.core.guard(place, work, actor=user)

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
        running = await self.core.running(origin)
        if running is not None and payload.game_id > running.id:
            # A newer game than this process knows of here: another process may have
            # started it. Ask the database, not the cache.
            running = await self.core.running(origin, cached=False)
        if running is not None and running.id == payload.game_id:
            return origin
        cached = self.core.cache.get(payload.game_id)
        record = cached[0] if cached is not None else await self.core.store.get_game(
            payload.game_id)
        if (record is not None and record.running and record.platform == origin.platform
                and record.channel != origin.channel
                and room_of(record.channel) == origin.channel):
            # A game at a table of this group (``bot.tables``): its board is here.
            return replace(origin, channel=record.channel)
        if origin.server or not payload.private_ok:
            return None
        if (record is None or not record.running or record.platform != origin.platform
                or record.channel == origin.channel or not hides_hands(record)):
            return None
        seat = seat_of(record, user)
        if seat is None or has_left(record, seat):
            return None
        return place_of_record(record)

    async def press(self, origin: Place, user: User, payload: str, *,
                    reaches: bool = True) -> Reply:
        """A button: a step through the move menu, a whole move at its last step, the
        presser's hand, or taking the open seat. ``origin`` is where it was pressed; a
        press the rule of ``press_place`` does not allow changes nothing. ``reaches``:
        whether a hint can reach the presser privately (``hint``)."""
        parsed = Payload.parse(payload)
        try:
            place = await self.press_place(origin, user, parsed)
        except Exception:
            log.exception("could not place a press in %s:%s", origin.platform, origin.channel)
            place = None
        if place is None or parsed is None:
            async def refuse() -> Reply:
                running = await self.core.running(origin)
                raise ServiceError(t(origin, "error.bad_payload" if running
                                     else "error.button_not_valid"), running)
            return await self.core.guard(origin, refuse, actor=user)
        # The hint button of a practice game: the hint, as ``/hint`` gives it (or the
        # question it asks first, and its yes).
        reply = (await self.hint(place, user, parsed, reaches=reaches) if parsed.kind == "i"
                 else await self._press(place, user, parsed))
        if place != origin:
            reply.place = place
        return reply

    async def _press(self, place: Place, user: User, parsed: Payload) -> Reply:
        async def work() -> Reply:
            running = await self.core.running(place)
            if running is not None and parsed.game_id > running.id:
                running = await self.core.running(place, cached=False)
            if running is None or parsed.game_id != running.id:
                raise ServiceError(t(place, "error.bad_payload" if running
                                     else "error.no_game"), running)
            kind, game_id = parsed.kind, parsed.game_id
            if kind in ("j", "g"):
                async with self.core.lock(game_id):
                    record, state = await self.core.fresh(running)
                    if kind == "j":
                        return await self.openings.join_locked(place, record, state, user)
                    return await self.openings.start_lobby_locked(place, record, state, user)
            # A hand or a menu step only reads: this process's lock keeps its copy still,
            # and the database's lock (a transaction on PostgreSQL) is taken only when the
            # press completes a move, then the move is checked again on the game as saved.
            async with self.core.process_lock(game_id):
                # A hand is shown as the database has it; a menu step may go by this
                # process's copy (its version is checked against the button's, a newer
                # button reads the game again, and a completed move is checked again under
                # the database's lock), which spares a read per tap on a shared database.
                if kind == "h":
                    record, state = await self.core.fresh(running)
                else:
                    record = self.core.cached_record(running)
                    state = await self.core.load(record)
                outcome = await self._resolve_press(place, user, parsed, record, state)
                if isinstance(outcome, Reply):
                    return outcome
                record, state, seat, action = outcome
                async with self.core.store.game_lock(game_id):
                    latest, latest_state = await self.core.fresh(record)
                    if latest is not record:
                        outcome = await self._resolve_press(place, user, parsed, latest,
                                                            latest_state)
                        if isinstance(outcome, Reply):
                            return outcome
                        record, state, seat, action = outcome
                    return await self.core.apply(place, record, state, seat, action)
        return await self.core.guard(place, work, user, actor=user)

    async def _resolve_press(self, place: Place, user: User, parsed: Payload,
                             record: GameRecord, state: GameState
                             ) -> Reply | tuple[GameRecord, GameState, int, str]:
        """What a hand or menu press means on ``record``: the reply of a step that changes
        nothing, or the move it completes (the game it was checked on, read again when the
        button was newer than this process's copy, the seat and the action). Refusals
        raise."""
        version, path = parsed.version, parsed.path
        if parsed.kind == "h":
            seat = seat_of(record, user)
            if seat is None:
                raise ServiceError(t(place, "error.not_a_player"), light=True)
            if not hides_hands(record):
                raise ServiceError(t(place, "hand.none",
                                     game=get_game(record.game).TITLE), record)
            return Reply(board=self.presenter.render_board(place, record, state),
                         hand=self.presenter.render_hand(place, record, state, seat))
        own = seat_of(record, user)
        per_seat = own is not None and state.seat_version(own) is not None
        known = state.seat_version(own) if per_seat and own is not None else record.version
        if known is not None and version > known:
            # The button is newer than this process's copy: another process moved the
            # game on. Read it again rather than refuse a current press.
            record, state = await self.core.reread(record)
            per_seat = own is not None and state.seat_version(own) is not None
        if not per_seat and version != record.version:
            raise ServiceError(t(place, "error.stale"), record)
        seat = self.core.acting_seat(place, record, state, user)
        if version != menu_version(record, state, seat):
            raise ServiceError(t(place, "error.stale"), record)
        private = hides_hands(record)
        if not path or (path == (GRID_TOKEN,) and state.offers_grid()):
            # The first step, as the list or as the board's grid (``drawing._menu``).
            return self._step_reply(place, record, state, seat, path, private)
        try:
            offered = {c.token: c for c in self.presenter.menu_at(record, state, seat, path[:-1])}
        except GameError:
            offered = {}
        choice: Choice | None = offered.get(path[-1])
        if choice is None:
            raise ServiceError(t(place, "error.not_in_menu"), record)
        if choice.unavailable is not None:
            raise ServiceError(localise(place.language, choice.unavailable), record)
        while choice.action is None:
            following = self.presenter.menu_at(record, state, seat, path)
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
            return Reply(board=self.presenter.render_board(place, record, state),
                         hand=self.presenter.render_hand(place, record, state, seat, path))
        return self.presenter.board_reply(place, record, state, path=path)

    async def hint(self, place: Place, user: User, pressed: Payload | None = None, *,
                   reaches: bool = True) -> Reply:
        """A hint for the user's move (``engines.analysis.hint``), as a notice only they
        see; refused in games between people and in events (``bot.hints``). It is worked
        out in the pool, and the game is saved with the seat's hint count raised (a
        ``hint`` line in the log), so the result is not counted; everyone is told.

        A hint that would void a result that still counts (``hint_voids_result``) is
        taken only on its yes: ``pressed`` is the hint button pressed (None: ``/hint``),
        and unless it is the yes asked for this game at this version, the reply is the
        question (``hint_question``) and nothing changes. The yes is refused to anyone
        but the seat to move, like the hint itself (a hint game has one person).

        ``reaches`` False: the hint could not reach the user privately (Telegram: no
        private chat with the bot yet), so it is neither asked about nor taken, and the
        game's result still counts (``Reply.needs_private``); someone else is refused as
        always."""
        from bot.hints import (
            HINT_SECONDS,
            hint_question,
            hint_refusal,
            hint_voids_result,
            says_yes,
            with_hint,
        )
        from engines.analysis import hint as find_hint
        from renderers.replay import render_hint

        async def work() -> Reply:
            record, state = await self.core.current(place)
            seat = self.core.acting_seat(place, record, state, user)
            refusal = hint_refusal(record, place.language)
            if refusal is not None:
                raise ServiceError(refusal, record)
            if not reaches:
                return Reply(ok=False, notice=t(place, "hint.private_only"),
                             needs_private=True)
            asked_at = menu_version(record, state, seat)
            if hint_voids_result(record) and not says_yes(pressed, record, asked_at):
                return hint_question(record, asked_at, place.language)
            try:
                found = await self.core.workers.run(find_hint, record.game, state.to_dict(), seat,
                                                    agent_seed(record), refuse_when_busy=True,
                                                    timeout=HINT_SECONDS)
            except (WorkersBusy, TimeoutError):
                raise ServiceError(t(
                    place, "error.workers_busy",
                    "🧠 The computer is busy thinking for other games. Try again in a "
                    "minute."), record) from None
            async with self.core.lock(record.id):
                current, state = await self.core.fresh(record)
                if (current.status != "active" or seat not in state.to_move()
                        or menu_version(current, state, seat) != asked_at):
                    raise ServiceError(t(place, "error.stale"), current)
                reply = await self.core.save_and_reply(
                    place, current, state, with_hint(current.players, seat), current.status,
                    MoveRecord(seat, "hint", str(found.get("kind", ""))), seat)
            reply.notice = render_hint(found, place.language)
            reply.announcements.append(t(
                place, "hint.taken", "💡 {name} took a hint: this game's result is not "
                "counted.", name=user.name))
            return reply
        return await self.core.guard(place, work, user, actor=user)
