from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.payloads import PAYLOAD_LIMIT
from bot.service import Opponent, Place, Reply, Service, User
from bot.store import SQLiteStore
from engines import lgame
from engines.base import GameState
from engines.lgame.agents import LGameAgent
from tests.helpers.databases import two_processes
from tests.helpers.people import ALICE, BOB, CAROL, PLACE
from tests.helpers.service_play import (
    assert_only_the_mover_may_press,
    assert_only_the_mover_may_type,
    press_one_move,
)


async def current_state(service: Service, place: Place) -> GameState:
    record = await service.store.running_game(place.platform, place.channel)
    assert record is not None
    return lgame.LGameState.from_dict(record.state)


async def two_player_game(service: Service) -> Reply:
    reply = await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    assert reply.ok and reply.board is not None
    return reply


async def test_full_game_against_perfect_with_buttons_only(service: Service,
                                                           store: SQLiteStore) -> None:
    rng = random.Random(5)
    reply = await service.start_game(PLACE, ALICE, "l", Opponent("ai", "perfect"),
                                     "move_limit=60")
    assert reply.ok and not reply.ai_to_move
    moves = 0
    while not reply.finished:
        if reply.ai_to_move:
            reply = await service.play_ai_turn(PLACE)
        else:
            reply = await press_one_move(service, PLACE, ALICE, reply, rng)
        moves += 1
        assert moves < 200
    record = (await store.games_with_status("finished"))[0]
    state = lgame.LGameState.from_dict(record.state)
    outcome = state.outcome()
    assert outcome is not None and 0 not in outcome.winners  # a random clicker never beats it
    assert reply.board is not None and "Game over" in reply.board.text
    # The move log replays to the saved state.
    log = await store.moves(record.id)
    actions = [m.action for m in log if m.kind == "action"]
    assert actions == state.actions
    replayed = lgame.replay(record.options, record.seed, actions)
    assert replayed.to_dict() == state.to_dict()


async def test_every_button_payload_fits_telegram(service: Service) -> None:
    rng = random.Random(11)
    for options in ("", "sudden_death"):
        place = Place("test", f"fit-{options}", emoji=True)
        reply = await service.start_game(place, ALICE, "lgame", Opponent("user", user=BOB),
                                         options)
        for _ in range(12):
            if reply.finished:
                break
            assert reply.board is not None
            for button in reply.board.buttons + reply.board.navigation:
                assert len(button.payload.encode()) <= PAYLOAD_LIMIT
            user = ALICE if reply.board.to_move[0]["id"] == "alice" else BOB
            reply = await press_one_move(service, place, user, reply, rng)


async def test_typed_moves_and_their_errors_leave_the_game_unchanged(service: Service) -> None:
    await two_player_game(service)
    before = (await current_state(service, PLACE)).to_dict()
    cases = {
        "": "Type a move like",
        "zz top": "Expected a move like",
        "a1 N S": "foot must point sideways",
        "c4 S W": "is where it stands now",
        "a1 N E": "overlaps the other L",
        "d4 S W c3>a1": "no neutral piece on c3",
        "d4 S W a4>b1": "not empty",
        "d4 S W a4>a1 d1>d2": "Only one neutral piece",
        "\x00\x1b[2J" * 50: "Expected a move like",
    }
    for text, expected in cases.items():
        reply = await service.move(PLACE, ALICE, text)
        assert not reply.ok and reply.notice is not None and expected in reply.notice, text
        assert reply.board is not None  # the refusal shows the current board beside it
    await assert_only_the_mover_may_type(service, PLACE, "b1 N E", "d4 S W")
    assert (await current_state(service, PLACE)).to_dict() == before
    played = await service.move(PLACE, ALICE, "D4 s w, a4-a1")
    assert played.ok and played.board is not None and "d4 S W, a4>a1" in played.board.text


async def test_forged_stale_and_foreign_payloads_are_refused(service: Service) -> None:
    reply = await two_player_game(service)
    assert reply.board is not None
    game_id = reply.board.game_id
    fresh_payload = reply.board.buttons[0].payload
    forged = [
        "", "garbage", "m:", f"m:{game_id}", f"m:{game_id}:1", f"m:{game_id}:x:c2NE",
        f"m:{game_id}:1:zzzz", f"m:{game_id}:1:a1NE", f"m:{game_id}:1:c2NE.zz99",
        f"m:{game_id}:1:c2NE.d1d1", f"m:{game_id}:1:c2NE.a4c3", f"m:{game_id + 1}:1:c2NE",
        f"m:{game_id}:1:c2NE.-.-", "m:" + "9" * 40 + ":1:c2NE", f"m:{game_id}:1:c2NE\n",
        "m:-1:1:c2NE", "💥" * 30, f"m:{game_id}:1:" + ".".join(["c2NE"] * 9),
    ]
    before = (await current_state(service, PLACE)).to_dict()
    for payload in forged:
        refused = await service.press(PLACE, ALICE, payload)
        assert not refused.ok and refused.notice, payload
        assert refused.board is not None, payload
    assert (await current_state(service, PLACE)).to_dict() == before
    # A payload drawn for an older version is answered with the current board, not applied.
    moved = await press_one_move(service, PLACE, ALICE, reply, random.Random(1))
    assert moved.board is not None and moved.board.version == 2
    stale = await service.press(PLACE, ALICE, fresh_payload)
    assert not stale.ok and stale.notice is not None and "out of date" in stale.notice
    assert stale.board is not None and stale.board.version == 2
    # A payload from a game in another channel does not act here.
    other = Place("test", "channel-2", emoji=False)
    await service.start_game(other, ALICE, "lgame", Opponent("user", user=BOB))
    foreign = await service.press(other, BOB, moved.board.buttons[0].payload)
    assert not foreign.ok and foreign.notice is not None and "not valid" in foreign.notice


