"""A tournament of a game with hidden hands (bOOleO) keeps the hands private.

The privacy sweep (``test_privacy_sweep``) checks games started with /play; a tournament
game is started by the bot in its own thread (Discord) or at the group's table (Telegram),
and the tournament message is edited in place after each result. Here two players with
hostile names play a bOOleO tournament game through their private hands on both
platforms, a stranger tries the hands' buttons, one player resigns, and every public text
(each post and edit in the channel, its threads, the tournament message and its final
standings) is checked for the private lines of both hands at every step.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord

from bot.store import GameRecord
from tests.helpers import hostile
from tests.helpers import telegram_cards as cards
from tests.helpers.discord_cards import game_record, record_messages
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import discord_world
from tests.helpers.privacy import (
    CHAT,
    HOSTILE_NAMES,
    ONE,
    STRANGER,
    TWO,
    assert_private,
    discord_move,
    group_texts,
    private_lines,
    telegram_move,
)
from tests.helpers.telegram_fake import Person
from tests.helpers.telegram_world import telegram_world

MOVES = 8
TEACHER_ID = 2009


async def tournament_game(store: Any, platform: str, server: str) -> GameRecord:
    games = [g for g in await store.running_games(platform, server)
             if g.options.get("tournament")]
    assert len(games) == 1, games
    return games[0]


async def test_a_booleo_tournament_on_discord_shows_no_hand(tmp_path: Path) -> None:
    rng = random.Random("tournament-discord")
    async with discord_world(tmp_path) as world:
        role = world.guild.create_role("Helpers", permissions=discord.Permissions(
            manage_messages=True))
        mod = world.guild.add_member(world.env.create_user("teacher"), roles=[role])
        one, two, stranger = (world.guild.add_member(world.env.create_user(
            f"player{index}", global_name=name)) for index, name in enumerate(HOSTILE_NAMES))
        shown = record_messages(world)
        created = await mod.slash(world.channel, "tournament create", game="booleo",
                                  format="round_robin")
        assert created.ephemeral and "Tournament #1" in visible_text(created.response)
        message = next(m for m in world.channel.history()
                       if visible_text(m).startswith("🏆 Tournament #"))
        for person in (one, two):
            signed = await person.click(message, custom_id="lt:1")
            assert "signed up" in visible_text(signed.response)
        await mod.slash(world.channel, "tournament start")
        await world.bot.app.tournaments.settle()
        await world.bot.wait_for_background()

        record = await tournament_game(world.store, "discord", str(world.guild.id))
        thread = next(t for t in world.channel.threads if str(t.id) == record.channel)
        seats = {str(one.id): one, str(two.id): two}
        secrets: set[str] = set()
        for _ in range(MOVES):
            record = await game_record(world, thread)
            secrets |= private_lines(record)
            if not record.running:
                break
            mover_seat = hostile.state_of(record).to_move()[0]
            await discord_move(world, seats[record.players[mover_seat]["id"]], stranger,
                               thread, rng)
        record = await game_record(world, thread)
        secrets |= private_lines(record)
        assert record.running, "the game is still on, so its hands are still secret"
        await seats[record.players[0]["id"]].slash(thread, "resign")
        await world.bot.app.tournaments.settle()
        await world.bot.wait_for_background()

        final = next(m for m in world.channel.history()
                     if visible_text(m).startswith("🏆 Tournament #"))
        assert "Final standings" in visible_text(final)
        assert secrets, "the hands had lines to keep private"
        assert any(secret in visible_text(m) for m in shown if m.ephemeral for secret in secrets), \
            "the players did see their hands (so the check below can fail)"
        public = [visible_text(m) for m in shown if not m.ephemeral]
        assert any(m.channel_id == thread.id for m in shown if not m.ephemeral)
        assert any(visible_text(m).startswith("🏆 Tournament #") for m in shown)
        assert_private(public, secrets, "a public Discord message of the tournament")
        assert_private([visible_text(m) for m in shown if m.viewer == str(stranger.id)], secrets,
                       "an answer to the stranger")


async def test_a_booleo_tournament_in_a_telegram_group_shows_no_hand(tmp_path: Path) -> None:
    rng = random.Random("tournament-telegram")
    teacher = Person(TEACHER_ID, "Teacher")
    async with telegram_world(tmp_path) as world:
        world.fake.admins[CHAT["id"]] = {teacher.id}
        for person in (ONE, TWO, STRANGER):
            await world.say(person, person.private_chat, "/start")
        await world.say(teacher, CHAT, "/tournament create booleo round-robin")
        message = next(m for m in world.fake.bot_messages(CHAT["id"])
                       if m.text.startswith("🏆 Tournament #"))
        for person in (ONE, TWO):
            answers = await world.click(person, message, "Sign up")
            assert "signed up" in answers[-1]["text"]
        await world.say(teacher, CHAT, "/tournament start")
        await world.bot.app.tournaments.settle()
        await world.settle()

        record = await tournament_game(world.store, "telegram", str(CHAT["id"]))
        assert record.channel == str(CHAT["id"])  # one game: the group's own table
        people = {str(ONE.id): ONE, str(TWO.id): TWO}
        secrets: set[str] = set()
        stranger_answers: list[dict[str, Any]] = []
        for _ in range(MOVES):
            record = await cards.latest_record(world, CHAT)
            secrets |= private_lines(record)
            if not record.running:
                break
            person = people[record.players[hostile.state_of(record).to_move()[0]]["id"]]
            stranger_answers += await telegram_move(world, person, record, rng)
        record = await cards.latest_record(world, CHAT)
        secrets |= private_lines(record)
        assert record.running, "the game is still on, so its hands are still secret"
        await world.say(people[record.players[0]["id"]], CHAT, "/resign")
        await world.bot.app.tournaments.settle()
        await world.settle()

        public = group_texts(world, CHAT["id"])
        assert any("Final standings" in text for text in public)
        assert secrets, "the hands had lines to keep private"
        assert any(secret in text for person in (ONE, TWO)
                   for text in group_texts(world, person.id) for secret in secrets), \
            "the players did see their hands (so the check below can fail)"
        assert_private(public, secrets, "a group message of the tournament")
        assert_private([str(a.get("text", "")) for a in stranger_answers], secrets,
                       "an answer to the stranger")
        assert_private(group_texts(world, STRANGER.id), secrets, "the stranger's chat")
