"""The bot runs on uvloop by default (``bot.runtime.run_on_loop``, ``EVENT_LOOP``): the
setting, the fallback, and whole games on it through both databases and the worker
processes, since the rest of the suite runs on Python's own loop (pytest-asyncio's)."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.limits import Limits
from bot.runtime import loop_factory, run_on_loop
from bot.service import Opponent, Place, Service
from tests.helpers.databases import DATABASES, open_test_store
from tests.helpers.people import ALICE, BOB
from tests.helpers.service_play import press_one_move


def test_the_loop_is_uvloop_unless_the_host_says_asyncio() -> None:
    warnings: list[str] = []
    assert load_settings({}, None, warnings.append).event_loop == "uvloop"
    assert load_settings({"EVENT_LOOP": "AsyncIO"}, None, warnings.append).event_loop == "asyncio"
    assert warnings == []
    assert load_settings({"EVENT_LOOP": "trio"}, None, warnings.append).event_loop == "uvloop"
    assert len(warnings) == 1 and "EVENT_LOOP" in warnings[0] and "asyncio" in warnings[0]


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_run_on_loop_runs_the_chosen_loop() -> None:
    assert run_on_loop(_loop_module(), "uvloop").startswith("uvloop")
    assert run_on_loop(_loop_module(), "asyncio").startswith("asyncio")


def test_without_uvloop_the_bot_falls_back_to_pythons_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as where it is not installed
    assert loop_factory("uvloop") is None
    assert run_on_loop(_loop_module(), "uvloop").startswith("asyncio")


async def _games_on_the_running_loop(database: str, folder: Path) -> tuple[int, int]:
    """Two games through the service's buttons, people against each other and a person
    against the computer, and a job in a worker process, whose answer crosses from a
    thread to the loop. Returns the saved moves of each game."""
    async with open_test_store(database, folder) as store:
        service = Service(store, seed_source=lambda: 7,
                          limits=replace(Limits(), cpu_workers=1, cpu_processes=True))
        try:
            rng = random.Random(3)
            people = Place("test", "uv-people")
            reply = await service.start_game(people, ALICE, "lgame",
                                             Opponent("user", user=BOB))
            assert reply.board is not None
            people_first = reply.board.version
            for turn in range(8):
                reply = await press_one_move(service, people, (ALICE, BOB)[turn % 2], reply,
                                             rng)
                assert reply.ok and reply.moved, reply.notice
            assert await service.workers.run(os.getpid) != os.getpid()
            computer = Place("test", "uv-computer")
            reply = await service.start_game(computer, ALICE, "lgame",
                                             Opponent("ai", level="easy"), creator_seat=1)
            assert reply.board is not None
            computer_game_id, computer_first = reply.board.game_id, reply.board.version
            moves = 0
            while not reply.finished and moves < 6:
                if reply.ai_to_move:
                    reply = await service.play_ai_turn(computer)
                else:
                    reply = await press_one_move(service, computer, ALICE, reply, rng)
                assert reply.ok and reply.moved, reply.notice
                moves += 1
            people_game = await store.running_game("test", "uv-people")
            computer_game = await store.get_game(computer_game_id)
            assert people_game is not None and computer_game is not None
            # every press that moved was saved, once
            assert people_game.version == people_first + 8
            assert computer_game.version == computer_first + moves
            logged = [m for m in await store.moves(computer_game.id) if m.kind == "action"]
            assert len(logged) == moves
            return len(await store.moves(people_game.id)), moves
        finally:
            service.workers.shutdown()


@pytest.mark.parametrize("database", DATABASES)
def test_games_play_on_uvloop(database: str, tmp_path: Path) -> None:
    people_moves, computer_game_moves = run_on_loop(
        _games_on_the_running_loop(database, tmp_path), "uvloop")
    assert people_moves == 8 and computer_game_moves >= 2
