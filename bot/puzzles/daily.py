"""The daily Turing Machine challenge: schedules, private attempts, leaderboards, streaks.

Platform-neutral like the service. The puzzle of a day comes from the engine
(``engines.turing.daily``), so every server and chat gets the same one. A channel's
schedule lives in the store with the last day posted, and claiming a day is one guarded
``UPDATE``: a restart, or a second process, can neither double a post nor skip one (a day
whose time passed while the bot was down is posted as soon as it is back).

The schedules are also those of the trainer games' puzzles of the day (issue 41): one per
channel and game (``DailySchedule.game``; ``TURING_DAILY`` is this challenge's), each
claimed, retried and dropped on its own; the adapter posts a game's with
``bot.puzzles.posts``, and its attempts are the trainer's.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import logging
import re
import zoneinfo
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from bot.clock import Clock, utc_now
from bot.events import GameFinished
from bot.service import Opponent, Place, Reply, Service, User
from bot.store import TURING_DAILY, DailyAttempt, DailySchedule, ForDailyChallenge
from engines.registry import get_game
from engines.turing.daily import daily_settings
from renderers.i18n import translate
from renderers.turing import rounds_text, score_text, tests_text

log = logging.getLogger(__name__)

_TIME_RE = re.compile(r"([01]?\d|2[0-3])[:.h]([0-5]\d)")
LEADERBOARD_SIZE = 10
# What a daily post came to; see DailyChallenge.post_due.
PostOutcome = Literal["posted", "failed", "gone"]
# Days on which a chat refused the bot before its daily schedule is dropped.
GONE_DAYS = 3
# How long a claimed post may take before another process may make it: a process killed
# between its claim and its post delays the day's post by this much instead of losing it.
# Longer than any post takes (a rate-limited send is retried for about a minute).
POST_LEASE = dt.timedelta(minutes=5)
GONE_SETTING = "daily_gone_days"
# The words of the schedule commands beside a time: stop a schedule, list a channel's.
OFF_WORD = "off"
LIST_WORD = "list"


def gone_setting(game: str) -> str:
    """The channel setting that counts the days a schedule's chat refused the bot: the
    Turing challenge's as before, each puzzle of the day's its own."""
    return GONE_SETTING if game == TURING_DAILY else f"{GONE_SETTING}:{game}"


def dropped_text(schedule: DailySchedule, channel_mention: str) -> str:
    """What the moderators are told when ``schedule`` was dropped (its chat refused the
    bot for ``GONE_DAYS`` days): which post stopped, where, and how to start it again."""
    if schedule.game != TURING_DAILY:
        return translate(schedule.language, "daily.game_dropped",
                         "The {game} puzzle of the day could no longer be posted in "
                         "{channel}, so it has stopped. A moderator can start it again "
                         "with /daily.", game=get_game(schedule.game).TITLE,
                         channel=channel_mention)
    return translate(schedule.language, "daily.dropped",
                     "The daily challenge could no longer be posted in {channel}, so it "
                     "has stopped. A moderator can start it again with /daily.",
                     channel=channel_mention)


def parse_post_time(text: str) -> str | None:
    """``HH:MM`` (also ``8:05``, ``08.05``, ``8h05``) as ``HH:MM``, or None."""
    match = _TIME_RE.fullmatch(text.strip())
    if match is None:
        return None
    return f"{int(match.group(1)):02d}:{match.group(2)}"


@functools.cache
def _zone_names() -> dict[str, str]:
    """Every IANA time zone by its lower-case name, so ``europe/brussels`` is understood."""
    # Area/City names only: the database also lists aliases such as "localtime" (the
    # host's own zone) and "Factory", which mean nothing to a school.
    return {name.lower(): name for name in zoneinfo.available_timezones() if "/" in name}


def parse_schedule(text: str) -> str | None:
    """A post time with an optional time zone: ``07:30`` (UTC) or ``07:30 Europe/Brussels``,
    returned as it is stored (``07:30``, ``07:30 Europe/Brussels``), or None. A school
    names its own zone, so the post keeps its local hour across daylight saving time."""
    words = text.split()
    if not 1 <= len(words) <= 2:
        return None
    post_time = parse_post_time(words[0])
    if post_time is None:
        return None
    if len(words) == 1 or words[1].upper() == "UTC":
        return post_time
    zone = _zone_names().get(words[1].lower())
    return None if zone is None else f"{post_time} {zone}"


def schedule_parts(stored: str) -> tuple[str, str]:
    """``(HH:MM, zone name)`` of a stored post time; schedules made before zones are UTC."""
    post_time, _, zone = stored.partition(" ")
    return post_time, zone or "UTC"


def local_moment(moment: dt.datetime, zone: str) -> dt.datetime:
    """``moment`` in ``zone``; an unknown zone (a database moved to a machine without it)
    counts as UTC rather than stopping every post."""
    try:
        tz: dt.tzinfo = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tz = dt.UTC
    return moment.astimezone(tz)


def local_post_day(schedule: DailySchedule, moment: dt.datetime) -> str | None:
    """The schedule's local date when its post is due at ``moment`` and not yet made,
    else None. The local date, not UTC's, marks a post as made, so a school posts once a
    local day whatever its zone; what is posted is the puzzle of the UTC day."""
    post_time, zone = schedule_parts(schedule.post_time)
    local = local_moment(moment, zone)
    day = local.date().isoformat()
    if local.strftime("%H:%M") < post_time:
        return None
    if schedule.last_posted is None or schedule.last_posted < day:
        return day
    # Claimed for today, and the claim ran out before the post was made (its process
    # died): due again.
    lapsed = (schedule.last_posted == day and schedule.claimed_until is not None
              and schedule.claimed_until < moment.astimezone(dt.UTC).isoformat(
                  timespec="seconds"))
    return day if lapsed else None


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    name: str
    solved: bool
    rounds: int | None
    tests: int | None
    beat_machine: bool
    streak: int


def _rank_key(attempt: DailyAttempt) -> tuple[int, int, int, str]:
    if attempt.status != "solved":
        return (1, 0, 0, attempt.finished_at or "")
    return (0, attempt.rounds or 0, attempt.tests or 0, attempt.finished_at or "")


class DailyChallenge:
    def __init__(self, service: Service, clock: Clock = utc_now) -> None:
        self.service = service
        self.store: ForDailyChallenge = service.store
        self.clock = clock
        # Per (platform, channel, game): when a failed post may be tried again, and its
        # tries.
        self._retry_at: dict[tuple[str, str, str], tuple[dt.datetime, int]] = {}

    def today(self) -> dt.date:
        return self.clock().astimezone(dt.UTC).date()

    def _t(self, language: str, key: str, default: str, **params: object) -> str:
        return translate(language, key, default, **params)

    # ------------------------------------------------------------- schedules
    async def schedule(self, place: Place, server: str, time_text: str,
                       game: str = TURING_DAILY) -> str:
        """Post ``game``'s daily post in ``place`` every day at ``time_text``: ``HH:MM``
        in UTC, or followed by a time zone (``07:30 Europe/Brussels``). A channel may
        have one schedule per game: the Turing challenge's and each puzzle of the day's."""
        stored = parse_schedule(time_text)
        if stored is None:
            return self._t(place.language, "daily.bad_time",
                           "Give the time as HH:MM, such as 07:30 (UTC), or with your time "
                           "zone, such as 07:30 Europe/Brussels; '{got}' is not one.",
                           got=time_text.strip()[:40])
        post_time, zone = schedule_parts(stored)
        existing = {(s.platform, s.channel, s.game): s
                    for s in await self.store.daily_schedules(place.platform)}
        previous = existing.get((place.platform, place.channel, game))
        # A new schedule whose time already passed today starts tomorrow: setting it up
        # should not post at once in the middle of a lesson.
        local = local_moment(self.clock(), zone)
        today = local.date().isoformat()
        if previous is not None:
            # Marks made in another zone may lie a day ahead of this one's today; capped,
            # a move between zones skips no day.
            already = min(previous.last_posted, today) if previous.last_posted else None
        else:
            already = today if post_time <= local.strftime("%H:%M") else None
        await self.store.set_daily_schedule(DailySchedule(
            place.platform, place.channel, server, stored, place.language, already,
            game=game))
        if game != TURING_DAILY:
            return self._t(place.language, "daily.game_scheduled",
                           "The {game} puzzle of the day will be posted here every day at "
                           "{time} ({zone}).", game=get_game(game).TITLE, time=post_time,
                           zone=zone)
        return self._t(place.language, "daily.scheduled",
                       "The daily Turing Machine challenge will be posted here every day at "
                       "{time} ({zone}).", time=post_time, zone=zone)

    async def drop_schedules_of(self, platform: str, chat: str,
                                channels_of_chat: Callable[[str], bool]) -> int:
        """The bot was removed from ``chat``: its daily posts (the chat's own and its
        topics', every game's, ``channels_of_chat``) are dropped at once, since none can
        be delivered; how many. Without this, every day's refusal counted toward
        ``GONE_DAYS``."""
        dropped = 0
        for schedule in await self.store.daily_schedules(platform):
            if channels_of_chat(schedule.channel) and await self.store.remove_daily_schedule(
                    platform, schedule.channel, schedule.game):
                dropped += 1
        if dropped:
            log.warning("daily posts to %s:%s dropped: the bot was removed from the chat",
                        platform, chat)
        return dropped

    async def unschedule(self, place: Place, game: str = TURING_DAILY) -> str:
        removed = await self.store.remove_daily_schedule(place.platform, place.channel, game)
        if game != TURING_DAILY:
            title = get_game(game).TITLE
            return (self._t(place.language, "daily.game_unscheduled",
                            "The {game} puzzle of the day is no longer posted here.",
                            game=title) if removed else
                    self._t(place.language, "daily.game_not_scheduled",
                            "The {game} puzzle of the day is not posted here.", game=title))
        return self._t(place.language, "daily.unscheduled" if removed else "daily.not_scheduled",
                       "The daily challenge is no longer posted here." if removed
                       else "The daily challenge is not posted here.")

    async def schedules_text(self, place: Place) -> str:
        """What is posted in ``place`` every day, one line per game, for ``list``."""
        here = [schedule for schedule in await self.store.daily_schedules(place.platform)
                if schedule.channel == place.channel]
        if not here:
            return self._t(place.language, "daily.list_empty",
                           "Nothing is posted here every day. A moderator can start the "
                           "Turing challenge with /daily 07:30, a game's puzzle of the day "
                           "with /daily lgame 07:30.")
        lines = [self._t(place.language, "daily.list_title", "Posted here every day:")]
        for schedule in here:
            post_time, zone = schedule_parts(schedule.post_time)
            what = (self._t(place.language, "daily.list_turing", "the Turing Machine challenge")
                    if schedule.game == TURING_DAILY else
                    self._t(place.language, "daily.list_game", "the {game} puzzle of the day",
                            game=get_game(schedule.game).TITLE))
            lines.append(self._t(place.language, "daily.list_line", "• {time} ({zone}): {what}",
                                 time=post_time, zone=zone, what=what))
        return "\n".join(lines)

    async def post_due(self, platform: str,
                       post: Callable[[DailySchedule, str], Awaitable[PostOutcome | bool]],
                       on_dropped: Callable[[DailySchedule], Awaitable[None]] | None = None
                       ) -> int:
        """Claim and post every due schedule (each channel's, each game's). ``post`` says
        what happened:

        * posted (or True);
        * failed (or False): the platform failed this once (a 5xx, a timeout). The claim
          is released and the post is tried again the same day, after 1, 2, 4… minutes
          (at most an hour apart), not at every tick;
        * gone: the chat is gone or closed to the bot (kicked, deleted, 403). Tried again
          the next day; after ``GONE_DAYS`` such days the schedule is dropped, and the
          adapter's ``on_dropped`` is told, so it can tell moderators where it can.
        """
        posted = 0
        now = self.clock()
        today = self.today().isoformat()
        for schedule in await self.store.daily_schedules(platform):
            key = (schedule.platform, schedule.channel, schedule.game)
            retry_at = self._retry_at.get(key)
            if retry_at is not None and now < retry_at[0]:
                continue
            local_day = local_post_day(schedule, now)
            stamp = now.astimezone(dt.UTC)
            if local_day is None or not await self.store.claim_daily_post(
                    schedule.platform, schedule.channel, local_day,
                    stamp.isoformat(timespec="seconds"),
                    (stamp + POST_LEASE).isoformat(timespec="seconds"), schedule.game):
                continue
            try:
                result = await post(schedule, today)
            except Exception:
                log.exception("daily %s post failed in %s:%s", schedule.game,
                              schedule.platform, schedule.channel)
                result = "failed"
            outcome: PostOutcome = ("posted" if result is True else "failed" if result is False
                                    else result)
            if outcome == "posted":
                await self.store.finish_daily_post(schedule.platform, schedule.channel,
                                                   local_day, schedule.game)
                posted += 1
                self._retry_at.pop(key, None)
                await self.store.set_setting(schedule.platform, schedule.channel,
                                             gone_setting(schedule.game), "")
            elif outcome == "gone":
                await self.store.finish_daily_post(schedule.platform, schedule.channel,
                                                   local_day, schedule.game)  # not today
                await self._gone(schedule, local_day, on_dropped)
            else:
                tries = (retry_at[1] if retry_at is not None else 0) + 1
                self._retry_at[key] = (now + dt.timedelta(minutes=min(2 ** (tries - 1), 60)),
                                       tries)
                log.warning("daily %s post to %s:%s failed (try %d); trying again at %s",
                            schedule.game, schedule.platform, schedule.channel, tries,
                            self._retry_at[key][0].isoformat(timespec="minutes"))
                # Back to before the claim; a retaken lapsed claim of today goes back to
                # unposted, not to "today" (which would read as posted).
                previous = (schedule.last_posted if schedule.last_posted != local_day
                            else None)
                await self.store.release_daily_post(schedule.platform, schedule.channel,
                                                    local_day, previous, schedule.game)
        return posted

    async def _gone(self, schedule: DailySchedule, local_day: str,
                    on_dropped: Callable[[DailySchedule], Awaitable[None]] | None) -> None:
        """Count a day on which the chat refused the bot; drop the schedule after
        ``GONE_DAYS`` of them, so that a deleted channel is not tried forever."""
        self._retry_at.pop((schedule.platform, schedule.channel, schedule.game), None)
        setting = gone_setting(schedule.game)
        seen = await self.store.get_setting(schedule.platform, schedule.channel, setting)
        days = sorted({day for day in (seen or "").split(",") if day} | {local_day})
        if len(days) < GONE_DAYS:
            await self.store.set_setting(schedule.platform, schedule.channel, setting,
                                         ",".join(days))
            log.warning("daily %s post to %s:%s refused: the chat is gone or closed to the "
                        "bot (day %d of %d before the schedule is dropped)", schedule.game,
                        schedule.platform, schedule.channel, len(days), GONE_DAYS)
            return
        await self.store.remove_daily_schedule(schedule.platform, schedule.channel,
                                               schedule.game)
        await self.store.set_setting(schedule.platform, schedule.channel, setting, "")
        log.warning("daily post to %s:%s dropped: the chat refused the bot on %d days (%s)",
                    schedule.platform, schedule.channel, GONE_DAYS, ", ".join(days))
        if on_dropped is not None:
            try:
                await on_dropped(schedule)
            except Exception:
                log.exception("could not tell anyone that %s's daily post was dropped",
                              schedule.channel)

    async def run_schedule(self, platform: str,
                           post: Callable[[DailySchedule, str],
                                          Awaitable[PostOutcome | bool]],
                           on_dropped: Callable[[DailySchedule], Awaitable[None]] | None = None
                           ) -> None:
        """Post due challenges for ``platform`` forever, checking just after each minute;
        adapters run it as a task and cancel it when they stop."""
        while True:
            try:
                await self.post_due(platform, post, on_dropped)
            except Exception:
                log.exception("daily schedule check failed")
            await asyncio.sleep(60.5 - self.clock().second)

    # -------------------------------------------------------------- the post
    def post_text(self, language: str, day: dt.date, yesterday_board: str = "") -> str:
        difficulty, size, _ = daily_settings(day)
        lines = [self._t(language, "daily.post",
                         "🧩 Daily Turing Machine challenge · {date}\n{difficulty}, {size} "
                         "verifiers. Press Play to try it privately: one attempt per person, "
                         "and the machine's score to beat.",
                         date=day.isoformat(), difficulty=difficulty, size=size)]
        if yesterday_board:
            lines += ["", yesterday_board]
        return "\n".join(lines)

    async def post_for(self, schedule: DailySchedule, day: dt.date) -> str:
        yesterday = day - dt.timedelta(days=1)
        board = await self.leaderboard_text(schedule.language, yesterday, schedule.server,
                                            empty_ok=False)
        return self.post_text(schedule.language, day, board)

    # -------------------------------------------------------------- attempts
    async def start_attempt(self, place: Place, user: User, server: str,
                            day: dt.date | None = None) -> Reply:
        """Today's puzzle as a solo game in ``place``, the user's private chat."""
        day = day or self.today()
        stamp = day.isoformat()
        language = place.language
        previous = await self.store.daily_attempt(stamp, user.platform, user.id)
        if previous is not None:
            if previous.status == "playing" and previous.game_id is not None:
                record = await self.store.get_game(previous.game_id)
                if record is not None and record.running:
                    return Reply(ok=False, notice=self._t(
                        language, "daily.in_progress",
                        "Your attempt at today's challenge is still open in our private "
                        "chat."))
            return Reply(ok=False, notice=self._t(
                language, "daily.already_played",
                "You have already played today's challenge ({result}). A new one comes "
                "tomorrow.", result=self._attempt_text(language, previous)))
        claimed = await self.store.start_daily_attempt(DailyAttempt(
            stamp, user.platform, user.id, user.name, server, None, "playing"))
        if not claimed:
            return Reply(ok=False, notice=self._t(
                language, "daily.already_played",
                "You have already played today's challenge ({result}). A new one comes "
                "tomorrow.", result="…"))
        reply = await self.service.start_game(place, user, "turing", Opponent("ai"),
                                              f"daily={stamp}")
        if not reply.ok or reply.board is None:
            await self.store.forget_daily_attempt(stamp, user.platform, user.id)
            return reply
        await self.store.set_daily_attempt_game(stamp, user.platform, user.id,
                                                reply.board.game_id)
        return reply

    async def withdraw_attempt(self, place: Place, user: User, game_id: int,
                               day: dt.date | None = None) -> None:
        """The attempt's puzzle never reached the player (their private messages are
        closed to the bot): its game ends and the attempt is forgotten, so that pressing
        Play again, once they are open, starts it afresh. An attempt counts only once
        its puzzle was delivered."""
        stamp = (day or self.today()).isoformat()
        reply = await self.service.abandon(place, user, game_id, metered=False)
        if not reply.ok:
            log.warning("could not end the undelivered daily game %s: %s", game_id,
                        reply.notice)
        await self.store.withdraw_daily_attempt(stamp, user.platform, user.id, game_id)

    async def game_finished(self, event: GameFinished) -> None:
        """A daily attempt's game ended: its result is the attempt's."""
        record, state = event.record, event.state
        daily = record.options.get("daily")
        if record.game != "turing" or not daily:
            return
        outcome = state.outcome()
        solved = outcome is not None and 0 in outcome.winners
        detail = outcome.detail if outcome is not None else {}
        await self.store.finish_daily_attempt(
            record.id, solved, int(detail.get("rounds", 0)), int(detail.get("tests", 0)),
            bool(detail.get("beat_machine", False)))

    def _attempt_text(self, language: str, attempt: DailyAttempt) -> str:
        if attempt.status == "solved":
            return self._t(language, "daily.result_solved", "solved in {rounds} and {tests}",
                           rounds=rounds_text(language, attempt.rounds or 0),
                           tests=tests_text(language, attempt.tests or 0))
        if attempt.status == "failed":
            return self._t(language, "daily.result_failed", "not solved")
        return self._t(language, "daily.result_playing", "still playing")

    # ---------------------------------------------------- leaderboards, streaks
    async def streak(self, platform: str, user_id: str, day: dt.date) -> int:
        """Consecutive days solved up to ``day``, or up to the day before when ``day``
        is not played yet, so that a streak does not vanish in the morning."""
        since = (day - dt.timedelta(days=366)).isoformat()
        solved = set(await self.store.solved_days(platform, user_id, since))
        cursor = day if day.isoformat() in solved else day - dt.timedelta(days=1)
        count = 0
        while cursor.isoformat() in solved:
            count += 1
            cursor -= dt.timedelta(days=1)
        return count

    async def standings(self, day: dt.date, server: str | None = None) -> list[Standing]:
        attempts = [a for a in await self.store.daily_attempts(day.isoformat(), server)
                    if a.status != "playing"]
        attempts.sort(key=_rank_key)
        return [Standing(a.name, a.status == "solved", a.rounds, a.tests, a.beat_machine,
                         await self.streak(a.platform, a.user_id, day))
                for a in attempts[:LEADERBOARD_SIZE]]

    async def leaderboard_text(self, language: str, day: dt.date, server: str | None,
                               empty_ok: bool = True) -> str:
        standings = await self.standings(day, server)
        scope = self._t(language, "daily.scope_server" if server else "daily.scope_global",
                        "this server" if server else "everyone")
        if not standings:
            if not empty_ok:
                return ""
            return self._t(language, "daily.leaderboard_empty",
                           "Nobody has finished the {date} challenge yet ({scope}).",
                           date=day.isoformat(), scope=scope)
        lines = [self._t(language, "daily.leaderboard_title",
                         "🏆 Challenge of {date} ({scope}):", date=day.isoformat(), scope=scope)]
        for rank, standing in enumerate(standings, start=1):
            if standing.solved:
                line = self._t(language, "daily.leaderboard_solved", "{rank}. {name}: {score}",
                               rank=rank, name=standing.name,
                               score=score_text(language,
                                                (standing.rounds or 0, standing.tests or 0)))
                if standing.beat_machine:
                    line += " " + self._t(language, "daily.beat_machine", "· beat the machine")
            else:
                line = self._t(language, "daily.leaderboard_failed", "{rank}. {name}: not solved",
                               rank=rank, name=standing.name)
            if standing.streak > 1:
                line += " " + self._t(language, "daily.streak", "· 🔥 {days}-day streak",
                                      days=standing.streak)
            lines.append(line)
        return "\n".join(lines)
