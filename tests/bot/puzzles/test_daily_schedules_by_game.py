"""A daily post per channel and game (issue 41, migration 13): a channel may post the
Turing challenge and several games' puzzles of the day, each on its own schedule and claim;
schedules made before keep posting the Turing challenge as they did."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

import pytest

from bot.puzzles.daily import DailyChallenge, PostOutcome, dropped_text, gone_setting
from bot.service import Place, Service
from bot.store import TURING_DAILY, DailySchedule, Store
from tests.helpers.databases import DATABASES, old_database_store

BEFORE = 12  # the version before schedules had a game
OLD_SCHEDULES = [
    "INSERT INTO daily_schedules (platform, channel, server, post_time, language, "
    "last_posted, claimed_until) VALUES ('test', 'c1', 'school', '07:30 Europe/Brussels', "
    "'nl', '2026-01-04', NULL)",
    "INSERT INTO daily_schedules (platform, channel, server, post_time, language, "
    "last_posted, claimed_until) VALUES ('test', 'c2', 'school', '08:00', 'en', "
    "'2026-01-05', '2026-01-05T08:05:00+00:00')",
]
ROOM = Place("test", "room", "en", server="class-3b")


async def test_each_game_of_a_channel_has_its_own_schedule_and_claim(any_store: Store) -> None:
    await any_store.set_daily_schedule(DailySchedule("test", "room", "s", "07:30", "nl"))
    await any_store.set_daily_schedule(DailySchedule("test", "room", "s", "08:00", "en",
                                                     game="lgame"))
    await any_store.set_daily_schedule(DailySchedule("test", "room", "s", "09:00", "de",
                                                     game="booleo"))
    schedules = await any_store.daily_schedules("test")
    assert [(s.game, s.post_time, s.language) for s in schedules] == [
        ("booleo", "09:00", "de"), ("lgame", "08:00", "en"), ("turing", "07:30", "nl")]
    at, lease = "2026-11-25T08:00:00+00:00", "2026-11-25T08:05:00+00:00"
    assert await any_store.claim_daily_post("test", "room", "2026-11-25", at, lease, "lgame")
    assert not await any_store.claim_daily_post("test", "room", "2026-11-25", at, lease,
                                                "lgame")
    # The L-game's claim holds neither the Turing challenge's nor bOOleO's.
    assert await any_store.claim_daily_post("test", "room", "2026-11-25", at, lease)
    assert await any_store.claim_daily_post("test", "room", "2026-11-25", at, lease, "booleo")
    await any_store.release_daily_post("test", "room", "2026-11-25", None, "booleo")
    await any_store.finish_daily_post("test", "room", "2026-11-25", "lgame")
    by_game = {s.game: s for s in await any_store.daily_schedules("test")}
    assert (by_game["lgame"].last_posted, by_game["lgame"].claimed_until) == (
        "2026-11-25", None)
    assert (by_game[TURING_DAILY].last_posted, by_game[TURING_DAILY].claimed_until) == (
        "2026-11-25", lease)
    assert (by_game["booleo"].last_posted, by_game["booleo"].claimed_until) == (None, None)
    # Setting a game's schedule again changes its time, not its mark or another game's.
    await any_store.set_daily_schedule(DailySchedule("test", "room", "s", "10:00", "en",
                                                     game="lgame"))
    by_game = {s.game: s for s in await any_store.daily_schedules("test")}
    assert (by_game["lgame"].post_time, by_game["lgame"].last_posted) == (
        "10:00", "2026-11-25")
    assert by_game[TURING_DAILY].post_time == "07:30"
    assert await any_store.remove_daily_schedule("test", "room", "lgame")
    assert not await any_store.remove_daily_schedule("test", "room", "lgame")
    assert [s.game for s in await any_store.daily_schedules("test")] == ["booleo", "turing"]
    assert await any_store.remove_daily_schedule("test", "room")  # the Turing one, as before
    assert [s.game for s in await any_store.daily_schedules("test")] == ["booleo"]


async def _check_kept(store: Store) -> None:
    schedules = await store.daily_schedules("test")
    assert schedules == [
        DailySchedule("test", "c1", "school", "07:30 Europe/Brussels", "nl", "2026-01-04",
                      None, TURING_DAILY),
        DailySchedule("test", "c2", "school", "08:00", "en", "2026-01-05",
                      "2026-01-05T08:05:00+00:00", TURING_DAILY)]
    # The running claim is still a claim; a game's schedule is added beside the old one.
    assert not await store.claim_daily_post("test", "c2", "2026-01-05",
                                            "2026-01-05T08:01:00+00:00",
                                            "2026-01-05T08:06:00+00:00")
    await store.set_daily_schedule(DailySchedule("test", "c1", "school", "08:00", "nl",
                                                 game="rithmomachia"))
    assert [s.game for s in await store.daily_schedules("test")] == [
        "rithmomachia", "turing", "turing"]


@pytest.mark.parametrize("database", DATABASES)
async def test_schedules_made_before_games_post_the_turing_challenge(tmp_path: Path,
                                                                    database: str) -> None:
    async with old_database_store(database, tmp_path, BEFORE, OLD_SCHEDULES) as store:
        await _check_kept(store)


class Clock:
    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now


async def test_a_channel_posts_each_game_once_a_day_at_its_own_time(service: Service) -> None:
    clock = Clock(dt.datetime(2026, 11, 20, 6, 0, tzinfo=dt.UTC))
    daily = DailyChallenge(service, clock)
    assert "Turing" in await daily.schedule(ROOM, ROOM.server, "07:00")
    assert "L-game puzzle" in await daily.schedule(ROOM, ROOM.server, "07:30", "lgame")
    assert "bOOleO puzzle" in await daily.schedule(ROOM, ROOM.server, "09:00 Europe/Brussels",
                                                   "booleo")
    posted: list[tuple[str, str]] = []

    async def post(schedule: DailySchedule, day: str) -> bool:
        posted.append((clock.now.strftime("%H:%M"), schedule.game))
        return True

    for _ in range(2 * 24 * 4):
        clock.now += dt.timedelta(minutes=15)
        await daily.post_due("test", post)
    assert posted == [("07:00", "turing"), ("07:30", "lgame"), ("08:00", "booleo")] * 2
    listed = await daily.schedules_text(ROOM)
    assert listed.splitlines() == [
        "Posted here every day:", "• 09:00 (Europe/Brussels): the bOOleO puzzle of the day",
        "• 07:30 (UTC): the L-game puzzle of the day",
        "• 07:00 (UTC): the Turing Machine challenge"]
    assert "no longer" in await daily.unschedule(ROOM, "lgame")
    assert "not posted" in await daily.unschedule(ROOM, "lgame")
    assert [s.game for s in await service.store.daily_schedules("test")] == [
        "booleo", "turing"]


async def test_a_refusing_chat_drops_each_games_schedule_on_its_own_count(
        service: Service) -> None:
    clock = Clock(dt.datetime(2026, 11, 20, 6, 0, tzinfo=dt.UTC))
    daily = DailyChallenge(service, clock)
    await daily.schedule(ROOM, ROOM.server, "07:00")
    await daily.schedule(ROOM, ROOM.server, "07:00", "lgame")
    dropped: list[str] = []

    async def post(schedule: DailySchedule, day: str) -> PostOutcome:
        # The Turing post goes through; the L-game's is refused (say, too long a board).
        return "posted" if schedule.game == TURING_DAILY else "gone"

    async def on_dropped(schedule: DailySchedule) -> None:
        dropped.append(schedule.game)

    for day in range(3):
        clock.now = dt.datetime(2026, 11, 20 + day, 7, 1, tzinfo=dt.UTC)
        await daily.post_due("test", post, on_dropped)
        if day < 2:
            assert await service.store.get_setting("test", "room", gone_setting("lgame"))
    assert dropped == ["lgame"]
    assert [s.game for s in await service.store.daily_schedules("test")] == ["turing"]
    assert not await service.store.get_setting("test", "room", gone_setting(TURING_DAILY))


async def test_two_processes_post_each_games_day_once(service: Service) -> None:
    clock = Clock(dt.datetime(2026, 11, 20, 6, 0, tzinfo=dt.UTC))
    first, second = DailyChallenge(service, clock), DailyChallenge(service, clock)
    for game in (TURING_DAILY, "lgame", "rithmomachia"):
        await first.schedule(ROOM, ROOM.server, "07:00", game)
    posted: list[str] = []

    async def post(schedule: DailySchedule, day: str) -> bool:
        await asyncio.sleep(0)  # the other process runs meanwhile
        posted.append(schedule.game)
        return True

    clock.now = dt.datetime(2026, 11, 20, 7, 0, 30, tzinfo=dt.UTC)
    counts = await asyncio.gather(first.post_due("test", post), second.post_due("test", post))
    assert sum(counts) == 3
    assert sorted(posted) == ["lgame", "rithmomachia", "turing"]


@pytest.mark.parametrize(("game", "language", "expected"), [
    ("lgame", "en", "The L-game puzzle of the day could no longer be posted in #maths"),
    ("booleo", "nl", "De bOOleO-puzzel van de dag kon niet meer in #maths"),
    ("rithmomachia", "de", "Rithmomachia-Rätsel des Tages konnte nicht mehr in #maths"),
    (TURING_DAILY, "en", "The daily challenge could no longer be posted in #maths"),
])
def test_a_dropped_schedule_is_named_for_the_moderators(game: str, language: str,
                                                       expected: str) -> None:
    """A game's puzzle of the day that stopped is told as that game's, not as the Turing
    challenge, with the channel as the platform mentions it."""
    schedule = DailySchedule("discord", "42", "7", "08:00", language, game=game)
    text = dropped_text(schedule, "#maths")
    assert expected in text and "/daily" in text
