"""One bot process for the multi-process timer test: a service on a PostgreSQL database
that runs the turn timers and the daily posts, as every bot process does, on a class clock
that runs a minute per real second from a moment all processes share. It prints each timer
step it claimed (``claimed <game> <version> <step>``), each stand-in move it saved
(``acted <game> <version>``) and each daily post it made (``posted <channel> <day>``).

    python -m tests.helpers.timer_driver <url> <start, time.time() of the test> <seconds>
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sys
import time
from dataclasses import replace

from bot.classroom import Classroom
from bot.limits import Limits
from bot.puzzles.daily import DailyChallenge
from bot.service import Place, Reply, Service
from bot.store.postgres import PostgresStore
from bot.store.records import DailySchedule, GameRecord, TurnTimer

# The class's clock: 07:28 UTC when the test starts, a minute per real second, so timers
# of a minute or two fire within seconds and the 07:30 daily posts fall due after two.
CLASS_START = dt.datetime(2026, 11, 26, 7, 28, tzinfo=dt.UTC)
MINUTES_PER_SECOND = 1.0


def class_clock(started: float) -> dt.datetime:
    return CLASS_START + dt.timedelta(minutes=(time.time() - started) * MINUTES_PER_SECOND)


class ReportingStore(PostgresStore):
    """The PostgreSQL store, printing each timer step this process won."""

    async def claim_turn_timer(self, timer: TurnTimer, step: str) -> bool:
        won = await super().claim_turn_timer(timer, step)
        if won:
            print(f"claimed {timer.game_id} {timer.version} {step}", flush=True)
        return won


async def drive(url: str, started: float, seconds: float) -> None:
    store = await ReportingStore.open(url)
    service = Service(store, limits=replace(Limits.unlimited(), computer_move_seconds=1.0))
    classroom = Classroom(service, clock=lambda: class_clock(started))
    daily = DailyChallenge(service, clock=lambda: class_clock(started))

    def place_of(record: GameRecord) -> Place:
        return Place(record.platform, record.channel, server=record.server)

    async def remind(place: Place, text: str) -> None:
        pass  # the claim printed above is what the test counts

    async def act(place: Place, reply: Reply) -> None:
        if reply.board is not None:
            print(f"acted {reply.board.game_id} {reply.board.version}", flush=True)

    async def post(schedule: DailySchedule, day: str) -> bool:
        print(f"posted {schedule.channel} {day}", flush=True)
        return True

    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            await classroom.check_timers("test", place_of, remind, act)
            await daily.post_due("test", post)
            await asyncio.sleep(0.05)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(drive(sys.argv[1], float(sys.argv[2]), float(sys.argv[3])))
