"""The time of day, as the bot reads it: ``Clock`` is what the daily challenge, the turn
timers, assignments and the puzzle trainer call for "now", so a test can move it by hand
(``tests/helpers/clock.py``); ``utc_now`` is the real one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
