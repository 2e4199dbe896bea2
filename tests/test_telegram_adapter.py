"""End-to-end tests of the Telegram adapter: the real python-telegram-bot ``Application``
talks HTTP to a loopback fake Bot API (``tests/telegram_fake.py``); no network, no token."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram.client import HAND_LINK_PREFIX
from engines.registry import register_game, unregister_game
from renderers import register_renderer
from tests.telegram_fake import BOT_USERNAME, Person, Sent
from tests.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world


def labels(message: Sent) -> list[str]:
    return [button["text"] for button in message.buttons]


def menu_keys(message: Sent) -> list[dict[str, str]]:
    """The move-menu buttons of a board: service payloads of kind ``m``."""
    return [b for b in message.buttons if b.get("callback_data", "").startswith("m:")]


async def play_first_options_until_over(world: World, person: Person, chat: dict[str, object],
                                        max_clicks: int = 2000) -> Sent:
    """Play by always pressing the first menu button, as a child might; the AI answers."""
    for _ in range(max_clicks):
        board = await world.board(chat)  # type: ignore[arg-type]
        keys = menu_keys(board)
        if not keys:
            return board
        answers = await world.press(person, board, keys[0]["callback_data"])
        assert len(answers) == 1 and not answers[0].get("show_alert"), answers
    raise AssertionError("the game did not end")


async def test_full_lgame_against_the_ai_in_a_private_chat_with_buttons_only(
        tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        assert "logic games" in world.last(chat).text
        await world.say(ALICE, chat, "/play")
        picker = world.last(chat)
        assert "L-game" in labels(picker)
        await world.click(ALICE, picker, "L-game")
        assert "who do you want to play" in world.last(chat).text
        assert not any("whoever joins" in label for label in labels(world.last(chat))), \
            "nobody can join a private chat"
        await world.click(ALICE, world.last(chat), "easy")
        board = await world.board(chat)
        assert board.message_id == picker.message_id, "the picker became the board"
        assert menu_keys(board), "Alice moves first and has buttons"
        final = await play_first_options_until_over(world, ALICE, chat)
        assert "Game over" in final.text
        record = (await world.store.games_with_status("finished"))[0]
        assert record.status == "finished"
        assert len(world.fake.bot_messages(chat["id"])) <= 4, \
            "the board is edited in place, not posted per move"
        assert world.fake.refusals == []
