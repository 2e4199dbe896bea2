"""/replay and /hint on Telegram, through the fake Bot API."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.telegram_world import ALICE, telegram_world


async def test_a_finished_game_is_stepped_through_with_buttons(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/play lgame easy")
        await world.say(ALICE, chat, "/resign")
        await world.say(ALICE, chat, "/replay")
        step = world.last(chat)
        assert [b["text"] for b in step.buttons] == ["⏮", "◀", "▶", "⏭"]
        start_text = step.text
        forward = step.button("▶")["callback_data"]
        answers = await world.press(ALICE, step, forward)
        assert answers and not answers[0].get("show_alert")
        moved = world.fake.messages[(chat["id"], step.message_id)]
        assert moved.text != start_text, "the message shows the next step"
        await world.say(ALICE, chat, "/replay 999999")
        assert "no game #999999" in world.last(chat).text.lower()


async def test_a_hint_against_the_computer_marks_the_game(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/play lgame easy")
        before = await world.store.running_game("telegram", str(chat["id"]))
        assert before is not None
        await world.say(ALICE, chat, "/hint")
        texts = [m.text for m in world.fake.bot_messages(chat["id"])[-4:]]
        assert any("hint" in text.lower() and "not counted" in text for text in texts), texts
        after = await world.store.get_game(before.id)
        assert after is not None and after.version == before.version + 1
        assert after.players[0].get("hints") == 1
