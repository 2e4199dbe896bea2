"""/export on Telegram sends the class's results to the teacher's private chat (defect
F.2): in the group every student would see everyone's results and ratings. The group
is told the file went privately, or, when the teacher never opened a chat with the bot
(Telegram refuses that message, 403), given a deep link that opens it."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from renderers.i18n import translate
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world


async def a_finished_game(world: World) -> None:
    bob_line = await world.say(BOB, GROUP, "I'll play")
    await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
    await world.say(BOB, GROUP, "/resign")


async def test_the_results_go_to_the_teachers_private_chat(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await a_finished_game(world)
        await world.say(CAROL, CAROL.private_chat, "/start")
        await world.say(CAROL, GROUP, "/export")
        assert [chat for chat, *_ in world.fake.documents] == [CAROL.id]
        _, name, data, caption = world.fake.documents[0]
        assert name.endswith(".csv") and "Class 3B" in caption
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
        assert sorted(row[2] for row in rows[1:]) == ["Alice", "Bob"]
        assert world.last(GROUP).text == translate("en", "export.sent_privately")
        assert not any(message.text.startswith("The results")
                       for message in world.fake.bot_messages(GROUP["id"]))


async def test_a_teacher_without_a_private_chat_gets_a_link_then_the_file(
        tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await a_finished_game(world)
        await world.say(CAROL, GROUP, "/export")
        assert world.fake.documents == [], "nothing in the group, nothing sent"
        told = world.last(GROUP)
        assert told.text == translate("en", "export.private_only")
        (key,) = told.buttons
        assert str(key.get("url", "")).startswith("https://t.me/")

        await world.say(CAROL, CAROL.private_chat, "/start")
        await world.say(CAROL, GROUP, "/export")
        assert [chat for chat, *_ in world.fake.documents] == [CAROL.id]
        assert world.last(GROUP).text == translate("en", "export.sent_privately")


async def test_students_still_get_nothing(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await a_finished_game(world)
        await world.say(ALICE, ALICE.private_chat, "/start")
        await world.say(ALICE, GROUP, "/export")
        assert "Only this group's admins" in world.last(GROUP).text
        assert world.fake.documents == []
