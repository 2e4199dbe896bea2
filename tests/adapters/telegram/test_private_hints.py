"""A hint pressed in a group reaches the presser privately or is not taken (defect F.1),
through the fake Bot API, which refuses a private message to someone who never opened a
chat with the bot (403, as Telegram does): such a player gets a deep link that opens the
chat, as "My hand" gives, and the game's result stays counted; once the chat is open the
hint works. A hint in a card game leaves the hand's buttons current."""

from __future__ import annotations

import random
from pathlib import Path

from bot.hints import hinted
from bot.store import GameRecord
from engines.registry import get_game
from renderers.i18n import translate
from tests.helpers.telegram_cards import latest_record
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World, telegram_world

QUESTION = translate("en", "hint.confirm")
YES = translate("en", "hint.confirm_button")


async def running(world: World) -> GameRecord:
    record = await world.store.running_game("telegram", str(GROUP["id"]))
    assert record is not None
    return record


def hints_to(world: World, chat: dict[str, object]) -> list[str]:
    return [message.text for message in world.fake.bot_messages(int(chat["id"]))  # type: ignore[call-overload]
            if message.text.startswith("💡 ") and "took a hint" not in message.text]


async def test_without_a_private_chat_the_hint_opens_it_and_is_not_taken(
        tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play lgame easy")
        board = await world.board(GROUP)
        before = await running(world)
        answers = await world.click(ALICE, board, "💡 Hint")
        # The answer opens the private chat, as "My hand" does; nothing was asked or taken.
        assert answers and str(answers[0].get("url", "")).startswith("https://t.me/")
        assert "start=" in answers[0]["url"] and not answers[0].get("text")
        after = await running(world)
        assert not hinted(after) and after.version == before.version
        assert "💡 Hint" in [key["text"] for key in board.buttons]
        assert not any("took a hint" in m.text for m in world.fake.bot_messages(GROUP["id"]))

        # The link's /start opens the chat; the hint now asks, and its yes brings it there.
        await world.say(ALICE, ALICE.private_chat, "/start hint")
        assert world.last(ALICE.private_chat).text == translate("en", "telegram.hint.opened")
        answers = await world.click(ALICE, board, "💡 Hint")
        assert answers and answers[0].get("show_alert") and answers[0]["text"] == QUESTION
        await world.click(ALICE, board, YES)
        assert hinted(await running(world))
        assert len(hints_to(world, ALICE.private_chat)) == 1
        assert hints_to(world, GROUP) == []


async def test_a_chat_opened_before_a_restart_still_counts(tmp_path: Path) -> None:
    """What this process saw is gone after a restart (and another webhook worker never
    saw it): Telegram is asked, with a "typing…" that sends nothing, and the hint works."""
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play lgame easy")
        await world.restart()
        board = await world.board(GROUP)
        answers = await world.click(ALICE, board, "💡 Hint")
        assert answers and answers[0].get("text") == QUESTION and "url" not in answers[0]
        assert [int(call["chat_id"]) for call in world.fake.calls("sendChatAction")] == [ALICE.id]
        await world.click(ALICE, board, YES)
        assert hinted(await running(world)) and len(hints_to(world, ALICE.private_chat)) == 1
        await world.click(ALICE, await world.board(GROUP), "💡 Hint")
        assert len(world.fake.calls("sendChatAction")) == 1, "known open now: not asked again"


async def test_a_typed_hint_without_a_private_chat_offers_to_open_it(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play lgame easy")
        await world.say(ALICE, GROUP, "/hint")
        told = world.last(GROUP)
        assert told.text == translate("en", "hint.private_only")
        (key,) = told.buttons
        assert str(key.get("url", "")).endswith("?start=hint")
        assert not hinted(await running(world))
        await world.say(ALICE, ALICE.private_chat, "/start hint")
        await world.say(ALICE, GROUP, "/hint")
        assert world.last(GROUP).text == QUESTION


async def test_someone_who_is_not_playing_is_told_so_not_sent_a_link(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play lgame easy")
        answers = await world.click(BOB, await world.board(GROUP), "💡 Hint")
        assert answers and answers[0]["text"] == translate("en", "error.not_a_player")
        assert "url" not in answers[0]


async def test_a_chat_closed_since_shows_a_short_hint_to_the_presser_alone(
        tmp_path: Path) -> None:
    """Alice opened the chat, then blocked the bot: nothing told the bot, so the hint is
    taken, and the private message is refused; the hint, short enough, comes in the
    alert only she sees, never in the group. The chat counts as closed from then on."""
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play lgame easy")
        board = await world.board(GROUP)
        await world.click(ALICE, board, "💡 Hint")
        world.fake.started.discard(ALICE.id)  # blocked: Telegram answers 403 from now on
        answers = await world.click(ALICE, board, YES)
        assert hinted(await running(world))
        assert answers and answers[0].get("show_alert")
        assert answers[0]["text"].startswith("💡 ") and len(answers[0]["text"]) <= 200
        assert hints_to(world, GROUP) == [] and hints_to(world, ALICE.private_chat) == []
        answers = await world.click(ALICE, await world.board(GROUP), "💡 Hint")
        assert answers and "start=" in str(answers[0].get("url", ""))


async def test_after_a_hint_the_hands_buttons_are_current(tmp_path: Path) -> None:
    """A card game in a group: after the hint taken from the private hand, the hand's
    menu works at once, without "out of date" and without a redraw first."""
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play booleo easy bits=4")
        record = await latest_record(world, GROUP)
        assert get_game("booleo").State.from_dict(record.state).to_move() == [0]
        await world.click(ALICE, await world.board(GROUP), "🂠 My hand")
        hand = world.last(ALICE.private_chat)
        await world.click(ALICE, hand, "💡 Hint")
        await world.click(ALICE, hand, YES)
        assert hinted(await latest_record(world, GROUP))
        hand = [message for message in world.fake.bot_messages(ALICE.private_chat["id"])
                if message.buttons][-1]
        options = [key["text"] for key in hand.buttons
                   if "callback_data" in key and not key["callback_data"].startswith("i:")
                   and "hand" not in key["text"].lower()]
        assert options, hand.text
        answers = await world.click(ALICE, hand, random.Random(3).choice(options))
        stale = translate("en", "error.stale")
        assert not any(answer.get("text") == stale for answer in answers), answers
