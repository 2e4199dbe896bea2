"""The daily post's schedule: a time with an optional time zone, posted once a local day."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bot.puzzles.daily import POST_LEASE as DAILY_LEASE
from bot.puzzles.daily import DailyChallenge, parse_schedule
from bot.service import Place, Service
from bot.store import DailySchedule

ROOM = Place("test", "room-1", server="class-3b")


@pytest.mark.parametrize(("typed", "stored"), [
    ("07:30", "07:30"), ("7.30", "07:30"), ("07:30 UTC", "07:30"), ("07:30 utc", "07:30"),
    ("8h05 europe/brussels", "08:05 Europe/Brussels"),
    ("  20:00   America/New_York ", "20:00 America/New_York"),
    ("07:30 Mars/Olympus", None), ("24:00", None), ("", None), ("07:30 Europe/Berlin x", None),
    ("Europe/Berlin", None)])
def test_a_post_time_may_name_its_time_zone(typed: str, stored: str | None) -> None:
    assert parse_schedule(typed) == stored


class Clock:
    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now


async def posts_over(service: Service, schedule_text: str, start: dt.datetime,
                     hours: int) -> list[tuple[dt.datetime, str]]:
    """Every post made while the clock ticks each quarter of an hour: (when, puzzle day)."""
    clock = Clock(start)
    daily = DailyChallenge(service, clock)
    answer = await daily.schedule(ROOM, ROOM.server, schedule_text)
    assert "every day at" in answer, answer
    posted: list[tuple[dt.datetime, str]] = []

    async def post(schedule: DailySchedule, day: str) -> bool:
        posted.append((clock.now, day))
        return True

    for _ in range(hours * 4):
        clock.now += dt.timedelta(minutes=15)
        await daily.post_due("test", post)
    return posted


async def test_a_school_in_brussels_keeps_its_local_hour_across_daylight_saving(
        service: Service) -> None:
    # Europe changed to summer time on Sunday 29 March 2026.
    start = dt.datetime(2026, 3, 27, 0, 0, tzinfo=dt.UTC)
    posted = await posts_over(service, "08:00 Europe/Brussels", start, 4 * 24)
    assert [when.strftime("%d %H:%M") for when, _ in posted] == [
        "27 07:00", "28 07:00", "29 06:00", "30 06:00"]
    assert [day for _, day in posted] == ["2026-03-27", "2026-03-28", "2026-03-29",
                                          "2026-03-30"]


@pytest.mark.parametrize("zone", ["America/New_York", "Asia/Tokyo", "Pacific/Kiritimati"])
async def test_any_zone_posts_exactly_once_a_local_day(service: Service, zone: str) -> None:
    start = dt.datetime(2026, 11, 2, 0, 0, tzinfo=dt.UTC)
    posted = await posts_over(service, f"08:00 {zone}", start, 5 * 24)
    local_days = [when.astimezone(ZoneInfo(zone)).date()
                  for when, _ in posted]
    assert len(local_days) == len(set(local_days)) >= 4
    for when, day in posted:
        assert when.astimezone(ZoneInfo(zone)).hour == 8
        assert day == when.date().isoformat(), "the post is of the UTC day's puzzle"


async def test_a_schedule_without_a_zone_is_utc_as_before(service: Service) -> None:
    start = dt.datetime(2026, 6, 1, 5, 0, tzinfo=dt.UTC)
    posted = await posts_over(service, "07:30", start, 2 * 24)
    assert [when.strftime("%d %H:%M") for when, _ in posted] == ["01 07:30", "02 07:30"]


async def test_a_time_already_passed_today_starts_tomorrow(service: Service) -> None:
    start = dt.datetime(2026, 6, 1, 9, 0, tzinfo=dt.UTC)  # 11:00 in Berlin
    posted = await posts_over(service, "10:00 Europe/Berlin", start, 24)
    assert [when.strftime("%d %H:%M") for when, _ in posted] == ["02 08:00"]


async def test_a_bad_zone_is_explained(service: Service) -> None:
    answer = await DailyChallenge(service).schedule(ROOM, ROOM.server, "07:30 Europe/Brussel")
    assert "Europe/Brussels" in answer and "'07:30 Europe/Brussel'" in answer


async def test_a_post_whose_process_died_is_made_by_another_after_the_lease(
        service: Service) -> None:
    """The post is claimed before it is sent; a process killed in between used to lose
    the day's post. The claim is a lease (``POST_LEASE``): once it runs out another
    process posts the day, once, and a post that went out is never made again."""

    class ProcessDied(BaseException):
        pass

    clock = Clock(dt.datetime(2026, 11, 25, 6, 0, tzinfo=dt.UTC))
    first, second = DailyChallenge(service, clock), DailyChallenge(service, clock)
    await first.schedule(ROOM, ROOM.server, "07:30")
    posted: list[str] = []

    async def dies(schedule: DailySchedule, day: str) -> bool:
        raise ProcessDied

    async def post(schedule: DailySchedule, day: str) -> bool:
        posted.append(day)
        return True

    clock.now = dt.datetime(2026, 11, 25, 7, 31, tzinfo=dt.UTC)
    with pytest.raises(ProcessDied):
        await first.post_due("test", dies)
    await second.post_due("test", post)
    assert posted == [], "the dead process's claim still runs"
    clock.now += DAILY_LEASE + dt.timedelta(seconds=1)
    assert await second.post_due("test", post) == 1
    assert posted == ["2026-11-25"]
    clock.now += DAILY_LEASE * 3
    assert await second.post_due("test", post) == 0 and len(posted) == 1
