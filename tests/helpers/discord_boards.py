"""What a Discord game's board messages show, read from simcord: the version a board's
buttons were drawn for, and which messages still carry live buttons of a game."""

from __future__ import annotations

from typing import Any

import discord

from bot.payloads import Payload
from tests.helpers.discord_world import World, components_of


def payloads_of(message: discord.Message) -> list[Payload]:
    """The game payloads of a message's buttons and selects (``lb:…``)."""
    found = []
    for component in components_of(message):
        payload = Payload.parse(str(component.get("custom_id", ""))[3:])
        if payload is not None:
            found.append(payload)
    return found


def drawn_version(message: discord.Message) -> int | None:
    """The game version a board's buttons were drawn for (None: no buttons)."""
    versions = {payload.version for payload in payloads_of(message)}
    assert len(versions) <= 1, versions
    return versions.pop() if versions else None


def live_boards(world: World, game_id: int, channel: Any | None = None
                ) -> list[discord.Message]:
    """The messages of ``channel`` (the world's by default) with live buttons of
    ``game_id``."""
    return [message for message in (channel or world.channel).history()
            if any(payload.game_id == game_id for payload in payloads_of(message))]


async def stored_version(world: World, game_id: int) -> int:
    record = await world.store.get_game(game_id)
    assert record is not None
    return record.version
