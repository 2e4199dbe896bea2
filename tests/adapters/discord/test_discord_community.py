"""End to end on Discord (simcord): /stats, /leaderboard <game>, /rematch, /games and
/forget-me."""

from __future__ import annotations

import json
from pathlib import Path

from bot.limits import RateLimiter
from tests.helpers.discord_world import discord_world


async def test_stats_leaderboard_rematch_games_and_forget_me(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        resigned = await world.bob.slash(world.channel, "resign")
        assert not resigned.ephemeral and "resigned" in resigned.response.content

        own = await world.alice.slash(world.channel, "stats")
        assert own.ephemeral and "L-game: 1 won, 0 lost, 0 drawn" in own.response.content
        assert "1216" in own.response.content
        theirs = await world.alice.slash(world.channel, "stats", player=world.bob)
        assert "0 won, 1 lost" in theirs.response.content and "1184" in theirs.response.content
        ranking = await world.carol.slash(world.channel, "leaderboard", game="lgame")
        lines = ranking.response.content.splitlines()
        assert "this server" in lines[0] and lines[1].startswith("1. alice · 1216")
        assert "everyone" in ranking.response.content
        unknown = await world.carol.slash(world.channel, "leaderboard", game="chess")
        assert unknown.ephemeral and "chess" in unknown.response.content

        stranger = await world.carol.slash(world.channel, "rematch")
        assert stranger.ephemeral and "Only a player" in stranger.response.content
        again = await world.bob.slash(world.channel, "rematch")
        assert not again.ephemeral
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.server == str(world.guild.id)
        assert [p["name"] for p in record.players] == ["bob", "alice"]
        twice = await world.alice.slash(world.channel, "rematch")
        assert twice.ephemeral and "already" in twice.response.content.lower()

        other = world.guild.create_text_channel("corner")
        await world.carol.slash(other, "play", game="lgame", level="easy")
        listed = await world.carol.slash(world.channel, "games")
        text = listed.response.content
        assert listed.ephemeral and "bob vs alice" in text and "carol vs" in text
        ref = record.board_ref or {}
        assert (f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/"
                f"{ref.get('message')}") in text

        gone = await world.alice.slash(world.channel, "forget-me")
        assert gone.ephemeral and "a former player" in gone.response.content
        await world.bot.wait_for_background()
        assert await world.store.running_game("discord", str(world.channel.id)) is None
        alice_id = str(world.alice.id)
        async with world.store._db.execute("SELECT players FROM games") as cursor:
            seats = [p for (t,) in await cursor.fetchall() for p in json.loads(t)]
        assert not any(p.get("name") == "alice" or p.get("id") == alice_id for p in seats)
        assert sum(p.get("name") == "a former player" for p in seats) == 2
        async with world.store._db.execute(
                "SELECT COUNT(*) FROM results WHERE name='alice'") as cursor:
            assert await cursor.fetchone() == (0,)
        async with world.store._db.execute(
                "SELECT COUNT(*) FROM ratings WHERE name='alice'") as cursor:
            assert await cursor.fetchone() == (0,)
        mine = await world.alice.slash(world.channel, "stats")
        assert "no finished games" in mine.response.content


async def test_reading_commands_count_against_the_rate_limit(tmp_path: Path) -> None:
    """/stats, /leaderboard, /games and /export cost a query each: a flood of them is
    answered like a flood of moves, and the others are not slowed down."""
    async with discord_world(tmp_path) as world:
        world.bot.service.rate = RateLimiter(4, 0.001)
        for command, options in [("stats", {}), ("leaderboard", {"game": "lgame"}),
                                 ("games", {}), ("leaderboard", {})]:
            answer = await world.alice.slash(world.channel, command, **options)
            assert "lot of commands" not in answer.response.content, command
        for command in ("stats", "leaderboard", "games", "export"):
            refused = await world.alice.slash(world.channel, command)
            assert refused.ephemeral and "lot of commands" in refused.response.content, command
        other = await world.bob.slash(world.channel, "stats")
        assert "lot of commands" not in other.response.content
