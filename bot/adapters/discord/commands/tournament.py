"""``/tournament`` on Discord: create, start, pause, resume and end (moderators), the
sign-up button under the tournament's message, and where its games go: a thread each,
opened under a one-line note in the tournament's channel. What both platforms share is
``bot.adapters.tournament_host``; the rules are ``bot.tournaments``."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.adapters.discord import limits
from bot.adapters.discord.client import LogicBot
from bot.adapters.discord.commands import CommandKit, complete_game, complete_level
from bot.adapters.discord.components import SIGNUP_TEMPLATE
from bot.adapters.discord.layout import NO_MENTIONS
from bot.adapters.discord.markdown import fit_content, inert
from bot.adapters.discord.translator import text
from bot.adapters.tournament_host import ChatTournamentHost, signup_label
from bot.service import Place, User
from bot.store.tournament_rows import TournamentRecord
from bot.tournaments import AUTO, TournamentRefused

log = logging.getLogger(__name__)

PLATFORM = "discord"


class SignUpButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=SIGNUP_TEMPLATE):
    """Sign up for (or withdraw from) a tournament: ``lt:<tournament>``. It needs no
    memory, so it works on a message posted before a restart."""

    def __init__(self, tournament_id: int, label: str = "…") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"lt:{tournament_id}"))
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> SignUpButton:
        return cls(int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        if not isinstance(client, LogicBot):
            return
        place = await client.place_for(interaction)
        try:
            notice = await client.app.tournaments.sign_up(
                self.tournament_id, client.actor(interaction), place)
        except TournamentRefused as refusal:
            notice = refusal.notice
        await client.notify(interaction, notice)


class DiscordTournamentPanel:
    """Discord's part of a tournament: threads for its games, its message and button."""

    def __init__(self, bot: LogicBot) -> None:
        self.bot = bot

    def _channel(self, tournament: TournamentRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(
            int(tournament.channel),
            guild_id=int(tournament.server) if tournament.server.isdigit() else None)

    async def open_game_place(self, tournament: TournamentRecord, title: str) -> Place:
        """A thread under a one-line note in the tournament's channel, as ``/play`` opens
        one; the channel itself when a thread cannot be opened (its game then refuses
        when another runs there, and counts for nobody)."""
        language = str(tournament.state.get("language") or "en")
        emoji = bool(tournament.state.get("emoji", True))
        try:
            note = await self._channel(tournament).send(fit_content([inert(title)]),
                                                        allowed_mentions=NO_MENTIONS)
            thread = await note.create_thread(name=title[:limits.THREAD_NAME[1]],
                                              auto_archive_duration=1440)
        except (discord.HTTPException, ValueError):
            log.warning("could not open a thread for tournament %s", tournament.id,
                        exc_info=True)
            return Place(PLATFORM, tournament.channel, language, emoji, tournament.server)
        return Place(PLATFORM, str(thread.id), language, emoji, tournament.server)

    def _view(self, tournament: TournamentRecord, signup: bool) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        if signup:
            view.add_item(SignUpButton(tournament.id, signup_label(tournament)))
        return view

    async def post_tournament(self, tournament: TournamentRecord, text_: str,
                              signup: bool) -> str | None:
        try:
            message = await self._channel(tournament).send(
                fit_content([inert(text_)]), view=self._view(tournament, signup),
                allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("could not post tournament %s: %s", tournament.id, error)
            return None
        return str(message.id)

    async def edit_tournament(self, tournament: TournamentRecord, message_id: str,
                              text_: str, signup: bool) -> bool:
        message = self._channel(tournament).get_partial_message(int(message_id))
        try:
            await message.edit(content=fit_content([inert(text_)]),
                               view=self._view(tournament, signup),
                               allowed_mentions=NO_MENTIONS)
        except discord.NotFound:
            return False
        except discord.HTTPException as error:  # a passing fault: the next change redraws
            log.info("could not edit tournament %s: %s", tournament.id, error)
        return True


def add_tournament_commands(bot: LogicBot, kit: CommandKit) -> None:
    tournaments = bot.app.tournaments
    tournaments.attach(PLATFORM, ChatTournamentHost(bot, tournaments,
                                                    DiscordTournamentPanel(bot)))
    bot.add_dynamic_items(SignUpButton)

    group = app_commands.Group(
        name=text("tournament", "cmd.tournament.name"),
        description=text("A tournament in this channel: sign-up, rounds, standings "
                         "(moderators run it)", "cmd.tournament.description"),
        guild_only=True)

    async def run(interaction: discord.Interaction,
                  action: Callable[[Place, User], Awaitable[str]]) -> None:
        """A moderator's step: refused in words for anyone else; the answer is private,
        the tournament's message shows everyone what changed."""
        place = await bot.place_for(interaction)
        if not await bot.is_moderator(interaction):
            await bot.notify(interaction, kit.moderators_only(place))
            return
        user = bot.user_for(interaction.user, True)
        try:
            notice = await action(place, user)
        except TournamentRefused as refusal:
            notice = refusal.notice
        await bot.notify(interaction, notice)

    @group.command(name=text("create", "cmd.tournament.create.name"),
                   description=text("Open sign-up for a tournament of a game here",
                                    "cmd.tournament.create.description"))
    @app_commands.describe(
        game=text("Which game", "cmd.tournament.create.game"),
        format=text("Round-robin, Swiss, or auto (Swiss above 8 players)",
                    "cmd.tournament.create.format"),
        options=text("Rule options for every game, for example: sudden_death",
                     "cmd.tournament.create.options"),
        rounds=text("Swiss rounds (0: enough for one winner)",
                    "cmd.tournament.create.rounds"),
        timer=text("Time control as /timer takes it, for example: 5 15 forfeit",
                   "cmd.tournament.create.timer"),
        computer=text("A computer level that may fill an odd number of players",
                      "cmd.tournament.create.computer"))
    @app_commands.choices(format=[
        app_commands.Choice(name=text("auto", "cmd.tournament.format.auto"), value=AUTO),
        app_commands.Choice(name=text("round-robin", "cmd.tournament.format.round_robin"),
                            value="round_robin"),
        app_commands.Choice(name=text("Swiss", "cmd.tournament.format.swiss"),
                            value="swiss")])
    @app_commands.autocomplete(game=complete_game, computer=complete_level)
    async def create(interaction: discord.Interaction, game: str, format: str = AUTO,
                     options: str = "", rounds: int = 0, timer: str = "",
                     computer: str = "") -> None:
        async def created(place: Place, user: User) -> str:
            record = await tournaments.create(place, user, game, format=format,
                                              options=options, rounds=rounds,
                                              computer=computer, timer=timer)
            return tournaments.created_text(record)
        await run(interaction, created)

    @group.command(name=text("start", "cmd.tournament.start.name"),
                   description=text("Close sign-up and start round 1",
                                    "cmd.tournament.start.description"))
    async def start(interaction: discord.Interaction) -> None:
        await run(interaction, tournaments.start)

    @group.command(name=text("pause", "cmd.tournament.pause.name"),
                   description=text("No new round until resumed; games go on",
                                    "cmd.tournament.pause.description"))
    async def pause(interaction: discord.Interaction) -> None:
        await run(interaction, tournaments.pause)

    @group.command(name=text("resume", "cmd.tournament.resume.name"),
                   description=text("Go on with a paused tournament",
                                    "cmd.tournament.resume.description"))
    async def resume(interaction: discord.Interaction) -> None:
        await run(interaction, tournaments.resume)

    @group.command(name=text("end", "cmd.tournament.end.name"),
                   description=text("End the tournament now: its standings are final",
                                    "cmd.tournament.end.description"))
    async def end(interaction: discord.Interaction) -> None:
        await run(interaction, tournaments.end)

    bot.tree.add_command(group)
