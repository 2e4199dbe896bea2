"""A move whose save does not happen (another process saved first, or the command was
cancelled while its commit was on the way) must not stay in the process's copy of the
game, which the engine already changed; and the record a save returns is the one the
database reads back. On both databases (the ``store`` fixture)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.payloads import Payload
from bot.service import Opponent, Service
from bot.store import GameRecord, GameUpdate, Store
from renderers.i18n import translate
from tests.helpers.forged import mover_seat, whole_move
from tests.helpers.people import ALICE, BOB, PLACE

SaveGame = Callable[[GameRecord, GameUpdate], Awaitable[GameRecord | None]]


async def started_game(service: Service, store: Store) -> GameRecord:
    assert (await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))).ok
    record = await store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None
    return record


def mover(record: GameRecord) -> Any:
    return (ALICE, BOB)[mover_seat(record)]


async def turns(count: int = 50) -> None:
    """Let the event loop run other tasks for a while."""
    for _ in range(count):
        await asyncio.sleep(0)


class GatedSave:
    """The store's ``save_game``, held at a gate until the test opens it: a commit that
    takes as long as the test wants."""

    def __init__(self, save_game: SaveGame) -> None:
        self.save_game = save_game
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()

    async def __call__(self, record: GameRecord, update: GameUpdate) -> GameRecord | None:
        self.entered.set()
        await self.gate.wait()
        return await self.save_game(record, update)


async def test_a_saved_record_is_the_one_the_database_reads_back(
        store: Store, service: Service) -> None:
    """``record_after`` builds what ``save_game`` returns on both databases; the service
    keeps it as its copy, so it must equal the row, stamp and all."""
    record = await started_game(service, store)
    reply = await service.press(PLACE, mover(record), whole_move(record))
    assert reply.ok and reply.moved, reply.notice
    kept = service.core.cache[record.id][0]
    assert kept.version == record.version + 1
    assert kept == await store.get_game(record.id)


async def test_a_save_that_another_process_beat_leaves_the_database_s_game(
        monkeypatch: pytest.MonkeyPatch, store: Store, service: Service) -> None:
    record = await started_game(service, store)
    save_game = store.save_game
    rival_state: dict[str, Any] = {}

    async def beaten(old: GameRecord, update: GameUpdate) -> GameRecord | None:
        # Another process saves the same move first, with its own stamp.
        rival = await save_game(old, GameUpdate(update.state, update.status, update.players,
                                                update.move))
        assert rival is not None
        rival_state.update(rival.state)
        return await save_game(old, update)

    monkeypatch.setattr(store, "save_game", beaten)
    reply = await service.press(PLACE, mover(record), whole_move(record))
    assert not reply.ok and not reply.moved
    assert reply.notice == translate(PLACE.language, "error.busy")
    monkeypatch.setattr(store, "save_game", save_game)
    # This process's copy was dropped: the board is the database's game, one move on.
    board = await service.board(PLACE)
    assert board.board is not None
    versions = {parsed.version for button in board.board.buttons
                if (parsed := Payload.parse(button.payload)) is not None}
    assert versions == {record.version + 1}
    saved = await store.get_game(record.id)
    assert saved is not None and saved.state == rival_state


async def test_a_move_cancelled_during_its_save_is_not_kept_in_memory(
        monkeypatch: pytest.MonkeyPatch, store: Store, service: Service) -> None:
    """A command cancelled while its save waits (the bot shutting down, a platform's
    deadline) applied the move to this process's copy of the game, which the database
    never got: the copy must go, or the next press would be judged on a position that
    does not exist."""
    record = await started_game(service, store)
    gated = GatedSave(store.save_game)
    monkeypatch.setattr(store, "save_game", gated)
    press = asyncio.create_task(service.press(PLACE, mover(record), whole_move(record)))
    await gated.entered.wait()
    press.cancel()
    with pytest.raises(asyncio.CancelledError):
        await press
    await turns()
    monkeypatch.setattr(store, "save_game", gated.save_game)
    unsaved = await store.get_game(record.id)
    assert unsaved is not None and unsaved.version == record.version
    # The same move, pressed again, is the current one and is saved once.
    again = await service.press(PLACE, mover(record), whole_move(record))
    assert again.ok and again.moved, again.notice
    saved = await store.get_game(record.id)
    assert saved is not None and saved.version == record.version + 1
