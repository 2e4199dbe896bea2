"""The trainer's board puzzles answered by taps on Telegram, through the fake Bot API
(issue 41): an L-game or Rithmomachia puzzle offers the game's own "Tap the board", whose
keyboard is the board's grid (a row of keys per board row) and makes the answer tap by tap."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.puzzle_grid import grid_presses
from tests.helpers.telegram_fake import Sent
from tests.helpers.telegram_world import ALICE, World, telegram_world

ROW_WIDTHS = {"lgame": 4, "rithmomachia": 5}


async def press(world: World, message: Sent, data: str) -> Sent:
    keys = [key["callback_data"] for key in message.buttons if "callback_data" in key]
    assert data in keys, (data, keys)
    answers = await world.press(ALICE, message, data)
    assert answers and not answers[0].get("show_alert"), answers
    return world.fake.messages[(message.chat["id"], message.message_id)]


@pytest.mark.parametrize("game", sorted(ROW_WIDTHS))
async def test_a_board_puzzle_is_answered_by_taps(tmp_path: Path, game: str) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        for right in (True, False):
            await world.say(ALICE, chat, f"/puzzle {game}")
            message = world.last(chat)
            attempt = await world.store.open_puzzle("telegram", str(ALICE.id), game)
            assert attempt is not None
            taps = grid_presses(attempt, right)
            tap_the_board = [key for key in message.buttons
                             if key.get("callback_data") == f"z:{taps[0]}"]
            assert [key["text"] for key in tap_the_board] == ["▦ Tap the board"]
            message = await press(world, message, f"z:{taps[0]}")
            rows = (message.reply_markup or {}).get("inline_keyboard", [])
            assert [len(row) for row in rows[:4]] == [ROW_WIDTHS[game]] * 4, rows
            for data in taps[1:]:
                message = await press(world, message, f"z:{data}")
            assert ("✅ Right!" if right else "❌ Not this one.") in message.text
            answered = await world.store.puzzle_attempt(attempt.id)
            assert answered is not None and not answered.open
            message = await press(world, message, f"z:{attempt.id}:n")
