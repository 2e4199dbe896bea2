"""The stock of made puzzles per game and theme (``bot/puzzles/stock.py`` and the trainer's
use of it): a session's first puzzle taken from it without making one, and refilled; a
class opening puzzles at once draining it, each stocked puzzle given once, then having
theirs made; a player's recent puzzles never given from it; "any theme" drawing from every
theme of the game; no refill started while the pool is busy; the refills cancelled when the
bot stops; filled only once started; the puzzle of the day never from it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.puzzles.stock
import bot.puzzles.trainer
from bot.app import App
from bot.limits import Workers
from bot.puzzles.jobs import Candidates, puzzle_candidates
from bot.puzzles.stock import STOCK_SIZE, PuzzleStock
from bot.puzzles.trainer import themes_of
from bot.replies import Place, User
from bot.store import Store
from bot.store.puzzle_rows import PuzzleAttempt
from tests.helpers.puzzle_trainer import answer_presses, trainer_app

PLACE = Place("discord", "c1", "en", False, "guild")
ANN = User("discord", "1", "Ann")
BEN = User("discord", "2", "Ben")
GAME = "lgame"
THEME = "win-in-1"


class Picks:
    """The trainer's own ``puzzle_candidates`` (a pick made on the press, or a prefetch),
    counted: the stock makes its puzzles through its own. A prefetch (no target rating)
    may be held until ``prefetch_made`` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made = 0
        self.prefetches = 0
        self.prefetched: list[Candidates] = []
        self.prefetch_made = threading.Event()
        self.prefetch_made.set()
        monkeypatch.setattr(bot.puzzles.trainer, "puzzle_candidates", self.job)

    def job(self, game: str, theme: str | None, seeds: list[int], target: float | None,
            *args: Any) -> Candidates:
        if target is not None:
            self.made += 1
            return puzzle_candidates(game, theme, seeds, target, *args)
        self.prefetches += 1
        assert self.prefetch_made.wait(20), "the test never let the prefetch finish"
        found = puzzle_candidates(game, theme, seeds, target, *args)
        self.prefetched.append(found)
        return found


