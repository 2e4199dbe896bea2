"""The class board on Telegram, through the fake Bot API: ``/classboard`` posts one message
listing every game of the group and whose turn it is, kept up to date in place."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.telegram_fake import Sent
from tests.helpers.telegram_play import menu_keys
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world


def class_board(world: World) -> Sent:
    boards = [m for m in world.fake.bot_messages(GROUP["id"])
              if m.text.startswith("📋 Class board")]
    assert len(boards) == 1, [m.text for m in world.fake.bot_messages(GROUP["id"])]
    return boards[0]


async def test_the_class_board_follows_the_groups_game(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        world.bot.class_board_delay = 0.0
        await world.say(ALICE, GROUP, "/classboard")
        assert "admins" in world.last(GROUP).text, "only admins post a class board"
        assert not any(m.text.startswith("📋") for m in world.fake.bot_messages(GROUP["id"]))
        world.fake.admins.setdefault(GROUP["id"], set()).add(CAROL.id)
        await world.say(CAROL, GROUP, "/classboard")
        board = class_board(world)
        assert "No game is running" in board.text

        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        board = world.fake.messages[(GROUP["id"], board.message_id)]
        assert "1 running" in board.text and "L-game: Alice vs Bob" in board.text
        assert "▶ Alice" in board.text
        game = await world.board(GROUP)
        assert f"https://t.me/c/5001/{game.message_id}" in board.text

        # One move through the board's buttons: the turn passes to Bob.
        for _ in range(6):
            keys = menu_keys(await world.board(GROUP))
            await world.press(ALICE, await world.board(GROUP), keys[0]["callback_data"])
            if "▶ Bob" in world.fake.messages[(GROUP["id"], board.message_id)].text:
                break
        assert "▶ Bob" in world.fake.messages[(GROUP["id"], board.message_id)].text

        await world.say(BOB, GROUP, "/resign")
        assert "No game is running" in world.fake.messages[
            (GROUP["id"], board.message_id)].text
        await world.say(CAROL, GROUP, "/classboard off")
        assert "no longer kept" in world.last(GROUP).text
        edits = world.fake.messages[(GROUP["id"], board.message_id)].edits
        await world.say(ALICE, GROUP, "/play lgame easy")
        assert world.fake.messages[(GROUP["id"], board.message_id)].edits == edits
