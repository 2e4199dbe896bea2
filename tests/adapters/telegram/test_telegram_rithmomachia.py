"""Boolean Rithmomachia on Telegram, through the real python-telegram-bot Application and a
loopback fake Bot API: a whole game against the strong computer in a private chat with
buttons only, and a group game between two classmates that a third cannot touch."""

from __future__ import annotations

import random
from pathlib import Path

from engines import rithmomachia
from tests.helpers import telegram_cards as cards
from tests.helpers.telegram_play import menu_keys
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, telegram_world


async def test_a_whole_game_against_the_strong_computer_in_a_private_chat(
        tmp_path: Path, fast_rithmomachia_agent: None) -> None:
    rng = random.Random(6)
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/play rithmomachia strong")
        board = await world.board(chat)
        assert "Level 4 (Black's home)" in board.text and "Level 3: empty" in board.text
        for _ in range(300):
            board = await world.board(chat)
            keys = menu_keys(board)
            if not keys:
                break
            answers = await world.press(ALICE, board, rng.choice(keys)["callback_data"])
            assert len(answers) == 1 and not answers[0].get("show_alert"), answers
        state = await cards.state_of(world, chat, rithmomachia.RithmomachiaState)
        outcome = state.outcome()
        assert outcome is not None and 0 not in outcome.winners
        assert "Game over" in board.text and "Victories:" in board.text
        assert world.fake.refusals == []


async def test_a_group_game_between_classmates(tmp_path: Path) -> None:
    rng = random.Random(3)
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play rithmo")
        await world.click(ALICE, world.last(GROUP), "whoever joins")
        # A newcomer is offered the teaching game first (issue 24 C.3).
        presets = [b["text"] for b in world.last(GROUP).buttons]
        assert presets[0].startswith("Teaching game") and presets[1].startswith("Standard")
        await world.click(ALICE, world.last(GROUP), presets[0])
        lobby = await world.store.running_game("telegram", str(GROUP["id"]))
        assert lobby is not None and lobby.options.get("ops") == "not,nand"
        await world.click(BOB, await world.board(GROUP), "Join")
        board = await world.board(GROUP)
        stranger = await world.press(CAROL, board, menu_keys(board)[0]["callback_data"])
        assert not stranger[0].get("show_alert") and "not playing" in stranger[0]["text"]
        for person in (ALICE, BOB, ALICE, BOB):
            board = await world.board(GROUP)
            before = len((await cards.state_of(world, GROUP,
                                               rithmomachia.RithmomachiaState)).actions)
            while len((await cards.state_of(world, GROUP,
                                            rithmomachia.RithmomachiaState)).actions) == before:
                board = await world.board(GROUP)
                await world.press(person, board, rng.choice(menu_keys(board))["callback_data"])
        state = await cards.state_of(world, GROUP, rithmomachia.RithmomachiaState)
        assert len(state.actions) == 4
        assert "moved" in (await world.board(GROUP)).text
