"""Cross-process coordination kept in the database: the lease on a computer turn (one
holder, taken over when it lapses) and the per-game lock. Two store instances on one
database stand for two bot processes; on PostgreSQL the lock holds across them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import SQLiteStore
from bot.store.postgres import PostgresStore
from bot.store.postgres_schema import GAME_LOCK_SPACE
from bot.store.protocol import TurnCoordination
from bot.store.records import GameRecord, GameUpdate, MoveRecord
from tests.helpers.databases import DATABASES, postgres_schema, two_processes
from tests.helpers.waiting import eventually


@pytest.fixture(params=DATABASES)
async def processes(request: pytest.FixtureRequest, tmp_path: Path
                    ) -> AsyncIterator[tuple[TurnCoordination, TurnCoordination]]:
    async with two_processes(request.param, tmp_path) as pair:
        yield pair


async def test_a_computer_turn_has_one_holder_until_its_lease_lapses(
        processes: tuple[TurnCoordination, TurnCoordination]) -> None:
    one, two = processes
    assert await one.claim_computer_turn(7, 3, "one", 30.0)
    assert not await two.claim_computer_turn(7, 3, "two", 30.0)
    assert await one.claim_computer_turn(7, 3, "one", 30.0)  # renewed by its holder
    await two.release_computer_turn(7, "two")  # not its claim: nothing changes
    assert not await two.claim_computer_turn(7, 3, "two", 30.0)
    assert await two.claim_computer_turn(8, 3, "two", 30.0)  # another game is free
    await one.release_computer_turn(7, "one")
    assert await two.claim_computer_turn(7, 3, "two", 30.0)


async def test_a_lapsed_lease_is_taken_over_and_a_newer_turn_replaces_an_older(
        processes: tuple[TurnCoordination, TurnCoordination]) -> None:
    one, two = processes
    assert await one.claim_computer_turn(7, 3, "one", 30.0)
    assert not await two.claim_computer_turn(7, 3, "two", 30.0)
    # "one" died: its last renewal ran out a second ago (by the database's clock; no sleep,
    # so a slow machine cannot make the lease lapse early or late).
    assert await one.claim_computer_turn(7, 3, "one", -1.0)
    assert await two.claim_computer_turn(7, 3, "two", 30.0)
    assert not await one.claim_computer_turn(7, 3, "one", 30.0)
    assert await one.claim_computer_turn(7, 4, "one", 30.0)  # the next turn
    assert not await two.claim_computer_turn(7, 3, "two", 30.0)  # an old turn stays old


async def test_racing_claims_have_exactly_one_winner(
        processes: tuple[TurnCoordination, TurnCoordination]) -> None:
    one, two = processes
    claims = await asyncio.gather(*(
        (one if n % 2 else two).claim_computer_turn(9, 1, f"holder-{n}", 30.0)
        for n in range(10)))
    assert claims.count(True) == 1


async def _overlap(locks: list[TurnCoordination], game_ids: list[int]) -> int:
    """The most holders inside a game's lock at once, over many contending tasks."""
    inside: dict[int, int] = dict.fromkeys(game_ids, 0)
    most = 0

    async def hold(store: TurnCoordination, game_id: int) -> None:
        nonlocal most
        async with store.game_lock(game_id):
            inside[game_id] += 1
            most = max(most, inside[game_id])
            await asyncio.sleep(0.005)
            inside[game_id] -= 1

    await asyncio.gather(*(hold(locks[n % len(locks)], game_ids[n % len(game_ids)])
                           for n in range(24)))
    return most


async def test_a_game_lock_admits_one_holder_at_a_time(tmp_path: Path) -> None:
    async with two_processes("sqlite", tmp_path) as (one, _):
        assert await _overlap([one], [1]) == 1
        assert await _overlap([one], [1, 2, 3]) == 1
        assert isinstance(one, SQLiteStore) and one._game_locks == {}  # nothing kept


async def test_a_postgres_game_lock_holds_across_processes(tmp_path: Path) -> None:
    async with two_processes("postgres", tmp_path) as (one, two):
        assert await _overlap([one, two], [1]) == 1
        # Different games do not wait for each other: all three are inside at once.
        entered = asyncio.Event()
        inside = 0

        async def hold(store: TurnCoordination, game_id: int) -> None:
            nonlocal inside
            async with store.game_lock(game_id):
                inside += 1
                if inside == 3:
                    entered.set()
                await asyncio.wait_for(entered.wait(), 5)

        await asyncio.gather(hold(one, 1), hold(two, 2), hold(one, 3))


async def test_a_lock_is_released_when_its_holder_fails(tmp_path: Path) -> None:
    async with two_processes("postgres", tmp_path) as (one, two):
        with pytest.raises(RuntimeError):
            async with one.game_lock(5):
                raise RuntimeError("the move failed")
        async with asyncio.timeout(5), two.game_lock(5):
            pass


