"""A hint that would void the game's result asks first on Discord (issue 40, defect 2),
through simcord: the first tap on 💡 Hint (or /hint) answers with an ephemeral question
and a yes button, which the second tap takes; the question fits Discord's limits in
every language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.discord import limits
from bot.hints import hinted
from bot.store import GameRecord
from engines.registry import get_game
from renderers.i18n import LANGUAGES, translate
from tests.helpers.discord_play import board_message
from tests.helpers.discord_world import World, components_of, discord_world

QUESTION = translate("en", "hint.confirm")
YES = translate("en", "hint.confirm_button")


async def running(world: World) -> GameRecord:
    record = await world.store.running_game("discord", str(world.channel.id))
    assert record is not None
    return record


def labels(message: object) -> list[str]:
    return [str(c.get("label")) for c in components_of(message)]


def told_of_hints(world: World) -> int:
    """The channel's lines saying a hint was taken."""
    return sum("took a hint" in message.content for message in world.channel.history())


async def test_one_tap_asks_privately_and_the_yes_takes_the_hint(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        before = await running(world)
        board = await board_message(world)
        asked = await world.alice.click(board, label="💡 Hint")
        assert asked.acknowledged and asked.ephemeral
        question = asked.response
        assert question is not None and QUESTION in question.content
        assert labels(question) == [YES]
        # One tap took nothing: the game and its board are as they were.
        after = await running(world)
        assert after.version == before.version and not hinted(after)
        assert "💡 Hint" in labels(await board_message(world))
        assert told_of_hints(world) == 0

        taken = await world.alice.click(question, label=YES)
        assert taken.acknowledged
        answer = taken.response
        assert answer is not None and answer.content.startswith("💡 Perfect move:")
        assert labels(answer) == [], "the question became the hint, its yes gone"
        assert (await running(world)).players[0].get("hints") == 1
        assert told_of_hints(world) == 1

        # The game counts for nothing now: the next hint is one tap.
        again = await world.alice.click(await board_message(world), label="💡 Hint")
        assert again.ephemeral and again.response is not None
        assert again.response.content.startswith("💡") and QUESTION not in again.response.content
        assert (await running(world)).players[0].get("hints") == 2


async def test_a_typed_hint_asks_with_a_yes_button(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        asked = await world.alice.slash(world.channel, "hint")
        assert asked.ephemeral and asked.response is not None
        assert QUESTION in asked.response.content and labels(asked.response) == [YES]
        assert not hinted(await running(world))
        taken = await world.alice.click(asked.response, label=YES)
        assert taken.response is not None and taken.response.content.startswith("💡 Perfect")
        assert hinted(await running(world))


async def test_a_yes_from_before_a_move_asks_again(tmp_path: Path) -> None:
    """The yes is for the position it was asked at: after a move the old yes asks
    again, for the new position, and takes nothing."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        asked = await world.alice.click(await board_message(world), label="💡 Hint")
        question = asked.response
        assert question is not None
        record = await running(world)
        state = get_game("lgame").State.from_dict(record.state)
        await world.alice.slash(world.channel, "move",
                                notation=state.action_text(state.legal_actions(0)[0]))
        await world.bot.wait_for_background()  # the computer's answer
        moved = await running(world)
        assert moved.version > record.version
        late = await world.alice.click(question, label=YES)
        assert late.response is not None and QUESTION in late.response.content
        assert labels(late.response) == [YES]
        assert not hinted(await running(world))
        taken = await world.alice.click(late.response, label=YES)
        assert taken.response is not None and taken.response.content.startswith("💡")
        assert hinted(await running(world))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_question_fits_discords_limits(language: str) -> None:
    question = translate(language, "hint.confirm")
    button = translate(language, "hint.confirm_button")
    assert len(question) <= limits.CONTENT and 0 < len(button) <= limits.BUTTON_LABEL
    assert len("lb:i:999999999999:999999999:yes") <= limits.CUSTOM_ID[1]


async def test_a_hint_in_a_card_hand_asks_beside_the_hand(tmp_path: Path) -> None:
    """In a card game the 💡 Hint is in the player's ephemeral hand: the question comes
    as a message of its own, so the hand stays, and its yes becomes the hint."""
    from tests.helpers.discord_cards import hand_button
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="booleo", level="easy", first="me")
        board = await board_message(world)
        hand = (await world.alice.click(board, custom_id=hand_button(board))).response
        assert hand is not None and "💡 Hint" in labels(hand)
        asked = await world.alice.click(hand, label="💡 Hint")
        question = asked.response
        assert question is not None and question.ephemeral and question.id != hand.id
        assert QUESTION in question.content and labels(question) == [YES]
        assert not hinted(await running(world))
        taken = await world.alice.click(question, label=YES)
        assert taken.response is not None and taken.response.content.startswith("💡 ")
        assert hinted(await running(world))
