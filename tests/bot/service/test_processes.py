"""Two bot processes on one database: each has its own cache, and neither may refuse a
press that is current in the database; on PostgreSQL they agree through the database who
changes a game (its lock) and who plays the computer's turn (a lease)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.limits import Limits
from bot.service import Opponent, Service
from bot.store import Store
from tests.helpers.databases import two_processes
from tests.helpers.forged import whole_move
from tests.helpers.people import ALICE, BOB, PLACE


async def test_a_process_with_a_stale_copy_accepts_a_current_press(tmp_path: Path) -> None:
    """Behind a load balancer, 7 of 13 presses were refused as out of date although their
    version was the database's: the process that served them held an older copy. A press
    newer than the copy now re-reads the game."""
    async with two_processes("sqlite", tmp_path) as (first, second):
        one, two = Service(first), Service(second)
        started = await one.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
        assert started.ok and started.board is not None
        # The second process reads the game (and keeps it), then the first moves it on.
        assert (await two.board(PLACE)).ok
        for mover in (ALICE, BOB, ALICE):
            record = await first.running_game(PLACE.platform, PLACE.channel)
            assert record is not None
            moved = await one.press(PLACE, mover, whole_move(record))
            assert moved.ok and moved.moved, moved.notice
        # Bob's current button reaches the second process, whose copy is three moves old.
        record = await first.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        pressed = await two.press(PLACE, BOB, whole_move(record))
        assert pressed.ok and pressed.moved, pressed.notice
        saved = await first.get_game(record.id)
        assert saved is not None and saved.version == record.version + 1


async def test_a_process_that_missed_a_new_game_accepts_its_buttons(tmp_path: Path) -> None:
    """The same for a game another process started after this one cached the last."""
    async with two_processes("sqlite", tmp_path) as (first, second):
        one, two = Service(first), Service(second)
        assert (await one.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))).ok
        assert (await two.board(PLACE)).ok  # cached in the second process
        assert (await one.abandon(PLACE, ALICE)).ok
        assert (await one.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))).ok
        record = await first.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        pressed = await two.press(PLACE, ALICE, whole_move(record))
        assert pressed.ok and pressed.moved, pressed.notice


@asynccontextmanager
async def two_services_on_postgres(tmp_path: Path) -> AsyncIterator[tuple[Service, Service,
                                                                         Store]]:
    """Two services, each with its own connection pool to one PostgreSQL database, as two
    bot processes behind a load balancer would run."""
    async with two_processes("postgres", tmp_path) as (first, second):
        # A fixed seed: each test's games (and the computer's moves) are the same in every
        # run, so none ends before the steps a test takes.
        yield (Service(first, seed_source=lambda: 7),
               Service(second, seed_source=lambda: 7), first)


async def test_simultaneous_presses_in_two_processes_save_one_move_each_time(
        tmp_path: Path) -> None:
    """The same current press reaching both processes at once (a double tap spread by the
    balancer) is one move: the game's lock holds across processes (an advisory lock),
    and each process reads the game afresh under it, so the other press finds the move
    made and changes nothing. Over many turns the move log has one line per version."""
    async with two_services_on_postgres(tmp_path) as (one, two, store):
        assert (await one.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))).ok
        record = await store.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        for turn in range(8):
            assert record is not None
            mover = (ALICE, BOB)[turn % 2]
            payload = whole_move(record)
            replies = await asyncio.gather(one.press(PLACE, mover, payload),
                                           two.press(PLACE, mover, payload))
            assert sorted(reply.moved for reply in replies) == [False, True], \
                [reply.notice for reply in replies]
            after = await store.running_game(PLACE.platform, PLACE.channel)
            assert after is not None and after.version == record.version + 1
            record = after
        actions = [m for m in await store.moves(record.id) if m.kind == "action"]
        assert len(actions) == 8


async def test_a_computer_turn_is_played_by_one_process_and_taken_over_from_a_dead_one(
        tmp_path: Path) -> None:
    """Both processes asked to play the computer's turn: one plays it (the lease in the
    database), the other leaves it. A turn claimed by a process that died is left alone
    until its lease lapses, then the next look takes it over."""
    async with two_services_on_postgres(tmp_path) as (one, two, store):
        started = await one.start_game(PLACE, ALICE, "lgame", Opponent("ai", "easy"),
                                       creator_seat=1)  # the computer moves first
        assert started.ok and started.ai_to_move
        record = await store.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        replies = await asyncio.gather(one.play_ai_turn(PLACE), two.play_ai_turn(PLACE))
        assert sorted(reply.board is not None for reply in replies) == [False, True]
        after = await store.running_game(PLACE.platform, PLACE.channel)
        assert after is not None and after.version == record.version + 1

        # Alice moves; the computer's next turn is claimed by a process that then dies.
        assert (await one.press(PLACE, ALICE, whole_move(after))).moved
        pending = await store.running_game(PLACE.platform, PLACE.channel)
        assert pending is not None
        assert await store.claim_computer_turn(pending.id, pending.version, "dead", 0.5)
        assert (await two.play_ai_turn(PLACE)).board is None, "the lease is still held"
        await asyncio.sleep(0.7)
        taken = await two.play_ai_turn(PLACE)
        assert taken.board is not None and taken.moved
        final = await store.running_game(PLACE.platform, PLACE.channel)
        assert final is not None and final.version == pending.version + 1


async def test_two_players_acting_at_once_through_two_processes_are_both_saved(
        tmp_path: Path) -> None:
    """In the Turing Machine both players act at the same time. Their presses reach two
    processes at once, each current: both must be saved. Without a lock across processes
    the second save lost the version race and its player was told to try again; with it,
    the second waits, reads the first's move and adds its own."""
    async with two_services_on_postgres(tmp_path) as (one, two, store):
        started = await one.start_game(PLACE, ALICE, "turing", Opponent("user", user=BOB),
                                       "puzzle=TM-C4E-23NNR2QV")
        assert started.ok, started.notice
        record = await store.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        seats = {p["id"]: seat for seat, p in enumerate(record.players)}
        for _ in range(3):
            record = await store.running_game(PLACE.platform, PLACE.channel)
            assert record is not None
            alice, bob = (whole_move(record, seats[ALICE.id]),
                          whole_move(record, seats[BOB.id]))
            replies = await asyncio.gather(one.press(PLACE, ALICE, alice),
                                           two.press(PLACE, BOB, bob))
            assert all(reply.moved for reply in replies), [r.notice for r in replies]
            after = await store.running_game(PLACE.platform, PLACE.channel)
            assert after is not None and after.version == record.version + 2


