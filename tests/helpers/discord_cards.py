"""What the card games' Discord tests share: a recorder of every message and edit the
simulated Discord stores, Discord's component limits, and the way into a player's hand."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import discord

from bot.adapters.discord.menus import select_payload
from renderers.i18n import translate
from tests.helpers.discord_play import menu_items as menu_items  # shared by both helpers
from tests.helpers.discord_text import interactive_of, text_displays_of, walk
from tests.helpers.discord_world import World, components_of

HAND_LABEL = translate("en", "menu.hand")


# ------------------------------------------------------------------ recording
@dataclass
class Shown:
    """One message as Discord stored it, when it was posted or after one of its edits."""

    channel_id: int
    message_id: int
    ephemeral: bool
    viewer: str | None  # who an ephemeral message is for
    content: str
    components: list[dict[str, Any]]


def record_messages(world: World) -> list[Shown]:
    """Record every message the in-memory Discord stores and every edit, from now on."""
    backend = world.env.backend
    shown: list[Shown] = []
    commit, edit = backend.commit_message, backend.edit_message

    def note(message: Any) -> Any:
        user = (message.interaction_metadata or {}).get("user") or {}
        shown.append(Shown(message.channel_id, message.id, message.is_ephemeral,
                           str(user["id"]) if "id" in user else None, message.content,
                           copy.deepcopy(message.components)))
        return message

    def committed(message: Any, *args: Any, **kwargs: Any) -> Any:
        return note(commit(message, *args, **kwargs))

    def edited(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
        return note(edit(channel_id, message_id, fields))

    backend.commit_message = committed
    backend.edit_message = edited
    return shown


def check_rows(rows: list[dict[str, Any]]) -> None:
    """Discord's component limits, on components as Discord stores them: a classic
    message's at most 5 rows, or a Components V2 message's at most 40 components (nested
    ones counted) and 4000 characters of text."""
    v2 = any(row.get("type") != 1 for row in rows)
    if v2:
        assert len(list(walk(rows))) <= 40
        assert sum(len(text) for text in text_displays_of(rows)) <= 4000
    else:
        assert len(rows) <= 5
    custom_ids = []
    for child in interactive_of(rows):
        custom_ids.append(child["custom_id"])
        assert len(child["custom_id"]) <= 100
        if child["type"] == 2:
            assert 1 <= len(child["label"]) <= 80, child
        else:
            assert 1 <= len(child["options"]) <= 25, child
            assert all(1 <= len(o["label"]) <= 100 and len(o["value"]) <= 100
                       for o in child["options"])
    for row in walk(rows):
        if row.get("type") == 1:
            assert 1 <= len(row["components"]) <= 5
    assert len(custom_ids) == len(set(custom_ids)), "custom ids are unique in a message"


def check_shown(shown: list[Shown]) -> None:
    for message in shown:
        assert len(message.content) <= 2000
        if any(row.get("type") != 1 for row in message.components):
            assert message.content == "", "a Components V2 message has no content"
        check_rows(message.components)


# ------------------------------------------------------------------- game access
async def game_record(world: World, channel: Any) -> Any:
    """The channel's running game, or its last finished one."""
    record = await world.store.running_game("discord", str(channel.id))
    if record is None:
        records = [r for r in await world.store.games_with_status("finished", "abandoned")
                   if r.channel == str(channel.id)]
        record = max(records, key=lambda r: r.id)
    return record


async def board_message(world: World, channel: Any) -> discord.Message:
    record = await game_record(world, channel)
    assert record.board_ref is not None
    message_id = int(record.board_ref["message"])
    return next(m for m in channel.history() if m.id == message_id)


def hand_button(board: discord.Message) -> str:
    return next(str(c["custom_id"]) for c in components_of(board)
                if c.get("label") == HAND_LABEL)


def hand_options(message: Any) -> list[tuple[dict[str, Any], str | None, tuple[str, ...]]]:
    """Each option of a hand: its button or select, the select value, and its menu path."""
    options: list[tuple[dict[str, Any], str | None, tuple[str, ...]]] = []
    for item in menu_items(message):
        if item["type"] == 2:
            options.append((item, None, menu_path(item["custom_id"][len("lb:"):])))
            continue
        prefix = item["custom_id"][len("lbs:"):].rsplit(":", 1)[0]
        options += [(item, o["value"], menu_path(select_payload(prefix, o["value"])))
                    for o in item["options"]]
    return options


def menu_path(payload: str) -> tuple[str, ...]:
    return tuple(payload.split(":", 3)[3].split("."))
