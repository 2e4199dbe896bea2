"""Resource bounds: the rate limit, games per person and per server, and the bounded pool
for CPU-heavy work."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import threading
import time
from dataclasses import replace
from typing import Any

import pytest

from bot.config import load_settings
from bot.jobs import computer_move
from bot.limits import Limits, RateLimiter, Workers, WorkersBusy
from bot.service import Opponent, Place, Service, User, agent_seed
from bot.store import SQLiteStore
from engines import lgame
from engines.registry import game_names, get_game
from renderers.i18n import translate
from tests.helpers.people import ALICE, BOB, CAROL, PLACE


class SteppingClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_is_allowed_then_the_pace_is_refilled() -> None:
    clock = SteppingClock()
    limiter = RateLimiter(burst=3, per_second=0.5, clock=clock)
    assert [limiter.wait_seconds("p", "ann") for _ in range(3)] == [0, 0, 0]
    assert limiter.wait_seconds("p", "ann") == 2  # one token takes 2 s at 0.5 a second
    assert limiter.wait_seconds("p", "bo") == 0  # someone else has their own bucket
    clock.now += 1.0
    assert limiter.wait_seconds("p", "ann") == 1
    clock.now += 1.0
    assert limiter.wait_seconds("p", "ann") == 0
    assert limiter.wait_seconds("p", "ann") == 2
    clock.now += 3600
    assert [limiter.wait_seconds("p", "ann") for _ in range(4)] == [0, 0, 0, 2], \
        "a long pause refills no more than the burst"


def test_the_same_id_on_another_platform_is_another_person() -> None:
    limiter = RateLimiter(burst=1, per_second=1.0, clock=SteppingClock())
    assert limiter.wait_seconds("discord", "7") == 0
    assert limiter.wait_seconds("telegram", "7") == 0
    assert limiter.wait_seconds("discord", "7") == 1


def test_no_burst_means_no_limit() -> None:
    limiter = RateLimiter(burst=None, per_second=1.0, clock=SteppingClock())
    assert all(limiter.wait_seconds("p", "ann") == 0 for _ in range(1000))


def limited_service(store: SQLiteStore, **limits: Any) -> Service:
    """A service with only the named limits switched on. The tests step the rate limit's
    clock, which is the process's own: on a database shared by processes the buckets are
    the database's, counted on its clock (tests/bot/store/test_leases.py tests those)."""
    if store.shared:
        pytest.skip("the rate limit's stepped clock is the process's; shared stores count "
                    "on the database's clock")
    seeds = itertools.count(1)
    return Service(store, seed_source=lambda: next(seeds),
                   limits=replace(Limits.unlimited(), **limits))


async def test_a_flood_of_moves_is_answered_kindly_and_changes_nothing(
        store: SQLiteStore) -> None:
    service = limited_service(store, command_burst=4, commands_per_second=1.0)
    clock = SteppingClock()
    service.rate = RateLimiter(4, 1.0, clock=clock)
    reply = await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    assert reply.ok and reply.board is not None
    state = lgame.LGameState.from_dict(
        (await store.running_game(PLACE.platform, PLACE.channel)).state)  # type: ignore[union-attr]
    move = state.action_text(state.legal_actions(0)[0])
    for _ in range(3):
        assert (await service.board(PLACE, ALICE)).ok
    refused = await service.move(PLACE, ALICE, move)  # a whole legal move, refused
    assert not refused.ok and "Try again in 1 s" in (refused.notice or "")
    assert refused.board is not None, "the board comes with the refusal, as with any other"
    record = await store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None and record.version == reply.board.version
    # Bo is not slowed down by Ann's flood, and Ann may act again after a second.
    assert (await service.board(PLACE, BOB)).ok
    clock.now += 1.0
    assert (await service.move(PLACE, ALICE, move)).moved


async def test_a_refusal_for_speed_keeps_the_private_hand(store: SQLiteStore) -> None:
    service = limited_service(store, command_burst=2)
    service.rate = RateLimiter(2, 1.0, clock=SteppingClock())
    started = await service.start_game(PLACE, ALICE, "turing", Opponent("ai"))
    assert started.board is not None and started.board.hand_button is not None
    # Looking at one's hand is never counted: it only reads.
    for _ in range(5):
        assert (await service.hand(PLACE, ALICE)).hand is not None
    hand_button = started.board.hand_button.payload
    assert (await service.press(PLACE, ALICE, hand_button)).ok
    refused = await service.press(PLACE, ALICE, hand_button)
    assert not refused.ok and refused.hand is not None, \
        "an adapter redrawing the clicked hand must still have the hand to draw"


async def test_the_rate_limit_answer_is_translated(store: SQLiteStore) -> None:
    service = limited_service(store, command_burst=1)
    service.rate = RateLimiter(1, 1.0, clock=SteppingClock())
    dutch = Place("test", "channel-nl", language="nl")
    await service.start_game(dutch, ALICE, "lgame", Opponent("user", user=BOB))
    refused = await service.board(dutch, ALICE)
    assert not refused.ok
    assert refused.notice == translate("nl", "error.rate_limited", seconds=1)
    assert refused.notice != translate("en", "error.rate_limited", seconds=1)


