"""A tournament on Telegram (loopback fake Bot API): an admin creates it in a plain group,
four members sign up with the button, the games sit at the group's tables, one is lost on
the turn timer, the bot restarts in the middle of the last round, and the one tournament
message ends as the final standings."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from bot.store import GameRecord
from tests.helpers.clock import FakeClock
from tests.helpers.telegram_fake import Person, Sent
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world

DAVE = Person(1004, "Dave")
TEACHER = Person(1009, "Teacher")
PEOPLE = {str(p.id): p for p in (ALICE, BOB, CAROL, DAVE)}


def tournament_message(world: World) -> Sent:
    found = [m for m in world.fake.bot_messages(GROUP["id"])
             if m.text.startswith("🏆 Tournament #")]
    assert len(found) == 1, [m.text for m in world.fake.bot_messages(GROUP["id"])]
    return found[0]


async def tournament_games(world: World) -> list[GameRecord]:
    return [g for g in await world.store.running_games("telegram", str(GROUP["id"]))
            if g.options.get("tournament")]


async def settle(world: World) -> None:
    await world.bot.app.tournaments.settle()
    await world.settle()


async def test_a_swiss_tournament_in_a_telegram_group(tmp_path: Path) -> None:
    clock = FakeClock()
    async with telegram_world(tmp_path, clock=clock) as world:
        world.fake.admins[GROUP["id"]] = {TEACHER.id}
        await world.say(ALICE, GROUP, "/tournament create lgame swiss")
        assert "Only this group's admins" in world.last(GROUP).text
        await world.say(TEACHER, GROUP, "/tournament create lgame swiss timer=0,10,forfeit")
        assert "Tournament #1" in world.last(GROUP).text
        message = tournament_message(world)
        for person in PEOPLE.values():
            answers = await world.click(person, message, "Sign up")
            assert "signed up" in answers[-1]["text"]
        message = tournament_message(world)
        assert "Signed up (4): Alice, Bob, Carol, Dave" in message.text

        await world.say(TEACHER, GROUP, "/tournament start")
        await settle(world)
        first_round = await tournament_games(world)
        assert sorted(g.channel for g in first_round) == [str(GROUP["id"]),
                                                          f"{GROUP['id']}#2"]
        message = tournament_message(world)
        assert "Round 1 of 2" in message.text and not message.buttons

        # Board 1 resigned; board 2 lost on the tournament's own timer.
        game, timed = first_round
        await world.say(PEOPLE[str(game.players[1]["id"])], GROUP, "/resign")
        assert await world.bot.check_turn_timers() == 0
        clock.advance(11)
        assert await world.bot.check_turn_timers() == 1
        await settle(world)
        forfeited = await world.store.get_game(timed.id)
        assert forfeited is not None and forfeited.status == "finished"
        assert any("ran out of time" in m.text for m in world.fake.bot_messages(GROUP["id"]))
        second_round = await tournament_games(world)
        assert len(second_round) == 2
        assert "Round 2 of 2" in tournament_message(world).text

        # The bot restarts between two games of the last round.
        early, late = second_round
        await world.say(PEOPLE[str(early.players[0]["id"])], GROUP, "/resign")
        await settle(world)
        await world.restart()
        await settle(world)
        await world.say(PEOPLE[str(late.players[1]["id"])], GROUP, "/resign")
        await settle(world)

        final = tournament_message(world)
        assert final.message_id == message.message_id, "one message, edited in place"
        assert "Final standings" in final.text and "Buchholz" in final.text
        champion = PEOPLE[str(early.players[1]["id"])]
        assert f"1. {champion.first_name} — 2 " in final.text
        # /export: the results, and the tournament's final standings beside them, in the
        # teacher's private chat.
        await world.say(TEACHER, TEACHER.private_chat, "/start")
        await world.say(TEACHER, GROUP, "/export")
        assert {chat for chat, _, _, _ in world.fake.documents} == {TEACHER.id}
        names = [name for _, name, _, _ in world.fake.documents]
        assert [name.split("-")[0] for name in names] == ["results", "tournaments"]
        rows = list(csv.reader(io.StringIO(world.fake.documents[1][2].decode("utf-8"))))
        assert rows[1][5:8] == ["1", champion.first_name, "2.0"] and len(rows) == 5
        assert str(ALICE.id) not in world.fake.documents[1][2].decode("utf-8")

        # A plain group has no topics: Telegram was asked once (every game was opened
        # before the restart), not once for each of the four games.
        assert len(world.fake.calls("createForumTopic")) == 1

        # Once it is over, /tournament says how to start the next one.
        await world.say(ALICE, GROUP, "/tournament")
        assert "/tournament create" in world.last(GROUP).text
