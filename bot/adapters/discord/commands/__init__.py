"""What the slash commands share: autocompletion, and the ``CommandKit`` of steps several
commands take. The commands themselves are built by topic in ``commands_games``,
``commands_community`` and ``commands_classroom``; each is a thin call into the service
plus an answer.

Names and descriptions are ``locale_str``s with catalogue keys, so the translator can
localise them; the English text written here is what Discord shows without a translation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.adapters.discord import limits
from bot.service import Place, Reply, User
from engines.base import GameError
from engines.registry import game_names, get_game, resolve_name
from renderers.i18n import normalise_language, translate

if TYPE_CHECKING:
    from bot.adapters.discord.client import LogicBot

AUTOCOMPLETE_LIMIT = limits.AUTOCOMPLETE_CHOICES
CHOICE_TEXT = limits.CHOICE_NAME[1]  # a choice's name and (string) value
PLATFORM_NAME = "discord"
FIRST_SEATS = {"me": 0, "opponent": 1, "random": None}


def _game_or_none(name: str | None) -> str | None:
    try:
        return resolve_name(name or "")
    except GameError:
        return None


async def complete_game(interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    choices = []
    for name in game_names():
        title = get_game(name).TITLE
        if typed in name or typed in title.lower():
            choices.append(app_commands.Choice(name=title, value=name))
    return choices[:AUTOCOMPLETE_LIMIT]


async def complete_level(interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
    game = _game_or_none(getattr(interaction.namespace, "game", None))
    names = game_names() if game is None else [game]
    levels: list[str] = []
    for name in names:
        module = get_game(name)
        offered = ("solo",) if module.INFO.solo else module.LEVELS
        levels += [level for level in offered if level not in levels]
    return [app_commands.Choice(name=level, value=level) for level in levels
            if current.lower() in level][:AUTOCOMPLETE_LIMIT]


async def complete_options(interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
    """Offer each option of the chosen game, appended to what is typed so far."""
    game = _game_or_none(getattr(interaction.namespace, "game", None))
    if game is None:
        return []
    typed = current.strip()
    already = {word.split("=")[0] for word in typed.split()}
    choices = ([app_commands.Choice(name=typed[:CHOICE_TEXT], value=typed[:CHOICE_TEXT])]
               if typed else [])
    if not typed:  # the game's presets first, its teaching game at the top
        language = normalise_language(interaction.locale.value)
        choices += [app_commands.Choice(
            name=f"{translate(language, p.label.key, p.label.default)} — "
                 f"{p.options}"[:CHOICE_TEXT],
            value=p.options[:CHOICE_TEXT]) for p in get_game(game).INFO.presets if p.options]
    for spec in get_game(game).OPTIONS:
        if spec.name in already:
            continue
        word = spec.name if spec.kind is bool else f"{spec.name}={spec.default}"
        value = f"{typed} {word}".strip()
        choices.append(app_commands.Choice(name=f"{value} — {spec.help}"[:CHOICE_TEXT],
                                           value=value[:CHOICE_TEXT]))
    return choices[:AUTOCOMPLETE_LIMIT]


class CommandKit:
    """What several commands do the same way, for the command builders."""

    def __init__(self, bot: LogicBot) -> None:
        self.bot = bot
        self.service = bot.service

    async def complete_move(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        place = await self.bot.place_for(interaction)
        texts = await self.service.move_suggestions(place, self.bot.actor(interaction), current,
                                               AUTOCOMPLETE_LIMIT)
        return [app_commands.Choice(name=t[:CHOICE_TEXT], value=t[:CHOICE_TEXT]) for t in texts]

    async def refused_for_speed(self, interaction: discord.Interaction, place: Place) -> bool:
        """For commands that only read: past the person's rate limit, say so instead."""
        refusal = await self.service.rate_refusal(place, self.bot.actor(interaction))
        if refusal is not None:
            await self.bot.notify(interaction, refusal)
        return refusal is not None

    async def post_new_game(self, interaction: discord.Interaction, place: Place,
                            work: Awaitable[Reply]) -> None:
        """A new game (/play, /rematch): its board here, or why it did not start."""
        reply = await work
        if not reply.ok or reply.board is None:
            await self.bot.notify(interaction, reply.notice or self.bot.t(place, "error.internal"))
            return
        await self.bot.post_board(interaction, place, reply)

    async def change(self, interaction: discord.Interaction,
                     action: Callable[[Place, User], Awaitable[Reply]]) -> None:
        """Join, resign or abandon: a change made away from the board."""
        place = await self.bot.place_for(interaction)
        actor = await self.bot.moderator_actor(interaction)
        reply = await action(place, actor)
        await self.bot.answer_change(interaction, place, reply)

    @staticmethod
    def moderators_only(place: Place) -> str:
        return translate(place.language, "moderation.only_moderators",
                         "Only moderators can do that here: members who can manage "
                         "messages, or who have the teacher role.")
