"""End to end on Telegram (loopback fake Bot API): admins ending others' games, the
results export as a document, and turn timers with a fake clock, across a restart."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.helpers.clock import FakeClock
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, telegram_world


async def test_admin_ends_a_game_and_exports_results(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        await world.say(BOB, GROUP, "/resign")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)

        await world.say(ALICE, GROUP, "/export")
        assert "Only this group's admins" in world.last(GROUP).text
        assert world.fake.documents == []
        await world.say(CAROL, GROUP, "/abandon")
        assert "Carol" in world.last(GROUP).text
        assert await world.store.running_game("telegram", str(GROUP["id"])) is None

        # The file goes to Carol's private chat (``test_private_export.py``).
        await world.say(CAROL, CAROL.private_chat, "/start")
        await world.say(CAROL, GROUP, "/export")
        assert len(world.fake.documents) == 1
        chat_id, name, data, caption = world.fake.documents[0]
        assert chat_id == CAROL.id and name.endswith(".csv") and "CSV" in caption
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
        assert rows[0] == ["date", "game", "player", "opponent", "outcome", "rating_after"]
        assert sorted(r[1:] for r in rows[1:]) == [["lgame", "Alice", "human", "win", "1216"],
                                                  ["lgame", "Bob", "human", "loss", "1184"]]
        assert str(ALICE.id) not in data.decode("utf-8")


async def test_turn_timer_reminds_then_lets_the_computer_move(tmp_path: Path) -> None:
    clock = FakeClock()
    async with telegram_world(tmp_path, clock=clock) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await world.say(ALICE, GROUP, "/timer 5 15 ai")
        assert "Only this group's admins" in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/timer 5 15 ai")
        assert "a move by the computer after 15 min" in world.last(GROUP).text
        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None

        assert await world.bot.check_turn_timers() == 0
        clock.advance(6)
        assert await world.bot.check_turn_timers() == 1
        assert "Alice, it is your turn" in world.last(GROUP).text

        await world.restart()
        assert await world.bot.check_turn_timers() == 0
        clock.advance(10)
        assert await world.bot.check_turn_timers() == 1
        await world.settle()
        assert await world.bot.check_turn_timers() == 0
        texts = [m.text for m in world.fake.bot_messages(GROUP["id"])]
        assert any("Alice ran out of time; the computer played" in t for t in texts)
        moved = await world.store.running_game("telegram", str(GROUP["id"]))
        assert moved is not None and moved.version == record.version + 1
        # Bob's turn now starts its own timer, from the next check.
        assert await world.bot.check_turn_timers() == 0
        clock.advance(6)
        assert await world.bot.check_turn_timers() == 1
        assert "Bob, it is your turn" in world.last(GROUP).text
