"""The rest of the ``Store`` protocol, on both databases (``any_store``): results and the
rating trigger, daily claims, turn timers, counts, /forget-me, the export, and damaged rows.
Each assertion is the behaviour the service relies on, so both stores must agree."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.store import (
    FORMER_PLAYER,
    DailyAttempt,
    DailySchedule,
    GameRecord,
    GameUpdate,
    MoveRecord,
    ResultRow,
    SQLiteStore,
    Store,
    TurnTimer,
)
from bot.store.postgres import PostgresStore


def _human(user: str, **extra: object) -> dict[str, object]:
    return {"kind": "human", "platform": "test", "id": user, "name": user.title(), **extra}


async def _game(store: Store, channel: str, players: list[dict[str, object]],
                status: str = "active", server: str = "") -> GameRecord:
    return await store.create_game("test", channel, "lgame", {"o": 1}, 3, {"n": 0}, players,
                                   status, server)


async def test_concurrent_saves_of_one_version_write_once_and_log_once(
        any_store: Store) -> None:
    record = await _game(any_store, "c1", [_human("ann"), _human("bo")])
    updates = [GameUpdate({"n": n}, "active", record.players, MoveRecord(n % 2, "action", f"m{n}"))
               for n in range(8)]
    saved = await asyncio.gather(*(any_store.save_game(record, u) for u in updates))
    winners = [s for s in saved if s is not None]
    assert len(winners) == 1 and winners[0].version == 2
    current = await any_store.get_game(record.id)
    assert current is not None and current.state == winners[0].state
    assert [m.action for m in await any_store.moves(record.id)] == [f"m{winners[0].state['n']}"]


async def test_saves_of_many_games_at_once_each_log_their_own_move(any_store: Store) -> None:
    records = [await _game(any_store, f"c{n}", [_human("ann")]) for n in range(20)]
    saved = await asyncio.gather(*(any_store.save_game(r, GameUpdate(
        {"n": 1}, "active", r.players, MoveRecord(0, "action", f"g{r.id}"))) for r in records))
    assert all(s is not None and s.version == 2 for s in saved)
    for record in records:
        assert await any_store.moves(record.id) == [MoveRecord(0, "action", f"g{record.id}")]


async def test_a_game_counts_once_and_moves_the_ratings_once(any_store: Store) -> None:
    record = await _game(any_store, "c1", [_human("ann"), _human("bo")], "finished", "school")
    rows = [ResultRow(record.id, "test", "ann", "Ann", "school", "lgame", "human", "win",
                      1500.0, 1516.0),
            ResultRow(record.id, "test", "bo", "Bo", "school", "lgame", "human", "loss",
                      1500.0, 1484.0)]
    assert await any_store.record_results(rows)
    assert not await any_store.record_results(rows)  # a second count writes nothing
    assert await any_store.game_results(record.id) == rows  # what the end panel shows
    assert await any_store.ratings_of("test", ["ann", "bo", "cy"], "lgame") == {
        "ann": 1516.0, "bo": 1484.0}
    second = await _game(any_store, "c1", [_human("ann"), _human("bo")], "finished", "school")
    assert await any_store.record_results([
        ResultRow(second.id, "test", "ann", "Ann B.", "school", "lgame", "human", "draw",
                  1516.0, 1510.0),
        ResultRow(second.id, "test", "bo", "Bo", "school", "lgame", "human", "draw",
                  1484.0, 1490.0)])
    [ann] = await any_store.player_stats("test", "ann")
    assert (ann.name, ann.wins, ann.losses, ann.draws, ann.rating) == (
        "Ann B.", 1, 0, 1, 1510.0)
    board = await any_store.leaderboard("test", "lgame", "school", 10)
    assert [(s.user_id, s.rating) for s in board] == [("ann", 1510.0), ("bo", 1490.0)]
    assert await any_store.leaderboard("test", "lgame", "elsewhere", 10) == []
    export = await any_store.server_results("test", "school")
    assert [(e.name, e.outcome, e.rating_after) for e in export] == [
        ("Ann", "win", 1516.0), ("Bo", "loss", 1484.0),
        ("Ann B.", "draw", 1510.0), ("Bo", "draw", 1490.0)]


async def test_games_against_the_computer_count_apart_and_unrated(any_store: Store) -> None:
    record = await _game(any_store, "c1", [_human("ann"), {"kind": "ai", "level": "easy"}],
                         "finished")
    assert await any_store.record_results(
        [ResultRow(record.id, "test", "ann", "Ann", "", "lgame", "ai", "loss")])
    [ann] = await any_store.player_stats("test", "ann")
    assert (ann.played, ann.ai_losses, ann.rating) == (0, 1, None)
    assert await any_store.ratings_of("test", ["ann"], "lgame") == {}
    [row] = await any_store.game_results(record.id)
    assert (row.outcome, row.rating_before, row.rating_after) == ("loss", None, None)
    assert await any_store.game_results(record.id + 1) == []


async def test_running_counts_see_seated_people_only(any_store: Store) -> None:
    await _game(any_store, "c1", [_human("ann"), _human("bo")], server="s1")
    await _game(any_store, "c2", [_human("ann"), _human("cy", left=True)], server="s1")
    await _game(any_store, "c3", [_human("cy")], "waiting", server="s2")
    await _game(any_store, "c4", [_human("ann")], "finished", server="s1")
    assert await any_store.count_running_games("test") == 3
    assert await any_store.count_running_games("test", server="s1") == 2
    assert await any_store.count_running_games("test", user_id="ann") == 2
    assert await any_store.count_running_games("test", user_id="cy") == 1
    assert await any_store.count_running_games("test", server="s2", user_id="ann") == 0
    assert [g.channel for g in await any_store.running_games("test", "s1")] == ["c1", "c2"]
    assert [g.channel for g in await any_store.games_with_status("waiting", "finished")] == [
        "c3", "c4"]
    last = await any_store.last_finished_game("test", "c4")
    assert last is not None and last.status == "finished"


async def test_a_daily_post_is_claimed_once_and_released_on_failure(any_store: Store) -> None:
    await any_store.set_daily_schedule(DailySchedule("test", "room", "s", "07:30", "nl"))
    await any_store.set_daily_schedule(DailySchedule("test", "hall", "s", "08:00", "en"))
    at, lease = "2026-11-25T06:30:00+00:00", "2026-11-25T06:35:00+00:00"
    claims = await asyncio.gather(*(any_store.claim_daily_post("test", "room", "2026-11-25",
                                                               at, lease)
                                    for _ in range(5)))
    assert sorted(claims) == [False] * 4 + [True]
    await any_store.release_daily_post("test", "room", "2026-11-25", None)
    assert await any_store.claim_daily_post("test", "room", "2026-11-25", at, lease)
    assert not await any_store.claim_daily_post("test", "room", "2026-11-24", at, lease)
    # A claim whose process died runs out: after its lease another process posts the day;
    # a finished post is never claimed again, however late.
    later = "2026-11-25T06:36:00+00:00"
    assert not await any_store.claim_daily_post("test", "room", "2026-11-25",
                                                "2026-11-25T06:34:00+00:00", later)
    assert await any_store.claim_daily_post("test", "room", "2026-11-25", later,
                                            "2026-11-25T06:41:00+00:00")
    await any_store.finish_daily_post("test", "room", "2026-11-25")
    assert not await any_store.claim_daily_post("test", "room", "2026-11-25",
                                                "2026-11-25T23:00:00+00:00",
                                                "2026-11-25T23:05:00+00:00")
    schedules = await any_store.daily_schedules("test")
    assert [(s.channel, s.last_posted) for s in schedules] == [
        ("hall", None), ("room", "2026-11-25")]
    assert await any_store.remove_daily_schedule("test", "hall")
    assert not await any_store.remove_daily_schedule("test", "hall")


async def test_daily_attempts_one_per_day_and_streaks(any_store: Store) -> None:
    for day in ("2026-11-23", "2026-11-24"):
        assert await any_store.start_daily_attempt(
            DailyAttempt(day, "test", "ann", "Ann", "s", None, "playing"))
        await any_store.set_daily_attempt_game(day, "test", "ann", 7 if day[-1] == "3" else 8)
    assert not await any_store.start_daily_attempt(
        DailyAttempt("2026-11-24", "test", "ann", "Ann", "s", None, "playing"))
    await any_store.finish_daily_attempt(7, True, 3, 5, True)
    await any_store.finish_daily_attempt(8, False, 4, 9, False)
    first = await any_store.daily_attempt("2026-11-23", "test", "ann")
    assert first is not None and (first.status, first.rounds, first.tests,
                                  first.beat_machine) == ("solved", 3, 5, True)
    assert await any_store.solved_days("test", "ann", "2026-11-01") == ["2026-11-23"]
    assert [a.status for a in await any_store.daily_attempts("2026-11-24", "s")] == ["failed"]
    assert await any_store.start_daily_attempt(
        DailyAttempt("2026-11-25", "test", "bo", "Bo", "s", None, "playing"))
    await any_store.forget_daily_attempt("2026-11-25", "test", "bo")
    assert await any_store.daily_attempt("2026-11-25", "test", "bo") is None


async def test_a_turn_timer_step_is_claimed_once_per_turn(any_store: Store) -> None:
    timer = TurnTimer("test", "room", 1, 4, "2026-11-25T10:00:00.000+00:00")
    await any_store.start_turn_timer(timer)
    await any_store.start_turn_timer(TurnTimer("test", "room", 1, 4, "later"))  # same turn
    stored = await any_store.turn_timer("test", "room")
    assert stored == timer
    claims = await asyncio.gather(*(any_store.claim_turn_timer(timer, "reminded")
                                    for _ in range(4)))
    assert sorted(claims) == [False] * 3 + [True]
    next_turn = TurnTimer("test", "room", 1, 5, "2026-11-25T10:05:00.000+00:00")
    await any_store.start_turn_timer(next_turn)
    assert await any_store.turn_timer("test", "room") == next_turn  # claims start afresh
    assert not await any_store.claim_turn_timer(timer, "acted")  # the old turn is gone
    assert await any_store.claim_turn_timer(next_turn, "acted")
    with pytest.raises(ValueError):
        await any_store.claim_turn_timer(next_turn, "version=0, reminded")


async def test_forget_user_deletes_and_anonymises(any_store: Store) -> None:
    record = await _game(any_store, "ann", [_human("ann"), _human("bo")])
    saved = await any_store.save_game(record, GameUpdate({}, "finished", record.players,
                                                         MoveRecord(None, "join", "ann")))
    assert saved is not None
    assert await any_store.record_results(
        [ResultRow(record.id, "test", "ann", "Ann", "", "lgame", "human", "win", 1500, 1516)])
    await any_store.set_setting("test", "ann", "language", "nl")
    forgotten = await any_store.forget_user("test", "ann")
    assert (forgotten.results, forgotten.ratings, forgotten.games) == (1, 1, 1)
    game = await any_store.get_game(record.id)
    assert game is not None
    seat = game.players[0]
    assert seat["name"] == FORMER_PLAYER and str(seat["id"]).startswith("former-")
    assert game.channel == seat["id"] and game.players[1]["id"] == "bo"
    assert await any_store.moves(record.id) == [MoveRecord(None, "join", str(seat["id"]))]
    assert await any_store.get_setting("test", "ann", "language") is None
    assert await any_store.player_stats("test", "ann") == []


async def _damage_game(store: Store, game_id: int, column: str, text: str) -> None:
    """Write a value the store itself never writes, as a bad disk or hand edit would."""
    if isinstance(store, SQLiteStore):
        await store._db.execute(f"UPDATE games SET {column}=? WHERE id=?", (text, game_id))
        return
    assert isinstance(store, PostgresStore)
    cast = "::jsonb" if column == "players" else ""
    await store._pool.execute(f"UPDATE games SET {column}=$1{cast} WHERE id=$2", text, game_id)


@pytest.mark.parametrize(("column", "text"), [
    ("state", "{not json"), ("state", "[1, 2]"), ("options", "null"), ("players", '{"a": 1}'),
    ("board_ref", "[]")])
async def test_a_game_that_does_not_load_is_logged_and_skipped(
        any_store: Store, column: str, text: str, caplog: pytest.LogCaptureFixture) -> None:
    good = await _game(any_store, "c1", [_human("ann")])
    bad = await _game(any_store, "c2", [_human("ann")])
    if column == "players" and isinstance(any_store, PostgresStore):
        text = '{"a": 1}'  # jsonb holds only valid JSON: the wrong shape is what can happen
    await _damage_game(any_store, bad.id, column, text)
    assert [g.id for g in await any_store.games_with_status("active")] == [good.id]
    assert [g.id for g in await any_store.running_games("test", "")] == [good.id]
    assert await any_store.get_game(bad.id) is None
    assert await any_store.running_game("test", "c2") is None
    assert await any_store.count_running_games("test", user_id="ann") >= 1
    assert f"game {bad.id} does not load" in caplog.text


async def test_a_damaged_json_column_fails_no_bulk_read_on_sqlite(tmp_path: Path) -> None:
    """Broken JSON in ``players`` (possible in SQLite's text column only) leaves the counts
    and /forget-me working for everyone else."""
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        await _game(store, "c1", [_human("ann")])
        bad = await _game(store, "c2", [_human("ann")])
        gone = await _game(store, "c3", [_human("ann")], "finished")
        async with aiosqlite.connect(tmp_path / "bot.sqlite3") as raw:
            await raw.execute("UPDATE games SET players='[{broken' WHERE id IN (?,?)",
                              (bad.id, gone.id))
            await raw.commit()
        assert await store.count_running_games("test", user_id="ann") == 1
        assert [g.channel for g in await store.games_with_status("active", "finished")] == [
            "c1"]
        assert (await store.forget_user("test", "ann")).games == 1  # c1; the others skipped
    finally:
        await store.close()


def test_both_stores_implement_every_protocol_method() -> None:
    wanted = {name for name in dir(Store) if not name.startswith("_")}
    for store in (SQLiteStore, PostgresStore):
        missing = {name for name in wanted if not callable(getattr(store, name, None))}
        assert not missing, (store.__name__, missing)
    assert asyncpg.__version__  # the real driver, not a stand-in
