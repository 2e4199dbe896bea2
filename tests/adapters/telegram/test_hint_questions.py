"""A hint that would void the game's result asks first on Telegram (issue 40, defect 2),
through the fake Bot API: the first tap on 💡 Hint answers with an alert for the presser
alone and turns the button into the yes, which the second tap takes; /hint replies with
the question and the yes under it. In a group the board is everyone's, but only the
player's yes counts. The texts fit Telegram's limits in every language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.telegram import limits
from bot.adapters.telegram.layout import LABEL_LIMIT
from bot.hints import hinted
from bot.store import GameRecord
from engines.registry import get_game
from renderers.i18n import LANGUAGES, translate
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World, telegram_world

QUESTION = translate("en", "hint.confirm")
YES = translate("en", "hint.confirm_button")


async def running(world: World, chat: dict[str, object]) -> GameRecord:
    record = await world.store.running_game("telegram", str(chat["id"]))
    assert record is not None
    return record


def labels(message: object) -> list[str]:
    return [str(key["text"]) for key in message.buttons]  # type: ignore[attr-defined]


def told(world: World, chat: dict[str, object], words: str) -> int:
    return sum(words in message.text for message in world.fake.bot_messages(int(chat["id"])))


async def test_one_tap_asks_in_an_alert_and_the_yes_takes_the_hint(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/play lgame easy")
        before = await running(world, chat)
        board = await world.board(chat)
        answers = await world.click(ALICE, board, "💡 Hint")
        assert answers and answers[0].get("show_alert") and answers[0]["text"] == QUESTION
        # The button turned into the yes, where it was; nothing else changed.
        assert YES in labels(board) and "💡 Hint" not in labels(board)
        after = await running(world, chat)
        assert after.version == before.version and not hinted(after)
        assert told(world, chat, "💡 Perfect move") == 0

        answers = await world.click(ALICE, board, YES)
        assert answers and not answers[0].get("show_alert")
        assert told(world, chat, "💡 Perfect move") == 1
        assert told(world, chat, "took a hint") == 1
        assert (await running(world, chat)).players[0].get("hints") == 1
        # The board is redrawn for the game as it is: the 💡 Hint is back, and one tap
        # is enough now that the game counts for nothing.
        board = await world.board(chat)
        assert "💡 Hint" in labels(board) and YES not in labels(board)
        answers = await world.click(ALICE, board, "💡 Hint")
        assert answers and not answers[0].get("show_alert")
        assert told(world, chat, "💡 Perfect move") == 2


async def test_in_a_group_only_the_players_yes_takes_the_hint(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play lgame easy")
        board = await world.board(GROUP)
        answers = await world.click(ALICE, board, "💡 Hint")
        assert answers and answers[0].get("show_alert") and answers[0]["text"] == QUESTION
        assert YES in labels(board)
        refused = await world.click(BOB, board, YES)
        assert refused and refused[0]["text"] == translate("en", "error.not_a_player")
        assert not hinted(await running(world, GROUP))
        await world.click(ALICE, board, YES)
        assert hinted(await running(world, GROUP))
        # The hint went to Alice alone; the group is told one was taken.
        assert told(world, ALICE.private_chat, "💡 Perfect move") == 1
        assert told(world, GROUP, "💡 Perfect move") == 0
        assert told(world, GROUP, "took a hint") == 1


async def test_a_typed_hint_asks_with_the_yes_under_its_reply(tmp_path: Path) -> None:
    """/hint replies with the question and its yes. A yes from before a move asks again
    (the alert, and a new yes where it was); the new yes takes the hint, and the reply
    loses its button."""
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/play lgame easy")
        await world.say(ALICE, chat, "/hint")
        question = world.last(chat)
        assert question.text == QUESTION and labels(question) == [YES]
        assert not hinted(await running(world, chat))

        record = await running(world, chat)
        state = get_game("lgame").State.from_dict(record.state)
        await world.say(ALICE, chat, f"/move {state.action_text(state.legal_actions(0)[0])}")
        assert (await running(world, chat)).version > record.version
        answers = await world.click(ALICE, question, YES)
        assert answers and answers[0].get("show_alert") and answers[0]["text"] == QUESTION
        assert labels(question) == [YES]
        assert not hinted(await running(world, chat))

        answers = await world.click(ALICE, question, YES)
        assert answers and not answers[0].get("show_alert")
        assert hinted(await running(world, chat))
        assert told(world, chat, "💡 Perfect move") == 1
        assert labels(question) == [], "the question's yes is gone once taken"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_question_fits_telegrams_limits(language: str) -> None:
    question = translate(language, "hint.confirm")
    button = translate(language, "hint.confirm_button")
    assert len(question) <= limits.ALERT_LIMIT and 0 < len(button) <= LABEL_LIMIT
    assert len(b"i:999999999999:999999999:yes") <= limits.CALLBACK_DATA_LIMIT


async def test_a_hint_in_a_private_hand_asks_there(tmp_path: Path) -> None:
    """A card game in a group: the 💡 Hint is in the hand in the player's private chat,
    and the question comes there too; once taken, the yes leaves the hand."""
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play booleo easy bits=4")
        record = await running(world, GROUP)
        state = get_game("booleo").State.from_dict(record.state)
        assert state.to_move() == [0], "the computer has answered before Alice's turn"
        await world.click(ALICE, await world.board(GROUP), "🂠 My hand")
        hand = world.last(ALICE.private_chat)
        answers = await world.click(ALICE, hand, "💡 Hint")
        assert answers and answers[0].get("show_alert") and answers[0]["text"] == QUESTION
        assert YES in labels(hand) and not hinted(await running(world, GROUP))
        sent = len(world.fake.bot_messages(ALICE.private_chat["id"]))
        await world.click(ALICE, hand, YES)
        assert hinted(await running(world, GROUP))
        assert YES not in labels(hand)
        (hint,) = world.fake.bot_messages(ALICE.private_chat["id"])[sent:]
        assert hint.text.startswith("💡 ")
        assert told(world, GROUP, "took a hint") == 1
