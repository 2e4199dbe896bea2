"""The next puzzle made before Next is pressed (``bot/puzzles/prefetch.py`` and the trainer's
use of it): taken from the prefetch without making it again, a prefetch still running
awaited and not made twice, a failed one falling back in one log line, recent puzzles
never given again, none made when the pool is busy, all cancelled when the bot stops; one
not made yet left for the next pick when this one does not wait (the stock has a puzzle)."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.puzzles.trainer
from bot.app import App
from bot.config import Settings
from bot.limits import Limits, Workers
from bot.puzzles.jobs import puzzle_candidates
from bot.puzzles.prefetch import Candidates, Prefetches
from bot.puzzles.trainer import PuzzleTrainer
from bot.replies import Place, User
from bot.store import Store
from bot.store.puzzle_rows import PuzzleAttempt
from tests.helpers.puzzle_trainer import answer_presses, trainer_app

PLACE = Place("discord", "c1", "en", False, "guild")
ANN = User("discord", "1", "Ann")
GAME = "lgame"


class Jobs:
    """``puzzle_candidates`` as the trainer's worker runs it, counted: a pick made on Next
    passes the player's rating, a prefetch passes none. A prefetch may be held until
    ``release`` (``gate``), fail, or give what ``given`` says instead of its own."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, gate: bool = False,
                 fail: bool = False) -> None:
        self.picks = 0
        self.prefetches = 0
        self.prefetched: list[Candidates] = []
        self.given: Callable[[Candidates], Candidates] | None = None
        self.fail = fail
        self.released = threading.Event()
        if not gate:
            self.released.set()
        monkeypatch.setattr(bot.puzzles.trainer, "puzzle_candidates", self.job)

    def job(self, game: str, theme: str | None, seeds: list[int], target: float | None,
            *args: Any) -> Candidates:
        if target is not None:
            self.picks += 1
            return puzzle_candidates(game, theme, seeds, target, *args)
        self.prefetches += 1
        assert self.released.wait(20), "the test never released the prefetch"
        if self.fail:
            raise RuntimeError("the prefetch broke")
        found = puzzle_candidates(game, theme, seeds, target, *args)
        if self.given is not None:
            found = self.given(found)
        self.prefetched.append(found)
        return found

    def release(self) -> None:
        self.released.set()


async def until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        await asyncio.sleep(0.01)


async def open_attempt(app: App, store: Store) -> PuzzleAttempt:
    page = await app.trainer.start(PLACE, ANN, GAME)
    assert page.ok and page.attempt is not None, page.text
    attempt = await store.puzzle_attempt(page.attempt)
    assert attempt is not None
    return attempt


async def answer(app: App, attempt: PuzzleAttempt) -> None:
    for button in answer_presses(attempt, right=True):
        page = await app.trainer.press(PLACE, ANN, button)
        assert page.ok, page.text


async def press_next(app: App, store: Store, attempt: PuzzleAttempt) -> PuzzleAttempt:
    page = await app.trainer.press(PLACE, ANN, f"{attempt.id}:n")
    assert page.ok and page.answering and page.attempt is not None, page.text
    following = await store.puzzle_attempt(page.attempt)
    assert following is not None and following.id != attempt.id
    return following