async def test_the_lock_covers_read_modify_save_and_the_save_commits_it(
        tmp_path: Path) -> None:
    """The lock (taken with the game's read, in one round trip) ends with the holder's
    save: a failure before the save leaves nothing written; the save is seen by the other
    process as soon as ``save_game`` returns, and the lock is free from then on, while the
    holder still draws its reply."""
    async with two_processes("postgres", tmp_path) as (one, two):
        assert isinstance(one, PostgresStore) and isinstance(two, PostgresStore)
        record = await one.create_game("test", "c1", "lgame", {}, 1, {"n": 0}, [],
                                       "active")
        with pytest.raises(RuntimeError):
            async with one.game_lock(record.id):
                assert await one.get_game(record.id) == record
                raise RuntimeError("the move was refused before its save")
        unchanged = await two.get_game(record.id)
        assert unchanged is not None and unchanged.version == 1 and unchanged.state == {"n": 0}

        async with one.game_lock(record.id):
            read = await one.get_game(record.id)
            assert read is not None
            # Until the save the other process waits for the lock.
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.3), two.game_lock(record.id):
                    pass
            saved = await one.save_game(read, GameUpdate({"n": 1}, "active", [],
                                                         MoveRecord(0, "action", "b")))
            assert saved is not None
            seen = await two.get_game(record.id)
            assert seen is not None and seen.version == 2 and seen.state == {"n": 1}
            assert await two.moves(record.id) == [MoveRecord(0, "action", "b")]
            async with asyncio.timeout(5), two.game_lock(record.id):
                pass  # free although the holder's block goes on
            # The holder's later statements use the pool, outside the ended transaction.
            await one.set_board_ref(record.id, {"message": 1})
        after = await two.get_game(record.id)
        assert after is not None and after.board_ref == {"message": 1} and after.version == 2


async def test_a_waiter_cancelled_in_the_lock_leaves_no_transaction_behind(
        tmp_path: Path) -> None:
    """A command cancelled while it waits for another process's lock (a timeout) gives
    its connection back clean: every later lock and read of that store still works."""
    complaints: list[str] = []
    loop = asyncio.get_running_loop()
    # asyncpg reports a connection released with a transaction still open (then rolls it
    # back itself): the lock must have ended its own transaction before that.
    loop.set_exception_handler(lambda _, context: complaints.append(str(context["message"])))
    try:
        await _cancel_a_waiter(tmp_path)
    finally:
        loop.set_exception_handler(None)
    assert complaints == []


async def _cancel_a_waiter(tmp_path: Path) -> None:
    async with two_processes("postgres", tmp_path) as (one, two):
        release = asyncio.Event()
        inside = asyncio.Event()

        async def holder() -> None:
            async with two.game_lock(7):
                inside.set()
                await release.wait()

        holding = asyncio.create_task(holder())
        await inside.wait()
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.3), one.game_lock(7):
                pass
        release.set()
        await holding
        for _ in range(25):  # more than the pool's connections: every one is used again
            async with asyncio.timeout(5), one.game_lock(7):
                pass
        assert await one.get_game(7) is None
        idle_in_transaction = await one._pool.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND state LIKE 'idle in transaction%'")
        assert idle_in_transaction == 0


