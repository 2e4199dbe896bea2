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
        # The first hint voids the game's result: /hint asks, and its yes takes it
        # (``test_hint_questions.py``).
        question = world.last(chat)
        await world.click(ALICE, question, "💡 Yes, show the hint")
        texts = [m.text for m in world.fake.bot_messages(chat["id"])[-4:]]
        assert any("hint" in text.lower() and "not counted" in text for text in texts), texts
        after = await world.store.get_game(before.id)
        assert after is not None and after.version == before.version + 1
        assert after.players[0].get("hints") == 1


async def test_a_practice_game_has_a_hint_button_and_a_game_that_counts_has_none(
        tmp_path: Path) -> None:
    """The hint button (issue 27.4): on the menu's first step of a game against the
    computer; pressed, it gives the hint in the presser's private chat and marks the
    game, as /hint does. A game between two people shows no such button, and a forged
    one is refused with the reason."""
    from tests.helpers.telegram_world import BOB, GROUP
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/play lgame easy")
        before = await world.store.running_game("telegram", str(chat["id"]))
        assert before is not None
        board = await world.board(chat)
        asked = await world.click(ALICE, board, "💡 Hint")
        assert asked and asked[0].get("show_alert"), "the first hint asks first"
        answers = await world.click(ALICE, board, "💡 Yes, show the hint")
        assert answers and not answers[0].get("show_alert")
        texts = [m.text for m in world.fake.bot_messages(chat["id"])[-4:]]
        assert any(text.startswith("💡") for text in texts), texts
        assert any("took a hint" in text for text in texts), texts
        after = await world.store.get_game(before.id)
        assert after is not None and after.players[0].get("hints") == 1

        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        rated = await world.board(GROUP)
        assert "💡 Hint" not in [key["text"] for key in rated.buttons]
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None
        forged = f"i:{record.id}:{record.version}:"
        refused = await world.press(ALICE, rated, forged)
        assert refused and "only for games against the computer" in refused[0]["text"]
