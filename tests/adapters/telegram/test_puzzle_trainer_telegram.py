"""The puzzle trainer on Telegram, through the fake Bot API (issue 41): ten puzzles in a
row by taps alone in the private chat, the rating changing after each; /puzzle <game> in
a group goes to the private chat; retry, show me and the themes; another person's and
forged presses refused in words; a restart in the middle of a puzzle; /puzzle alone and
/puzzle with the Turing Machine's words keep their meaning; the puzzle of the day with
its leaderboard and its Solve link."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.puzzles import Puzzle, puzzle_games
from tests.helpers.puzzle_trainer import answer_presses
from tests.helpers.telegram_fake import Person, Sent
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World, telegram_world

GAMES = puzzle_games()


async def press(world: World, message: Sent, data: str, person: Person = ALICE) -> Sent:
    keys = [key["callback_data"] for key in message.buttons if "callback_data" in key]
    assert data in keys, (data, keys)
    answers = await world.press(person, message, data)
    assert answers and not answers[0].get("show_alert"), answers
    return world.fake.messages[(message.chat["id"], message.message_id)]


async def open_attempt(world: World, game: str, person: Person = ALICE):  # type: ignore[no-untyped-def]
    attempt = await world.store.open_puzzle("telegram", str(person.id), game)
    assert attempt is not None
    return attempt


@pytest.mark.parametrize("game", GAMES)
async def test_ten_puzzles_in_a_row_by_taps(tmp_path: Path, game: str) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, f"/puzzle {game}")
        message = world.last(chat)
        ratings = []
        for number in range(10):
            assert "Find the best move" in message.text, message.text
            attempt = await open_attempt(world, game)
            right = number % 4 != 1
            for data in answer_presses(attempt, right):
                message = await press(world, message, f"z:{data}")
            assert ("✅ Right!" if right else "❌ Not this one.") in message.text
            player = await world.store.puzzle_player("telegram", str(ALICE.id), game)
            assert player is not None and player.tried == number + 1
            ratings.append(player.rating)
            assert f"Your puzzle rating: {round(player.rating)}" in message.text
            message = await press(world, message, f"z:{attempt.id}:n")
        assert len(set(ratings)) == 10, "the rating changed after every puzzle"
        # Nothing of a game: no running game in the chat, no result.
        assert await world.store.running_game("telegram", str(chat["id"])) is None
        assert await world.store.player_stats("telegram", str(ALICE.id)) == []
        await world.say(ALICE, chat, "/stats")
        assert "puzzles: rating" in world.last(chat).text


async def test_a_group_sends_the_puzzle_privately_and_the_rest_of_the_trainer(
        tmp_path: Path) -> None:
    game = GAMES[0]
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(BOB, GROUP, f"/puzzle {game}")
        assert "private chat" in world.last(GROUP).text, "Bob never opened a chat"
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, GROUP, f"/puzzle {game}")
        assert "sent you the puzzle" in world.last(GROUP).text
        message = world.last(chat)
        attempt = await open_attempt(world, game)
        assert attempt.server == str(GROUP["id"])
        # A wrong answer: the reason, the line on the board, then retry and show me.
        for data in answer_presses(attempt, right=False):
            message = await press(world, message, f"z:{data}")
        assert "❌ Not this one." in message.text and "Line: " in message.text
        rating = (await world.store.puzzle_player("telegram", str(ALICE.id), game))
        message = await press(world, message, f"z:{attempt.id}:r")
        for data in answer_presses(attempt, True, "r"):
            message = await press(world, message, f"z:{data}")
        assert "✅ Right (practice: not rated)." in message.text
        message = await press(world, message, f"z:{attempt.id}:s")
        assert "👁 The answer:" in message.text
        assert await world.store.puzzle_player("telegram", str(ALICE.id), game) == rating
        # Data that is not on the message, and another person's press, change nothing.
        answers = await world.press(ALICE, message, f"z:{attempt.id}:a:")
        assert answers and answers[0].get("show_alert")
        answers = await world.press(BOB, message, f"z:{attempt.id}:n")
        assert answers and answers[0].get("show_alert")
        assert "someone else's" in answers[0].get("text", "")
        # A theme: the themes, one chosen, the next puzzle of it.
        message = await press(world, message, f"z:{attempt.id}:t")
        assert "Which theme" in message.text
        message = await press(world, message, f"z:{attempt.id}:t:0")
        chosen = await open_attempt(world, game)
        assert Puzzle.from_dict(chosen.puzzle).theme == chosen.theme
        # A restart in the middle of the puzzle: its buttons work on.
        await world.restart()
        for data in answer_presses(chosen, True):
            message = await press(world, message, f"z:{data}")
        assert "✅ Right!" in message.text


async def test_the_turing_puzzle_keeps_its_meaning(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, "/puzzle")
        listed = world.last(chat)
        assert "Easy · 4" in [key["text"] for key in listed.buttons], "the Turing picker"
        keys = [key["callback_data"] for key in listed.buttons]
        assert [f"zs:{game}" for game in GAMES] == keys[-len(GAMES):]
        message = await press(world, listed, f"zs:{GAMES[0]}")
        assert "Find the best move" in message.text
        await world.say(ALICE, GROUP, "/puzzle easy")
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None and record.game == "turing"


async def test_the_puzzle_of_the_day_in_a_group_and_its_leaderboard(tmp_path: Path) -> None:
    game = GAMES[0]
    async with telegram_world(tmp_path) as world:
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, GROUP, f"/daily {game}")
        post = world.last(GROUP)
        assert "puzzle of the day" in post.text and "Nobody has answered" in post.text
        link = post.buttons[0]["url"]
        group = str(GROUP["id"]).replace("-", "m")
        assert link.endswith(f"?start=pz-{game}-{group}")
        await world.say(ALICE, chat, f"/start pz-{game}-{group}")
        message = world.last(chat)
        attempt = await world.store.daily_puzzle_attempt(
            "telegram", str(ALICE.id), game, world.bot.app.trainer.today().isoformat())
        assert attempt is not None and attempt.server == str(GROUP["id"])
        for data in answer_presses(attempt, True):
            message = await press(world, message, f"z:{data}")
        assert "✅ Right!" in message.text
        await world.say(ALICE, GROUP, f"/daily {game}")
        assert "1. Alice: ✅ in" in world.last(GROUP).text
        # The Turing challenge's /daily is unchanged.
        await world.say(ALICE, GROUP, "/daily")
        assert "Turing" in world.last(GROUP).text
