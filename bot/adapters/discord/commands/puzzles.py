"""The puzzle trainer (``bot/puzzles/trainer.py``) on Discord, in ephemeral messages: only the
solver sees a puzzle and only they can press its buttons (in a DM, the bot's messages).

* ``/puzzle game:<game> [theme:<theme>]``: ``commands_games`` hands every game but the
  Turing Machine here; ``/puzzle`` without a game keeps its meaning.
* ``/daily game:<game>``: the game's puzzle of the day, posted in the channel with the
  day's leaderboard so far and a Solve button (``lpd:<game>``) that opens it privately.
* ``/daily game:<game> schedule:<HH:MM [zone]|off>`` (moderators): that post every day
  (``bot.puzzles.daily``, one schedule per channel and game), drawn with the puzzle and
  yesterday's leaderboard (``bot.puzzles.posts``); ``/daily schedule:list``: what is
  posted here every day.
* A page's buttons carry ``lp:<attempt>:<step>[:<argument>]`` (``bot.puzzles.pages``); a
  menu too long for buttons becomes select menus whose options carry the same data
  (``lps:<n>``). All are dynamic items, so they survive restarts. A press replaces the
  page; a refusal (someone else's puzzle, a limit) is a private answer beside it.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.adapters.discord.components import option_button
from bot.adapters.discord.layout import NO_MENTIONS, Layout
from bot.adapters.discord.markdown import fit_content, inert, rendered, shorten
from bot.adapters.discord.menus import (
    BUTTON_LABEL_LIMIT,
    BUTTON_PREFIX,
    MENU_ROWS,
    grid_layout,
    page_menu_view,
)
from bot.puzzles.daily import LIST_WORD, OFF_WORD, PostOutcome
from bot.puzzles.pages import PuzzlePage, theme_name
from bot.puzzles.posts import scheduled_post_text
from bot.puzzles.trainer import puzzle_game, puzzle_list, themes_of
from bot.replies import Button
from bot.store import DailySchedule
from renderers.i18n import translate

if TYPE_CHECKING:
    from bot.adapters.discord.client import LogicBot

log = logging.getLogger(__name__)

PUZZLE_BUTTON_TEMPLATE = r"lp:(?P<data>[0-9]{1,12}:[!-~]{1,80})"
PUZZLE_SELECT_TEMPLATE = r"lps:(?P<chunk>[0-9])"
DAY_BUTTON_TEMPLATE = r"lpd:(?P<game>[a-z]{1,16})"
AUTOCOMPLETE_LIMIT = 25


class PuzzleButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=PUZZLE_BUTTON_TEMPLATE):
    """An option or a navigation button of a trainer page: its id says what it does."""

    def __init__(self, data: str, label: str = "…", row: int | None = None,
                 primary: bool = False, disabled: bool = False) -> None:
        super().__init__(option_button(f"lp:{data}", label, row, primary, disabled))
        self.data = data

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> PuzzleButton:
        return cls(match["data"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await pressed(interaction, self.data)


class PuzzleSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
                   template=PUZZLE_SELECT_TEMPLATE):
    """Up to 25 of a long menu's options; each option's value is its button's data."""

    def __init__(self, chunk: int, placeholder: str = "…",
                 options: list[tuple[str, str]] | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"lps:{chunk}", placeholder=placeholder, row=row,
            options=[discord.SelectOption(label=label, value=value)
                     for label, value in (options or [("…", "-")])]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> PuzzleSelect:
        return cls(int(match["chunk"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values: Mapping[str, Any] = interaction.data or {}
        chosen = values.get("values") or []
        await pressed(interaction, str(chosen[0]) if len(chosen) == 1 else "")


class PuzzleDayButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                      template=DAY_BUTTON_TEMPLATE):
    """The Solve button of a posted puzzle of the day: the day's puzzle, privately."""

    def __init__(self, game: str, label: str = "…") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"lpd:{game}",
                                           style=discord.ButtonStyle.primary))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> PuzzleDayButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: LogicBot = interaction.client  # type: ignore[assignment]
        try:
            place = await bot.place_for(interaction)
            game = puzzle_game(self.game)
            if game is None:
                await bot.notify(interaction, bot.t(place, "error.foreign_button"))
                return
            page = await bot.app.trainer.start_daily(place, bot.actor(interaction), game)
            await show_new(bot, interaction, page, place.language)
        except Exception:
            log.exception("puzzle of the day %r failed", self.game)
            await bot.apologise(interaction)


PUZZLE_TEMPLATES = (PuzzleButton.__discord_ui_compiled_template__,
                    PuzzleSelect.__discord_ui_compiled_template__,
                    PuzzleDayButton.__discord_ui_compiled_template__)


def page_layout(page: PuzzlePage) -> Layout:
    return Layout(fit_content([rendered(page.text)]), [], [])


def page_view(page: PuzzlePage, language: str) -> discord.ui.View | None:
    """The page's options as the board's grid (``grid_view``), as buttons in four rows, or
    as select menus when there are more; the navigation (back, tap the board, next, retry,
    show me, theme) in the last row."""
    grid = grid_view(page.choices, page.navigation)
    if grid is not None:
        return grid
    return page_menu_view(page.choices, page.navigation, language, PuzzleButton, PuzzleSelect)


def grid_view(choices: tuple[Button, ...], navigation: tuple[Button, ...]
              ) -> discord.ui.View | None:
    """A page whose options are a board's grid (``Choice.group`` ``grid4``: the L-game's
    squares, Rithmomachia's cells and level keys), laid out as a game in progress draws it
    (``grid_layout``): the grid's rows in the board's shape as grey buttons, the options
    that find no row of their own beside the navigation in the last row. None when there is
    no grid or it does not fit."""
    layout = grid_layout(list(choices), list(navigation))
    if layout is None:
        return None
    cells, last = layout
    view = discord.ui.View(timeout=None)
    for cell in cells:
        view.add_item(PuzzleButton(cell.custom_id[len(BUTTON_PREFIX):], cell.label, cell.row,
                                   primary=cell.primary, disabled=cell.disabled))
    options = len(last) - len(navigation)  # ``last`` is the options left over, then these
    for index, button in enumerate(last):
        view.add_item(PuzzleButton(button.payload, shorten(button.label, BUTTON_LABEL_LIMIT),
                                   MENU_ROWS, primary=index < options,
                                   disabled=button.disabled))
    return view


async def show_new(bot: LogicBot, interaction: discord.Interaction, page: PuzzlePage,
                   language: str) -> None:
    """A page as a new ephemeral message, or the refusal alone."""
    if not page.ok:
        await bot.notify(interaction, page.text)
        return
    await bot.send(interaction, page_layout(page), ephemeral=True,
                   view=page_view(page, language))


async def pressed(interaction: discord.Interaction, data: str) -> None:
    """A trainer button or option: the page it leads to replaces the page pressed."""
    bot: LogicBot = interaction.client  # type: ignore[assignment]
    try:
        place = await bot.place_for(interaction)
        page = await bot.app.trainer.press(place, bot.actor(interaction), data)
        if not page.ok:
            await bot.notify(interaction, page.text)
            return
        await bot.edit_source(interaction, page_layout(page),
                              view=page_view(page, place.language))
    except Exception:
        log.exception("puzzle page %r failed", data[:100])
        await bot.apologise(interaction)


async def start_puzzle(bot: LogicBot, interaction: discord.Interaction, game: str,
                       theme: str | None) -> None:
    """``/puzzle game:<game> [theme:<theme>]``: the player's puzzle of that game."""
    place = await bot.place_for(interaction)
    chosen = puzzle_game(game)
    if chosen is None:
        await bot.notify(interaction, puzzle_list(place.language))
        return
    page = await bot.app.trainer.start(place, bot.actor(interaction), chosen,
                                       theme.strip().lower() if theme else None)
    await show_new(bot, interaction, page, place.language)


async def post_puzzle_of_the_day(bot: LogicBot, interaction: discord.Interaction,
                                 game: str) -> None:
    """``/daily game:<game>``: the day's puzzle posted here, with its leaderboard so far
    (this server's) and the Solve button."""
    place = await bot.place_for(interaction)
    trainer = bot.app.trainer
    day = trainer.today()
    server = str(interaction.guild_id) if interaction.guild_id else None
    board = await trainer.leaderboard_text(place.language, game, day, server)
    text = trainer.daily_post_text(place.language, game, day) + "\n\n" + board
    await bot.send(interaction, Layout(fit_content([inert(text)]), [], []), ephemeral=False,
                   view=day_post_view(game, place.language))


def day_post_view(game: str, language: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PuzzleDayButton(game, translate(language, "puzzle.solve", "🧩 Solve")))
    return view


async def post_scheduled_puzzle(bot: LogicBot, schedule: DailySchedule,
                                day: str) -> PostOutcome:
    """A channel's scheduled puzzle of the day (``bot.puzzles.daily``, one schedule per
    channel and game): the puzzle itself, yesterday's leaderboard of the server, and the
    Solve button that opens it privately."""
    text = await scheduled_post_text(bot.app.trainer, schedule, dt.date.fromisoformat(day))
    channel = bot.get_partial_messageable(int(schedule.channel))
    try:
        await channel.send(fit_content([rendered(text)]), allowed_mentions=NO_MENTIONS,
                           view=day_post_view(schedule.game, schedule.language))
    except (discord.NotFound, discord.Forbidden) as error:
        log.warning("%s puzzle of the day to %s refused: %s", schedule.game,
                    schedule.channel, error)
        return "gone"
    except discord.HTTPException as error:
        log.warning("%s puzzle of the day to %s failed: %s", schedule.game,
                    schedule.channel, error)
        return "failed"
    return "posted"


async def schedule_puzzle_of_the_day(bot: LogicBot, interaction: discord.Interaction,
                                     game: str | None, schedule: str) -> bool:
    """``/daily game:<game> schedule:<HH:MM [zone]|off>`` (moderators) posts or stops
    that game's puzzle of the day here every day; ``/daily schedule:list`` says what is
    posted here every day (anyone). False for the Turing challenge's own words."""
    word = schedule.strip().lower()
    if game is None and word != LIST_WORD:
        return False
    place = await bot.place_for(interaction)
    if word == LIST_WORD:
        await bot.notify(interaction, await bot.daily.schedules_text(place))
        return True
    chosen = puzzle_game(game or "")
    if chosen is None:
        await bot.notify(interaction, puzzle_list(place.language))
        return True
    if not await bot.is_moderator(interaction):
        await bot.notify(interaction, bot.t(place, "moderation.only_moderators"))
        return True
    server = str(interaction.guild_id or 0)
    answer = (await bot.daily.unschedule(place, chosen) if word == OFF_WORD
              else await bot.daily.schedule(place, server, schedule, chosen))
    await bot.notify(interaction, answer)
    return True


async def complete_theme(interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
    """The themes of the game chosen (``/puzzle game:``), named in the member's language."""
    game = puzzle_game(str(getattr(interaction.namespace, "game", "") or ""))
    if game is None:
        return []
    language = interaction.locale.value.split("-")[0]
    typed = current.strip().lower()
    return [app_commands.Choice(name=theme_name(language, theme)[:100], value=theme)
            for theme in themes_of(game)
            if typed in theme or typed in theme_name(language, theme).lower()
            ][:AUTOCOMPLETE_LIMIT]


def add_puzzle_items(bot: LogicBot) -> None:
    """The trainer's buttons, which work without any command after a restart."""
    bot.add_dynamic_items(PuzzleButton, PuzzleSelect, PuzzleDayButton)
    bot.own_component_templates.extend(PUZZLE_TEMPLATES)

    async def post(schedule: DailySchedule, day: str) -> PostOutcome:
        return await post_scheduled_puzzle(bot, schedule, day)

    bot.post_puzzle_daily = post