async def test_a_person_may_sit_in_a_bounded_number_of_running_games(
        store: SQLiteStore) -> None:
    service = limited_service(store, games_per_user=2)
    places = [Place("test", f"room-{n}") for n in range(4)]
    assert (await service.start_game(places[0], ALICE, "lgame", Opponent("ai", "easy"))).ok
    assert (await service.start_game(places[1], ALICE, "lgame", Opponent("user"))).ok
    third = await service.start_game(places[2], ALICE, "lgame", Opponent("ai", "easy"))
    assert not third.ok and "already playing 2 games" in (third.notice or "")
    assert await store.running_game("test", "room-2") is None
    # Bo may not take a seat beside Ann once he is at the limit either.
    service.limits = replace(service.limits, games_per_user=1)
    assert (await service.start_game(places[3], BOB, "lgame", Opponent("ai", "easy"))).ok
    refused = await service.join(places[1], BOB)
    assert not refused.ok and "Bob is already playing a game" in (refused.notice or "")
    # Inviting someone who is at the limit is refused as well, naming them.
    invite = await service.start_game(places[2], CAROL, "lgame", Opponent("user", user=BOB))
    assert not invite.ok and "Bob" in (invite.notice or "")
    # A finished game frees its seat.
    assert (await service.resign(places[3], BOB)).ok
    assert (await service.join(places[1], BOB)).ok


async def test_a_server_holds_a_bounded_number_of_running_games(store: SQLiteStore) -> None:
    service = limited_service(store, games_per_server=2)
    users = [User("test", f"pupil-{n}", f"Pupil {n}") for n in range(3)]
    rooms = [Place("test", f"thread-{n}", server="class-3b") for n in range(3)]
    for user, room in zip(users[:2], rooms[:2], strict=True):
        assert (await service.start_game(room, user, "lgame", Opponent("ai", "easy"))).ok
    refused = await service.start_game(rooms[2], users[2], "lgame", Opponent("ai", "easy"))
    assert not refused.ok and "already has 2 games running" in (refused.notice or "")
    elsewhere = Place("test", "thread-9", server="class-4a")
    assert (await service.start_game(elsewhere, users[2], "lgame", Opponent("ai", "easy"))).ok
    assert await store.count_running_games("test", server="class-3b") == 2
    assert await store.count_running_games("test", user_id="pupil-2") == 1


async def test_a_full_pool_refuses_new_heavy_games_but_queues_computer_moves() -> None:
    workers = Workers(1, queue_limit=2)
    release = threading.Event()
    blocked = [asyncio.ensure_future(workers.run(release.wait)) for _ in range(2)]
    await asyncio.sleep(0.01)
    assert workers.busy
    with pytest.raises(WorkersBusy):
        await workers.run(sum, [1, 2], refuse_when_busy=True)
    queued = asyncio.ensure_future(workers.run(sum, [1, 2]))
    release.set()
    assert await queued == 3
    assert await asyncio.gather(*blocked) == [True, True]
    assert workers.pending == 0 and not workers.busy
    workers.shutdown()


async def test_while_the_pool_is_full_only_games_that_need_it_wait(
        store: SQLiteStore) -> None:
    service = limited_service(store, cpu_workers=1, queued_jobs=1)
    release = threading.Event()
    blocker = asyncio.ensure_future(service.workers.run(release.wait))
    await asyncio.sleep(0.01)
    for game, opponent in [("lgame", Opponent("ai", "strong")), ("turing", Opponent("ai"))]:
        refused = await service.start_game(PLACE, ALICE, game, opponent)
        assert not refused.ok and "busy thinking" in (refused.notice or ""), game
        assert await store.running_game(PLACE.platform, PLACE.channel) is None
    # Two people need no computer, and an easy computer plays at once without the pool:
    # their games start and go on.
    assert (await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))).ok
    easy = Place("test", "room-3")
    assert (await service.start_game(easy, CAROL, "lgame", Opponent("ai", "easy"),
                                     creator_seat=1)).ok
    assert (await service.play_ai_turn(easy)).moved
    release.set()
    await blocker
    other = Place("test", "room-2")
    assert (await service.start_game(other, ALICE, "lgame", Opponent("ai", "strong"))).ok
    service.workers.shutdown()


async def test_worker_processes_do_the_work_and_a_killed_one_is_replaced() -> None:
    workers = Workers(1, queue_limit=None, processes=True)
    try:
        first = await workers.run(os.getpid)
        assert first != os.getpid(), "the work ran in another process"
        os.kill(first, signal.SIGKILL)
        second = await workers.run(os.getpid)
        assert second not in (first, os.getpid()), "a new worker took the job"
        assert await workers.run(sum, [1, 2]) == 3
        assert workers.pending == 0
    finally:
        workers.shutdown()


