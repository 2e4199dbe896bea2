"""Many games at once in a Telegram forum group (issue 23.6): a game asked for in the
General topic gets a topic of its own, so a whole class plays in one group."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.telegram_fake import forum_chat, group_chat
from tests.helpers.telegram_world import ALICE, BOB, CAROL, telegram_world

FORUM = forum_chat(-1_007_001, "Class 3C")
PLAIN = group_chat(-1_007_002, "Class 3D")


async def test_each_game_asked_for_in_general_gets_its_own_topic(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        bob_line = await world.say(BOB, FORUM, "I'll play")
        await world.say(ALICE, FORUM, "/play lgame", reply_to=bob_line)
        first = world.last(FORUM)
        assert "has a topic of its own" in first.text and first.topic is None
        await world.say(CAROL, FORUM, "/play lgame easy")
        topics = world.fake.topics[FORUM["id"]]
        assert sorted(topics.values()) == ["L-game · Alice vs Bob",
                                           "L-game · Carol vs Computer · easy"]
        running = await world.store.running_games("telegram", str(FORUM["id"]))
        assert sorted(r.channel for r in running) == sorted(
            f"{FORUM['id']}/{topic}" for topic in topics)
        assert {r.server for r in running} == {str(FORUM["id"])}
        # Each board is in its topic, and its buttons work there.
        alices = next(r for r in running if r.players[0]["name"] == "Alice")
        board = world.fake.messages[(FORUM["id"], int((alices.board_ref or {})["message"]))]
        assert board.topic == int(alices.channel.split("/")[1])
        assert board.buttons
        answers = await world.press(ALICE, board, board.buttons[0]["callback_data"])
        assert answers and not answers[0].get("text"), "the press is a step of that game"
        assert f"https://t.me/c/7001/{board.message_id}" in first.text
        # The picker in General opens a topic too.
        await world.say(BOB, FORUM, "/play")
        picker = world.last(FORUM)
        await world.click(BOB, picker, "L-game")
        await world.click(BOB, world.last(FORUM), "easy")
        assert len(world.fake.topics[FORUM["id"]]) == 3
        assert "has a topic of its own" in world.fake.messages[
            (FORUM["id"], picker.message_id)].text


async def test_a_plain_group_and_a_topic_keep_their_one_game(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, PLAIN, "/play lgame easy")
        assert (await world.store.running_game("telegram", str(PLAIN["id"]))) is not None
        assert PLAIN["id"] not in world.fake.topics
        world.fake.topics[FORUM["id"]] = {77: "Corner"}
        await world.say(ALICE, FORUM, "/play lgame easy", topic=77)
        record = await world.store.running_game("telegram", f"{FORUM['id']}/77")
        assert record is not None, "a game asked for inside a topic is played there"
        assert world.fake.topics[FORUM["id"]] == {77: "Corner"}