async def test_next_takes_the_prefetched_puzzle_without_making_one(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = Jobs(monkeypatch)
    async with trainer_app(store, tmp_path) as app:
        attempt = await open_attempt(app, store)
        await until(lambda: len(jobs.prefetched) == 1)
        await answer(app, attempt)
        assert jobs.prefetches == 1, "the answer keeps the prefetch the opening started"
        following = await press_next(app, store, attempt)
        assert jobs.picks == 1, "only the first puzzle was made on a press"
        assert following.code in {code for code, _ in jobs.prefetched[0]}
        await until(lambda: jobs.prefetches == 2)  # and the one after it is on its way


async def test_a_prefetch_still_running_is_awaited_not_made_again(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = Jobs(monkeypatch, gate=True)
    async with trainer_app(store, tmp_path) as app:
        try:
            attempt = await open_attempt(app, store)
            await until(lambda: jobs.prefetches == 1)
            await answer(app, attempt)
            pressed = asyncio.ensure_future(press_next(app, store, attempt))
            await asyncio.sleep(0.3)
            assert not pressed.done(), "Next waits for the prefetch being made"
            assert (jobs.picks, jobs.prefetches) == (1, 1)
        finally:
            jobs.release()
        following = await pressed
        assert jobs.picks == 1
        assert following.code in {code for code, _ in jobs.prefetched[0]}


async def test_a_failed_prefetch_falls_back_in_one_quiet_line(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    jobs = Jobs(monkeypatch, fail=True)
    caplog.set_level(logging.INFO, logger="bot.puzzles.prefetch")
    async with trainer_app(store, tmp_path) as app:
        attempt = await open_attempt(app, store)
        await until(lambda: len(caplog.records) == 1)
        await answer(app, attempt)
        page = await app.trainer.press(PLACE, ANN, f"{attempt.id}:n")
        assert page.ok and page.answering, page.text
        assert "broke" not in page.text
        assert jobs.picks == 2, "Next made its puzzle as before"
        await until(lambda: jobs.prefetches == 2)
        await until(lambda: len(caplog.records) == 2)
    assert all(record.exc_info is None and "\n" not in record.getMessage()
               and "the prefetch broke" in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("fresh_too", [True, False], ids=["fresh-too", "all-recent"])
async def test_a_recent_puzzle_is_never_taken_from_the_prefetch(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_too: bool
) -> None:
    jobs = Jobs(monkeypatch, gate=True)
    async with trainer_app(store, tmp_path) as app:
        try:
            attempt = await open_attempt(app, store)
            # The prefetch offers the puzzle just given (as one made before it was given
            # in another process would), first, and beside its own or alone.
            mine = (attempt.code, attempt.puzzle)
            jobs.given = lambda found: [mine, *found] if fresh_too else [mine]
        finally:
            jobs.release()
        await until(lambda: len(jobs.prefetched) == 1)
        await answer(app, attempt)
        following = await press_next(app, store, attempt)
        assert following.code != attempt.code
        assert jobs.picks == (1 if fresh_too else 2), "all recent: made on the press"


async def test_a_busy_pool_makes_no_prefetch(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = Jobs(monkeypatch)
    async with trainer_app(store, tmp_path) as app:
        attempt = await open_attempt(app, store)
        await until(lambda: jobs.prefetches == 1)
    # Another process, whose pool is full of computer moves, resumes the open puzzle.
    busy = App.build(Settings(database_path=str(tmp_path / "unused.sqlite3")), store,
                     limits=Limits(cpu_processes=False, queued_jobs=0))
    try:
        page = await busy.trainer.start(PLACE, ANN, GAME)
        assert page.ok and page.attempt == attempt.id, page.text
        assert len(busy.trainer.prefetches) == 0
        await asyncio.sleep(0.1)
        assert jobs.prefetches == 1
    finally:
        await busy.trainer.close()


async def test_stopping_cancels_the_prefetches_and_starts_none(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = Jobs(monkeypatch, gate=True)
    cancelled: list[int] = []
    making = PuzzleTrainer._next_candidates

    async def watched(self: PuzzleTrainer, attempt: PuzzleAttempt) -> Candidates:
        try:
            return await making(self, attempt)
        except asyncio.CancelledError:
            cancelled.append(attempt.id)
            raise

    monkeypatch.setattr(PuzzleTrainer, "_next_candidates", watched)
    async with trainer_app(store, tmp_path) as app:
        try:
            attempt = await open_attempt(app, store)
            await until(lambda: jobs.prefetches == 1)
            await app.trainer.close()
            assert cancelled == [attempt.id]
            assert len(app.trainer.prefetches) == 0
            page = await app.trainer.start(PLACE, ANN, GAME)  # resumed, as a late press
            assert page.ok, page.text
            assert len(app.trainer.prefetches) == 0, "none starts while stopping"
        finally:
            jobs.release()


async def test_entries_are_bounded_and_expire() -> None:
    now = [0.0]
    workers = Workers(2, None)
    prefetches = Prefetches(workers, entries=2, seconds=60.0, clock=lambda: now[0])

    async def made() -> Candidates:
        return [("code", {})]

    try:
        for user in "abc":
            assert prefetches.start(("discord", user, GAME, ""), made)
        assert len(prefetches) == 2 and ("discord", "a", GAME, "") not in prefetches
        assert not prefetches.start(("discord", "b", GAME, ""), made), "never two at once"
        await asyncio.sleep(0.01)  # their turns of the background lane
        assert await prefetches.take(("discord", "b", GAME, "")) == [("code", {})]
        assert await prefetches.take(("discord", "b", GAME, "")) is None, "taken once"
        now[0] = 61.0
        assert await prefetches.take(("discord", "c", GAME, "")) is None, "expired"
        assert len(prefetches) == 0
        assert prefetches.start(("discord", "d", GAME, ""), made)
        assert await prefetches.take(("discord", "d", GAME, "")) is None, \
            "one still waiting for a worker is made afresh instead"
    finally:
        await prefetches.close()
        workers.shutdown()


async def test_a_prefetch_not_ready_is_left_for_the_next_pick_when_not_waited_for() -> None:
    workers = Workers(2, None)
    prefetches = Prefetches(workers)
    made = asyncio.Event()
    key = ("discord", "a", GAME, "")

    async def slow() -> Candidates:
        await made.wait()
        return [("code", {})]

    try:
        assert prefetches.start(key, slow)
        await asyncio.sleep(0.01)  # its turn of the background lane
        assert await prefetches.take(key, wait=False) is None, "the stock serves this pick"
        assert key in prefetches, "and the prefetch is kept for the next"
        made.set()
        await asyncio.sleep(0.01)
        assert await prefetches.take(key, wait=False) == [("code", {})], "made: taken"
        assert key not in prefetches
    finally:
        await prefetches.close()
        workers.shutdown()