async def test_a_worker_process_over_its_time_budget_is_given_up_on() -> None:
    """The computer's time budget holds in a process as in a thread: the caller stops
    waiting, and the job stays counted until the process has finished it."""
    workers = Workers(1, queue_limit=None, processes=True)
    try:
        await workers.run(int)  # the worker process is up: its start-up is not the budget's
        with pytest.raises(TimeoutError):
            await workers.run(time.sleep, 0.5, timeout=0.05)
        assert workers.pending == 1
        assert await workers.run(sum, [1, 2]) == 3, "the next job runs once it is free"
        assert workers.pending == 0
    finally:
        workers.shutdown()


async def test_the_bot_thinks_for_the_computer_in_worker_processes(
        store: SQLiteStore) -> None:
    """The bot's own set-up: computer moves and costly new games cross to a worker process
    and back as plain data, and come out as they would have in the bot's own process."""
    service = limited_service(store, cpu_workers=1, cpu_processes=True)
    try:
        started = await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", "strong"),
                                           creator_seat=1)
        assert started.ok
        record = await store.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        expected = computer_move("lgame", "strong", agent_seed(record), record.state, 0)
        assert (await service.play_ai_turn(PLACE)).moved
        assert [move.action for move in await store.moves(record.id)] == [expected]

        other = Place("test", "room-2")
        assert (await service.start_game(other, ALICE, "turing", Opponent("ai"))).ok
        puzzle = await store.running_game(other.platform, other.channel)
        assert puzzle is not None
        assert puzzle.state == get_game("turing").new_game(
            puzzle.options, 1, puzzle.seed).to_dict()
    finally:
        service.workers.shutdown()


async def test_a_time_budget_counts_from_the_start_of_the_work_not_the_queue() -> None:
    workers = Workers(1, queue_limit=None)
    release = threading.Event()
    first = asyncio.ensure_future(workers.run(release.wait))
    waiting = asyncio.ensure_future(workers.run(sum, [1, 2], timeout=0.05))
    await asyncio.sleep(0.2)  # four budgets' worth of queueing
    release.set()
    assert await waiting == 3, "queued longer than its budget, yet it got its whole budget"
    await first
    slow = threading.Event()
    with pytest.raises(TimeoutError):
        await workers.run(slow.wait, 5.0, timeout=0.05)
    assert workers.pending == 1, "work still running in its thread stays counted"
    slow.set()
    for _ in range(100):
        await asyncio.sleep(0.01)
        if workers.pending == 0:
            break
    assert workers.pending == 0
    workers.shutdown()


def test_a_host_sets_the_game_limits_in_the_environment() -> None:
    settings = load_settings({"BOT_GAMES_PER_USER": "30", "BOT_GAMES_PER_SERVER": "0"},
                             env_file=None)
    limits = Limits.for_settings(settings.games_per_user, settings.games_per_server)
    assert limits.games_per_user == 30 and limits.games_per_server is None
    typo = load_settings({"BOT_GAMES_PER_USER": "lots"}, env_file=None)
    assert typo.games_per_user == Limits().games_per_user, "a typo keeps the default"
    assert Limits.for_settings(typo.games_per_user, typo.games_per_server) == Limits()


async def test_a_refusal_is_known_before_anything_is_created(store: SQLiteStore) -> None:
    service = limited_service(store, games_per_user=1, cpu_workers=1, queued_jobs=1)
    assert await service.start_refusal(PLACE, ALICE, "lgame", Opponent("ai", "easy")) is None
    assert "Unknown game" in (await service.start_refusal(
        PLACE, ALICE, "chess", Opponent("open")) or "")
    assert (await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))).ok
    other = Place("test", "room-2")
    over = await service.start_refusal(other, CAROL, "lgame", Opponent("user", user=BOB))
    assert over is not None and "Bob is already playing a game" in over
    release = threading.Event()
    blocker = asyncio.ensure_future(service.workers.run(release.wait))
    await asyncio.sleep(0.01)
    busy = await service.start_refusal(other, CAROL, "lgame", Opponent("ai", "strong"))
    assert busy is not None and "busy thinking" in busy
    assert await service.start_refusal(other, CAROL, "lgame", Opponent("open")) is None
    assert await store.running_game("test", "room-2") is None
    release.set()
    await blocker
    service.workers.shutdown()


def test_every_quick_level_is_a_level_of_its_game() -> None:
    """A misspelt quick level would silently send an easy computer to the pool."""
    for name in game_names():
        module = get_game(name)
        assert set(module.INFO.quick_levels) <= set(module.LEVELS), name


async def test_work_nobody_waits_for_leaves_a_worker_free() -> None:
    """Two workers: background work (danger marks) holds one of them at most, so that a
    computer move is taken at once while the marks of two games are still wanted."""
    workers = Workers(2, queue_limit=None)
    release = threading.Event()
    started: list[int] = []

    async def background(job: int) -> bool:
        async with workers.background():
            started.append(job)
            return await workers.run(release.wait)

    marks = [asyncio.ensure_future(background(job)) for job in (1, 2)]
    await asyncio.sleep(0.05)
    assert started == [1], "the second background job waits for the lane"
    assert await asyncio.wait_for(workers.run(sum, [1, 2]), 5) == 3
    release.set()
    assert await asyncio.gather(*marks) == [True, True]
    assert started == [1, 2]
    workers.shutdown()