class StockJobs:
    """The stock's ``puzzle_candidates``, counted; ``seed`` makes every job use that one
    seed (so a theme holds that one puzzle), ``themes`` leaves every other theme without
    puzzles, and a job may be held until ``release`` (``gate``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, seed: int | None = None,
                 themes: tuple[str, ...] | None = None, gate: bool = False) -> None:
        self.jobs = 0
        self.done = 0
        self.seed = seed
        self.themes = themes
        self.released = threading.Event()
        if not gate:
            self.released.set()
        monkeypatch.setattr(bot.puzzles.stock, "puzzle_candidates", self.job)

    def job(self, game: str, theme: str, seeds: list[int], *args: Any) -> Candidates:
        self.jobs += 1
        assert self.released.wait(20), "the test never released the stock's job"
        try:
            if self.themes is not None and theme not in self.themes:
                return []
            return puzzle_candidates(game, theme, seeds if self.seed is None else [self.seed],
                                     *args)
        finally:
            self.done += 1


async def until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        await asyncio.sleep(0.01)


async def opened(app: App, user: User, theme: str | None = THEME) -> PuzzleAttempt:
    page = await app.trainer.start(PLACE, user, GAME, theme)
    assert page.ok and page.answering and page.attempt is not None, page.text
    attempt = await app.store.puzzle_attempt(page.attempt)
    assert attempt is not None
    return attempt


async def answered_then_next(app: App, user: User, attempt: PuzzleAttempt) -> PuzzleAttempt:
    for button in answer_presses(attempt, right=True):
        page = await app.trainer.press(PLACE, user, button)
        assert page.ok, page.text
    page = await app.trainer.press(PLACE, user, f"{attempt.id}:n")
    assert page.ok and page.answering and page.attempt is not None, page.text
    following = await app.store.puzzle_attempt(page.attempt)
    assert following is not None
    return following


def full(app: App, theme: str = THEME) -> Callable[[], bool]:
    return lambda: app.trainer.stock.held(GAME, theme) == STOCK_SIZE


async def test_the_first_puzzle_comes_from_the_stock_which_is_refilled(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picks, jobs = Picks(monkeypatch), StockJobs(monkeypatch)
    async with trainer_app(store, tmp_path) as app:
        app.trainer.prefetching = False
        app.trainer.stock.start([GAME])
        await until(lambda: all(app.trainer.stock.held(GAME, theme) == STOCK_SIZE
                                for theme in themes_of(GAME)))
        stocked = {code for code, _ in app.trainer.stock.offer(GAME, THEME, ())}
        made = jobs.jobs
        attempt = await opened(app, ANN)
        assert picks.made == 0, "the first puzzle of the session was not made on the press"
        assert attempt.code in stocked and attempt.theme == THEME
        assert not app.trainer.stock.holds(GAME, attempt.code), "taken out of the stock"
        await until(full(app))
        assert jobs.jobs > made, "and its theme refilled"


async def test_a_class_at_once_drains_the_stock_then_has_its_puzzles_made(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picks, jobs = Picks(monkeypatch), StockJobs(monkeypatch)
    async with trainer_app(store, tmp_path) as app:
        app.trainer.prefetching = False
        app.trainer.stock.start([GAME])
        await until(lambda: app.trainer.stock.refilling == 0)
        jobs.released.clear()  # the refills wait, as behind a busy background lane
        try:
            students = [User("discord", str(10 + number), f"S{number}")
                        for number in range(STOCK_SIZE + 1)]
            codes = [attempt.code for attempt in await asyncio.gather(
                *(opened(app, student) for student in students))]
            assert picks.made == 1, "six from the stock, the seventh made on the press"
            assert len(set(codes)) == len(codes), "nobody got another's stocked puzzle"
            assert app.trainer.stock.held(GAME, THEME) == 0
        finally:
            jobs.released.set()
        await until(full(app))


async def test_next_at_once_takes_the_stock_and_keeps_the_prefetch_for_later(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picks, _ = Picks(monkeypatch), StockJobs(monkeypatch)
    async with trainer_app(store, tmp_path) as app:
        app.trainer.stock.start([GAME])
        await until(lambda: app.trainer.stock.refilling == 0)
        picks.prefetch_made.clear()  # Next is pressed before the prefetch is made
        try:
            first = await opened(app, ANN)
            await until(lambda: picks.prefetches == 1)
            stocked = {code for code, _ in app.trainer.stock.offer(GAME, THEME, ())}
            following = await answered_then_next(app, ANN, first)
            assert following.code in stocked, "served from the stock, not waited for"
            assert picks.made == 0 and picks.prefetches == 1
        finally:
            picks.prefetch_made.set()
        await until(lambda: len(picks.prefetched) == 1)
        third = await answered_then_next(app, ANN, following)
        assert third.code in {code for code, _ in picks.prefetched[0]}, \
            "the prefetch kept for the Next after"
        assert picks.made == 0


async def test_a_recent_puzzle_is_never_given_from_the_stock(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every job of the stock makes the same puzzle, so the theme holds that one, again
    # after it was taken.
    picks, _ = Picks(monkeypatch), StockJobs(monkeypatch, seed=7)
    async with trainer_app(store, tmp_path) as app:
        app.trainer.prefetching = False
        app.trainer.stock.start([GAME])
        await until(lambda: app.trainer.stock.held(GAME, THEME) == 1)
        first = await opened(app, ANN)
        assert picks.made == 0
        await until(lambda: app.trainer.stock.holds(GAME, first.code))
        following = await answered_then_next(app, ANN, first)
        assert following.code != first.code, "Ann had it: made for her on the press"
        assert picks.made == 1
        assert app.trainer.stock.holds(GAME, first.code), "still there for someone else"
        assert (await opened(app, BEN)).code == first.code
        assert picks.made == 1


async def test_any_theme_draws_from_every_theme_of_the_game(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    themes = themes_of(GAME)
    picks, _ = Picks(monkeypatch), StockJobs(monkeypatch, themes=(themes[-1],))
    async with trainer_app(store, tmp_path) as app:
        app.trainer.prefetching = False
        app.trainer.stock.start([GAME])
        await until(full(app, themes[-1]))
        await until(lambda: app.trainer.stock.refilling == 0)
        assert len(app.trainer.stock) == STOCK_SIZE, "only the last theme has puzzles"
        stocked = {code for code, _ in app.trainer.stock.offer(GAME, None, ())}
        attempt = await opened(app, ANN, theme=None)
        assert picks.made == 0 and attempt.code in stocked
        assert attempt.theme == "", "given as any theme's"


async def test_any_theme_is_offered_all_the_themes_stocked_unless_switched_off() -> None:
    workers = Workers(2, None)
    stock = PuzzleStock(workers, themes_of)
    try:
        stock.start([GAME])
        await until(lambda: len(stock) == STOCK_SIZE * len(themes_of(GAME)))
        offered = stock.offer(GAME, None, ())
        assert len(offered) == len(stock)
        assert all(any(theme in puzzle["themes"] for _, puzzle in offered)
                   for theme in themes_of(GAME))
        recent = {code for code, _ in offered[:3]}
        assert {code for code, _ in stock.offer(GAME, None, recent)} == {
            code for code, _ in offered} - recent
        assert stock.offer("booleo", None, ()) == [], "another game's shelves are its own"
        stock.stocking = False  # switched off (a benchmark's column without it)
        assert stock.offer(GAME, None, ()) == [] and stock.offer(GAME, THEME, ()) == []
        assert stock.take(GAME, offered[0][0])
        assert stock.refilling == 0, "nor refilled"
    finally:
        await stock.close()
        workers.shutdown()


async def test_a_busy_pool_starts_no_refill(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picks, jobs = Picks(monkeypatch), StockJobs(monkeypatch)
    async with trainer_app(store, tmp_path) as app:
        app.trainer.prefetching = False
        workers = app.service.workers
        workers.queue_limit = 0  # full: every job counts as one too many
        app.trainer.stock.start([GAME])
        assert app.trainer.stock.refilling == 0 and jobs.jobs == 0, "no fill while busy"
        workers.queue_limit = None
        app.trainer.stock.touch(GAME)  # touched again once the pool has room: filled
        await until(full(app))
        await until(lambda: app.trainer.stock.refilling == 0)
        workers.queue_limit = 0
        made = jobs.jobs
        code, _ = app.trainer.stock.offer(GAME, THEME, ())[0]
        assert app.trainer.stock.take(GAME, code)
        assert app.trainer.stock.refilling == 0, "a take in a busy pool starts no refill"
        await asyncio.sleep(0.1)
        assert jobs.jobs == made and app.trainer.stock.held(GAME, THEME) == STOCK_SIZE - 1
        assert picks.made == 0


async def test_stopping_cancels_the_refills_and_starts_none(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    jobs = StockJobs(monkeypatch, gate=True)
    workers = Workers(2, None)
    stock = PuzzleStock(workers, themes_of)
    try:
        stock.start([GAME])
        assert stock.refilling == len(themes_of(GAME))
        await until(lambda: jobs.jobs == 1)  # one in the background lane, the others wait
        await stock.close()
        assert stock.refilling == 0
        stock.touch(GAME)
        assert stock.refilling == 0, "none starts while stopping"
        jobs.released.set()
        await until(lambda: jobs.done == 1)
        await asyncio.sleep(0.1)
        assert len(stock) == 0, "the puzzle made meanwhile was not wanted"
        assert jobs.jobs == 1, "and the themes waiting for the lane made none"
    finally:
        jobs.released.set()
        workers.shutdown()


async def test_tests_bots_do_not_stock_and_the_daily_puzzle_is_not_taken(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = StockJobs(monkeypatch)
    async with trainer_app(store, tmp_path) as app:
        app.trainer.prefetching = False
        await opened(app, ANN)
        assert jobs.jobs == 0 and app.trainer.stock.refilling == 0, "not started: no fill"
        app.trainer.stock.start([GAME])
        await until(lambda: app.trainer.stock.refilling == 0)
        held = len(app.trainer.stock)
        assert held == STOCK_SIZE * len(themes_of(GAME))
        page = await app.trainer.start_daily(PLACE, BEN, GAME)
        assert page.ok and page.attempt is not None, page.text
        daily = await app.store.puzzle_attempt(page.attempt)
        assert daily is not None and daily.daily
        assert not app.trainer.stock.holds(GAME, daily.code)
        assert len(app.trainer.stock) == held, "the stock gave nothing to the day's puzzle"
