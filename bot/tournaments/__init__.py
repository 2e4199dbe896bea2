"""Tournaments (issue 27): a moderator creates one for a game, players sign up, the bot
pairs each round (``bot.tournaments.pairings``), starts its games through the service, takes their
results as they end, and keeps one message of sign-ups and standings up to date.

Everything lives in the store's ``tournaments`` row (settings, entrants, the bracket), saved
under its version like a game, so a restart loses nothing and two processes cannot both
pair a round: the one whose save wins starts that round's games. A game of a tournament
carries the mark ``tournament=<id>/<round>/<board>`` in its stored options (the mark
``bot.hints`` already refuses hints for); ``game_finished``, subscribed to the service's
``GameFinished``, reads it. A result
lost to a crash between the game's save and the tournament's is found again by
``resume_all``, which adapters call on start.

Where a game is played and how a message is drawn is each platform's part
(``TournamentHost``): a Discord thread, a Telegram table or topic.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.classroom import TIMER_SETTING, Classroom, parse_policy
from bot.events import GameFinished, PlayerForgotten
from bot.service import (
    Opponent,
    Place,
    Reply,
    Service,
    User,
    ai_player,
    human_player,
    place_of_record,
)
from bot.store import FORMER_PLAYER, ChannelBusy, ForTournaments
from bot.store.tournament_rows import TournamentRecord
from bot.tables import room_of
from bot.tournaments.games import MARK, GameMark, bracket_of, game_result
from bot.tournaments.pairings import (
    FORMATS,
    NO_RESULT,
    ROUND_ROBIN,
    ROUND_ROBIN_MAX_DEFAULT,
    SWISS,
    Bracket,
    BracketError,
)
from bot.tournaments.text import export_csv, tournament_text
from engines.base import GameError
from engines.registry import get_game, make_agent, resolve_name
from renderers.i18n import translate

log = logging.getLogger(__name__)

AUTO = "auto"  # round-robin up to ROUND_ROBIN_MAX_DEFAULT players, Swiss above
MAX_ENTRANTS = 64
MAX_ROUNDS = 20
# Attempts at a version-guarded save before giving up (another process kept winning).
SAVE_ATTEMPTS = 8
# How long a process's claim to start one board's game holds: far longer than opening a
# thread and creating a game takes; past it, a process that died holding it is replaced.
START_LEASE_SECONDS = 120.0


class TournamentRefused(Exception):
    """A command that changes nothing; ``notice`` says why, in the asker's language."""

    def __init__(self, notice: str) -> None:
        super().__init__(notice)
        self.notice = notice


class TournamentHost(Protocol):
    """What a platform does for tournaments of its own."""

    async def open_game_place(self, tournament: TournamentRecord, title: str) -> Place:
        """Where one game of ``tournament`` is played: its own thread, topic or table."""
        ...

    async def show_new_game(self, place: Place, reply: Reply) -> None:
        """Post a just-started game's board (and cue, and the computer's first move)."""
        ...

    async def show_game_change(self, place: Place, reply: Reply) -> None:
        """Redraw a game the tournament changed (a game abandoned when it was ended)."""
        ...

    async def show_tournament(self, tournament: TournamentRecord) -> None:
        """Draw the tournament's message, or redraw it in place."""
        ...


