"""Classroom tools: turn timers and the results export, platform-neutral.

Turn timers are a per-channel policy, off by default: a reminder after ``remind`` minutes
naming whose turn it is (by display name: the project never pings), and after ``act``
minutes either a forfeit or one move by the computer at the easiest level.

Like the daily schedule, timers live in SQLite (``turn_timers``): the turn being timed and
when it was first seen, plus a claim per step taken by one guarded ``UPDATE``. A restart
therefore keeps the clock running from the stored start, and no step fires twice. A turn
is "seen" by the first check after it begins, so checks run often (every
``CHECK_SECONDS``); a timer may fire up to that much late, never early.
"""

from __future__ import annotations

import asyncio
import csv
import datetime as dt
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.clock import Clock, utc_now
from bot.service import Place, Reply, Service
from bot.store import ForClassroom, GameRecord, TurnTimer
from bot.tables import room_of
from engines.registry import get_game
from renderers.i18n import translate

log = logging.getLogger(__name__)

TIMER_SETTING = "turn_timer"
ACTIONS = ("forfeit", "ai")
CHECK_SECONDS = 20.0
MAX_MINUTES = 7 * 24 * 60
EXPORT_HEADER = ("date", "game", "player", "opponent", "outcome", "rating_after")


@dataclass(frozen=True)
class TimerPolicy:
    """Minutes until the reminder and until the action (0: that step is off)."""

    remind: int
    act: int
    action: str  # "forfeit" or "ai"

    def dump(self) -> str:
        return f"{self.remind},{self.act},{self.action}"

    @classmethod
    def load(cls, text: str | None) -> TimerPolicy | None:
        try:
            remind, act, action = (text or "").split(",")
            policy = cls(int(remind), int(act), action)
        except ValueError:
            return None
        return policy if policy.action in ACTIONS and (policy.remind or policy.act) else None


def parse_policy(words: list[str]) -> TimerPolicy | None:
    """``<remind minutes> [<act minutes> [forfeit|ai]]``, as typed on Telegram; None
    when the words are not one. Acting before reminding makes the reminder pointless."""
    try:
        remind = int(words[0])
        act = int(words[1]) if len(words) > 1 else 0
    except (ValueError, IndexError):
        return None
    action = words[2].lower() if len(words) > 2 else "forfeit"
    if (action not in ACTIONS or not 0 <= remind <= MAX_MINUTES or not 0 <= act <= MAX_MINUTES
            or not (remind or act) or (act and remind >= act)):
        return None
    return TimerPolicy(remind, act, action)


def _t(language: str, key: str, default: str, **params: object) -> str:
    return translate(language, key, default, **params)


def _parse_time(stamp: str) -> dt.datetime:
    when = dt.datetime.fromisoformat(stamp)
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)


