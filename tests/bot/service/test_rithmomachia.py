"""Boolean Rithmomachia through the service: a whole game against the computer with buttons
only, typed moves and their errors, forged and foreign presses, a double click, a restart."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path

import pytest

from bot.service import Opponent, Place, Reply, Service
from bot.store import SQLiteStore
from engines import rithmomachia
from renderers import rithmomachia as render
from tests.helpers.people import ALICE, BOB, CAROL, PLACE
from tests.helpers.service_play import (
    assert_only_the_mover_may_press,
    assert_only_the_mover_may_type,
    press_one_move,
)


async def current_state(service: Service, place: Place) -> rithmomachia.RithmomachiaState:
    records = [r for status in ("active", "finished")
               for r in await service.store.games_with_status(status)
               if r.channel == place.channel]
    return rithmomachia.RithmomachiaState.from_dict(max(records, key=lambda r: r.id).state)


async def two_player_game(service: Service) -> Reply:
    reply = await service.start_game(PLACE, ALICE, "rithmo", Opponent("user", user=BOB))
    assert reply.ok and reply.board is not None
    return reply


async def test_a_whole_game_against_the_strong_computer_with_buttons_only(
        service: Service, store: SQLiteStore, fast_rithmomachia_agent: None) -> None:
    rng = random.Random(4)
    reply = await service.start_game(PLACE, ALICE, "rithmomachia", Opponent("ai", "strong"),
                                     "move_limit=60")
    assert reply.ok and reply.board is not None
    names = ["Alice", "Computer · strong"]
    for _ in range(200):
        if reply.finished:
            break
        if reply.ai_to_move:
            reply = await service.play_ai_turn(PLACE)
        else:
            reply = await press_one_move(service, PLACE, ALICE, reply, rng)
        assert reply.ok, reply.notice
        state = await current_state(service, PLACE)
        assert reply.board is not None
        assert reply.board.text == render.render(state.view(None), names, "en", PLACE.emoji)
    state = await current_state(service, PLACE)
    outcome = state.outcome()
    assert outcome is not None and 0 not in outcome.winners, "random clicks never win"
    assert reply.board is not None and "Game over" in reply.board.text
    record = (await store.games_with_status("finished"))[0]
    actions = [m.action for m in await store.moves(record.id) if m.kind == "action"]
    assert rithmomachia.replay(record.options, record.seed, actions).to_dict() \
        == state.to_dict()


async def test_typed_moves_and_their_errors_leave_the_game_unchanged(service: Service) -> None:
    await two_player_game(service)
    before = (await current_state(service, PLACE)).to_dict()
    for text in ("", "zz top", "9z9-1a1", "1b1-4b4", "2b2-3b3", "1a1-1a2", "💥" * 40,
                 "1b1-2b2-3b3-4b4"):
        reply = await service.move(PLACE, ALICE, text)
        assert not reply.ok and reply.notice, text
        assert reply.board is not None, "a refusal shows the board beside it"
    await assert_only_the_mover_may_type(service, PLACE, "4b1-3b1", "1b1-2b1")
    assert (await current_state(service, PLACE)).to_dict() == before
    played = await service.move(PLACE, ALICE, "1B1 2B1")
    assert played.ok and played.board is not None and "1b1 → 2b1" in played.board.text


async def test_forged_and_foreign_presses_change_nothing(service: Service) -> None:
    reply = await two_player_game(service)
    assert reply.board is not None
    game_id = reply.board.game_id
    forged = ["", "garbage", "m:", f"m:{game_id}:1:9z9", f"m:{game_id}:1:1b1.4b4",
              f"m:{game_id}:1:1b1.2b1.3b1.4b1", f"m:{game_id}:1:4b1", f"m:{game_id + 1}:1:1b1",
              f"m:{game_id}:x:1b1", f"m:{game_id}:1:" + "1b1." * 30, "💥" * 30]
    before = (await current_state(service, PLACE)).to_dict()
    for payload in forged:
        refused = await service.press(PLACE, ALICE, payload)
        assert not refused.ok and refused.notice, payload
    await assert_only_the_mover_may_press(service, PLACE, reply.board.buttons[0].payload)
    assert (await current_state(service, PLACE)).to_dict() == before


async def test_simultaneous_clicks_apply_exactly_one_move(service: Service) -> None:
    reply = await two_player_game(service)
    assert reply.board is not None
    piece = await service.press(PLACE, ALICE, reply.board.buttons[0].payload)
    assert piece.board is not None
    destinations = [b.payload for b in piece.board.buttons]
    attempts = [service.press(PLACE, (ALICE, BOB, CAROL)[i % 3], destinations[i % len(
        destinations)]) for i in range(30)]
    replies = await asyncio.gather(*attempts)
    assert sum(r.ok and r.moved for r in replies) == 1
    assert len((await current_state(service, PLACE)).actions) == 1


async def test_a_restart_mid_game_keeps_the_board_and_its_buttons(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    service = Service(store)
    reply = await service.start_game(PLACE, ALICE, "rithmomachia",
                                     Opponent("user", user=BOB))
    reply = await press_one_move(service, PLACE, ALICE, reply, random.Random(2))
    assert reply.board is not None
    text, buttons = reply.board.text, reply.board.buttons
    await store.close()

    store = await SQLiteStore.open(db_path)
    restarted = Service(store)
    board = await restarted.board(PLACE)
    assert board.board is not None and board.board.text == text
    after = await press_one_move(restarted, PLACE, BOB, board, random.Random(3))
    assert after.ok and buttons
    assert len((await current_state(restarted, PLACE)).actions) == 2
    await store.close()


async def test_danger_marks_show_a_learner_what_the_opponent_could_take(
        service: Service) -> None:
    """Against the easiest computer the board marks (issue 27's danger marks) each piece of
    the person to move that the opponent could capture next move, with the capture that
    would take it; exactly the pieces ``threats`` finds, worked out in the pool. A game
    against a stronger level, or with ``danger=off``, shows none."""
    from engines.rithmomachia.analysis import threats
    # Every reply here waits for its marks, however slow this machine is (a reply waits
    # only ``DANGER_WAIT_SECONDS`` in the bot: see the next test).
    service.dangers.wait_seconds = 30.0
    rng = random.Random(5)
    reply = await service.start_game(PLACE, ALICE, "rithmomachia", Opponent("ai", "easy"))
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None and record.options["danger"] is True
    marked = 0
    for _ in range(40):
        if reply.finished:
            break
        if reply.ai_to_move:
            reply = await service.play_ai_turn(PLACE)
            continue
        state = await current_state(service, PLACE)
        expected = threats(state, 0)
        assert reply.board is not None
        for threat in expected:
            assert f"on {threat['target']}, by {threat['move']} ({threat['equation']})" \
                in reply.board.text
        assert ("⚠ Alice" in reply.board.text) == bool(expected)
        # One mark in the field per threatened piece, and the one the title refers to.
        assert reply.board.text.count(render.DANGER_MARK) == len(expected) + bool(expected)
        marked += bool(expected)
        reply = await press_one_move(service, PLACE, ALICE, reply, rng)
    assert marked, "some position of these games had a piece in danger"

    await service.abandon(PLACE, ALICE)
    await service.start_game(PLACE, ALICE, "rithmomachia", Opponent("ai", "medium"))
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None and not record.options.get("danger")
    await service.abandon(PLACE, ALICE)
    await service.start_game(PLACE, ALICE, "rithmomachia", Opponent("ai", "easy"),
                             "danger=off")
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None and record.options["danger"] is False


async def test_a_reply_never_waits_long_for_its_danger_marks(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Marks that take longer than ``DANGER_WAIT_SECONDS`` (the workers busy with other
    jobs) do not hold the reply: it comes without them, and the next board drawn of that
    version shows them once they are there."""
    from bot.service import dangers as danger_module
    from engines.rithmomachia.analysis import threats

    release = threading.Event()
    real = danger_module.dangers

    def slow_dangers(*args: object) -> object:
        release.wait(10)  # a worker busy with something else first
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(danger_module, "dangers", slow_dangers)
    rng = random.Random(5)
    reply = await service.start_game(PLACE, ALICE, "rithmomachia", Opponent("ai", "easy"))
    # Until a position with a threat: each reply comes at once, unmarked.
    for _ in range(40):
        if reply.ai_to_move:
            started = time.perf_counter()
            reply = await service.play_ai_turn(PLACE)
            assert time.perf_counter() - started < 1.0  # the wait is 0.15 s
            assert reply.board is not None and render.DANGER_MARK not in reply.board.text
            state = await current_state(service, PLACE)
            if threats(state, 0):
                break
            release.set()  # let this version's job end before the next move
            await asyncio.sleep(0.05)
            release.clear()
            continue
        reply = await press_one_move(service, PLACE, ALICE, reply, rng)
    expected = threats(await current_state(service, PLACE), 0)
    assert expected, "some position of this game has a piece in danger"
    release.set()
    for _ in range(200):  # the job ends in a worker thread; the board is drawn again
        board = await service.board(PLACE)
        assert board.board is not None
        if render.DANGER_MARK in board.board.text:
            break
        await asyncio.sleep(0.02)
    assert board.board.text.count(render.DANGER_MARK) == len(expected) + 1