class Tournaments:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.store: ForTournaments = service.store
        self.hosts: dict[str, TournamentHost] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._work: set[asyncio.Task[None]] = set()

    def attach(self, platform: str, host: TournamentHost) -> None:
        self.hosts[platform] = host

    async def settle(self) -> None:
        """Wait for the work started by games' ends (tests; shutdown)."""
        while self._work:
            await asyncio.gather(*list(self._work), return_exceptions=True)

    def _spawn(self, work: Awaitable[None]) -> None:
        async def logged() -> None:
            try:
                await work
            except Exception:
                log.exception("tournament work failed")
        task = asyncio.ensure_future(logged())
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    @staticmethod
    def _t(language: str, key: str, default: str, **params: Any) -> str:
        return translate(language, key, default, **params)

    # ------------------------------------------------------------- reading
    async def open_here(self, place: Place) -> TournamentRecord | None:
        """The open tournament of ``place``'s channel (its room, for a Telegram table)."""
        for record in await self.store.tournaments(place.platform, server=place.server or None,
                                                   statuses=("signup", "running", "paused")):
            if record.channel == room_of(place.channel):
                return record
        return None

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        return await self.store.get_tournament(tournament_id)

    def text(self, record: TournamentRecord) -> str:
        return tournament_text(record, bracket_of(record))

    async def set_message(self, tournament_id: int, ref: dict[str, Any]) -> None:
        """Remember the tournament's message, which every change redraws in place."""
        await self.store.set_tournament_message(tournament_id, ref)

    # ------------------------------------------------------------ commands
    async def create(self, place: Place, user: User, game: str, *, format: str = AUTO,
                     options: str = "", rounds: int = 0, computer: str = "",
                     timer: str = "") -> TournamentRecord:
        """A new tournament in ``place``'s channel, taking sign-ups (moderators only).
        ``timer`` is its time control as ``/timer`` takes it (``5 15 forfeit``), carried by
        each of its games; ``computer`` a level that may fill an odd number of players."""
        language = place.language
        await self._moderator(place, user)
        if not place.server:
            raise TournamentRefused(self._t(language, "tournament.group_only",
                                            "Tournaments are run in a server or group."))
        try:
            name = resolve_name(game)
            module = get_game(name)
        except (GameError, KeyError):
            raise TournamentRefused(self._t(language, "tournament.unknown_game",
                                            "There is no game called {game}.",
                                            game=game)) from None
        if format not in (AUTO, *FORMATS):
            raise TournamentRefused(self._t(language, "tournament.bad_format",
                                            "The format is auto, swiss or round_robin."))
        if not 0 <= rounds <= MAX_ROUNDS:
            raise TournamentRefused(self._t(language, "tournament.bad_rounds",
                                            "The number of rounds is 0 (automatic) to {most}.",
                                            most=MAX_ROUNDS))
        problem = self.service.check_start(place, user, name, Opponent("open"), options)
        if problem is not None:
            raise TournamentRefused(problem)
        policy = parse_policy(timer.split()) if timer.strip() else None
        if timer.strip() and policy is None:
            raise TournamentRefused(Classroom.usage(language))
        if computer:
            if module.INFO.solo or computer not in module.INFO.levels:
                raise TournamentRefused(self._t(
                    language, "tournament.bad_computer",
                    "The computer cannot fill a seat at level {level} in {game}.",
                    level=computer, game=module.TITLE))
            make_agent(name, computer, random.Random(0))  # validates the level
        state = {"game": name, "options": options.strip(), "format": format,
                 "rounds": rounds, "computer": computer, "language": language,
                 "timer": policy.dump() if policy else "",
                 "emoji": place.emoji, "entrants": [], "bracket": None}
        try:
            record = await self.store.create_tournament(place.platform, place.server,
                                                        room_of(place.channel), state)
        except ChannelBusy:
            raise TournamentRefused(self._t(
                language, "tournament.busy",
                "This channel already has a tournament; end it first.")) from None
        await self._show(record)
        return record

    async def sign_up(self, tournament_id: int, user: User, place: Place) -> str:
        """Sign ``user`` up, or off when they already are (the one button does both).
        Only from the tournament's own channel, where its message is: a button forged
        elsewhere finds nothing."""
        language = place.language
        too_fast = await self.service.rate_refusal(place, user)  # each press redraws
        if too_fast is not None:
            raise TournamentRefused(too_fast)
        record = await self.store.get_tournament(tournament_id)
        if record is None or (record.platform, record.channel) != (place.platform,
                                                                   room_of(place.channel)):
            raise TournamentRefused(self._t(language, "tournament.not_found",
                                            "There is no such tournament."))
        outcome: list[str] = []

        def change(current: TournamentRecord) -> tuple[str, dict[str, Any]] | None:
            if current.status != "signup":
                raise TournamentRefused(self._t(language, "tournament.signup_closed",
                                                "Sign-up for this tournament is closed."))
            entrants = [dict(p) for p in current.state["entrants"]]
            mine = [p for p in entrants if (p.get("platform"), p.get("id")) == (user.platform,
                                                                                 user.id)]
            if mine:
                entrants.remove(mine[0])
                outcome.append(self._t(language, "tournament.signed_off",
                                       "You are no longer signed up."))
            else:
                if len(entrants) >= MAX_ENTRANTS:
                    raise TournamentRefused(self._t(language, "tournament.full",
                                                    "This tournament is full."))
                entrants.append(human_player(user))
                outcome.append(self._t(language, "tournament.signed_up",
                                       "You are signed up. Press again to withdraw."))
            return current.status, {**current.state, "entrants": entrants}

        record = await self._change(tournament_id, change, language)
        await self._show(record)
        return outcome[-1]

    async def start(self, place: Place, user: User) -> str:
        """Close sign-up and start round 1 (moderators only)."""
        language = place.language
        await self._moderator(place, user)
        record = await self._open_in(place)

        def change(current: TournamentRecord) -> tuple[str, dict[str, Any]] | None:
            if current.status != "signup":
                raise TournamentRefused(self._t(language, "tournament.already_started",
                                                "This tournament has already started."))
            players = [dict(p) for p in current.state["entrants"]]
            computer = str(current.state.get("computer") or "")
            if len(players) % 2 and computer:
                players.append(ai_player(computer))
            if len(players) < 2:
                raise TournamentRefused(self._t(language, "tournament.too_few",
                                                "A tournament needs at least two players."))
            format = str(current.state.get("format") or AUTO)
            if format == AUTO:
                format = ROUND_ROBIN if len(players) <= ROUND_ROBIN_MAX_DEFAULT else SWISS
            bracket = Bracket.start(format, players, int(current.state.get("rounds") or 0))
            bracket.pair_next_round()
            return "running", {**current.state, "bracket": bracket.to_dict()}

        record = await self._change(record.id, change, language)
        await self._start_games(record)
        return self._t(language, "tournament.started", "The tournament has started.")

    async def pause(self, place: Place, user: User) -> str:
        """No new round starts until it is resumed; games being played go on and count."""
        language = place.language
        await self._moderator(place, user)
        record = await self._open_in(place)
        await self._set_status(record, "running", "paused", language)
        return self._t(language, "tournament.paused",
                       "The tournament is paused: games being played go on, and the next "
                       "round waits.")

    async def resume(self, place: Place, user: User) -> str:
        language = place.language
        await self._moderator(place, user)
        record = await self._open_in(place)
        record = await self._set_status(record, "paused", "running", language)
        await self._advance(record.id)
        return self._t(language, "tournament.resumed", "The tournament goes on.")

    async def end(self, place: Place, user: User) -> str:
        """Stop the tournament: its standings are final, games still being played are
        abandoned (they can no longer count)."""
        language = place.language
        await self._moderator(place, user)
        record = await self._open_in(place)

        def change(current: TournamentRecord) -> tuple[str, dict[str, Any]] | None:
            if not current.open:
                return None
            return "ended", current.state

        record = await self._change(record.id, change, language)
        bracket = bracket_of(record)
        for pairing in bracket.current_round if bracket else []:
            if pairing.result is None and pairing.game_id is not None:
                await self._abandon(record, pairing.game_id)
        await self._show(record)
        return self._t(language, "tournament.ended", "The tournament has ended.")

    # ------------------------------------------------------------- results
    async def game_finished(self, event: GameFinished) -> None:
        """A game ended (``GameFinished``): a tournament game's result is taken and the
        next round paired in the background, after the game's own reply."""
        record, state = event.record, event.state
        mark = GameMark.of(record)
        if mark is None:
            return
        result = game_result(record, state)
        if result is not None:
            self._spawn(self._take_result(mark, record.id, result))

    async def _take_result(self, mark: GameMark, game_id: int, result: str) -> None:
        await self._record(mark, game_id, result)
        await self._advance(mark.tournament)

    async def _record(self, mark: GameMark, game_id: int | None, result: str) -> None:
        def change(current: TournamentRecord) -> tuple[str, dict[str, Any]] | None:
            bracket = bracket_of(current)
            if bracket is None or current.status not in ("running", "paused"):
                return None
            try:
                pairing = bracket.rounds[mark.round][mark.board]
            except IndexError:
                return None
            if pairing.game_id not in (None, game_id) or pairing.result is not None:
                return None
            pairing.game_id = game_id
            bracket.record(mark.round, mark.board, result)
            return current.status, {**current.state, "bracket": bracket.to_dict()}

        await self._show(await self._change(mark.tournament, change, None))

    async def _advance(self, tournament_id: int) -> None:
        """Pair the next round once the current one is complete (or finish), and start
        the games of the round that have none yet."""
        paired: list[bool] = []

        def change(current: TournamentRecord) -> tuple[str, dict[str, Any]] | None:
            bracket = bracket_of(current)
            if current.status != "running" or bracket is None or not bracket.round_complete():
                return None
            if bracket.finished():
                return "finished", current.state
            bracket.pair_next_round()
            paired.append(True)
            return "running", {**current.state, "bracket": bracket.to_dict()}

        record = await self._change(tournament_id, change, None)
        if paired or record.status == "finished":
            await self._show(record)
        if record.status == "running":
            await self._start_games(record)

    async def _start_games(self, record: TournamentRecord) -> None:
        """Start each game of the current round that has none: its own place, the bot as
        creator (both players are cued), the mark in its options. A game already
        started for the board (a crash before its number was saved) is adopted."""
        bracket = bracket_of(record)
        host = self.hosts.get(record.platform)
        if bracket is None or host is None:
            return
        round_index = len(bracket.rounds) - 1
        running = {str(game.options.get(MARK)): game for game in
                   await self.store.running_games(record.platform, record.server)}
        language = str(record.state.get("language") or "en")
        module = get_game(str(record.state["game"]))
        bot_user = User(record.platform, "bot", "logic-bot", is_moderator=True)
        unplayable = False
        for board, pairing in enumerate(bracket.current_round):
            if pairing.game_id is not None or pairing.result is not None:
                continue
            assert pairing.second is not None  # a bye has its result
            mark = GameMark(record.id, round_index, board)
            adopted = running.get(mark.dump())
            if adopted is not None:
                await self._set_game(mark, adopted.id)
                continue
            if not await self._claim_board(mark):
                continue  # another process is starting it
            players = [bracket.players[pairing.first], bracket.players[pairing.second]]
            title = self._t(language, "tournament.game_title",
                            "Round {round}: {first} vs {second}", round=round_index + 1,
                            first=players[0].get("name", "?"),
                            second=players[1].get("name", "?"))
            place = await host.open_game_place(record, title)
            marks = {MARK: mark.dump()}
            if record.state.get("timer"):
                marks[TIMER_SETTING] = str(record.state["timer"])
            reply = await self.service.start_marked_game(
                place, bot_user, module.NAME, players, str(record.state.get("options", "")),
                marks)
            if not reply.ok or reply.board is None:
                # A player at their limit of games, a channel taken: the board counts for
                # nobody rather than holding up the round.
                log.warning("tournament %s could not start board %s: %s", record.id,
                            mark.dump(), reply.notice)
                await self._record(mark, None, NO_RESULT)
                unplayable = True
                continue
            await self._set_game(mark, reply.board.game_id)
            await host.show_new_game(place, reply)
        await self._show(await self.store.get_tournament(record.id) or record)
        if unplayable:
            await self._advance(record.id)

    async def _claim_board(self, mark: GameMark) -> bool:
        """Take the start of one board's game for this process (saved under the version
        guard): two processes resuming the same round at once start it once. A claim
        whose process died before saving the game's number lapses after a while."""
        key, me, now = mark.dump(), self.service.process_id, time.time()
        claimed: list[bool] = []

        def change(current: TournamentRecord) -> tuple[str, dict[str, Any]] | None:
            claimed.clear()  # (a lost save runs this again on a fresh read)
            bracket = bracket_of(current)
            if bracket is None:
                return None
            pairing = bracket.rounds[mark.round][mark.board]
            starting = dict(current.state.get("starting") or {})
            held = starting.get(key) or {}
            if (pairing.game_id is not None or pairing.result is not None
                    or (held.get("by") not in (None, me)
                        and float(held.get("until", 0)) > now)):
                return None
            starting[key] = {"by": me, "until": now + START_LEASE_SECONDS}
            claimed.append(True)
            return current.status, {**current.state, "starting": starting}

        await self._change(mark.tournament, change, None)
        return bool(claimed)

    async def _set_game(self, mark: GameMark, game_id: int) -> None:
        def change(current: TournamentRecord) -> tuple[str, dict[str, Any]] | None:
            bracket = bracket_of(current)
            if bracket is None:
                return None
            pairing = bracket.rounds[mark.round][mark.board]
            if pairing.game_id is not None:
                return None
            pairing.game_id = game_id
            starting = {key: claim for key, claim in
                        (current.state.get("starting") or {}).items() if key != mark.dump()}
            return current.status, {**current.state, "bracket": bracket.to_dict(),
                                    "starting": starting}

        await self._change(mark.tournament, change, None)

    async def _abandon(self, record: TournamentRecord, game_id: int) -> None:
        game = await self.store.get_game(game_id)
        host = self.hosts.get(record.platform)
        if game is None or not game.running:
            return
        place = place_of_record(game)
        reply = await self.service.abandon(place, User(record.platform, "bot", "logic-bot",
                                                       is_moderator=True),
                                           game_id, metered=False)
        if reply.ok and host is not None:
            await host.show_game_change(place, reply)

    async def resume_all(self, platform: str) -> None:
        """After a start: take the results of games that ended while the tournament's
        save was lost, then pair and start what is due. Adapters call it once ready."""
        for record in await self.store.tournaments(platform, statuses=("running", "paused")):
            try:
                await self._catch_up(record)
            except Exception:
                log.exception("tournament %s could not resume", record.id)

    async def _catch_up(self, record: TournamentRecord) -> None:
        bracket = bracket_of(record)
        if bracket is None:
            return
        for board, pairing in enumerate(bracket.current_round):
            if pairing.game_id is None or pairing.result is not None:
                continue
            game = await self.store.get_game(pairing.game_id)
            result = NO_RESULT if game is None else game_result(game)
            if result is not None:
                await self._take_result(GameMark(record.id, len(bracket.rounds) - 1, board),
                                        pairing.game_id, result)
        await self._advance(record.id)
        current = await self.store.get_tournament(record.id)
        if current is not None and current.status == "running":
            await self._start_games(current)

    # ----------------------------------------------------------- internals
    async def _moderator(self, place: Place, user: User) -> None:
        """Only a moderator runs a tournament, and at a person's pace like any command:
        each of these writes the tournament and redraws its message."""
        if not user.is_moderator:
            raise TournamentRefused(self._t(place.language, "tournament.moderator_only",
                                            "Only a moderator can run a tournament."))
        too_fast = await self.service.rate_refusal(place, user)
        if too_fast is not None:
            raise TournamentRefused(too_fast)

    async def _open_in(self, place: Place) -> TournamentRecord:
        record = await self.open_here(place)
        if record is None:
            raise TournamentRefused(self._t(place.language, "tournament.none_here",
                                            "There is no tournament in this channel; a "
                                            "moderator creates one with /tournament."))
        return record

    async def _set_status(self, record: TournamentRecord, before: str, after: str,
                          language: str) -> TournamentRecord:
        def change(current: TournamentRecord) -> tuple[str, dict[str, Any]] | None:
            if current.status != before:
                raise TournamentRefused(self._t(
                    language,
                    "tournament.not_running" if before == "running" else
                    "tournament.not_paused",
                    "The tournament is not running." if before == "running" else
                    "The tournament is not paused."))
            return after, current.state

        record = await self._change(record.id, change, language)
        await self._show(record)
        return record

    async def _change(self, tournament_id: int,
                      change: Callable[[TournamentRecord],
                                       tuple[str, dict[str, Any]] | None],
                      language: str | None) -> TournamentRecord:
        """Apply ``change`` to the newest record and save it under the version guard,
        again on a fresh read when another writer won (``change`` must be repeatable).
        ``change`` returns the new status and state, or None for no change."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            for _ in range(SAVE_ATTEMPTS):
                current = await self.store.get_tournament(tournament_id)
                if current is None:
                    raise TournamentRefused(self._t(language or "en", "tournament.not_found",
                                                    "There is no such tournament."))
                try:
                    changed = change(current)
                except BracketError:
                    log.exception("tournament %s: bracket refused a change", tournament_id)
                    return current
                if changed is None:
                    return current
                saved = await self.store.save_tournament(current, *changed)
                if saved is not None:
                    return saved
        raise TournamentRefused(self._t(language or "en", "tournament.contended",
                                        "Someone else changed the tournament at the same "
                                        "moment; try again."))

    async def _show(self, record: TournamentRecord) -> None:
        host = self.hosts.get(record.platform)
        if host is not None:
            with contextlib.suppress(Exception):
                await host.show_tournament(record)

    # ------------------------------------------------------------ /forget-me
    async def player_forgotten(self, event: PlayerForgotten) -> None:
        """``/forget-me``: off every sign-up list, and in each tournament they played
        "a former player" under a random token (one per tournament, so tournaments cannot
        be linked). Their running games were abandoned first, which counts for nobody."""
        platform, user_id = event.platform, event.user_id
        for record in await self.store.tournaments(platform):
            token = "former-" + secrets.token_hex(8)

            def change(current: TournamentRecord, token: str = token
                       ) -> tuple[str, dict[str, Any]] | None:
                state = dict(current.state)
                mine = [(p.get("platform"), p.get("id")) == (platform, user_id)
                        for p in state.get("entrants", [])]
                state["entrants"] = [p for p, own in zip(state.get("entrants", []), mine,
                                                         strict=True) if not own]
                bracket = bracket_of(current)
                touched = any(mine)
                if bracket is not None:
                    for player in bracket.players:
                        if (player.get("kind") == "human" and player.get("platform") == platform
                                and player.get("id") == user_id):
                            player.update(id=token, name=FORMER_PLAYER)
                            touched = True
                    state["bracket"] = bracket.to_dict()
                return (current.status, state) if touched else None

            changed = await self._change(record.id, change, None)
            if changed.version != record.version:
                await self._show(changed)

    # --------------------------------------------------------------- export
    async def standings_csv(self, platform: str, server: str) -> str | None:
        """The standings of the server's finished and ended tournaments, as CSV (names,
        no user ids); None when there is none."""
        return export_csv(await self.store.tournaments(platform, server=server,
                                                       statuses=("finished", "ended")))

    @staticmethod
    def export_name(server: str, day: dt.date) -> str:
        return f"tournaments-{server.lstrip('-')}-{day.isoformat()}.csv"

    @staticmethod
    def created_text(record: TournamentRecord) -> str:
        return translate(str(record.state.get("language") or "en"), "tournament.created",
                         "Tournament #{number} is open: sign up with the button on its "
                         "message.", number=record.id)
