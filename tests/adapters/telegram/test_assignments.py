"""Assignments on Telegram (loopback fake Bot API): an admin sets work in the group, the
students play, /progress sends each their own standing privately (or says how to open the
private chat), and only an admin gets the class table and its CSV."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, telegram_world


async def test_an_assignment_is_set_played_and_reported(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await world.say(ALICE, GROUP, "/assign win 1 lgame")
        assert "Only moderators set assignments" in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/assign win 1 lgame in 7")
        assert "📋 Assignment 1: Win 1 × L-game, by " in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/assign win 2 chess")
        assert "Unknown game 'chess'" in world.last(GROUP).text

        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        await world.say(BOB, GROUP, "/resign")

        # Bob never opened a private chat with the bot: he is told how, and the group
        # sees no one's progress.
        await world.say(BOB, GROUP, "/progress")
        assert "open a chat with me" in world.last(GROUP).text
        await world.say(ALICE, ALICE.private_chat, "/start")
        await world.say(ALICE, GROUP, "/progress")
        assert "Sent to you privately" in world.last(GROUP).text
        assert "✅ 1. Win 1 × L-game: 1/1" in world.last(ALICE.private_chat).text
        assert not any("1/1" in m.text for m in world.fake.bot_messages(GROUP["id"]))

        await world.say(ALICE, GROUP, "/progress all")
        assert "Only this group's admins" in world.last(GROUP).text
        await world.say(CAROL, CAROL.private_chat, "/start")
        await world.say(CAROL, GROUP, "/progress all")
        table = [m.text for m in world.fake.bot_messages(CAROL.id)]
        assert any("Alice — 1: ✅" in text and "Bob — 1: 0" in text for text in table), table
        chat_id, name, data, _ = world.fake.documents[-1]
        assert chat_id == CAROL.id and name.endswith(".csv")
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
        assert sorted(rows[1:]) == [["Alice", "1"], ["Bob", "0"]]

        await world.say(BOB, GROUP, "/assign")
        assert "1. Win 1 × L-game — " in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/assign close 1")
        assert "Assignment 1 is closed" in world.last(GROUP).text
