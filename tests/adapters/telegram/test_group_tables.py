"""Many games at once in a plain Telegram group (issue 23.6): a group without topics seats
each further game at a table of its own (``bot.tables``), each with its own board message;
buttons play the game whose board they are on, and typed commands go to the game their
sender sits in, or ask which."""

from __future__ import annotations

from pathlib import Path

from bot.store import GameRecord
from engines.lgame import LGameState
from tests.helpers.telegram_fake import Person, Sent, group_chat
from tests.helpers.telegram_world import ALICE, BOB, CAROL, World, telegram_world

CLASS = group_chat(-1_007_003, "Class 3E")
DAVE = Person(1004, "Dave")


async def running(world: World) -> dict[str, GameRecord]:
    return {record.channel: record
            for record in await world.store.running_games("telegram", str(CLASS["id"]))}


def board_of(world: World, record: GameRecord) -> Sent:
    return world.fake.messages[(CLASS["id"], int((record.board_ref or {})["message"]))]


async def move_on_board(world: World, person: Person, record: GameRecord) -> None:
    """One L-game move with the board's buttons: the first placement, neutrals stay."""
    board = board_of(world, record)
    await world.press(person, board, board.buttons[0]["callback_data"])
    board = board_of(world, record)
    await world.click(person, board, "Neutrals stay")


async def test_a_plain_group_seats_each_pair_at_a_table_of_its_own(tmp_path: Path) -> None:
    room = str(CLASS["id"])
    async with telegram_world(tmp_path) as world:
        bob_line = await world.say(BOB, CLASS, "I'll play")
        await world.say(ALICE, CLASS, "/play lgame", reply_to=bob_line)
        dave_line = await world.say(DAVE, CLASS, "me too")
        await world.say(CAROL, CLASS, "/play lgame", reply_to=dave_line)
        games = await running(world)
        assert sorted(games) == [room, f"{room}#2"], "the second game sits at table 2"
        first, second = games[room], games[f"{room}#2"]
        assert {p["name"] for p in second.players} == {"Carol", "Dave"}
        assert board_of(world, first).message_id != board_of(world, second).message_id

        # Each board's buttons play their own game, and only for its players.
        mover = {"Carol": CAROL, "Dave": DAVE}[second.players[
            LGameState.from_dict(second.state).turn]["name"]]
        await move_on_board(world, mover, second)
        after = await running(world)
        assert after[f"{room}#2"].version > second.version
        assert after[room].version == first.version, "the other table's game is untouched"
        board = board_of(world, after[f"{room}#2"])
        answers = await world.press(ALICE, board, board.buttons[0]["callback_data"])
        assert answers and "not playing" in answers[0].get("text", "")

        # Typed commands go to the sender's own game.
        await world.say(DAVE, CLASS, "/board")
        reposted = world.last(CLASS)
        ref = (await running(world))[f"{room}#2"].board_ref or {}
        assert str(ref["message"]) == str(reposted.message_id), "Dave's board, reposted"

        # Someone at two tables is asked which game they mean.
        await world.say(CAROL, CLASS, "/play lgame easy")
        assert f"{room}#3" in await running(world)
        await world.say(CAROL, CLASS, "/resign")
        asked = world.last(CLASS)
        assert "several games" in asked.text and f"#{second.id} L-game" in asked.text
        assert len(await running(world)) == 3, "nothing was resigned"

        # Dave resigns his one game: table 2 is free for the next pair.
        await world.say(DAVE, CLASS, "/resign")
        assert sorted(await running(world)) == [room, f"{room}#3"]
        await world.say(BOB, CLASS, "/play lgame easy")
        assert sorted(await running(world)) == [room, f"{room}#2", f"{room}#3"]


async def test_a_game_ended_at_a_table_is_played_again_from_its_panel(tmp_path: Path) -> None:
    """The end panel of a table's game works on its board in the group, and "Play
    again" seats the rematch at a free table while the group's first game goes on."""
    room = str(CLASS["id"])
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, CLASS, "/play lgame easy")
        dave_line = await world.say(DAVE, CLASS, "me too")
        await world.say(CAROL, CLASS, "/play lgame", reply_to=dave_line)
        table = (await running(world))[f"{room}#2"]
        await world.say(DAVE, CLASS, "/resign")
        ended = world.fake.messages[(CLASS["id"], int((table.board_ref or {})["message"]))]
        assert "🔁 Play again" in [key["text"] for key in ended.buttons]
        await world.click(CAROL, ended, "🔁 Play again")
        games = await running(world)
        assert sorted(games) == [room, f"{room}#2"]
        assert {p["name"] for p in games[f"{room}#2"].players} == {"Carol", "Dave"}
        assert games[f"{room}#2"].id != table.id


async def test_the_same_game_asked_for_twice_is_not_started_twice(tmp_path: Path) -> None:
    """A repeated /play (a double send, or an update Telegram delivers again after a
    restart) finds the game it already started instead of opening another table."""
    room = str(CLASS["id"])
    async with telegram_world(tmp_path) as world:
        bob_line = await world.say(BOB, CLASS, "I'll play")
        await world.say(ALICE, CLASS, "/play lgame", reply_to=bob_line)
        await world.say(ALICE, CLASS, "/play lgame", reply_to=bob_line)
        assert "You already play L-game here" in world.last(CLASS).text
        await world.say(ALICE, CLASS, "/play lgame easy")
        await world.say(ALICE, CLASS, "/play lgame easy")
        assert "You already play L-game here" in world.last(CLASS).text
        assert sorted(await running(world)) == [room, f"{room}#2"]
