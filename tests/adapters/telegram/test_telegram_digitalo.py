"""Digitalo on Telegram: a whole match against the computer in a private chat, and a group
game in which every hand stays in its player's private chat."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from engines import digitalo
from tests.helpers import telegram_cards as cards
from tests.helpers.hands import shows_hand
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World, telegram_world


async def state_of(world: World, chat: dict[str, Any]) -> digitalo.DigitaloState:
    return await cards.state_of(world, chat, digitalo.DigitaloState)


async def test_a_whole_match_against_the_computer_in_a_private_chat(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/play digitalo strong")
        rng = random.Random(2)
        rounds: set[int] = set()
        for _ in range(400):
            state = await state_of(world, chat)
            rounds.add(int(state.view(None)["round"]))
            if state.outcome() is not None:
                break
            assert state.to_move() == [0], "the computer has answered before Alice's turn"
            assert shows_hand(state.view(0)["hand"], world.last(chat).text)
            await cards.play_a_move(world, ALICE, chat, rng)
        state = await state_of(world, chat)
        assert state.outcome() is not None and len(rounds) >= 2
        board = (await world.board(chat)).text
        assert "Game over" in board and "in binary" in board


async def test_a_group_game_never_shows_a_hand_in_the_group(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        for person in (ALICE, BOB):
            await world.say(person, person.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play digitalo bits=4")  # open to whoever joins
        await world.click(BOB, await world.board(GROUP), "Join")
        rng = random.Random(5)
        seen_hands: set[str] = set()
        for _ in range(40):
            state = await state_of(world, GROUP)
            if state.outcome() is not None:
                break
            person, hand = await cards.hand_of_the_player_to_move(world, GROUP, (ALICE, BOB), state)
            seen_hands.add(hand)
            await cards.play_a_move(world, person, GROUP, rng)
        for message in world.fake.bot_messages(GROUP["id"]):
            assert "Your hand" not in message.text
            assert not any(hand in message.text for hand in seen_hands if ", " in hand), \
                message.text
        assert "Round" in (await world.board(GROUP)).text


async def test_a_card_that_fits_nowhere_is_marked_and_its_press_says_why(
        tmp_path: Path) -> None:
    """Telegram has no disabled buttons: a card that fits nowhere (and cannot be
    discarded) is marked ✖ in the hand's lines and on its button, and a press of it is
    answered with the reason, changing nothing."""
    async with telegram_world(tmp_path, seed_source=lambda: 3) as world:
        for person in (ALICE, BOB):
            await world.say(person, person.private_chat, "/start")
        await world.say(ALICE, GROUP, "/play digitalo bits=4")  # open to whoever joins
        await world.click(BOB, await world.board(GROUP), "Join")
        record = await cards.latest_record(world, GROUP)
        state = digitalo.DigitaloState.from_dict(record.state)
        seat = state.to_move()[0]
        unfit = [c for c in state.menu(seat, ()) if c.unavailable is not None]
        assert unfit, "seed 3 deals the mover a card that fits nowhere"
        person, _ = await cards.hand_of_the_player_to_move(world, GROUP, (ALICE, BOB), state)
        hand = world.last(person.private_chat)
        assert "✖ (no place now)" in hand.text
        answers = await world.click(person, hand, str(unfit[0].label))
        assert "fits nowhere on your pyramid" in answers[0]["text"]
        assert (await cards.latest_record(world, GROUP)).version == record.version
