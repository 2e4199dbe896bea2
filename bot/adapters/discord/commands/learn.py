"""``/learn game:<choice>`` on Discord: a first-game lesson (``bot/learn/lessons.py``) in an
ephemeral message, so only the learner sees it and only they can press its buttons.

Each button carries the lesson page it leads to (``ll:<game>:<step>:<path>``); a menu too
long for buttons becomes select menus whose options carry the same data (``lls:<n>``).
Both are dynamic items: everything they need is in their ids, so they survive restarts.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.adapters.discord.commands import CommandKit
from bot.adapters.discord.components import option_button
from bot.adapters.discord.layout import Layout
from bot.adapters.discord.markdown import fit_content, rendered
from bot.adapters.discord.menus import page_menu_view
from bot.adapters.discord.translator import text
from bot.learn.lessons import (
    LessonPage,
    first_page,
    lesson_game,
    lesson_games,
    lesson_list,
    page_for,
)
from engines.registry import get_game

if TYPE_CHECKING:
    from bot.adapters.discord.client import LogicBot

log = logging.getLogger(__name__)

LESSON_BUTTON_TEMPLATE = r"ll:(?P<data>[!-~]{1,97})"
LESSON_SELECT_TEMPLATE = r"lls:(?P<chunk>[0-9])"


class LessonButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=LESSON_BUTTON_TEMPLATE):
    """A lesson's move option or navigation: the page it leads to is in its id."""

    def __init__(self, data: str, label: str = "…", row: int | None = None,
                 primary: bool = False, disabled: bool = False) -> None:
        super().__init__(option_button(f"ll:{data}", label, row, primary, disabled))
        self.data = data

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> LessonButton:
        return cls(match["data"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_page(interaction, self.data)


class LessonSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
                   template=LESSON_SELECT_TEMPLATE):
    """Up to 25 of a long lesson menu's options; each option's value is its page."""

    def __init__(self, chunk: int, placeholder: str = "…",
                 options: list[tuple[str, str]] | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"lls:{chunk}", placeholder=placeholder, row=row,
            options=[discord.SelectOption(label=label, value=value)
                     for label, value in (options or [("…", "-")])]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> LessonSelect:
        return cls(int(match["chunk"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values: Mapping[str, Any] = interaction.data or {}
        chosen = values.get("values") or []
        await show_page(interaction, str(chosen[0]) if len(chosen) == 1 else "")


LESSON_TEMPLATES = (LessonButton.__discord_ui_compiled_template__,
                    LessonSelect.__discord_ui_compiled_template__)


def lesson_layout(page: LessonPage) -> Layout:
    return Layout(fit_content([rendered(page.text)]), [], [])


def lesson_view(page: LessonPage, language: str) -> discord.ui.View | None:
    """The step's options as buttons in four rows, or as select menus when there are more;
    the navigation (back, next, start again) in the last row. Lesson options are never
    disabled."""
    return page_menu_view(page.choices, page.navigation, language, LessonButton, LessonSelect)


async def show_page(interaction: discord.Interaction, data: str) -> None:
    """A lesson button or option: the page it leads to replaces the lesson message."""
    bot: LogicBot = interaction.client  # type: ignore[assignment]
    try:
        place = await bot.place_for(interaction)
        page = page_for(data, place.language, place.emoji)
        await bot.edit_source(interaction, lesson_layout(page),
                              view=lesson_view(page, place.language))
    except Exception:
        log.exception("lesson page %r failed", data[:100])
        await bot.apologise(interaction)


def add_learn_commands(bot: LogicBot, kit: CommandKit) -> None:
    """``/learn`` and the lesson buttons, which work without it after a restart."""
    bot.add_dynamic_items(LessonButton, LessonSelect)
    bot.own_component_templates.extend(LESSON_TEMPLATES)

    @bot.tree.command(name=text("learn", "cmd.learn.name"),
                      description=text("A short guided lesson of a game's rules, just for you",
                                       "cmd.learn.description"))
    @app_commands.describe(game=text("Which game to learn", "cmd.learn.game"))
    @app_commands.choices(game=[app_commands.Choice(name=get_game(name).TITLE, value=name)
                                for name in lesson_games()])
    async def learn(interaction: discord.Interaction, game: str) -> None:
        place = await bot.place_for(interaction)
        chosen = lesson_game(game)
        if chosen is None:
            await bot.notify(interaction, lesson_list(place.language))
            return
        page = first_page(chosen, place.language, place.emoji)
        await bot.send(interaction, lesson_layout(page), ephemeral=True,
                       view=lesson_view(page, place.language))
