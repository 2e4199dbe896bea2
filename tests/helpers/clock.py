"""A clock a test moves by hand: timers and schedules read it, nothing sleeps."""

from __future__ import annotations

import datetime as dt


class FakeClock:
    def __init__(self, start: dt.datetime | None = None) -> None:
        self.now = start or dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += dt.timedelta(minutes=minutes)