async def test_non_player_and_wrong_player_buttons(service: Service) -> None:
    reply = await two_player_game(service)
    assert reply.board is not None
    await assert_only_the_mover_may_press(service, PLACE, reply.board.buttons[0].payload)
    assert (await current_state(service, PLACE)).plies == 0


async def test_fifty_simultaneous_clicks_apply_exactly_one_move(service: Service,
                                                                store: SQLiteStore) -> None:
    reply = await two_player_game(service)
    assert reply.board is not None
    first_step = await service.press(PLACE, ALICE, reply.board.buttons[0].payload)
    assert first_step.board is not None
    complete = [b.payload for b in first_step.board.buttons]
    attempts: list[Coroutine[Any, Any, Reply]] = []
    for i in range(50):
        user = (ALICE, BOB, CAROL)[i % 3]
        attempts.append(service.press(PLACE, user, complete[i % len(complete)]))
        if i % 10 == 0:
            attempts.append(service.move(PLACE, user, "d4 S W"))
    replies = await asyncio.gather(*attempts)
    applied = [r for r in replies if r.ok]
    assert len(applied) == 1
    record = await store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None and record.version == 2
    assert len(await store.moves(record.id)) == 1
    expected_refusals = ("out of date", "not your turn", "not playing", "overlaps")
    for refused in (r for r in replies if not r.ok):
        assert refused.notice is not None
        assert any(word in refused.notice for word in expected_refusals), refused.notice


