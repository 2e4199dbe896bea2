"""``/logic-settings teacher-role`` names the role it set, and ``show`` the one set
(defect F.3), in the server's language: by its name (mentions in answers are
neutralised, and answers ping no one), or "none" once it is removed. Through simcord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from renderers.i18n import translate
from tests.helpers.discord_world import World, discord_world


def manager(world: World) -> Any:
    return world.guild.add_member(
        world.env.create_user("head"),
        roles=[world.guild.create_role("Head", permissions=discord.Permissions(
            manage_guild=True))])


def role_line(language: str, value: str) -> str:
    return translate(language, "discord.settings.teacher_role", value=value)


def pings_nobody(world: World, content: str) -> bool:
    bodies = [request.json.get("data", request.json) for request in world.env.http_requests
              if isinstance(request.json, dict)]
    sent = [body for body in bodies if isinstance(body, dict) and body.get("content") == content]
    return bool(sent) and all(body.get("allowed_mentions") == {"parse": []} for body in sent)


@pytest.mark.parametrize("language", ["en", "nl", "de"])
async def test_the_answer_names_the_role_set_and_shown(tmp_path: Path, language: str) -> None:
    async with discord_world(tmp_path) as world:
        head = manager(world)
        teachers = world.guild.create_role("Teachers", permissions=discord.Permissions.none())
        await head.slash(world.channel, "logic-settings language", value=language)
        none = translate(language, "discord.settings.teacher_role_none")
        shown = await head.slash(world.channel, "logic-settings show")
        assert role_line(language, none) in shown.response.content

        set_it = await head.slash(world.channel, "logic-settings teacher-role", role=teachers)
        assert set_it.ephemeral
        assert role_line(language, "@Teachers") in set_it.response.content
        assert pings_nobody(world, set_it.response.content)
        shown = await head.slash(world.channel, "logic-settings show")
        assert role_line(language, "@Teachers") in shown.response.content

        removed = await head.slash(world.channel, "logic-settings teacher-role")
        assert role_line(language, none) in removed.response.content
        assert "@Teachers" not in removed.response.content


async def test_a_deleted_role_is_shown_as_none(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        head = manager(world)
        await world.bot.set_guild_setting(world.guild.id, "teacher_role", "424242")
        shown = await head.slash(world.channel, "logic-settings show")
        none = translate("en", "discord.settings.teacher_role_none")
        assert role_line("en", none) in shown.response.content
