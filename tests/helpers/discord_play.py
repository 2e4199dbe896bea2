"""Playing a Discord game in simcord as a user would: find the board, click through its menu."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.adapters.discord.menus import BUTTON_PREFIX
from tests.helpers.discord_world import World, components_of


def message_by_id(channel: Any, message_id: int) -> discord.Message:
    for message in channel.history():
        if message.id == message_id:
            return message
    raise AssertionError(f"message {message_id} is gone")


async def board_message(world: World, channel: Any | None = None) -> discord.Message:
    record = await world.store.running_game("discord", str((channel or world.channel).id))
    if record is None:  # finished: the last game of the channel
        games = [g for g in await world.store.games_with_status("finished", "abandoned")
                 if g.channel == str((channel or world.channel).id)]
        record = games[-1]
    assert record.board_ref is not None
    return message_by_id(channel or world.channel, int(record.board_ref["message"]))


def menu_items(message: discord.Message) -> list[dict[str, Any]]:
    """The move options on a message: primary buttons and select menus (not an ended
    game's "Play again")."""
    return [c for c in components_of(message)
            if ((c["type"] == 2 and c.get("style") == 1) or c["type"] == 3)
            and not str(c.get("custom_id", "")).startswith(BUTTON_PREFIX + "e:")]


async def choose(actor: Any, message: discord.Message, rng: random.Random) -> Any:
    """Pick one move option at random, by button or by select, as a user would."""
    items = menu_items(message)
    assert items, f"no move options on: {message.content}"
    item = rng.choice(items)
    if item["type"] == 2:
        return await actor.click(message, custom_id=item["custom_id"])
    value = rng.choice(item["options"])["value"]
    return await actor.select(message, [value], custom_id=item["custom_id"])


async def play_one_move(actor: Any, world: World, rng: random.Random,
                        channel: Any | None = None) -> None:
    """Click through the menu until the move is made (the version goes up)."""
    record = await world.store.running_game("discord", str((channel or world.channel).id))
    assert record is not None
    start = record.version
    for _ in range(6):
        message = await board_message(world, channel)
        result = await choose(actor, message, rng)
        assert result.acknowledged
        assert result.response is None or result.response.ephemeral is False
        latest = await world.store.get_game(record.id)
        assert latest is not None
        if latest.version > start:
            return
    raise AssertionError("the menu never completed a move")


async def pick(actor: Any, message: Any, label: str) -> Any:
    """Press the button labelled ``label``, or choose it in the select that offers it (a
    menu of more than twenty options is shown as selects)."""
    for component in components_of(message):
        if component["type"] == 2 and component.get("label") == label:
            return await actor.click(message, custom_id=component["custom_id"])
        for option in component.get("options") or []:
            if option["label"] == label:
                return await actor.select(message, [option["value"]],
                                          custom_id=component["custom_id"])
    raise AssertionError(f"no {label!r} on the message")


def teacher(world: World) -> Any:
    """A member of the world's server with a role that may manage messages: a moderator."""
    role = world.guild.create_role("Helpers", permissions=discord.Permissions(
        manage_messages=True))
    return world.guild.add_member(world.env.create_user("teacher"), roles=[role])