async def _game_locks(store: PostgresStore, game_id: int, *, waiting: bool) -> int:
    """Sessions holding the game's lock, or waiting for it. Only that game's key is
    counted: every schema of the database shares the advisory locks, and other runs of
    the tests may use the same database at the same time."""
    return int(await store._pool.fetchval(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND "
        "objid = $2 AND objsubid = 2 AND granted = $3 AND "
        "database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        GAME_LOCK_SPACE, game_id, not waiting))


async def _game_lock_users(store: PostgresStore, game_id: int) -> tuple[int, int]:
    """How many sessions hold the game's lock, and how many wait for it."""
    return (await _game_locks(store, game_id, waiting=False),
            await _game_locks(store, game_id, waiting=True))


async def _until_one_waits(store: PostgresStore, game_id: int) -> None:
    async with asyncio.timeout(5):
        while not await _game_locks(store, game_id, waiting=True):
            await asyncio.sleep(0.01)


async def _save_one_move_under_the_lock(store: PostgresStore) -> GameRecord:
    """A new game, and one move saved under its lock, as a command makes it."""
    record = await store.create_game("test", "c1", "lgame", {}, 1, {"n": 0}, [], "active")
    async with store.game_lock(record.id):
        read = await store.get_game(record.id)
        assert read is not None
        saved = await store.save_game(read, GameUpdate({"n": 1}, "active", [],
                                                       MoveRecord(0, "action", "a")))
        assert saved is not None and saved.version == 2
    return record


async def test_the_locks_own_read_sees_the_move_it_waited_for(tmp_path: Path) -> None:
    """The lock and the game's read are one round trip, and the read must come after the
    lock: a process that waited while another saved a move has to read that move, or its
    own save fails as stale and a current press is refused."""
    async with two_processes("postgres", tmp_path) as (one, two):
        assert isinstance(one, PostgresStore) and isinstance(two, PostgresStore)
        record = await one.create_game("test", "c1", "lgame", {}, 1, {"n": 0}, [],
                                       "active")
        holding = asyncio.Event()

        async def first() -> None:
            async with two.game_lock(record.id):
                read = await two.get_game(record.id)
                assert read is not None
                holding.set()
                await _until_one_waits(two, record.id)  # the other waits for this lock
                saved = await two.save_game(read, GameUpdate({"n": 1}, "active", [],
                                                             MoveRecord(0, "action", "a")))
                assert saved is not None

        async def second() -> GameRecord | None:
            await holding.wait()
            async with one.game_lock(record.id):
                return await one.get_game(record.id)

        _, seen = await asyncio.gather(first(), second())
        assert seen is not None and seen.version == 2 and seen.state == {"n": 1}


async def test_every_way_out_of_a_game_lock_lets_it_go(tmp_path: Path) -> None:
    """The lock is the connection's session's, so it outlives a statement, and the pool
    hands connections back without a reset: a save, a failure, a cancel while holding and
    a cancel while waiting must each let it go, or close the connection."""
    async with two_processes("postgres", tmp_path) as (one, two):
        assert isinstance(one, PostgresStore) and isinstance(two, PostgresStore)
        record = await _save_one_move_under_the_lock(one)
        with pytest.raises(RuntimeError):
            async with one.game_lock(record.id):
                raise RuntimeError("the move was refused")
        inside = asyncio.Event()

        async def hold_until_cancelled() -> None:
            async with one.game_lock(record.id):
                inside.set()
                await asyncio.sleep(60)

        holder = asyncio.create_task(hold_until_cancelled())
        await inside.wait()
        with pytest.raises(TimeoutError):  # two waits, and gives up
            async with asyncio.timeout(0.3), two.game_lock(record.id):
                pass
        holder.cancel()
        with pytest.raises(asyncio.CancelledError):
            await holder
        # The holder lets the lock go before its task ends, but the waiter's connection,
        # closed when it gave up, is a session the server ends only once it notices: until
        # then it still waits, and it is granted the lock the holder let go (a few ms,
        # longer on a busy machine). Both go on their own, so the test waits for that,
        # with a bound; a lock that is never let go still fails it.
        assert await eventually(lambda: _game_lock_users(one, record.id), (0, 0)) == (0, 0)
        for store in (one, two) * 12:  # more than the pools' lock slots: every one again
            async with asyncio.timeout(5), store.game_lock(record.id):
                pass
        # Without a save, the lock goes before the block returns: no waiting here.
        assert await _game_locks(one, record.id, waiting=False) == 0


async def test_a_store_closed_right_after_a_save_lets_the_lock_go_first() -> None:
    """The save returns before its lock is let go (a task of its own does it, so the
    reply does not wait for that round trip); closing the store waits for that task,
    rather than closing the pool under it."""
    async with postgres_schema() as url:
        one, two = await PostgresStore.open(url), await PostgresStore.open(url)
        try:
            record = await _save_one_move_under_the_lock(one)
            await one.close()
            assert await _game_locks(two, record.id, waiting=False) == 0
            async with asyncio.timeout(5), two.game_lock(record.id):
                seen = await two.get_game(record.id)
            assert seen is not None and seen.version == 2
        finally:
            await two.close()


async def test_a_persons_rate_bucket_is_shared_by_the_processes(
        processes: tuple[TurnCoordination, TurnCoordination]) -> None:
    """A balancer may send one person's commands to any process: the burst is theirs once,
    not once per process."""
    one, two = processes
    takes = [await store.take_rate_token("discord", "ann", 3, 0.5)
             for store in (one, two, one, two)]
    assert takes == [0, 0, 0, 2]  # the fourth waits for one token at 0.5 a second
    assert await two.take_rate_token("discord", "bo", 3, 0.5) == 0  # Bo has his own
    assert await one.take_rate_token("telegram", "ann", 3, 0.5) == 0  # so has each platform


async def test_simultaneous_takes_never_spend_the_same_token_twice(
        processes: tuple[TurnCoordination, TurnCoordination]) -> None:
    one, two = processes
    waits = await asyncio.gather(*(store.take_rate_token("discord", "ann", 4, 0.001)
                                   for _ in range(6) for store in (one, two)))
    assert sorted(waits)[:5] == [0, 0, 0, 0, 1000]  # exactly the burst got through


async def test_a_bucket_refills_at_its_rate(
        processes: tuple[TurnCoordination, TurnCoordination]) -> None:
    one, two = processes
    assert await one.take_rate_token("discord", "ann", 1, 20.0) == 0
    assert await two.take_rate_token("discord", "ann", 1, 20.0) == 1  # empty: at least 1 s
    await asyncio.sleep(0.1)  # 20 tokens a second: one is back after 0.05 s
    assert await two.take_rate_token("discord", "ann", 1, 20.0) == 0
