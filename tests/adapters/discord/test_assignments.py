"""Assignments on Discord, through simcord: a teacher sets work with /assign (posted for
the class), students play, /progress answers each student privately with their own
standing, and only a moderator gets the class table and its CSV."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.helpers.discord_play import teacher
from tests.helpers.discord_world import discord_world


async def test_an_assignment_is_set_played_and_reported(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        mod = teacher(world)
        refused = await world.alice.slash(world.channel, "assign", task="win", game="lgame")
        assert refused.ephemeral and "Only moderators" in refused.response.content
        created = await mod.slash(world.channel, "assign", task="win", game="lgame",
                                  count=1, deadline="7")
        assert not created.ephemeral, "the class sees the work it was given"
        assert "Assignment 1: Win 1 × L-game, by " in created.response.content
        bad = await mod.slash(world.channel, "assign", task="win", game="lgame",
                              level="grandmaster")
        assert bad.ephemeral and "Levels of L-game" in bad.response.content

        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        await world.bob.slash(world.channel, "resign")
        await world.bot.wait_for_background()

        mine = await world.alice.slash(world.channel, "progress")
        assert mine.ephemeral and "✅ 1. Win 1 × L-game: 1/1" in mine.response.content
        bobs = await world.bob.slash(world.channel, "progress")
        assert bobs.ephemeral and "⬜ 1. Win 1 × L-game: 0/1" in bobs.response.content
        assert "alice" not in bobs.response.content.lower()

        peek = await world.alice.slash(world.channel, "progress", everyone=True)
        assert peek.ephemeral and "moderators" in peek.response.content.lower()
        table = await mod.slash(world.channel, "progress", everyone=True)
        assert table.ephemeral
        assert "alice — 1: ✅" in table.response.content
        assert "bob — 1: 0" in table.response.content
        files = table.response.attachments
        assert len(files) == 1 and files[0].filename.endswith(".csv")
        rows = list(csv.reader(io.StringIO(
            world.env.backend.cdn.get(files[0].url).decode("utf-8"))))
        assert rows[0][0] == "name" and rows[0][1].startswith("1: Win 1 × L-game (of 1, by ")
        assert sorted(rows[1:]) == [["alice", "1"], ["bob", "0"]]
        listed = await world.bob.slash(world.channel, "assign")
        assert listed.ephemeral and "1. Win 1 × L-game — " in listed.response.content
        closed = await mod.slash(world.channel, "assign", task="close", number=1)
        assert not closed.ephemeral and "Assignment 1 is closed" in closed.response.content
