"""A process that dies while a turn timer acts must not take the step with it.

Before, the timer's "acted" step was claimed in the store first and the stand-in move made
after: a process killed between the two left the step claimed and the game waiting for a
player who had gone, forever. Now the move comes first (saved under the game's lock for
that version only, so two processes cannot both make it) and the step is marked after.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.app import App
from bot.classroom import Classroom, TimerPolicy
from bot.config import Settings
from bot.replies import Opponent, Place, Reply, User
from bot.store import GameRecord, SQLiteStore
from tests.helpers.clock import FakeClock

PLACE = Place("test", "room", "en", True, "school")
ANN, BO = User("test", "1", "Ann"), User("test", "2", "Bo")


class ProcessDied(BaseException):
    """What a SIGKILL looks like from inside: nothing after it runs."""


async def test_a_process_killed_while_a_timer_acts_leaves_the_step_to_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    seeds = itertools.count(7)
    app = App.build(Settings(database_path=str(tmp_path / "bot.sqlite3")), store,
                    clock=clock, seed_source=lambda: next(seeds))
    try:
        assert (await app.service.start_game(PLACE, ANN, "lgame", Opponent("user", user=BO),
                                             "")).ok
        await app.classroom.set_policy(PLACE, TimerPolicy(0, 10, "forfeit"))
        acted: list[Reply] = []

        async def act(place: Place, reply: Reply) -> None:
            acted.append(reply)

        async def remind(place: Place, text: str) -> None:
            raise AssertionError("no reminder was set")

        def place_of(record: GameRecord) -> Place:
            return PLACE

        assert await app.classroom.check_timers("test", place_of, remind, act) == 0
        clock.advance(11)
        # The first process dies inside the timeout, before the forfeit is saved.
        dying = Classroom(app.service, clock=clock)

        async def killed(*args: object) -> Reply:
            raise ProcessDied

        monkeypatch.setattr(dying.service, "timeout", killed)
        with pytest.raises(ProcessDied):
            await dying.check_timers("test", place_of, remind, act)
        monkeypatch.undo()
        record = await store.running_game("test", "room")
        assert record is not None, "nothing was saved by the process that died"
        # Another process's next check still acts: the step was not taken with it.
        assert await app.classroom.check_timers("test", place_of, remind, act) == 1
        assert acted and acted[0].finished
        assert any("ran out of time" in line for line in acted[0].announcements)
        assert await store.running_game("test", "room") is None
    finally:
        await store.close()
