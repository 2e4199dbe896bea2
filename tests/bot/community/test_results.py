"""Results, ratings, leaderboards, rematches, the running-games list and forgetting a
person, through the service and the store (no platform)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.community import Community
from bot.events import GameFinished
from bot.limits import Limits
from bot.service import Opponent, Place, Service, User
from bot.store import FORMER_PLAYER, SQLiteStore
from engines.turing.puzzle import Puzzle
from tests.helpers.people import ALICE, BOB, CAROL

CLASS = Place("test", "channel-1", emoji=False, server="class-3b")
OTHER_ROOM = Place("test", "channel-2", emoji=False, server="class-3b")
ELSEWHERE = Place("test", "channel-9", emoji=False, server="class-4a")


async def finished_game(service: Service, place: Place = CLASS, loser: object = BOB,
                        first: object = ALICE, second: object = BOB) -> None:
    reply = await service.start_game(place, first, "lgame",  # type: ignore[arg-type]
                                     Opponent("user", user=second))  # type: ignore[arg-type]
    assert reply.ok, reply.notice
    resigned = await service.resign(place, loser)  # type: ignore[arg-type]
    assert resigned.ok and resigned.finished, resigned.notice


async def test_a_finished_game_is_counted_once_and_rated(service: Service,
                                                         store: SQLiteStore) -> None:
    community = Community(service)
    service.events.subscribe(GameFinished, community.game_finished)
    await finished_game(service)
    alice = {s.game: s for s in await store.player_stats("test", "alice")}["lgame"]
    bob = {s.game: s for s in await store.player_stats("test", "bob")}["lgame"]
    assert (alice.wins, alice.losses, alice.draws, alice.rating) == (1, 0, 0, 1216.0)
    assert (bob.wins, bob.losses, bob.draws, bob.rating) == (0, 1, 0, 1184.0)
    # A restart that runs the listener again (or a second process) counts nothing more.
    record = (await store.games_with_status("finished"))[0]
    from engines.lgame import LGameState
    await community.game_finished(GameFinished(record, LGameState.from_dict(record.state)))
    again = {s.game: s for s in await store.player_stats("test", "alice")}["lgame"]
    assert again.wins == 1 and again.rating == 1216.0
    text = await community.stats_text(CLASS, "alice", "Alice")
    assert "L-game: 1 won, 0 lost, 0 drawn" in text and "1216" in text


async def test_computer_and_abandoned_games_change_no_rating(service: Service,
                                                             store: SQLiteStore) -> None:
    community = Community(service)
    service.events.subscribe(GameFinished, community.game_finished)
    await service.start_game(CLASS, ALICE, "lgame", Opponent("ai", "easy"))
    await service.resign(CLASS, ALICE)
    await service.start_game(CLASS, ALICE, "lgame", Opponent("user", user=BOB))
    await service.abandon(CLASS, ALICE)
    [alice] = await store.player_stats("test", "alice")
    assert (alice.ai_losses, alice.played, alice.rating) == (1, 0, None)
    assert await store.player_stats("test", "bob") == []
    text = await community.stats_text(CLASS, "alice", "Alice")
    assert "against the computer: 0 won, 1 lost" in text
    board = await community.leaderboard_text(CLASS, "lgame", "class-3b")
    assert "No finished games between people yet" in board


async def test_leaderboards_per_server_and_everyone(service: Service) -> None:
    community = Community(service)
    service.events.subscribe(GameFinished, community.game_finished)
    await finished_game(service)                                  # Alice beats Bob
    await finished_game(service, OTHER_ROOM, loser=ALICE, first=BOB, second=ALICE)
    await finished_game(service, ELSEWHERE, loser=CAROL, first=CAROL, second=ALICE)
    here = await community.leaderboard_text(CLASS, "l", "class-3b")
    # Alice: +16, then loses to Bob at 1184 (E = 0.5459, -17.47), then beats Carol.
    lines = here.splitlines()
    assert "this server" in lines[0]
    assert lines[1].startswith("1. Alice") and "1 won, 1 lost" in lines[1]
    assert lines[2].startswith("2. Bob") and "Carol" not in here
    everyone = await community.leaderboard_text(CLASS, "lgame", None)
    assert "everyone" in everyone and "Carol" in everyone and "2 won, 1 lost" in everyone
    assert "chess" in await community.leaderboard_text(CLASS, "chess", None)


async def test_rematch_swaps_seats_and_only_players_may_ask(service: Service,
                                                            store: SQLiteStore) -> None:
    refused = await service.rematch(CLASS, ALICE)
    assert not refused.ok and "no finished game" in (refused.notice or "")
    await service.start_game(CLASS, ALICE, "lgame", Opponent("user", user=BOB),
                             "move_limit=60")
    await service.resign(CLASS, ALICE)
    stranger = await service.rematch(CLASS, CAROL)
    assert not stranger.ok and "Only a player" in (stranger.notice or "")
    again = await service.rematch(CLASS, BOB)
    assert again.ok and again.board is not None
    record = await store.running_game("test", "channel-1")
    assert record is not None and [p["id"] for p in record.players] == ["bob", "alice"]
    assert record.options["move_limit"] == 60 and record.server == "class-3b"
    busy = await service.rematch(CLASS, ALICE)
    assert not busy.ok and "already" in (busy.notice or "").lower()


async def test_rematch_against_the_computer_keeps_the_level(service: Service,
                                                            store: SQLiteStore) -> None:
    await service.start_game(CLASS, ALICE, "lgame", Opponent("ai", "easy"))
    await service.resign(CLASS, ALICE)
    reply = await service.rematch(CLASS, ALICE)
    assert reply.ok and reply.ai_to_move
    record = await store.running_game("test", "channel-1")
    assert record is not None
    assert [p["kind"] for p in record.players] == ["ai", "human"]
    assert record.players[0]["level"] == "easy"


async def test_games_lists_the_running_games_of_the_server(service: Service) -> None:
    community = Community(service)
    service.events.subscribe(GameFinished, community.game_finished)
    assert "No game" in await community.games_text(CLASS, lambda r: "")
    await service.start_game(CLASS, ALICE, "lgame", Opponent("user", user=BOB))
    await service.start_game(OTHER_ROOM, CAROL, "lgame", Opponent("open"))
    await service.start_game(ELSEWHERE, BOB, "lgame", Opponent("ai", "easy"))
    text = await community.games_text(CLASS, lambda r: f"<{r.channel}>")
    assert "Alice vs Bob · <channel-1>" in text
    assert "Carol, waiting for players · <channel-2>" in text
    assert "channel-9" not in text


async def test_forget_me_deletes_and_anonymises(service: Service, store: SQLiteStore,
                                                db_path: object) -> None:
    community = Community(service)
    service.events.subscribe(GameFinished, community.game_finished)
    await finished_game(service)
    await service.start_game(OTHER_ROOM, BOB, "lgame", Opponent("user", user=ALICE))
    forgotten = await community.forget_me(CLASS, ALICE)
    assert "results (1)" in forgotten.notice and "ratings (1)" in forgotten.notice
    assert len(forgotten.ended) == 1 and forgotten.ended[0][0].channel == "channel-2"
    assert await store.running_game("test", "channel-2") is None
    assert await store.player_stats("test", "alice") == []
    assert [s.user_id for s in await store.player_stats("test", "bob")] == ["bob"]
    if not isinstance(store, SQLiteStore):  # PostgreSQL: tests/bot/store/test_protocol.py
        return
    raw = store._db
    async with raw.execute("SELECT players FROM games") as cursor:
        seats = [p for (text,) in await cursor.fetchall() for p in json.loads(text)]
    assert not any(p.get("id") == "alice" or p.get("name") == "Alice" for p in seats)
    assert sum(p.get("name") == FORMER_PLAYER for p in seats) == 2
    async with raw.execute("SELECT COUNT(*) FROM ratings WHERE user_id='alice'") as cursor:
        assert (await cursor.fetchone()) == (0,)
    async with raw.execute("SELECT COUNT(*) FROM moves WHERE action='alice'") as cursor:
        assert (await cursor.fetchone()) == (0,)


@pytest.mark.parametrize("bad", ["", "chess", "💥" * 30])
async def test_leaderboard_of_no_game_is_answered_plainly(service: Service, bad: str) -> None:
    text = await Community(service).leaderboard_text(CLASS, bad, None)
    assert text and "Traceback" not in text


async def test_a_version_2_database_gains_results_and_keeps_its_games(tmp_path: object) -> None:
    import sqlite3
    from pathlib import Path

    from bot.store import MIGRATIONS, SCHEMA_VERSION, sql_statements
    path = Path(str(tmp_path)) / "old.sqlite3"
    raw = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:2]:
        for statement in sql_statements(script):
            raw.execute(statement)
    raw.execute("PRAGMA user_version = 2")
    raw.execute("INSERT INTO games (platform, channel, game, options, seed, state, version, "
                "players, status, created_at, updated_at) VALUES ('test','c','lgame','{}',1,"
                "'{}',1,'[]','finished','t','t')")
    raw.close()
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        [old] = await store.games_with_status("finished")
        assert old.server == ""
        assert await store.player_stats("test", "alice") == []
    finally:
        await store.close()


async def test_forget_me_ends_every_game_whatever_the_rate_limit(store: SQLiteStore) -> None:
    service = Service(store, limits=replace(Limits.unlimited(), command_burst=2))
    rooms = [Place("test", f"room-{n}", server="class-3b") for n in range(5)]
    for room in rooms:
        assert (await Service(store).start_game(room, BOB, "lgame",
                                                Opponent("user", user=ALICE))).ok
    forgotten = await Community(service).forget_me(CLASS, ALICE)
    assert len(forgotten.ended) == 5
    assert await store.count_running_games("test", user_id=ALICE.id) == 0


async def test_forget_me_in_a_game_of_three_they_left_keeps_it_for_the_others(
        service: Service, store: SQLiteStore) -> None:
    challenge_one = Puzzle("classic", ((4,), (9,), (11,), (14,)),
                           ("4.1", "9.0", "11.0", "14.2"))
    options = f"puzzle={challenge_one.share_code()}"
    started = await service.start_game(CLASS, ALICE, "turing", Opponent("open"), options)
    assert started.board is not None
    await service.join(CLASS, BOB)
    joined = await service.join(CLASS, CAROL)
    assert joined.board is not None
    assert (await service.press(CLASS, ALICE, joined.board.navigation[1].payload)).ok
    assert (await service.resign(CLASS, ALICE)).ok
    forgotten = await Community(service).forget_me(CLASS, ALICE)
    assert forgotten.ended == []
    record = await store.running_game("test", CLASS.channel)
    assert record is not None and record.status == "active", "Bob and Carol play on"
    assert [p["name"] for p in record.players] == [FORMER_PLAYER, "Bob", "Carol"]
    assert not any(p.get("id") == ALICE.id for p in record.players)
    assert (await service.move(CLASS, BOB, "propose 241")).ok  # the cache kept no old name
    again = await store.running_game("test", CLASS.channel)
    assert again is not None and again.players[0]["name"] == FORMER_PLAYER


async def test_forget_me_deletes_a_telegram_private_chats_settings(
        service: Service, store: SQLiteStore) -> None:
    private = Place("telegram", "4242")
    await store.set_setting("telegram", "4242", "language", "nl")
    await store.set_setting("telegram", "-100", "language", "de")  # a group's: kept
    await Community(service).forget_me(private, User("telegram", "4242", "Ann"))
    assert await store.get_setting("telegram", "4242", "language") is None
    assert await store.get_setting("telegram", "-100", "language") == "de"
