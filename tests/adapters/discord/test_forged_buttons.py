"""Forged buttons on Discord: every payload kind pressed in every kind of place, through
the real discord.py client in simcord. Where the rule refuses, the answer is the same
sentence and the database is unchanged.

simcord, like Discord, lets a user click only a component that is on the message, so each
forged payload is put on a message the bot posted in that place (as an old board there
would carry it) and clicked as a user would. The press then reaches the service through
discord.py's dynamic items, and the one rule of ``Service.press_place`` decides."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.adapters.discord.components import build_view
from bot.adapters.discord.layout import Layout
from bot.adapters.discord.menus import BUTTON_PREFIX, MenuButton
from bot.service import Opponent, Place, User
from renderers.i18n import translate
from tests.helpers import hostile
from tests.helpers.discord_world import World, discord_world
from tests.helpers.forged import (
    WHERE,
    Where,
    allowed,
    hand_payload,
    lobby_payload,
    mover_seat,
    whole_move,
)

REFUSALS = {translate("en", "error.button_not_valid"), translate("en", "error.bad_payload")}
_channel_names = (f"table-{n}" for n in itertools.count(1))


def user_of(actor: Any) -> User:
    return User("discord", str(actor.id), actor.name)


async def post_with_button(world: World, channel_id: int, payload: str) -> discord.Message:
    layout = Layout("A board", [MenuButton("Press", BUTTON_PREFIX + payload, 0, True)], [])
    view = build_view(layout)
    assert view is not None
    return await world.bot.get_partial_messageable(channel_id).send(layout.content, view=view)


async def dm_channel_id(world: World, actor: Any) -> int:
    dm = await world.bot.create_dm(discord.Object(actor.id))
    return dm.id


@pytest.mark.parametrize("kind", ["m", "h", "j", "g"])
@pytest.mark.parametrize("where", WHERE)
async def test_a_forged_button_acts_only_where_the_rule_allows(tmp_path: Path, kind: str,
                                                               where: Where) -> None:
    async with discord_world(tmp_path) as world:
        channel = world.guild.create_text_channel(next(_channel_names))
        place = Place("discord", str(channel.id), "en", True, server=str(world.guild.id))
        alice, bob = user_of(world.alice), user_of(world.bob)
        if kind in ("m", "h"):
            reply = await world.bot.service.start_game(place, alice, "booleo",
                                                       Opponent("user", user=bob))
        else:
            reply = await world.bot.service.start_game(place, alice, "turing",
                                                       Opponent("open"))
        assert reply.ok and reply.board is not None, reply.notice
        game_id = reply.board.game_id
        record = await world.store.get_game(game_id)
        assert record is not None
        if kind in ("m", "h"):
            seated = (world.alice, world.bob)[mover_seat(record)]
            data = whole_move(record) if kind == "m" else hand_payload(record)
        else:
            seated = world.alice
            data = lobby_payload(record, kind)  # type: ignore[arg-type]
        if where == "stranger's private chat":
            member = world.carol
        elif kind == "j":
            member = world.alice if where == "seated player's private chat" else world.bob
        else:
            member = seated
        if where == "own group":
            actor, target = member, channel.id
        elif where == "another group":
            other = world.env.create_guild("Another class")
            target = other.create_text_channel("games").id
            actor = other.add_member(member.user)
        else:
            actor, target = member.user, await dm_channel_id(world, member)
        message = await post_with_button(world, target, data)
        before = await hostile.snapshot(world.store, [game_id])
        result = await actor.click(message, custom_id=BUTTON_PREFIX + data)
        await world.bot.wait_for_background()
        after = await hostile.snapshot(world.store, [game_id])
        assert result.acknowledged
        texts = [m.content for m in ([result.response] if result.response else [])
                 + result.followups]
        if allowed(kind, where):
            assert not REFUSALS & set(texts), texts
            if kind in ("m", "j", "g"):
                assert after[game_id] != before[game_id], "an allowed press must act"
        else:
            assert REFUSALS & set(texts), texts
            assert after == before
            assert not any("joined" in m.content for m in channel.history())