class Classroom:
    def __init__(self, service: Service, clock: Clock = utc_now) -> None:
        self.service = service
        self.store: ForClassroom = service.store
        self.clock = clock

    # ----------------------------------------------------------- timer policy
    async def policy(self, platform: str, channel: str) -> TimerPolicy | None:
        # A game at a table of a group keeps the group's clock (``bot.tables``).
        return TimerPolicy.load(await self.store.get_setting(platform, room_of(channel),
                                                             TIMER_SETTING))

    async def set_policy(self, place: Place, policy: TimerPolicy | None) -> str:
        """Store (or, with None, switch off) the channel's timer; the answer describes it."""
        await self.store.set_setting(place.platform, place.channel, TIMER_SETTING,
                                     policy.dump() if policy else "off")
        return self.describe(place.language, policy)

    @staticmethod
    def describe(language: str, policy: TimerPolicy | None) -> str:
        if policy is None:
            return _t(language, "timer.off", "Turn timers are off in this channel.")
        parts = []
        if policy.remind:
            parts.append(_t(language, "timer.describe_remind",
                            "a reminder after {minutes} min", minutes=policy.remind))
        if policy.act:
            key, default = (("timer.describe_forfeit", "a loss after {minutes} min")
                            if policy.action == "forfeit" else
                            ("timer.describe_ai", "a move by the computer after {minutes} min"))
            parts.append(_t(language, key, default, minutes=policy.act))
        return _t(language, "timer.on", "Turn timers here: {steps}.", steps=", ".join(parts))

    @staticmethod
    def usage(language: str) -> str:
        return _t(language, "timer.usage",
                  "Give the minutes before a reminder, then optionally the minutes before "
                  "acting and forfeit or ai, such as: 5 15 forfeit. Or off.")

    # ------------------------------------------------------------ timer checks
    async def check_timers(self, platform: str, place_of: Callable[[GameRecord], Place],
                           remind: Callable[[Place, str], Awaitable[None]],
                           act: Callable[[Place, Reply], Awaitable[None]]) -> int:
        """Start timing new turns and fire due steps for ``platform``; returns how many
        steps fired. ``place_of`` gives a game's place (language, style) for its texts."""
        fired = 0
        now = self.clock().astimezone(dt.UTC)
        for record in await self.store.games_with_status("active"):
            if record.platform != platform:
                continue
            try:
                fired += await self._check_game(record, now, place_of, remind, act)
            except Exception:
                log.exception("turn timer of game %s failed", record.id)
        return fired

    async def _check_game(self, record: GameRecord, now: dt.datetime,
                          place_of: Callable[[GameRecord], Place],
                          remind: Callable[[Place, str], Awaitable[None]],
                          act: Callable[[Place, Reply], Awaitable[None]]) -> int:
        # A tournament's game carries its time control, whatever its channel's is.
        policy = (TimerPolicy.load(record.options.get(TIMER_SETTING))
                  or await self.policy(record.platform, record.channel))
        if policy is None or len(record.players) < 2:
            return 0  # off here, or a solo puzzle: nobody waits for its player
        timer = await self.store.turn_timer(record.platform, record.channel)
        if timer is None or (timer.game_id, timer.version) != (record.id, record.version):
            await self.store.start_turn_timer(TurnTimer(
                record.platform, record.channel, record.id, record.version,
                now.isoformat(timespec="milliseconds")))
            return 0
        place = place_of(record)
        board = (await self.service.board(place)).board
        waiting = [str(p.get("name", "?")) for p in (board.to_move if board else [])
                   if p.get("kind") == "human"]
        if board is None or board.game_id != record.id or not waiting:
            return 0  # the computer's turn, or the game moved on: nothing to time
        elapsed = (now - _parse_time(timer.started_at)).total_seconds() / 60
        if policy.act and elapsed >= policy.act and not timer.acted:
            # Acted first, marked after: the timeout is saved under the game's lock for this
            # version only, so two processes cannot both act, and one killed before acting
            # leaves the step to the next check (a claim taken first would lose it).
            reply = await self.service.timeout(place, record.id, record.version,
                                               policy.action)
            if reply.ok:
                await self.store.claim_turn_timer(timer, "acted")
                await act(place, reply)
                return 1
            return 0
        if policy.remind and elapsed >= policy.remind and not timer.reminded:
            if not await self.store.claim_turn_timer(timer, "reminded"):
                return 0
            minutes = int(elapsed)
            await remind(place, _t(place.language, "timer.reminder",
                                   "⏰ {name}, it is your turn in {game} ({minutes} min "
                                   "so far).", name=", ".join(waiting),
                                   game=get_game(record.game).TITLE, minutes=minutes))
            return 1
        return 0

    async def run_timers(self, platform: str, place_of: Callable[[GameRecord], Place],
                         remind: Callable[[Place, str], Awaitable[None]],
                         act: Callable[[Place, Reply], Awaitable[None]]) -> None:
        """Check timers forever; adapters run it as a task and cancel it when they stop."""
        while True:
            try:
                await self.check_timers(platform, place_of, remind, act)
            except Exception:
                log.exception("turn timer check failed")
            await asyncio.sleep(CHECK_SECONDS)

    # ------------------------------------------------------------------ export
    async def export_csv(self, platform: str, server: str) -> str:
        """The results recorded in ``server`` as CSV: date, game, player name, opponent
        kind, outcome and rating after. No user ids: a teacher needs names, and an
        exported file leaves our control."""
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(EXPORT_HEADER)
        for row in await self.store.server_results(platform, server):
            # A name starting with = + - @ would run as a formula in a spreadsheet.
            name = "'" + row.name if row.name[:1] in ("=", "+", "-", "@") else row.name
            writer.writerow((row.date, row.game, name, row.opponent, row.outcome,
                             "" if row.rating_after is None else round(row.rating_after)))
        return buffer.getvalue()

    @staticmethod
    def export_name(server: str, day: dt.date) -> str:
        return f"results-{server.lstrip('-')}-{day.isoformat()}.csv"
