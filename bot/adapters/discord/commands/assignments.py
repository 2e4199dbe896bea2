"""``/assign`` and ``/progress`` (issue 27): work a moderator sets for the server's class,
and where each student stands (``bot.classroom.assignments``). A new or closed assignment is posted
in the channel for the class; everything else answers only the person who asked, so a
student never sees another's progress."""

from __future__ import annotations

import datetime as dt
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.adapters.discord.commands import CommandKit, complete_game, complete_level
from bot.adapters.discord.commands.puzzles import complete_theme
from bot.adapters.discord.layout import Layout
from bot.adapters.discord.translator import text
from bot.classroom.assignments import BANDS, KINDS
from renderers.i18n import translate

if TYPE_CHECKING:
    from bot.adapters.discord.client import LogicBot


def assign_words(task: str, game: str | None, count: int | None, level: str | None,
                 band: str | None, par: bool, deadline: str | None,
                 number: int | None, theme: str | None = None) -> list[str]:
    """The slash command's options as the words the shared parser reads (the same words
    a Telegram teacher types after /assign)."""
    if task in ("list",):
        return ["list"]
    if task == "close":
        return ["close", str(number if number is not None else "")]
    words = [task]
    if count is not None:
        words.append(str(count))
    words += [value for value in (game, level, band, theme) if value]
    if par:
        words.append("par")
    if deadline:
        deadline = deadline.strip()
        words += ["in", deadline] if deadline.isdecimal() else ["by", deadline]
    return words


def add_assignment_commands(bot: LogicBot, kit: CommandKit) -> None:
    tree = bot.tree

    @tree.command(name=text("assign", "cmd.assign.name"),
                  description=text("Set work for this server's class, list it or close it "
                                   "(moderators set and close)", "cmd.assign.description"))
    @app_commands.describe(
        task=text("What to do", "cmd.assign.task"),
        game=text("Which game", "cmd.assign.game"),
        count=text("How many games, puzzles or days", "cmd.assign.count"),
        level=text("win: against the computer at this level", "cmd.assign.level"),
        band=text("solve: the puzzles' difficulty", "cmd.assign.band"),
        par=text("solve: in at most the machine's par", "cmd.assign.par"),
        deadline=text("The last day (2026-12-01) or a number of days (7)",
                      "cmd.assign.deadline"),
        number=text("close: the assignment's number", "cmd.assign.number"),
        theme=text("solve: the theme of a game's trainer puzzles", "cmd.assign.theme"))
    @app_commands.choices(
        task=[app_commands.Choice(name=kind, value=kind) for kind in (*KINDS, "list",
                                                                       "close")],
        band=[app_commands.Choice(name=band, value=band) for band in BANDS])
    @app_commands.autocomplete(game=complete_game, level=complete_level, theme=complete_theme)
    @app_commands.guild_only()
    async def assign(interaction: discord.Interaction, task: str = "list",
                     game: str | None = None, count: int | None = None,
                     level: str | None = None, band: str | None = None, par: bool = False,
                     deadline: str | None = None, number: int | None = None,
                     theme: str | None = None) -> None:
        place = await bot.place_for(interaction)
        if await kit.refused_for_speed(interaction, place):
            return
        words = assign_words(task, game, count, level, band, par, deadline, number, theme)
        moderator = task in ("list",) or await bot.is_moderator(interaction)
        answer = await bot.app.assignments.command(place, bot.actor(interaction), words,
                                                   moderator)
        if answer.public:
            await bot.send(interaction, Layout(answer.text, [], []), ephemeral=False)
        else:
            await bot.notify(interaction, answer.text)

    @tree.command(name=text("progress", "cmd.progress.name"),
                  description=text("Your progress on this class's assignments; moderators "
                                   "may see the whole class", "cmd.progress.description"))
    @app_commands.describe(everyone=text("Moderators: the whole class, with a CSV file",
                                         "cmd.progress.everyone"))
    @app_commands.guild_only()
    async def progress(interaction: discord.Interaction, everyone: bool = False) -> None:
        place = await bot.place_for(interaction)
        if await kit.refused_for_speed(interaction, place):
            return
        assignments = bot.app.assignments
        if not everyone:
            await bot.notify(interaction, await assignments.progress(place,
                                                                     bot.actor(interaction)))
            return
        if not await bot.is_moderator(interaction):
            await bot.notify(interaction, kit.moderators_only(place))
            return
        table = await assignments.class_table(place)
        data = await assignments.class_csv(place)
        name = f"progress-{place.server}-{dt.datetime.now(dt.UTC).date().isoformat()}.csv"
        await bot.send(interaction, Layout(
            table[:1900] + (translate(place.language, "progress.cut",
                                      "\n… (the whole table is in the file)")
                            if len(table) > 1900 else ""), [], []),
            ephemeral=True, files=[discord.File(io.BytesIO(data.encode("utf-8")),
                                                filename=name)])