@asynccontextmanager
async def two_limited_services_on_postgres(tmp_path: Path
                                           ) -> AsyncIterator[tuple[Service, Service, Store]]:
    """Two processes with the limits the bot runs with (the others test without them)."""
    async with two_processes("postgres", tmp_path) as (first, second):
        yield Service(first, limits=Limits()), Service(second, limits=Limits()), first


async def test_a_persons_commands_through_two_processes_share_one_rate_limit(
        tmp_path: Path) -> None:
    """Twenty commands at once is a person's burst, whichever process serves them: spread
    over two processes they must not get forty."""
    async with two_limited_services_on_postgres(tmp_path) as (one, two, _store):
        burst = Limits().command_burst
        assert burst is not None
        refusals = [await service.rate_refusal(PLACE, ALICE)
                    for _ in range(burst // 2) for service in (one, two)]
        assert refusals == [None] * burst
        refused = await two.rate_refusal(PLACE, ALICE)
        assert refused is not None and "Try again in 1 s" in refused
        assert await one.rate_refusal(PLACE, BOB) is None


async def test_a_failing_database_leaves_the_rate_limit_to_the_process(
        tmp_path: Path) -> None:
    """The limiter must never be why a command fails: when the database cannot count, the
    process's own bucket does."""
    async with two_limited_services_on_postgres(tmp_path) as (one, _two, store):
        await store.close()  # every query now fails
        burst = Limits().command_burst
        assert burst is not None
        assert [await one.rate_refusal(PLACE, ALICE) for _ in range(burst)] == [None] * burst
        assert await one.rate_refusal(PLACE, ALICE) is not None
