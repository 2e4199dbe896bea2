"""Slash commands of the community: the daily challenge, leaderboards, stats, the
server's running games, and forgetting a person."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.adapters.answers import leaderboard_answer
from bot.adapters.base import TURN_CUES
from bot.adapters.discord.commands import (
    CommandKit,
    complete_game,
)
from bot.adapters.discord.commands.puzzles import (
    post_puzzle_of_the_day,
    schedule_puzzle_of_the_day,
)
from bot.adapters.discord.translator import text
from engines.puzzles import puzzle_games
from engines.registry import get_game

if TYPE_CHECKING:
    from bot.adapters.discord.client import LogicBot


def add_community_commands(bot: LogicBot, kit: CommandKit) -> None:
    """The commands about results, rankings and the daily challenge."""
    tree = bot.tree

    @tree.command(name=text("daily", "cmd.daily.name"),
                  description=text("Today's Turing Machine challenge; managers can post it "
                                   "here every day", "cmd.daily.description"))
    @app_commands.describe(schedule=text("HH:MM in UTC or with a zone (07:30 Europe/Brussels) to "
                                         "post it daily, off to stop, or list",
                                         "cmd.daily.schedule"),
                           game=text("A game's puzzle of the day instead; with schedule, "
                                     "posted daily", "cmd.daily.game"))
    @app_commands.choices(game=[app_commands.Choice(name=get_game(name).TITLE, value=name)
                                for name in puzzle_games()])
    async def daily(interaction: discord.Interaction, schedule: str | None = None,
                    game: str | None = None) -> None:
        if game is not None and not schedule:  # a game's puzzle of the day (issue 41)
            await post_puzzle_of_the_day(bot, interaction, game)
            return
        if schedule and await schedule_puzzle_of_the_day(bot, interaction, game, schedule):
            return
        place = await bot.place_for(interaction)
        server = str(interaction.guild_id or 0)
        if schedule:
            if not await bot.is_moderator(interaction):
                await bot.notify(interaction, kit.moderators_only(place))
                return
            answer = (await bot.daily.unschedule(place) if schedule.strip().lower() == "off"
                      else await bot.daily.schedule(place, server, schedule))
            await bot.notify(interaction, answer)
            return
        text_now = bot.daily.post_text(place.language, bot.daily.today())
        await bot.send(interaction, bot.daily_layout(text_now, server, place.language),
                       ephemeral=False)

    @tree.command(name=text("leaderboard", "cmd.leaderboard.name"),
                  description=text("Rankings of a game, or today's daily challenge results: "
                                   "this server and everyone", "cmd.leaderboard.description"))
    @app_commands.describe(game=text("A game's rankings (leave empty for the daily "
                                     "challenge)", "cmd.leaderboard.game"))
    @app_commands.autocomplete(game=complete_game)
    async def leaderboard(interaction: discord.Interaction, game: str | None = None) -> None:
        place = await bot.place_for(interaction)
        if await kit.refused_for_speed(interaction, place):
            return
        await bot.notify(interaction, await leaderboard_answer(bot.app, place, game))

    @tree.command(name=text("stats", "cmd.stats.name"),
                  description=text("Wins, losses, draws and ratings: yours or a member's",
                                   "cmd.stats.description"))
    @app_commands.describe(player=text("Whose results (leave empty for your own)",
                                       "cmd.stats.player"))
    async def stats(interaction: discord.Interaction,
                    player: discord.User | None = None) -> None:
        place = await bot.place_for(interaction)
        if await kit.refused_for_speed(interaction, place):
            return
        person = bot.user_for(player or interaction.user)
        await bot.notify(interaction, await bot.community.stats_text(place, person.id,
                                                                     person.name))

    @tree.command(name=text("games", "cmd.games.name"),
                  description=text("The games running in this server, with links",
                                   "cmd.games.description"))
    async def games(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        if await kit.refused_for_speed(interaction, place):
            return
        await bot.notify(interaction, await bot.community.games_text(place, bot.board_link))

    @tree.command(name=text("turn-cues", "cmd.cues.name"),
                  description=text("Whether you are pinged when it is your turn",
                                   "cmd.cues.description"))
    @app_commands.describe(enabled=text("On: a short line mentions you when it is your "
                                        "turn", "cmd.cues.enabled"))
    async def turn_cues(interaction: discord.Interaction, enabled: bool) -> None:
        place = await bot.place_for(interaction)
        await bot.set_setting(f"user:{interaction.user.id}", TURN_CUES,
                              "on" if enabled else "off")
        await bot.notify(interaction, bot.t(place, "turn.cues_on" if enabled
                                            else "turn.cues_off"))

    @tree.command(name=text("forget-me", "cmd.forget_me.name"),
                  description=text("Delete your results and ratings; past games keep you as "
                                   "\"a former player\"", "cmd.forget_me.description"))
    async def forget_me(interaction: discord.Interaction) -> None:
        place = await bot.place_for(interaction)
        result = await bot.community.forget_me(place, bot.actor(interaction))
        await bot.notify(interaction, result.notice)
        for game_place, reply in result.ended:
            await bot.game_changed(game_place, reply)
