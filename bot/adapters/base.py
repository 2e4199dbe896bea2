"""``ChatAdapter``: what every chat platform does the same way, written once.

A platform adapter (Discord, Telegram) subclasses it and supplies only its primitives:

* ``announce(channel, lines)``: public lines in a channel;
* ``edit_board(place, message_id, board, ai_thinking)``: redraw a board message and say
  what came of it (``delivery.Shown``: shown, gone, later or refused);
* ``send_board(place, board, ai_thinking)``: post a new board message and return the
  reference to store with it (its chat and message ids), or why it was not posted;
* ``retire_old_board(place, ref, board)``: strip the buttons from a board message a new
  one replaced (best effort);
* ``post_daily(schedule, day)``: post a daily challenge and say what came of it
  (posted, failed this once, or the chat is gone);
* ``deliver_extras(place, reply, actor)``: optional, what the platform sends besides the
  board after a change (Telegram: private hands in the players' chats).

Everything else lives here: the settings cache, where a stored game lives, remembering and
updating the board with its version and lock, what follows a change (``game_changed``, the
one way out of every change), the computer's
turns (and resuming them after a restart), the turn-timer and daily loops, and publishing
the command list only when it changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from bot.adapters.common import AITurns, BackgroundWork, BoardVersions
from bot.adapters.delivery import (
    LATER_FIRST_SECONDS,
    REFUSED_FIRST_SECONDS,
    REFUSED_MAX_SECONDS,
    Drawn,
    Redelivery,
    Shown,
    ShownVersions,
)
from bot.app import App
from bot.puzzles.daily import PostOutcome
from bot.service import Board, Place, Reply, place_of_record
from bot.store import TURING_DAILY, DailySchedule, GameRecord
from bot.store.records import RUNNING
from renderers.i18n import translate

log = logging.getLogger(__name__)

# The setting (per server or group, and per person as ``user:<id>``) that turns cues off.
TURN_CUES = "turn_cues"
# The setting (per server or group) naming its class board message, as JSON
# ``{"channel": …, "message": …, "language": …}``; empty when there is none.
CLASS_BOARD = "class_board"
# How long a class board waits after a change before it is redrawn: one edit covers every
# move made meanwhile, so fifteen games never come near a platform's edit limits.
CLASS_BOARD_SECONDS = 5.0
# How often a process on a shared database looks for computer turns whose process died
# (``sweep_ai``); a lapsed lease is taken over within this plus the lease.
AI_SWEEP_SECONDS = 10.0


class ChatAdapter(BackgroundWork, ABC):
    platform: ClassVar[str]

    def __init__(self, app: App) -> None:
        self.app = app
        self.service = app.service
        self.settings = app.settings
        self.community = app.community
        self.daily = app.daily
        self.classroom = app.classroom
        self.boards = BoardVersions()
        self.ai_turns = AITurns(self.service, self.show_ai_move)
        self._settings_cache: dict[tuple[str, str], str | None] = {}
        # game id → (channel, message id) of its live turn cue: at most one per game.
        self._cues: dict[int, tuple[str, str]] = {}
        # Turn cues the platform did not take, per game: (where, whom, the board).
        self._cues_owed: dict[int, tuple[Place, list[dict[str, Any]], Board]] = {}
        # game id → the version of the newest cue decision, so a late one is dropped.
        self._cue_versions: dict[int, int] = {}
        self._daily_task: asyncio.Task[None] | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self._ai_sweep_task: asyncio.Task[None] | None = None
        # Tests with a fake clock drive timers (check_turn_timers) and daily posts
        # (post_daily_due) themselves, so that no background loop races an assertion.
        self.run_turn_timers = True
        self.run_daily_schedule = True
        # The platform's post of a trainer game's scheduled puzzle of the day; set where
        # the platform adds the trainer (its ``commands/puzzles.py``).
        self.post_puzzle_daily: Callable[[DailySchedule, str],
                                         Awaitable[PostOutcome]] | None = None
        self.class_board_delay = CLASS_BOARD_SECONDS
        self._class_boards_due: set[str] = set()
        self.redelivery = Redelivery(self.redraw_stored, self.doubt_board)
        # game id → old board messages still to be retired: (place, board ref, board)
        self._retirements: dict[int, list[tuple[Place, dict[str, Any], Board]]] = {}
        self.shown_versions = ShownVersions(self.service.store.record_shown)

    # ------------------------------------------------------------ primitives
    @abstractmethod
    async def announce(self, channel: str, lines: list[str]) -> None: ...

    @abstractmethod
    async def edit_board(self, place: Place, message_id: int, board: Board,
                         ai_thinking: bool) -> Shown: ...

    @abstractmethod
    async def send_board(self, place: Place, board: Board,
                         ai_thinking: bool) -> dict[str, str] | Shown: ...

    @abstractmethod
    async def retire_old_board(self, place: Place, ref: dict[str, Any], board: Board) -> Shown:
        """The board message ``ref`` was replaced by a newer one: take its buttons away,
        and say what came of it (shown: retired; gone: nothing left to retire)."""

    @abstractmethod
    async def post_daily(self, schedule: DailySchedule, day: str) -> PostOutcome: ...

    async def post_scheduled(self, schedule: DailySchedule, day: str) -> PostOutcome:
        """A due daily post: the Turing challenge's, or a trainer game's puzzle of the
        day (one schedule per channel and game)."""
        if schedule.game == TURING_DAILY:
            return await self.post_daily(schedule, day)
        if self.post_puzzle_daily is None:
            log.warning("no puzzle of the day can be posted on %s", self.platform)
            return "failed"
        return await self.post_puzzle_daily(schedule, day)

    async def daily_dropped(self, schedule: DailySchedule) -> None:
        """A daily schedule was dropped because its chat refused the bot for days; a
        platform that can reach the class another way says so there. Logged either way."""

    @abstractmethod
    async def send_cue(self, place: Place, people: list[dict[str, Any]],
                       board: Board) -> str | None:
        """Post a turn cue that mentions (and notifies) exactly ``people``, by their ids;
        the message's id, "" when there was no one to mention, or None when the platform
        did not take it (it is then owed, and sent again with the board's redelivery)."""

    @abstractmethod
    async def delete_message(self, channel: str, message_id: str) -> None: ...

    @abstractmethod
    def settings_scope(self, place: Place) -> str:
        """Where the settings of ``place``'s server or group are kept."""

    @abstractmethod
    async def post_text(self, channel: str, text: str) -> str | None:
        """Post a plain message (pinging nobody); its id, or None when it failed."""

    @abstractmethod
    async def edit_text(self, channel: str, message_id: str, text: str) -> Shown:
        """Replace a plain message's text, and say what came of it (``Shown``)."""

    @abstractmethod
    def game_link(self, record: GameRecord) -> str:
        """Where a class board points for ``record``'s board."""

    async def deliver_extras(self, place: Place, reply: Reply, *, actor: str | None) -> None:
        """What the platform sends besides the board after a change; nothing by default."""

    # ------------------------------------------------------------ settings
    async def setting(self, scope: str, key: str) -> str | None:
        """A server's or chat's setting, from memory after the first read: every press
        needs them before its answer, and only ``set_setting`` changes them."""
        cache_key = (scope, key)
        if cache_key not in self._settings_cache:
            self._settings_cache[cache_key] = await self.service.get_setting(
                self.platform, scope, key)
        return self._settings_cache[cache_key]

    async def set_setting(self, scope: str, key: str, value: str) -> None:
        await self.service.set_setting(self.platform, scope, key, value)
        self._settings_cache[(scope, key)] = value

    async def publish_if_changed(self, scope: str, payload: Any,
                                 publish: Callable[[], Awaitable[None]]) -> bool:
        """Publish the command list only when it differs from the last one published
        (``scope`` names where), as both platforms rate-limit it and a restart changes
        nothing.

        Publishing is an optional start-up step (``optional_start_step``): when the
        platform refuses it, the bot runs on with the commands published before, and as
        the new digest is not stored, the next start tries again."""
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        if await self.service.get_setting(self.platform, "bot", scope) == digest:
            return False
        if not await self.optional_start_step(
                f"publishing the commands ({scope})", publish,
                lambda error: self.explain_command_refusal(error, payload)):
            return False
        await self.service.set_setting(self.platform, "bot", scope, digest)
        return True

    async def optional_start_step(self, what: str, step: Callable[[], Awaitable[None]],
                                  explain: Callable[[Exception], str] | None = None) -> bool:
        """Run a start-up step the bot can serve without (the command menus), and say
        whether it worked. A refusal of the platform is one ERROR line that says what was
        refused and why (``explain``), without a traceback: it is not a crash, and a
        school's technician must be able to read it. Anything else is a bug in the step,
        logged with its traceback; neither stops the bot."""
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except self.platform_errors as error:
            detail = explain(error) if explain is not None else str(error)
            log.error("%s: %s was refused, so the bot runs on without it and tries again at "
                      "the next start: %s", self.platform, what, detail)
            return False
        except Exception:
            log.exception("%s: %s failed; the bot runs on without it", self.platform, what)
            return False
        return True

    # The exceptions by which a platform refuses a request, or its network fails.
    platform_errors: ClassVar[tuple[type[Exception], ...]] = ()

    def explain_command_refusal(self, error: Exception, payload: Any) -> str:
        """What the platform said when it refused the command list ``payload``, naming the
        command and field where the platform's answer allows; each platform refines it."""
        return str(error)

    # ------------------------------------------------------------ places
    def place_of_record(self, record: GameRecord) -> Place:
        return place_of_record(record, self.settings.language)

    @staticmethod
    def t(place: Place, key: str, **params: Any) -> str:
        return translate(place.language, key, None, **params)

    # ------------------------------------------------------------ boards
    async def board_ref(self, game_id: int) -> dict[str, Any]:
        kept = None if self.service.store.shared else self.boards.ref(game_id)
        if kept is not None:
            return kept
        record = await self.service.game_record(game_id)
        ref = dict(record.board_ref or {}) if record is not None else {}
        if ref and not self.service.store.shared:
            self.boards.keep_ref(game_id, ref)
        return ref

    async def board_message_id(self, game_id: int) -> int | None:
        message = str((await self.board_ref(game_id)).get("message", ""))
        return int(message) if message.isdigit() else None

    async def remember_board(self, place: Place, game_id: int, ref: dict[str, str],
                             version: int) -> None:
        """Store where the board is, with the language and style it is drawn in, and the
        version it shows."""
        stored = {**ref, "language": place.language, "emoji": place.emoji, "shown": version}
        await self.service.set_board_ref(game_id, stored)
        if not self.service.store.shared:
            self.boards.keep_ref(game_id, stored)
        await self.class_board_changed(place)  # a new game, or its board moved
        self.boards.show(game_id, version)

    async def update_board(self, place: Place, board: Board, ai_thinking: bool = False) -> None:
        """Show ``board`` in the game's board message, or a newer one if one is shown; when
        the platform does not confirm it, the game is redelivered until it does."""
        self.board_behind(board.game_id, await self.draw_board(place, board, ai_thinking))

    def board_behind(self, game_id: int, outcome: Shown) -> None:
        """What follows a board's draw that the platform did not confirm: the game is
        redrawn as stored until it does; after a passing fault, whose edit may still land
        late, once more a little later."""
        if outcome not in (Shown.LATER, Shown.REFUSED):
            return
        log.info("%s: the board of game %s is behind (%s); it is redrawn when the platform "
                 "takes it", self.platform, game_id, outcome.value)
        self.redelivery.behind(game_id, outcome)
        if outcome is Shown.LATER:
            self.redelivery.verify_later(game_id)

    async def doubt_board(self, game_id: int) -> None:
        """Forget what the game's board message is believed to show, so the next draw
        sends the stored game whatever was drawn before."""
        self.boards.set_shown(game_id, -1)
        await self.forget_drawn(game_id)

    async def forget_drawn(self, game_id: int) -> None:
        """A platform that skips edits which change nothing forgets the board's last text."""

    async def draw_board(self, place: Place, board: Board, ai_thinking: bool) -> Shown:
        """Edit the game's board message in place; post a new one, and retire the old,
        only when the old is gone. Edits of one board are serialised by its lock and
        carry its version, so an older board never overwrites a newer one; a board
        counts as shown only once the platform confirmed it."""
        async with self.boards.lock(board.game_id):
            if self.boards.newer_shown(board.game_id, board.version):
                return Shown.SHOWN
            ref = await self.board_ref(board.game_id)
            message = str(ref.get("message", ""))
            outcome = (await self.edit_board(place, int(message), board, ai_thinking)
                       if message.isdigit() else Shown.GONE)
            if outcome is Shown.SHOWN:
                self.board_shown(board.game_id, board.version)
                return outcome
            if outcome is not Shown.GONE:
                return outcome
            posted = await self.send_board(place, board, ai_thinking)
            if isinstance(posted, Shown):
                return posted
            await self.remember_board(place, board.game_id, posted, board.version)
            if message.isdigit():
                self._retirements.setdefault(board.game_id, []).append((place, ref, board))
            return await self.retire_owed(board.game_id)

    async def retire_owed(self, game_id: int) -> Shown:
        """Take the buttons off the game's old board messages that a new one replaced, so
        that one message per game has live buttons; a retirement the platform did not
        take is owed, and tried again with the game's redelivery."""
        owed = self._retirements.pop(game_id, [])
        left = []
        for place, ref, board in owed:
            if await self.retire_old_board(place, ref, board) in (Shown.LATER, Shown.REFUSED):
                left.append((place, ref, board))
        if left:
            self._retirements[game_id] = left + self._retirements.get(game_id, [])
            return Shown.LATER
        return Shown.SHOWN

    def board_shown(self, game_id: int, version: int) -> None:
        """The platform confirmed the game's board at ``version``. When a newer one was
        confirmed before (a press's answer that came late), the older one is what the
        message shows now: it is redrawn at once."""
        if self.boards.newer_shown(game_id, version):
            self.boards.set_shown(game_id, version)
            self.redelivery.behind(game_id, at_once=True)
            return
        self.boards.show(game_id, version)
        self.shown_versions.confirm(game_id, version)

    async def redraw_stored(self, game_id: int) -> Shown:
        """Draw the game's board as it is stored now (``Redelivery``'s one step), and
        send its owed turn cue."""
        if game_id in self._cues_owed and await self.resend_owed_cue(game_id) is Shown.LATER:
            return Shown.LATER
        if game_id in self._retirements and await self.retire_owed(game_id) is not Shown.SHOWN:
            return Shown.LATER
        record = await self.service.game_record(game_id)
        if record is None or record.platform != self.platform or not record.board_ref:
            return Shown.SHOWN  # nothing of ours to draw
        if self.boards.shown(game_id) >= record.version:
            return Shown.SHOWN
        place = self.place_of_record(record)
        reply = await self.service.stored_board(place, record)
        if reply.board is None:
            return Shown.SHOWN
        return await self.draw_board(place, reply.board, reply.ai_to_move)

    async def reconcile_boards(self) -> int:
        """At start-up: every running game of this platform whose board was last
        confirmed at an older version than the stored one (a move whose edit the restart
        lost) is redrawn, without anyone pressing or typing; how many were behind."""
        behind = 0
        for record in await self.service.store.games_with_status(*RUNNING):
            if record.platform != self.platform or not self.serves(record):
                continue
            shown = (record.board_ref or {}).get("shown")
            if isinstance(shown, int) and shown < record.version:
                behind += 1
                self.redelivery.behind(record.id, at_once=True)
        if behind:
            log.info("%s: %d boards were behind their games; redrawing them", self.platform,
                     behind)
        return behind

    def serves(self, record: GameRecord) -> bool:
        """Whether this process draws ``record``'s board (a Discord shard: its servers)."""
        return True

    def forget_game(self, game_id: int) -> None:
        """Drop what a finished game kept in memory. Its last drawn version stays, so a
        late edit cannot draw an older board over the final one."""
        self.boards.forget(game_id)
        self._cue_versions.pop(game_id, None)
        self._cues_owed.pop(game_id, None)

    # ------------------------------------------------------------ after a change
    async def game_changed(self, place: Place, reply: Reply, *, by: str | None = None,
                           drawn: Drawn = Drawn.NOTHING) -> None:
        """The one way out of a change: game ``reply.board`` changed, at ``place``
        (``drawn``: how much of it the caller already showed; ``by``: who made it and sees
        their own hand already, whom the hands' delivery leaves out). The board,
        the hands of those whose turn began, the turn cue, the class board, the news,
        and the computer's turn all follow from here, once; the computer is woken even
        when a step before failed, so a saved move never leaves it waiting."""
        try:
            await self.deliver_change(place, reply, by=by, drawn=drawn)
        finally:
            if reply.ai_to_move:
                self.spawn(self.run_ai(place))

    async def deliver_change(self, place: Place, reply: Reply, *, by: str | None,
                             drawn: Drawn) -> None:
        """``game_changed`` without waking the computer: what the computer's own moves
        use, as its turn runs on by itself (``AITurns``)."""
        if drawn in (Drawn.NOTHING, Drawn.NEWS) and reply.board is not None:
            await self.update_board(place, reply.board, reply.ai_to_move)
        await self.deliver_extras(place, reply, actor=by)
        await self.cue_turn(place, reply)
        await self.class_board_changed(place)
        if drawn in (Drawn.NOTHING, Drawn.BOARD):
            await self.announce(place.channel, reply.announcements)
        if reply.finished and reply.board is not None:
            self.forget_game(reply.board.game_id)

    # ------------------------------------------------------------ turn cues
    async def cue_turn(self, place: Place, reply: Reply) -> None:
        """Tell the people whose turn has just begun (``Reply.turn_cue``), once: a short
        message that mentions them by id, replacing the game's previous cue, so at most
        one is alive per game. Off where the server's or group's moderators turned cues
        off, and for people who muted their own; gone when the game ends."""
        board = reply.board
        if board is None:
            return
        if reply.finished:
            self._cue_versions.pop(board.game_id, None)
            await self.clear_cue(board.game_id)
            return
        people = [p for p in reply.turn_cue if p.get("platform") == self.platform]
        if not people:
            return
        async with self.boards.lock(board.game_id):
            if (self.boards.newer_shown(board.game_id, board.version)
                    or self._cue_versions.get(board.game_id, -1) > board.version):
                # A late answer: the game moved on, and the newer change cues its own
                # mover; this one must not replace that cue with a wrong one.
                return
            self._cue_versions[board.game_id] = board.version
            await self.clear_cue(board.game_id)  # a new turn: the old cue is stale
            if await self.setting(self.settings_scope(place), TURN_CUES) == "off":
                return
            people = [p for p in people
                      if await self.setting(f"user:{p.get('id')}", TURN_CUES) != "off"]
            if not people:
                return
            await self._send_cue_or_owe(place, people, board)

    async def _send_cue_or_owe(self, place: Place, people: list[dict[str, Any]],
                               board: Board) -> Shown:
        """Send a turn cue; one the platform did not take is owed: the game goes to
        ``Redelivery``, which sends it again while it is still the game's newest cue
        (``resend_owed_cue``). Called under the board's lock."""
        message_id = await self.send_cue(place, people, board)
        if message_id is None:
            self._cues_owed[board.game_id] = (place, people, board)
            self.redelivery.behind(board.game_id)
            return Shown.LATER
        self._cues_owed.pop(board.game_id, None)
        if message_id:
            self._cues[board.game_id] = (place.channel, message_id)
        return Shown.SHOWN

    async def resend_owed_cue(self, game_id: int) -> Shown:
        """Send the game's owed turn cue again, unless a newer change has cued its own
        mover (or ended the game) since: a cue is right only for the version it was
        computed for."""
        async with self.boards.lock(game_id):
            owed = self._cues_owed.pop(game_id, None)
            if owed is None:
                return Shown.SHOWN
            place, people, board = owed
            if self._cue_versions.get(game_id) != board.version:
                return Shown.SHOWN
            return await self._send_cue_or_owe(place, people, board)

    async def clear_cue(self, game_id: int) -> None:
        cue = self._cues.pop(game_id, None)
        if cue is not None:
            await self.delete_message(*cue)

    def cue_text(self, place: Place, mention: str, board: Board) -> str:
        return translate(place.language, "turn.cue", "🔔 {mention}, it is your turn.",
                         mention=mention)

    # ------------------------------------------------------------ the class board
    async def open_class_board(self, place: Place) -> bool:
        """Post the class board of ``place``'s server or group in ``place``, replacing the
        one it had (which then says where the board went); False outside a server."""
        if not place.server:
            return False
        scope = self.settings_scope(place)
        previous = await self._class_board_ref(scope)
        text = await self.community.class_board_text(place, self.game_link)
        message_id = await self.post_text(place.channel, text)
        if message_id is None:
            return False
        await self.set_setting(scope, CLASS_BOARD, json.dumps(
            {"channel": place.channel, "message": message_id, "language": place.language}))
        if previous is not None:
            await self.edit_text(previous["channel"], previous["message"], translate(
                place.language, "classboard.moved",
                "📋 The class board is now a newer message."))
        return True

    async def close_class_board(self, place: Place) -> bool:
        """Stop keeping the class board up to date; False when there was none."""
        scope = self.settings_scope(place)
        if await self._class_board_ref(scope) is None:
            return False
        await self.set_setting(scope, CLASS_BOARD, "")
        return True

    async def class_board_changed(self, place: Place) -> None:
        """A game of ``place``'s server changed: redraw its class board, if it has one,
        once ``class_board_delay`` has passed, with everything that changed meanwhile."""
        if not place.server:
            return
        scope = self.settings_scope(place)
        if scope in self._class_boards_due or await self._class_board_ref(scope) is None:
            return
        self._class_boards_due.add(scope)
        self.spawn(self._redraw_class_board_later(place, scope, self.class_board_delay))

    async def _redraw_class_board_later(self, place: Place, scope: str, delay: float,
                                        tries: int = 0) -> None:
        try:
            await asyncio.sleep(delay)
        finally:
            # A change from here on schedules the next redraw, so none is missed.
            self._class_boards_due.discard(scope)
        outcome = await self._draw_class_board(place)
        if outcome in (Shown.LATER, Shown.REFUSED) and scope not in self._class_boards_due:
            # Not taken: the games as stored are drawn again later, with backoff, not
            # left for the next change to mend.
            self._class_boards_due.add(scope)
            first = LATER_FIRST_SECONDS if outcome is Shown.LATER else REFUSED_FIRST_SECONDS
            self.spawn(self._redraw_class_board_later(
                place, scope, min(REFUSED_MAX_SECONDS, first * 2 ** tries), tries + 1))

    async def redraw_class_board(self, place: Place) -> bool:
        """Draw the class board of ``place``'s server or group from the stored games;
        whether it is shown."""
        return await self._draw_class_board(place) is Shown.SHOWN

    async def _draw_class_board(self, place: Place) -> Shown:
        scope = self.settings_scope(place)
        ref = await self._class_board_ref(scope)
        if ref is None:
            return Shown.SHOWN  # none kept: nothing to draw
        board_place = Place(place.platform, ref["channel"], ref.get("language") or
                            place.language, place.emoji, place.server)
        text = await self.community.class_board_text(board_place, self.game_link)
        outcome = await self.edit_text(ref["channel"], ref["message"], text)
        if outcome is Shown.GONE:
            log.info("the class board of %s is gone; it is no longer kept", scope)
            await self.set_setting(scope, CLASS_BOARD, "")
        elif outcome is not Shown.SHOWN:
            log.info("the class board of %s was not redrawn (%s); it is tried again",
                     scope, outcome.value)
        return outcome

    async def _class_board_ref(self, scope: str) -> dict[str, str] | None:
        stored = await self.setting(scope, CLASS_BOARD)
        if not stored:
            return None
        try:
            ref = json.loads(stored)
        except ValueError:
            return None
        if not isinstance(ref, dict) or not ref.get("channel") or not ref.get("message"):
            return None
        return {str(key): str(value) for key, value in ref.items()}

    # ------------------------------------------------------------ the computer
    async def run_ai(self, place: Place) -> None:
        """Let the computer move, showing each move; one such task per channel."""
        await self.ai_turns.run(place)

    async def show_ai_move(self, place: Place, reply: Reply) -> None:
        await self.deliver_change(place, reply, by=None, drawn=Drawn.NOTHING)

    async def resume_ai(self) -> None:
        """After a restart, the computer moves where it was to move."""
        for record in await self.service.pending_ai_places():
            if record.platform == self.platform:
                self.spawn(self.run_ai(self.place_of_record(record)))

    # ------------------------------------------------------------ loops
    def start_loops(self) -> None:
        if self.run_daily_schedule and self._daily_task is None:
            self._daily_task = asyncio.create_task(
                self.daily.run_schedule(self.platform, self.post_scheduled, self.daily_dropped))
        if self.run_turn_timers and self._timer_task is None:
            self._timer_task = asyncio.create_task(self.classroom.run_timers(
                self.platform, self.place_of_record, self.timer_reminder, self.timer_acted))
        if self.service.store.shared and self._ai_sweep_task is None:
            self._ai_sweep_task = asyncio.create_task(self.sweep_ai())

    async def sweep_ai(self) -> None:
        """With several processes on one database: look for computer turns nobody plays
        (its process died holding the lease) and take them over; a lease that is held
        makes ``play_ai_turn`` leave the turn to its holder."""
        while True:
            await asyncio.sleep(AI_SWEEP_SECONDS)
            try:
                await self.resume_ai()
            except Exception:
                log.exception("computer-turn sweep failed")

    async def stop_loops(self) -> None:
        for task in (self._daily_task, self._timer_task, self._ai_sweep_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._daily_task = self._timer_task = self._ai_sweep_task = None
        await self.redelivery.close()
        await self.shown_versions.close()

    async def timer_reminder(self, place: Place, text: str) -> None:
        await self.announce(place.channel, [text])

    async def timer_acted(self, place: Place, reply: Reply) -> None:
        await self.game_changed(place, reply)

    async def check_turn_timers(self) -> int:
        return await self.classroom.check_timers(self.platform, self.place_of_record,
                                                 self.timer_reminder, self.timer_acted)

    async def post_daily_due(self) -> int:
        return await self.daily.post_due(self.platform, self.post_scheduled,
                                         self.daily_dropped)