async def test_restart_mid_game_keeps_state_and_buttons(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    service = Service(store)
    reply = await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    reply = await press_one_move(service, PLACE, ALICE, reply, random.Random(3))
    assert reply.board is not None
    old_text, old_buttons = reply.board.text, reply.board.buttons
    await store.close()

    store = await SQLiteStore.open(db_path)
    restarted = Service(store)
    board = await restarted.board(PLACE)
    assert board.board is not None and board.board.text == old_text
    # A button drawn before the restart still works afterwards.
    after = await restarted.press(PLACE, BOB, old_buttons[0].payload)
    assert after.ok, after.notice
    await store.close()


async def test_ai_turn_is_resumed_after_a_restart(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    service = Service(store)
    reply = await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", "perfect"),
                                     creator_seat=1)
    assert reply.ai_to_move  # the computer plays X and has not moved yet
    await store.close()
    store = await SQLiteStore.open(db_path)
    restarted = Service(store)
    pending = await restarted.pending_ai_places()
    assert [record.channel for record in pending] == [PLACE.channel]
    moved = await restarted.play_ai_turn(PLACE)
    assert moved.ok and moved.board is not None and moved.board.version == 2
    assert not moved.ai_to_move
    await store.close()


async def test_ai_thinks_off_the_event_loop(service: Service,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    original = LGameAgent.choose
    thinking_threads: list[int] = []

    def slow_choose(self: LGameAgent, state: GameState, player: int) -> str:
        thinking_threads.append(threading.get_ident())
        time.sleep(0.6)
        return original(self, state, player)

    monkeypatch.setattr(LGameAgent, "choose", slow_choose)
    reply = await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", "perfect"),
                                     creator_seat=1)
    assert reply.ai_to_move
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        for _ in range(10):
            await asyncio.sleep(0.02)
            ticks += 1

    started = time.perf_counter()
    moved, _ = await asyncio.gather(service.play_ai_turn(PLACE), ticker())
    assert moved.ok
    assert ticks == 10 and time.perf_counter() - started >= 0.6
    assert thinking_threads and thinking_threads[0] != threading.get_ident()


async def test_double_ai_trigger_moves_once(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", "easy"), creator_seat=1)
    first, second = await asyncio.gather(service.play_ai_turn(PLACE), service.play_ai_turn(PLACE))
    assert (await current_state(service, PLACE)).plies == 1
    assert first.ok and second.ok, (first.notice, second.notice)


async def test_join_resign_and_abandon_permissions(service: Service) -> None:
    opened = await service.start_game(PLACE, ALICE, "lgame", Opponent("open"))
    assert opened.ok and opened.board is not None and not opened.board.buttons
    early = await service.move(PLACE, ALICE, "d4 S W")
    assert not early.ok
    again = await service.join(PLACE, ALICE)
    assert not again.ok and again.notice == "You are already playing in this game."
    joined = await service.join(PLACE, BOB)
    assert joined.ok and joined.announcements == ["Bob joined the game."]
    late = await service.join(PLACE, CAROL)
    assert not late.ok and late.notice == "This game is not waiting for players."
    refused = await service.abandon(PLACE, CAROL)
    assert not refused.ok and refused.notice is not None and "moderator" in refused.notice
    resigned = await service.resign(PLACE, BOB)
    assert resigned.ok and resigned.finished and resigned.board is not None
    assert "Alice wins" in resigned.board.text
    nothing = await service.board(PLACE)
    assert not nothing.ok and nothing.notice is not None and "no game running" in nothing.notice
    await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    moderator = User("test", "teacher", "Teacher", is_moderator=True)
    abandoned = await service.abandon(PLACE, moderator)
    assert abandoned.ok and abandoned.finished


async def test_start_game_refusals_say_what_was_expected(service: Service) -> None:
    unknown = await service.start_game(PLACE, ALICE, "chess", Opponent("ai", "easy"))
    assert not unknown.ok and unknown.notice is not None and "Games: lgame" in unknown.notice
    level = await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", "godlike"))
    assert not level.ok and level.notice is not None and "Levels: easy" in level.notice
    option = await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", "easy"), "turbo")
    assert not option.ok and option.notice is not None and "sudden_death" in option.notice
    limit = await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", "easy"),
                                     "move_limit=abc")
    assert not limit.ok and limit.notice is not None and "whole number" in limit.notice
    await two_player_game(service)
    busy = await service.start_game(PLACE, CAROL, "lgame", Opponent("ai", "easy"))
    assert not busy.ok and busy.notice is not None and "already running" in busy.notice
    assert busy.board is not None


async def test_a_storage_failure_reports_and_keeps_the_game(
        service: Service, store: SQLiteStore, monkeypatch: pytest.MonkeyPatch) -> None:
    await two_player_game(service)

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "save_game", broken)
    reply = await service.move(PLACE, ALICE, "d4 S W")
    assert not reply.ok and reply.notice is not None and "went wrong" in reply.notice
    monkeypatch.undo()
    assert (await current_state(service, PLACE)).plies == 0
    board = await service.board(PLACE)  # the failed move must not linger in memory
    assert board.board is not None and "Last move" not in board.board.text
    assert (await service.move(PLACE, ALICE, "d4 S W")).ok


async def test_a_second_process_cannot_overwrite_a_move(tmp_path: Path) -> None:
    async with two_processes("sqlite", tmp_path) as (store_a, store_b):
        service_a, service_b = Service(store_a), Service(store_b)
        await service_a.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
        await service_b.board(PLACE)  # B caches version 1
        assert (await service_a.move(PLACE, ALICE, "d4 S W")).ok
        late = await service_b.move(PLACE, ALICE, "c2 N E")
        assert not late.ok
        record = await store_a.running_game(PLACE.platform, PLACE.channel)
        assert record is not None and record.version == 2
        assert record.state["actions"] == ["d4SW"]


async def test_a_second_trigger_that_claims_the_turn_late_moves_nothing(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """With other processes on the database a trigger claims the computer's turn
    (``claim_computer_turn``) between seeing that it is the computer's turn and thinking
    about it. A second trigger in the same process whose claim answers after the first has
    played and saved thought about the engine state in memory, which the first had moved
    on, and answered "It is not your turn"; it must see that the game moved on."""
    if not service.core.store.shared:
        pytest.skip("a store of one process claims no turns")
    await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", "easy"), creator_seat=1)
    claim = service.core.store.claim_computer_turn
    claims = 0
    both_looked = asyncio.Event()

    async def late_second_claim(*args: Any, **kwargs: Any) -> bool:
        nonlocal claims
        claims += 1
        if claims == 1:
            await both_looked.wait()  # both saw the computer's turn before either moved
        else:
            both_looked.set()
            await asyncio.sleep(0.3)  # the first trigger plays and saves meanwhile
        return await claim(*args, **kwargs)

    monkeypatch.setattr(service.core.store, "claim_computer_turn", late_second_claim)
    first, second = await asyncio.gather(service.play_ai_turn(PLACE), service.play_ai_turn(PLACE))
    assert claims == 2
    assert (await current_state(service, PLACE)).plies == 1
    assert first.ok and second.ok, (first.notice, second.notice)
