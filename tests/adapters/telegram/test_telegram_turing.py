"""Turing Machine on Telegram: a solo puzzle in a private chat, a group game whose results
stay private, and the daily challenge at its set time with a fake clock."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from bot.adapters.telegram.chats import DAILY_LINK_PREFIX
from engines.turing.cards import code_text
from engines.turing.puzzle import Puzzle
from tests.helpers.clock import FakeClock
from tests.helpers.telegram_fake import BOT_USERNAME, Sent
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world

RESULT_MARKS = ("✅", "❌", "=yes", "=no")


def labels(message: Sent) -> list[str]:
    return [button["text"] for button in message.buttons]


async def secret_code(world: World, channel: str) -> str:
    records = [r for status in ("active", "finished") for r in
               await world.store.games_with_status(status) if r.channel == channel]
    record = max(records, key=lambda r: r.id)
    return code_text(Puzzle.from_dict(record.state["puzzle"]).code)


# A proposal starts on the code pad, whose first key is this.
PROPOSE = "propose"
PAD_CORNER = "▲1■1"


async def press_code(world: World, person: object, chat: dict[str, object], verb: str,
                     code: str) -> None:
    if verb == PROPOSE:  # the code pad: two digits in one tap, then the third
        await world.click(person, world.last(chat), f"▲{code[0]}■{code[1]}")  # type: ignore[arg-type]
        await world.click(person, world.last(chat), code)  # type: ignore[arg-type]
        return
    await world.click(person, world.last(chat), verb)  # type: ignore[arg-type]
    await world.click(person, world.last(chat), f"▲{code[0]}■{code[1]}")  # type: ignore[arg-type]
    await world.click(person, world.last(chat), code)  # type: ignore[arg-type]




async def test_a_solo_puzzle_in_a_private_chat_is_played_with_buttons(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/puzzle")
        assert "Easy · 4" in labels(world.last(chat))
        await world.click(ALICE, world.last(chat), "Easy · 4")
        board = world.last(chat)
        assert "card" in board.text and PAD_CORNER in labels(board)
        code = await secret_code(world, str(chat["id"]))
        await press_code(world, ALICE, chat, PROPOSE, "111")
        await world.click(ALICE, world.last(chat), "Test A")
        assert any(mark in world.last(chat).text for mark in RESULT_MARKS), \
            "the result shows on the sheet in the private chat"
        await press_code(world, ALICE, chat, "Guess the code", code)
        final = world.last(chat)
        assert f"cracked the code {code}" in final.text
        assert "par" in final.text
        bad = await world.say(ALICE, chat, "/puzzle impossible")
        assert bad.message_id and "impossible" in world.last(chat).text


async def test_a_group_game_keeps_each_players_results_private(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        for person in (ALICE, BOB):
            await world.say(person, person.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play turing")
        await world.click(ALICE, world.last(GROUP), "whoever joins")
        await world.click(ALICE, world.last(GROUP), "Easy · 4")
        board = await world.board(GROUP)
        await world.click(BOB, board, "Join")
        refused = await world.click(CAROL, await world.board(GROUP), "Start now")
        assert refused[0]["show_alert"]
        await world.click(ALICE, await world.board(GROUP), "Start now")
        board = await world.board(GROUP)
        assert "Alice" in board.text and "Bob" in board.text
        assert PAD_CORNER in labels(world.last(ALICE.private_chat))
        assert PAD_CORNER in labels(world.last(BOB.private_chat))
        code = await secret_code(world, str(GROUP["id"]))
        wrong = "555" if code != "555" else "111"

        bobs_notes = world.last(BOB.private_chat)
        await press_code(world, ALICE, ALICE.private_chat, PROPOSE, "123")
        await world.click(ALICE, world.last(ALICE.private_chat), "Test A")
        await world.click(ALICE, world.last(ALICE.private_chat), "Test B")
        # Alice's turn in the round is not Bob's news: his notes stay the message he is
        # using, buttons and all, with nothing new in his chat.
        assert world.last(BOB.private_chat).message_id == bobs_notes.message_id
        assert PAD_CORNER in labels(world.fake.messages[
            (BOB.private_chat["id"], bobs_notes.message_id)])
        assert "123" in (await world.board(GROUP)).text, "proposals are public"
        await press_code(world, BOB, BOB.private_chat, "Guess the code", wrong)
        await press_code(world, ALICE, ALICE.private_chat, "Guess the code", code)
        final = await world.board(GROUP)
        assert code in final.text and "Alice" in final.text
        for message in world.fake.bot_messages(GROUP["id"])[:-1]:
            assert not any(mark in message.text for mark in RESULT_MARKS), message.text
        for message in world.fake.bot_messages(BOB.id):
            assert "A ✅" not in message.text and "A ❌" not in message.text, \
                "Bob never sees Alice's results"


async def test_the_daily_challenge_posts_on_time_once_and_ranks_players(
        tmp_path: Path) -> None:
    clock = FakeClock(dt.datetime(2026, 11, 20, 7, 0, tzinfo=dt.UTC))
    async with telegram_world(tmp_path, clock=clock) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await world.say(BOB, GROUP, "/daily 08:00")
        assert "admins" in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/daily 8h61")
        assert "HH:MM" in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/daily 08:00")
        await world.say(CAROL, GROUP, "/daily 09:00 Europe/Brussels")
        assert "every day at 09:00 (Europe/Brussels)" in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/daily 08:00")
        assert "every day at 08:00 (UTC)" in world.last(GROUP).text
        assert await world.bot.post_daily_due() == 0, "not before 08:00"
        clock.now = dt.datetime(2026, 11, 20, 8, 0, 30, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 1
        post = world.last(GROUP)
        assert "Daily Turing Machine challenge · 2026-11-20" in post.text
        server = str(GROUP["id"]).replace("-", "m")
        assert post.buttons[0]["url"] == \
            f"https://t.me/{BOT_USERNAME}?start={DAILY_LINK_PREFIX}{server}"
        assert await world.bot.post_daily_due() == 0, "never twice"
        await world.restart()
        assert await world.bot.post_daily_due() == 0, "not again after a restart"
        posts = [m for m in world.fake.bot_messages(GROUP["id"]) if "Daily Turing" in m.text]
        assert len(posts) == 1

        chat = ALICE.private_chat
        await world.say(ALICE, chat, f"/start {DAILY_LINK_PREFIX}{server}")
        assert "Daily challenge" in world.last(chat).text or "2026-11-20" in world.last(chat).text
        code = await secret_code(world, str(chat["id"]))
        await world.say(ALICE, chat, "propose 111")
        await world.say(ALICE, chat, "test A")
        await world.say(ALICE, chat, f"guess {code}")
        assert f"cracked the code {code}" in world.last(chat).text
        await world.say(ALICE, chat, f"/start {DAILY_LINK_PREFIX}{server}")
        assert "already played today's challenge" in world.last(chat).text

        await world.say(BOB, BOB.private_chat, "/daily")
        wrong = "555" if code != "555" else "111"
        await world.say(BOB, BOB.private_chat, f"guess {wrong}")
        await world.say(BOB, GROUP, "/leaderboard")
        board = world.last(GROUP).text
        server_part, global_part = board.split("\n\n", 1)
        assert "1. Alice: 1 round, 1 test" in server_part and "Bob" not in server_part
        assert "Alice" in global_part and "Bob: not solved" in global_part

        clock.now = dt.datetime(2026, 11, 21, 8, 1, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 1
        tomorrow = world.last(GROUP).text
        assert "2026-11-21" in tomorrow and "Alice" in tomorrow, \
            "the next post brings yesterday's leaderboard"
