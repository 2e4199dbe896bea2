"""A layout as discord.py's components: the board's buttons and selects as ``DynamicItem``s
whose custom ids carry the service payload (so a click on a message sent before a
restart still works), a Components V2 layout as text displays, sections and action
rows, a replay's four buttons, and the fields to send or edit a message with."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.adapters.discord.layout import Layout
from bot.adapters.discord.menus import BUTTON_PREFIX, SELECT_PREFIX, select_payload
from bot.learn.replays import ReplayStep
from bot.payloads import PAYLOAD_LIMIT

BUTTON_TEMPLATE = rf"lb:(?P<payload>[!-~]{{1,{PAYLOAD_LIMIT}}})"
REPLAY_TEMPLATE = r"lr:(?P<game>[0-9]{1,12}):(?P<index>[0-9]{1,6}):(?P<slot>[0-3])"
SIGNUP_TEMPLATE = r"lt:(?P<tournament>[0-9]{1,12})"  # a tournament's sign-up button
SELECT_TEMPLATE = rf"lbs:(?P<payload>[!-~]{{1,{PAYLOAD_LIMIT}}}?):(?P<chunk>[0-9])"


def option_button(custom_id: str, label: str, row: int | None, primary: bool,
                  disabled: bool) -> discord.ui.Button[discord.ui.View]:
    """The button of a menu option or a navigation, as the board's, the trainer's and the
    lessons' dynamic items draw it: blue when ``primary``, else grey."""
    style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
    return discord.ui.Button(label=label, custom_id=custom_id, style=style, row=row,
                             disabled=disabled)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                  template=BUTTON_TEMPLATE):
    """A menu, join or hand button. Being a DynamicItem, it works on messages sent before a
    restart: everything it needs is in its custom id and the database."""

    def __init__(self, payload: str, label: str = "…", row: int | None = None,
                 primary: bool = False, disabled: bool = False) -> None:
        super().__init__(option_button(BUTTON_PREFIX + payload, label, row, primary, disabled))
        self.payload = payload

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> BoardButton:
        return cls(match["payload"])

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "handle_component", None)
        if handler is not None:
            await handler(interaction, self.payload)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=REPLAY_TEMPLATE):
    """Start, back, forward or end of a replay: ``lr:<game>:<step>:<slot>`` (the slot keeps
    the ids of one message apart when two buttons lead to the same step)."""

    def __init__(self, game_id: int, index: int, slot: int, label: str = "…",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=f"lr:{game_id}:{index}:{slot}"))
        self.game_id, self.index = game_id, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> ReplayButton:
        return cls(int(match["game"]), int(match["index"]), int(match["slot"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "handle_replay", None)
        if handler is not None:
            await handler(interaction, self.game_id, self.index)


def replay_view(step: ReplayStep) -> discord.ui.View | None:
    """Start, back, forward and end under a replay step; none under a refusal."""
    if not step.ok:
        return None
    view = discord.ui.View(timeout=None)
    at_start, at_end = step.index == 0, step.index == step.last
    for slot, (label, target, disabled) in enumerate((
            ("⏮", step.first, at_start), ("◀", step.back, at_start),
            ("▶", step.forward, at_end), ("⏭", step.end, at_end))):
        view.add_item(ReplayButton(step.game_id, target, slot, label, disabled))
    return view


class BoardSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
                  template=SELECT_TEMPLATE):
    """A select menu of move options; see ``BoardButton`` for why it is dynamic."""

    def __init__(self, prefix: str, chunk: int, placeholder: str = "…",
                 options: list[tuple[str, str]] | None = None, row: int | None = None) -> None:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"{SELECT_PREFIX}{prefix}:{chunk}", placeholder=placeholder,
            options=[discord.SelectOption(label=label, value=value)
                     for label, value in (options or [("…", "-")])],
            row=row)
        super().__init__(select)
        self.prefix = prefix

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> BoardSelect:
        return cls(match["payload"], int(match["chunk"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        values = data.get("values") or []
        handler = getattr(interaction.client, "handle_component", None)
        if handler is not None:
            value = str(values[0]) if len(values) == 1 else ""
            await handler(interaction, select_payload(self.prefix, value))


AnyView = discord.ui.View | discord.ui.LayoutView




def message_fields(layout: Layout, *, edit: bool) -> dict[str, Any]:
    """The content and view with which to send (``edit``: edit a message to) ``layout``. A
    V2 message has no content; an edit clears it, in case the message was classic."""
    view = build_view(layout)
    if layout.v2:
        return {"content": None, "view": view} if edit else {"view": view}
    fields: dict[str, Any] = {"content": layout.content}
    if view is not None or edit:
        fields["view"] = view
    return fields


def build_view(layout: Layout) -> AnyView | None:
    if layout.v2:
        return _build_layout_view(layout)
    if not layout.has_components:
        return None
    view = discord.ui.View(timeout=None)
    # Buttons first: a select wrapped in a DynamicItem loses its row in discord.py 2.7
    # and takes the first empty row, which is its own once the buttons hold theirs (the
    # layouts above give selects exactly the rows no button uses, in order).
    for button in layout.buttons:
        view.add_item(BoardButton(button.custom_id[len(BUTTON_PREFIX):], button.label,
                                  button.row, button.primary, button.disabled))
    for select in sorted(layout.selects, key=lambda select: select.row):
        prefix = select.custom_id[len(SELECT_PREFIX):].rsplit(":", 1)[0]
        view.add_item(BoardSelect(prefix, int(select.custom_id.rsplit(":", 1)[1]),
                                  select.placeholder, select.options, select.row))
    return view


def _build_layout_view(layout: Layout) -> discord.ui.LayoutView:
    """A V2 layout's components: its parts, then its buttons and selects, a row each."""
    view = discord.ui.LayoutView(timeout=None)
    for part in layout.parts or ("…",):
        if isinstance(part, str):
            view.add_item(discord.ui.TextDisplay(part))
        else:
            button = part.button
            view.add_item(discord.ui.Section(
                discord.ui.TextDisplay(part.text),
                accessory=BoardButton(button.custom_id[len(BUTTON_PREFIX):], button.label,
                                      None, button.primary, button.disabled)))
    rows: dict[int, list[BoardButton | BoardSelect]] = {}
    for menu_button in layout.buttons:
        rows.setdefault(menu_button.row, []).append(BoardButton(
            menu_button.custom_id[len(BUTTON_PREFIX):], menu_button.label, None,
            menu_button.primary, menu_button.disabled))
    for select in layout.selects:
        prefix = select.custom_id[len(SELECT_PREFIX):].rsplit(":", 1)[0]
        rows.setdefault(select.row, []).append(BoardSelect(
            prefix, int(select.custom_id.rsplit(":", 1)[1]), select.placeholder,
            select.options))
    for row in sorted(rows):
        view.add_item(discord.ui.ActionRow(*rows[row]))
    return view
