"""Slash commands for moderators: turn timers, the class board, the results export and
the server's settings (language, board style, threads, the teacher role)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.adapters.base import TURN_CUES
from bot.adapters.discord.commands import (
    PLATFORM_NAME,
    CommandKit,
)
from bot.adapters.discord.layout import Layout
from bot.adapters.discord.translator import text
from bot.classroom import parse_policy
from renderers.i18n import supported_languages, translate

if TYPE_CHECKING:
    from bot.adapters.discord.client import LogicBot


def add_classroom_commands(bot: LogicBot, kit: CommandKit) -> None:
    """The moderators' commands."""
    tree = bot.tree

    @tree.command(name=text("timer", "cmd.timer.name"),
                  description=text("Turn timers in this channel: a reminder, then a loss "
                                   "or a computer move (moderators)", "cmd.timer.description"))
    @app_commands.describe(
        remind=text("Minutes before reminding the player to move (0: none)",
                    "cmd.timer.remind"),
        limit=text("Minutes before acting (0: never)", "cmd.timer.limit"),
        then=text("What happens at the limit", "cmd.timer.then"),
        off=text("Switch turn timers off here", "cmd.timer.off"))
    @app_commands.choices(then=[
        app_commands.Choice(name=text("the player loses", "cmd.timer.then.forfeit"),
                            value="forfeit"),
        app_commands.Choice(name=text("the computer moves for them", "cmd.timer.then.ai"),
                            value="ai")])
    async def timer(interaction: discord.Interaction, remind: int | None = None,
                    limit: int | None = None, then: str = "forfeit",
                    off: bool = False) -> None:
        place = await bot.place_for(interaction)
        if remind is None and limit is None and not off:
            policy = await bot.classroom.policy(PLATFORM_NAME, place.channel)
            await bot.notify(interaction, bot.classroom.describe(place.language, policy))
            return
        if not await bot.is_moderator(interaction):
            await bot.notify(interaction, kit.moderators_only(place))
            return
        if off:
            await bot.notify(interaction, await bot.classroom.set_policy(place, None))
            return
        parsed = parse_policy([str(remind or 0), str(limit or 0), then])
        if parsed is None:
            await bot.notify(interaction, bot.classroom.usage(place.language))
            return
        await bot.notify(interaction, await bot.classroom.set_policy(place, parsed))

    @tree.command(name=text("class-board", "cmd.classboard.name"),
                  description=text("One live message listing this server's games and whose "
                                   "turn it is (moderators)",
                                   "cmd.classboard.description"))
    @app_commands.describe(enabled=text("Off: stop keeping the class board up to date",
                                        "cmd.classboard.enabled"))
    async def class_board(interaction: discord.Interaction, enabled: bool = True) -> None:
        place = await bot.place_for(interaction)
        if not place.server:
            await bot.notify(interaction, bot.t(place, "classboard.servers_only"))
            return
        if not await bot.is_moderator(interaction, server_wide=True):
            await bot.notify(interaction, kit.moderators_only(place))
            return
        if not enabled:
            closed = await bot.close_class_board(place)
            await bot.notify(interaction, bot.t(place, "classboard.closed" if closed
                                                else "classboard.none"))
            return
        opened = await bot.open_class_board(place)
        await bot.notify(interaction, bot.t(place, "classboard.opened" if opened
                                            else "discord.missing_permissions",
                                            permissions="Send Messages"))

    @tree.command(name=text("export", "cmd.export.name"),
                  description=text("This server's game results as a CSV file (moderators)",
                                   "cmd.export.description"))
    async def export(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        if await kit.refused_for_speed(interaction, place):
            return
        if not await bot.is_moderator(interaction):
            await bot.notify(interaction, kit.moderators_only(place))
            return
        data = await bot.classroom.export_csv(PLATFORM_NAME, place.server)
        name = bot.classroom.export_name(place.server, bot.daily.today())
        files = [discord.File(io.BytesIO(data.encode("utf-8")), filename=name)]
        # The final standings of the server's tournaments, when it has had any.
        standings = await bot.app.tournaments.standings_csv(PLATFORM_NAME, place.server)
        if standings is not None:
            files.append(discord.File(
                io.BytesIO(standings.encode("utf-8")),
                filename=bot.app.tournaments.export_name(place.server, bot.daily.today())))
        await bot.send(interaction, Layout(translate(
            place.language, "export.ready", "The results of this server, as CSV."), [], []),
            ephemeral=True, files=files)

    settings = app_commands.Group(
        name=text("logic-settings", "cmd.settings.name"),
        description=text("Server settings for logic-bot", "cmd.settings.description"),
        # Visible to every member, since Discord cannot show a command to a role it does
        # not know: a teacher-role member without permissions sets the language, boards
        # and threads too. Each subcommand checks at run time.
        guild_only=True)

    async def settings_summary(interaction: discord.Interaction) -> str:
        place = await bot.place_for(interaction)
        guild_id = interaction.guild_id
        language = await bot.guild_setting(guild_id, "language") or "auto"
        threads = await bot.guild_setting(guild_id, "threads") == "on"
        style = await bot.guild_setting(guild_id, "board") or "emoji"
        cues = await bot.guild_setting(guild_id, TURN_CUES) != "off"
        role_id = await bot.guild_setting(guild_id, "teacher_role") or ""
        guild = interaction.guild
        # By its name: the answers neutralise mentions (``discord.markdown``), and ping no
        # one. A role deleted since is no teacher role any more.
        role = guild.get_role(int(role_id)) if guild is not None and role_id.isdigit() else None
        return "\n".join([
            bot.t(place, "discord.settings.turn_cues",
                  value=bot.t(place, "discord.settings.on" if cues
                              else "discord.settings.off")),
            bot.t(place, "discord.settings.language",
                  value=bot.t(place, "discord.settings.language_auto")
                  if language == "auto" else language),
            bot.t(place, "discord.settings.threads",
                  value=bot.t(place, "discord.settings.on" if threads
                              else "discord.settings.off")),
            bot.t(place, "discord.settings.board",
                  value=bot.t(place, f"discord.settings.{style}")),
            translate(place.language, "discord.settings.teacher_role",
                      "Teacher role (may moderate games here): {value}.",
                      value=f"@{role.name}" if role is not None else translate(
                          place.language, "discord.settings.teacher_role_none",
                          "none (moderators are those who may manage messages)"))])

    async def store_setting(interaction: discord.Interaction, key: str, value: str) -> None:
        """Moderators set the server's settings; only managers name the teacher role,
        since it hands out moderation."""
        assert interaction.guild_id is not None  # the group is guild_only
        place = await bot.place_for(interaction)
        if key == "teacher_role" and not interaction.permissions.manage_guild:
            await bot.notify(interaction, bot.t(place, "discord.settings_only_managers"))
            return
        if not await bot.is_moderator(interaction, server_wide=True):
            await bot.notify(interaction, kit.moderators_only(place))
            return
        await bot.set_guild_setting(interaction.guild_id, key, value)
        await bot.notify(interaction, await settings_summary(interaction))

    @settings.command(name=text("show", "cmd.settings.show.name"),
                      description=text("Show this server's settings",
                                       "cmd.settings.show.description"))
    async def settings_show(interaction: discord.Interaction) -> None:
        await bot.notify(interaction, await settings_summary(interaction))

    @settings.command(name=text("language", "cmd.settings.language.name"),
                      description=text("The language the bot uses in this server",
                                       "cmd.settings.language.description"))
    @app_commands.describe(value=text("A language, or auto for each member's own",
                                      "cmd.settings.language.value"))
    @app_commands.choices(value=[app_commands.Choice(name=code, value=code)
                                 for code in ["auto", *supported_languages()]])
    async def settings_language(interaction: discord.Interaction, value: str) -> None:
        await store_setting(interaction, "language", value)

    @settings.command(name=text("threads", "cmd.settings.threads.name"),
                      description=text("Whether each new game opens its own thread",
                                       "cmd.settings.threads.description"))
    @app_commands.describe(enabled=text("On: every /play opens a thread for its game",
                                        "cmd.settings.threads.enabled"))
    async def settings_threads(interaction: discord.Interaction, enabled: bool) -> None:
        await store_setting(interaction, "threads", "on" if enabled else "off")

    @settings.command(name=text("turn-cues", "cmd.settings.cues.name"),
                      description=text("Whether players are told (and pinged) when it is "
                                       "their turn", "cmd.settings.cues.description"))
    @app_commands.describe(enabled=text("On: a short line mentions the player to move",
                                        "cmd.settings.cues.enabled"))
    async def settings_cues(interaction: discord.Interaction, enabled: bool) -> None:
        await store_setting(interaction, TURN_CUES, "on" if enabled else "off")

    @settings.command(name=text("board", "cmd.settings.board.name"),
                      description=text("Draw boards with emoji squares or as monospace text",
                                       "cmd.settings.board.description"))
    @app_commands.describe(style=text("How boards are drawn", "cmd.settings.board.style"))
    @app_commands.choices(style=[
        app_commands.Choice(name=text("emoji squares", "cmd.settings.board.emoji"),
                            value="emoji"),
        app_commands.Choice(name=text("monospace text", "cmd.settings.board.text"),
                            value="text")])
    async def settings_board(interaction: discord.Interaction, style: str) -> None:
        await store_setting(interaction, "board", style)

    @settings.command(name=text("teacher-role", "cmd.settings.teacher.name"),
                      description=text("A role whose members may moderate games here",
                                       "cmd.settings.teacher.description"))
    @app_commands.describe(role=text("The teachers' role (leave empty to remove it)",
                                     "cmd.settings.teacher.role"))
    async def settings_teacher(interaction: discord.Interaction,
                               role: discord.Role | None = None) -> None:
        await store_setting(interaction, "teacher_role", str(role.id) if role else "")

    tree.add_command(settings)
