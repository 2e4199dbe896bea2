"""End to end on Discord (simcord): moderators ending others' games, the results export,
and turn timers with a fake clock, across a restart."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import discord

from tests.helpers.clock import FakeClock
from tests.helpers.discord_world import World, discord_world


def public(channel: Any) -> list[str]:
    return [m.content for m in channel.history() if not m.flags.ephemeral]


def teacher(world: World) -> Any:
    role = world.guild.create_role("Helpers", permissions=discord.Permissions(
        manage_messages=True))
    return world.guild.add_member(world.env.create_user("teacher"), roles=[role])


async def test_moderator_ends_a_game_and_exports_results(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        mod = teacher(world)
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        await world.bob.slash(world.channel, "resign")
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)

        refused = await world.carol.slash(world.channel, "abandon")
        assert refused.ephemeral and "moderator" in refused.response.content.lower()
        assert await world.store.running_game("discord", str(world.channel.id)) is not None
        ended = await mod.slash(world.channel, "abandon")
        assert not ended.ephemeral and "teacher" in ended.response.content
        assert await world.store.running_game("discord", str(world.channel.id)) is None

        no_export = await world.carol.slash(world.channel, "export")
        assert no_export.ephemeral and "Only moderators" in no_export.response.content
        exported = await mod.slash(world.channel, "export")
        assert exported.ephemeral
        files = exported.response.attachments
        assert len(files) == 1 and files[0].filename.endswith(".csv")
        data = world.env.backend.cdn.get(files[0].url)
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
        assert rows[0] == ["date", "game", "player", "opponent", "outcome", "rating_after"]
        assert sorted(rows[1:]) == [
            [rows[1][0], "lgame", "alice", "human", "win", "1216"],
            [rows[1][0], "lgame", "bob", "human", "loss", "1184"]]
        assert str(world.alice.id) not in data.decode("utf-8"), "no user ids in the export"


async def test_turn_timer_reminds_then_forfeits_across_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    async with discord_world(tmp_path, clock=clock) as world:
        mod = teacher(world)
        refused = await world.carol.slash(world.channel, "timer", remind=5, limit=15)
        assert refused.ephemeral and "Only moderators" in refused.response.content
        set_up = await mod.slash(world.channel, "timer", remind=5, limit=15, then="forfeit")
        assert "reminder after 5 min" in set_up.response.content
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)

        assert await world.bot.check_turn_timers() == 0  # starts timing alice's turn
        clock.advance(4)
        assert await world.bot.check_turn_timers() == 0
        clock.advance(2)
        assert await world.bot.check_turn_timers() == 1
        assert await world.bot.check_turn_timers() == 0, "a reminder fires once"
        reminder = public(world.channel)[-1]
        assert "alice, it is your turn" in reminder and "<@" not in reminder

        await world.restart()
        world.bot.classroom.clock = clock
        assert await world.bot.check_turn_timers() == 0, "no second reminder after a restart"
        clock.advance(10)
        assert await world.bot.check_turn_timers() == 1
        await world.bot.wait_for_background()
        assert await world.bot.check_turn_timers() == 0
        assert any("alice ran out of time" in text for text in public(world.channel))
        record = await world.store.last_finished_game("discord", str(world.channel.id))
        assert record is not None and record.status == "finished"
        async with world.store._db.execute(
                "SELECT name, outcome FROM results ORDER BY name") as cursor:
            assert await cursor.fetchall() == [("alice", "loss"), ("bob", "win")]


async def test_a_configured_teacher_role_moderates_without_any_permission(
        tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        head = world.guild.add_member(
            world.env.create_user("head"),
            roles=[world.guild.create_role("Head", permissions=discord.Permissions(
                manage_guild=True))])
        teachers = world.guild.create_role("Teachers", permissions=discord.Permissions.none())
        teacher_member = world.guild.add_member(world.env.create_user("ms-jansen"),
                                                roles=[teachers])
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)

        before = await teacher_member.slash(world.channel, "abandon")
        assert before.ephemeral and "moderator" in before.response.content.lower()
        assert await world.store.running_game("discord", str(world.channel.id)) is not None

        await head.slash(world.channel, "logic-settings teacher-role", role=teachers)
        refused = await world.carol.slash(world.channel, "abandon")
        assert refused.ephemeral, "a role that is not the teachers' gives no rights"
        ended = await teacher_member.slash(world.channel, "abandon")
        assert not ended.ephemeral and "ms-jansen" in ended.response.content
        assert await world.store.running_game("discord", str(world.channel.id)) is None
        exported = await teacher_member.slash(world.channel, "export")
        assert len(exported.response.attachments) == 1
        dutch = await teacher_member.slash(world.channel, "logic-settings language", value="nl")
        assert dutch.ephemeral and "taal" in dutch.response.content.lower()
        refused = await world.carol.slash(world.channel, "logic-settings language", value="de")
        assert refused.ephemeral and "moderator" in refused.response.content.lower()
        own = await teacher_member.slash(world.channel, "logic-settings teacher-role",
                                         role=teachers)
        assert own.ephemeral, "only managers say who the teachers are"
        await head.slash(world.channel, "logic-settings language", value="en")

        await head.slash(world.channel, "logic-settings teacher-role")
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        removed = await teacher_member.slash(world.channel, "abandon")
        assert removed.ephemeral, "removing the teacher role takes the rights away again"


async def test_a_moderator_ends_a_game_in_another_channel_by_its_number(
        tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        mod = teacher(world)
        other_room = world.guild.create_text_channel("room-2")
        await world.alice.slash(other_room, "play", game="lgame", opponent=world.bob)
        record = await world.store.running_game("discord", str(other_room.id))
        assert record is not None
        listed = await mod.slash(world.channel, "games")
        assert f"#{record.id} L-game" in listed.response.content

        refused = await world.carol.slash(world.channel, "abandon", game=record.id)
        assert refused.ephemeral and "moderator" in refused.response.content.lower()
        unknown = await mod.slash(world.channel, "abandon", game=record.id + 1)
        assert unknown.ephemeral and f"No game #{record.id + 1}" in unknown.response.content
        assert (await world.store.get_game(record.id)).status == "active"  # type: ignore[union-attr]

        ended = await mod.slash(world.channel, "abandon", game=record.id)
        assert ended.ephemeral and f"Game #{record.id} is ended" in ended.response.content
        assert (await world.store.get_game(record.id)).status == "abandoned"  # type: ignore[union-attr]
        await world.bot.wait_for_background()
        assert any("teacher" in text for text in public(other_room)), \
            "the players see who ended their game, in their channel"
        assert not any("abandon" in text.lower() for text in public(world.channel))


async def test_a_game_number_from_another_server_is_not_found(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        elsewhere = world.env.create_guild("Class 4A")
        room = elsewhere.create_text_channel("games")
        stranger = elsewhere.add_member(world.env.create_user("dave"))
        await stranger.slash(room, "play", game="lgame", level="easy")
        record = await world.store.running_game("discord", str(room.id))
        assert record is not None
        answer = await teacher(world).slash(world.channel, "abandon", game=record.id)
        assert answer.ephemeral and "No game" in answer.response.content
        assert (await world.store.get_game(record.id)).running  # type: ignore[union-attr]
