"""An ended game's panel on Telegram, through the fake Bot API: the rating change under
the final board, and its buttons (play again, my results, rules, replay), which work only
in the chat where the game ended."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.menus import END_PANEL_LABELS
from tests.helpers.telegram_fake import group_chat
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, telegram_world

OTHER_GROUP = group_chat(-1_009_001, "Another class")


async def test_the_final_board_celebrates_and_offers_the_next_steps(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        await world.say(BOB, GROUP, "/resign")
        final = await world.board(GROUP)
        assert "Game over: Alice wins (Bob resigned)." in final.text
        assert "🏆 Alice: rating 1200 → 1216 (+16)" in final.text
        assert "Bob: rating 1200 → 1184 (−16)" in final.text
        assert [b["text"] for b in final.buttons] == END_PANEL_LABELS
        # "Play again" alone on its row, the three others together below it.
        rows = final.reply_markup["inline_keyboard"]
        assert [len(row) for row in rows] == [1, 3]
        assert rows[0][0]["style"] == "primary" and all("style" not in b for b in rows[1]), \
            "the main action is coloured, the others keep the app's style"

        answers = await world.click(BOB, final, "📊 My results")
        assert answers[0]["show_alert"] and "L-game: 0 won, 1 lost" in answers[0]["text"]
        before = len(world.fake.bot_messages(GROUP["id"]))
        await world.click(CAROL, final, "📖 Rules")
        rules = world.last(GROUP)
        assert len(world.fake.bot_messages(GROUP["id"])) == before + 1
        assert "L-game" in rules.text and "L-shaped" in rules.text
        await world.click(CAROL, final, "🔎 Replay")
        replay = world.last(GROUP)
        assert [b["text"] for b in replay.buttons] == ["⏮", "◀", "▶", "⏭"]

        refused = await world.click(CAROL, final, "🔁 Play again")
        assert refused[0]["show_alert"] and "Only a player" in refused[0]["text"]
        assert await world.store.running_game("telegram", str(GROUP["id"])) is None
        await world.click(BOB, final, "🔁 Play again")
        again = await world.store.running_game("telegram", str(GROUP["id"]))
        assert again is not None and [p["name"] for p in again.players] == ["Bob", "Alice"]
        new_board = await world.board(GROUP)
        assert new_board.message_id != final.message_id and new_board.buttons
        kept = world.fake.messages[(GROUP["id"], final.message_id)]
        assert [b["text"] for b in kept.buttons] == END_PANEL_LABELS, \
            "the final board stays as it was"
        # A second press of the old panel's "Play again" starts nothing while the new
        # game runs.
        second = await world.click(ALICE, kept, "🔁 Play again")
        assert second[0]["show_alert"]
        assert len(await world.store.games_with_status("active")) == 1


async def test_a_panel_button_forged_elsewhere_does_nothing(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        await world.say(BOB, GROUP, "/resign")
        final = await world.board(GROUP)
        again = final.button("🔁 Play again")["callback_data"]
        await world.say(BOB, OTHER_GROUP, "/help")
        elsewhere = world.last(OTHER_GROUP)
        sent_before = len(world.fake.bot_messages(OTHER_GROUP["id"]))
        for data in (again, again.replace(":again", ":rules"), again.replace(":again", ":bogus")):
            answers = await world.press(BOB, elsewhere, data)
            assert answers[0]["show_alert"] and "not valid" in answers[0]["text"]
        await world.say(BOB, BOB.private_chat, "/start")
        answers = await world.press(BOB, world.last(BOB.private_chat), again)
        assert "not valid" in answers[0]["text"]
        assert len(world.fake.bot_messages(OTHER_GROUP["id"])) == sent_before
        assert await world.store.games_with_status("active", "waiting") == []


async def test_a_game_won_alone_ends_with_confetti_in_the_private_chat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23.5's moment: a game won in a private chat (against the computer, or a
    puzzle solved) is followed by a short message with Telegram's confetti effect; a
    group gets none (effects are for private chats), nor does a lost game."""
    from bot.adapters.telegram.boards import CELEBRATION_EFFECT
    from bot.service import Board, Place, Reply
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        private = Place("telegram", str(chat["id"]))
        group = Place("telegram", str(GROUP["id"]), server=str(GROUP["id"]))

        def final(prompt: str) -> Reply:
            return Reply(ok=True, finished=True, moved=True,
                         board=Board(7, 9, "board", False, [], [], prompt, []))

        await world.bot.deliver_extras(private, final("🏆 Well played, Alice!"), actor=None)
        sent = world.last(chat)
        assert sent.effect == CELEBRATION_EFFECT and sent.text.startswith("🎉")
        count = len(world.fake.bot_messages(chat["id"]))
        await world.bot.deliver_extras(private, final("Alice: rating 1200 → 1184 (-16)"),
                                       actor=None)
        assert len(world.fake.bot_messages(chat["id"])) == count, "no confetti for a loss"
        before = len(world.fake.bot_messages(GROUP["id"]))
        await world.bot.deliver_extras(group, final("🏆 Well played, Alice!"), actor=None)
        assert len(world.fake.bot_messages(GROUP["id"])) == before
        # An effect Telegram refuses (ids are Telegram's to retire) costs only the confetti.
        monkeypatch.setattr("bot.adapters.telegram.boards.CELEBRATION_EFFECT", "retired")
        await world.bot.deliver_extras(private, final("🏆 Well played, Alice!"), actor=None)
        plain = world.last(chat)
        assert plain.text.startswith("🎉") and plain.effect == ""
