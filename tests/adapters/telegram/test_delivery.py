"""What players see converges on Telegram (issue 38): a board that a fault left behind
is redrawn from the stored game without anyone pressing, through python-telegram-bot
against the fake Bot API's injected faults."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.adapters import delivery
from bot.service import Place
from tests.helpers.forged import whole_move
from tests.helpers.telegram_fake import Fault, Sent, bot_removed
from tests.helpers.telegram_play import group_lgame, menu_keys
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World, telegram_world


def drawn_versions(message: Sent) -> set[str]:
    return {key["callback_data"].split(":")[2] for key in menu_keys(message)}


async def stored_version(world: World, game_id: int) -> int:
    record = await world.store.get_game(game_id)
    assert record is not None
    return record.version


async def move(world: World, person: object, game_id: int) -> int:
    """The mover's whole move in one press of the board; the new stored version."""
    record = await world.store.get_game(game_id)
    assert record is not None
    await world.press(person, await world.board(GROUP), whole_move(record))  # type: ignore[arg-type]
    return await stored_version(world, game_id)


async def until_drawn(world: World, game_id: int, seconds: float) -> Sent:
    """The board once it shows the stored version, waiting at most ``seconds``."""
    async with asyncio.timeout(seconds):
        while True:
            board = await world.board(GROUP)
            if drawn_versions(board) == {str(await stored_version(world, game_id))}:
                return board
            await asyncio.sleep(0.05)


@pytest.mark.parametrize("fault", [Fault("editMessageText", status=502),
                                   Fault("editMessageText", status=0, reset=True)],
                         ids=["502", "connection reset"])
async def test_a_failed_edit_is_redrawn_without_a_press(tmp_path: Path, fault: Fault) -> None:
    """Behaviour 8: the edit that shows a saved move fails (a 502, or the connection is
    reset). The move is kept, and the board is redrawn from the stored game within a few
    seconds, with nobody pressing: it used to stay at the old version, and after a reset
    every later move in the chat had nothing to press."""
    async with telegram_world(tmp_path) as world:
        game_id = await group_lgame(world)
        world.fake.inject(fault)
        version = await move(world, ALICE, game_id)
        assert fault.served == 1
        board = await until_drawn(world, game_id, 10)
        assert drawn_versions(board) == {str(version)}
        # And the game goes on from it.
        assert await move(world, BOB, game_id) == version + 1


async def test_a_late_edit_never_leaves_an_older_board(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Behaviour 9: an edit held up past the client's timeout lands after two newer
    moves, drawing an old version over the newer board. The bot does not know whether a
    timed-out edit landed, so it draws the stored game once more after the delay any
    late edit takes (``VERIFY_SECONDS``; shortened here)."""
    monkeypatch.setattr(delivery, "VERIFY_SECONDS", 4.0)
    async with telegram_world(tmp_path) as world:
        game_id = await group_lgame(world)
        # python-telegram-bot gives up after 5 s; the fake applies the edit after 6.
        world.fake.inject(Fault("editMessageText", status=0, delay=6.0))
        await move(world, ALICE, game_id)
        await move(world, BOB, game_id)
        version = await move(world, ALICE, game_id)
        await asyncio.sleep(2.5)  # the late edit has landed, over the newest board
        board = await until_drawn(world, game_id, 10)
        assert drawn_versions(board) == {str(version)}


async def test_a_group_that_removed_the_bot_loses_its_daily_post_at_once(
        tmp_path: Path) -> None:
    """Behaviour 10: the bot removed from a group (403 on every post) kept its daily
    schedule, each day's post refused and counted as done for the day, and nobody could
    be told there. The removal itself drops the group's schedules now."""
    async with telegram_world(tmp_path) as world:
        place = Place("telegram", str(GROUP["id"]))
        await world.bot.daily.schedule(place, str(GROUP["id"]), "07:30")
        assert [s.channel for s in await world.store.daily_schedules("telegram")] == [
            str(GROUP["id"])]
        bot_removed(world.fake, GROUP, ALICE)
        await world.settle()
        assert await world.store.daily_schedules("telegram") == []
