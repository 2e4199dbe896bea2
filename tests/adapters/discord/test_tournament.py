"""A tournament on Discord, through simcord: a moderator creates it, four members sign up
with the button, every game gets its own thread, one game is lost on the turn timer, the
bot restarts in the middle of the last round, and the one tournament message ends as the
final standings."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import discord

from bot.store import GameRecord
from tests.helpers.clock import FakeClock
from tests.helpers.discord_play import message_by_id
from tests.helpers.discord_world import World, components_of, discord_world


def teacher(world: World) -> Any:
    role = world.guild.create_role("Helpers", permissions=discord.Permissions(
        manage_messages=True))
    return world.guild.add_member(world.env.create_user("teacher"), roles=[role])


def tournament_message(world: World) -> discord.Message:
    found = [m for m in world.channel.history() if m.content.startswith("🏆 Tournament #")]
    assert len(found) == 1, [m.content for m in world.channel.history()]
    return found[0]


async def tournament_games(world: World) -> list[GameRecord]:
    return [g for g in await world.store.running_games("discord", str(world.guild.id))
            if g.options.get("tournament")]


async def settle(world: World) -> None:
    await world.bot.app.tournaments.settle()
    await world.bot.wait_for_background()


async def test_a_swiss_tournament_on_discord(tmp_path: Path) -> None:
    clock = FakeClock()
    async with discord_world(tmp_path, clock=clock) as world:
        mod = teacher(world)
        dave = world.guild.add_member(world.env.create_user("dave"))
        people = {str(p.id): p for p in (world.alice, world.bob, world.carol, dave)}
        refused = await world.alice.slash(world.channel, "tournament create", game="lgame")
        assert refused.ephemeral and "Only moderators" in refused.response.content
        created = await mod.slash(world.channel, "tournament create", game="lgame",
                                  format="swiss", timer="0 10 forfeit")
        assert created.ephemeral and "Tournament #1" in created.response.content
        message = tournament_message(world)
        button = [c for c in components_of(message) if c.get("custom_id") == "lt:1"]
        assert button and "Sign up" in button[0]["label"]
        for person in people.values():
            signed = await person.click(message, custom_id="lt:1")
            assert signed.response.ephemeral and "signed up" in signed.response.content
        message = message_by_id(world.channel, message.id)
        assert "Signed up (4): alice, bob, carol, dave" in message.content

        started = await mod.slash(world.channel, "tournament start")
        assert started.ephemeral and "has started" in started.response.content
        await settle(world)
        first_round = await tournament_games(world)
        assert len(first_round) == 2 and len(world.channel.threads) == 2
        assert {g.channel for g in first_round} == {str(t.id) for t in world.channel.threads}
        message = message_by_id(world.channel, message.id)
        assert "Round 1 of 2" in message.content and not components_of(message)

        # Board 1 resigned in its thread; board 2 lost on the tournament's timer.
        game, timed = first_round
        thread = next(t for t in world.channel.threads if str(t.id) == game.channel)
        loser = people[str(game.players[1]["id"])]
        resigned = await loser.slash(thread, "resign")
        assert resigned.acknowledged
        assert await world.bot.check_turn_timers() == 0
        clock.advance(11)
        assert await world.bot.check_turn_timers() == 1
        await settle(world)
        forfeited = await world.store.get_game(timed.id)
        assert forfeited is not None and forfeited.status == "finished"
        timed_thread = next(t for t in world.channel.threads if str(t.id) == timed.channel)
        assert any("ran out of time" in m.content for m in timed_thread.history())
        second_round = await tournament_games(world)
        assert len(second_round) == 2 and len(world.channel.threads) == 4
        assert "Round 2 of 2" in message_by_id(world.channel, message.id).content

        # The bot restarts between two games of the last round.
        early, late = second_round
        early_thread = next(t for t in world.channel.threads if str(t.id) == early.channel)
        await people[str(early.players[0]["id"])].slash(early_thread, "resign")
        await settle(world)
        await world.restart()
        await settle(world)
        late_thread = next(t for t in world.channel.threads if str(t.id) == late.channel)
        await people[str(late.players[1]["id"])].slash(late_thread, "resign")
        await settle(world)

        final = message_by_id(world.channel, message.id)
        assert "Final standings" in final.content and "Buchholz" in final.content
        champion = people[str(early.players[1]["id"])]
        assert f"1. {champion.name} — 2 " in final.content
        assert len([m for m in world.channel.history()
                    if m.content.startswith("🏆 Tournament #")]) == 1

        # /export: the results, and the tournament's final standings beside them.
        exported = await mod.slash(world.channel, "export")
        files = exported.response.attachments
        assert [f.filename.split("-")[0] for f in files] == ["results", "tournaments"]
        rows = list(csv.reader(io.StringIO(
            world.env.backend.cdn.get(files[1].url).decode("utf-8"))))
        assert rows[0][:7] == ["tournament", "date", "game", "format", "status", "rank",
                               "player"]
        assert rows[1][5:8] == ["1", champion.name, "2.0"] and len(rows) == 5
