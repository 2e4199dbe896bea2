"""/learn on Telegram, through the fake Bot API: asked in a group, the lesson goes to the
asker's private chat (or the group is told how to open one); there every lesson
is played with its buttons, a wrong move gets the step's hint, and nothing is stored. (The
buttons' survival of a restart is tested on Discord: the fake Bot API hands a restarted
bot every earlier update again.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.lessons import LESSON_GAMES, lesson
from engines.registry import get_game
from tests.helpers.lessons import accepted_path, wrong_path
from tests.helpers.telegram_fake import Sent
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World, telegram_world


@pytest.mark.parametrize("game", LESSON_GAMES)
async def test_a_lesson_is_played_in_the_private_chat(tmp_path: Path, game: str) -> None:
    chosen = lesson(game)
    assert chosen is not None
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        steps = len(chosen.steps)
        await world.say(BOB, GROUP, f"/learn {game}")
        assert "private chat" in world.last(GROUP).text and f"/learn {game}" in \
            world.last(GROUP).text, "Bob never opened a chat with the bot"

        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, GROUP, f"/learn {get_game(game).TITLE}")
        assert "sent you the lesson" in world.last(GROUP).text
        message = world.last(chat)
        assert f"step 1 of {steps}" in message.text

        for data in wrong_path(chosen, 0):
            message = await press(world, message, f"l:{game}:0:{data}")
        assert "not what this step asks for" in message.text
        assert chosen.steps[0].hint.default in message.text
        assert f"step 1 of {steps}" in message.text

        for index in range(steps):
            for data in accepted_path(chosen, index):
                message = await press(world, message, f"l:{game}:{index}:{data}")
            assert "✅" in message.text, message.text
            message = await press(world, message, f"l:{game}:{index + 1}:")
        assert f"You finished the {get_game(game).TITLE} lesson" in message.text
        assert f"l:{game}:0:" in [key["callback_data"] for key in message.buttons]

        # Data that is not on the message is refused, and changes nothing.
        answers = await world.press(ALICE, message, f"l:{game}:3:")
        assert answers and answers[0].get("show_alert")
        assert await world.store.running_game("telegram", str(chat["id"])) is None
        assert await world.store.last_finished_game("telegram", str(chat["id"])) is None

        await world.say(ALICE, chat, "/learn chess")
        listed = world.last(chat)
        assert "Choose a game: L-game (lgame)" in listed.text
        message = await press(world, listed, f"l:{game}:0:")
        assert f"step 1 of {steps}" in message.text, "a game's button opens its lesson"


async def press(world: World, message: Sent, data: str) -> Sent:
    assert data in [key["callback_data"] for key in message.buttons], (
        data, [key["callback_data"] for key in message.buttons])
    answers = await world.press(ALICE, message, data)
    assert answers and not answers[0].get("show_alert"), answers
    return world.fake.messages[(message.chat["id"], message.message_id)]
