"""bOOleO on Telegram: a game against the computer in a private chat, and a group game in
which every hand stays in its player's private chat."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from engines import booleo
from tests.helpers import telegram_cards as cards
from tests.helpers.hands import shows_hand
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world


async def state_of(world: World, chat: dict[str, Any]) -> booleo.BooleoState:
    return await cards.state_of(world, chat, booleo.BooleoState)


async def play_a_move(world: World, person: Any, game_chat: dict[str, Any],
                      rng: random.Random) -> None:
    await cards.play_a_move(world, person, game_chat, rng)


async def test_a_game_against_the_computer_in_a_private_chat(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/play booleo strong bits=4")
        rng = random.Random(4)
        for _ in range(200):
            state = await state_of(world, chat)
            if state.outcome() is not None:
                break
            assert state.to_move() == [0], "the computer has answered before Alice's turn"
            assert shows_hand(state.view(0)["hand"], world.last(chat).text)
            await play_a_move(world, ALICE, chat, rng)
        assert (await state_of(world, chat)).outcome() is not None
        assert "Game over" in (await world.board(chat)).text


async def test_a_group_game_never_shows_a_hand_in_the_group(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        for person in (ALICE, BOB):
            await world.say(person, person.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play booleo bits=4")  # open to whoever joins
        await world.click(BOB, await world.board(GROUP), "Join")
        rng = random.Random(8)
        seen_hands: set[str] = set()
        for _ in range(60):
            state = await state_of(world, GROUP)
            if state.outcome() is not None:
                break
            person, hand = await cards.hand_of_the_player_to_move(world, GROUP, (ALICE, BOB), state)
            seen_hands.add(hand)
            posted = len(world.fake.bot_messages(GROUP["id"]))
            stranger = await world.click(CAROL, await world.board(GROUP), "🂠 My hand")
            assert stranger and not stranger[0].get("show_alert"), "refused in a toast"
            assert "not playing" in stranger[0]["text"]
            assert len(world.fake.bot_messages(GROUP["id"])) == posted, "and quietly"
            await play_a_move(world, person, GROUP, rng)
        for message in world.fake.bot_messages(GROUP["id"]):
            assert "Your hand" not in message.text
            assert not any(hand in message.text for hand in seen_hands), message.text
        assert len((await state_of(world, GROUP)).actions) >= 20


async def test_a_text_style_group_keeps_its_style_after_moves_made_in_hands(
        tmp_path: Path) -> None:
    """A group that chose text boards keeps them: a move made in a private hand redraws the
    group's board in the group's style (a stale cached record once drew it in emoji)."""
    async with telegram_world(tmp_path) as world:
        await world.bot.set_chat_setting(GROUP["id"], "board", "text")
        for person in (ALICE, BOB):
            await world.say(person, person.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play booleo bits=4")
        await world.click(BOB, await world.board(GROUP), "Join")
        assert "<pre>" in (await world.board(GROUP)).html
        rng = random.Random(4)
        for _ in range(3):
            state = await state_of(world, GROUP)
            person, _ = await cards.hand_of_the_player_to_move(world, GROUP, (ALICE, BOB), state)
            await play_a_move(world, person, GROUP, rng)
            assert "<pre>" in (await world.board(GROUP)).html, "the board stays text"


async def test_my_hand_pressed_on_the_hand_itself_says_it_is_current(tmp_path: Path) -> None:
    """Found by the long fuzzing: a "My hand" press in the private chat whose hand was
    already up to date redrew nothing (an unchanged edit is not sent), so the press got
    neither an answer nor a change, and seemed broken. It now says the hand is current."""
    async with telegram_world(tmp_path) as world:
        for person in (ALICE, BOB):
            await world.say(person, person.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play booleo bits=4")
        await world.click(BOB, await world.board(GROUP), "Join")
        record = await cards.latest_record(world, GROUP)
        hand = world.last(ALICE.private_chat)
        assert "Your hand" in hand.text
        edits = len(world.fake.calls("editMessageText"))
        answers = await world.press(ALICE, hand, f"h:{record.id}:{record.version}:")
        assert answers and "up to date" in answers[0].get("text", ""), answers
        assert len(world.fake.calls("editMessageText")) == edits, "nothing to redraw"
