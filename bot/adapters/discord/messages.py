"""Plain messages in Discord channels, away from any interaction: news lines, the texts the
adapter keeps up to date (the class board, a tournament's post), turn cues that ping
exactly their people, and the daily challenge's post."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import discord

from bot.adapters.base import ChatAdapter
from bot.adapters.delivery import Shown
from bot.adapters.discord.components import build_view
from bot.adapters.discord.errors import DELIVERY_ERRORS, delivery_outcome, describe_error
from bot.adapters.discord.layout import NO_MENTIONS, Layout
from bot.adapters.discord.markdown import fit_content, inert
from bot.adapters.discord.menus import BUTTON_PREFIX, MenuButton
from bot.adapters.discord.presses import DAILY_PAYLOAD
from bot.puzzles.daily import PostOutcome, dropped_text
from bot.service import Board, Place
from bot.store import DailySchedule
from renderers.i18n import translate

log = logging.getLogger(__name__)


class DiscordMessages(ChatAdapter, discord.Client):
    """Posting, editing and deleting messages in a channel by its id."""

    async def announce(self, channel_id: str, lines: list[str]) -> None:
        """Public lines in the channel; best effort, as the move they report is saved."""
        if not lines:
            return
        channel = self.get_partial_messageable(int(channel_id))
        try:
            await channel.send(fit_content([inert(line) for line in lines]),
                               allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("could not announce in %s: %s", channel_id, error)

    def daily_layout(self, text: str, server: str, language: str) -> Layout:
        play = MenuButton(translate(language, "daily.play"),
                          BUTTON_PREFIX + DAILY_PAYLOAD + server, 0, primary=True)
        return Layout(fit_content([inert(text)]), [play], [], False)

    async def post_daily(self, schedule: DailySchedule, day: str) -> PostOutcome:
        text = await self.daily.post_for(schedule, dt.date.fromisoformat(day))
        layout = self.daily_layout(text, schedule.server, schedule.language)
        channel = self.get_partial_messageable(int(schedule.channel))
        view = build_view(layout)
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        try:
            await channel.send(layout.content, allowed_mentions=NO_MENTIONS, **extra)
        except (discord.NotFound, discord.Forbidden) as error:
            # A deleted channel, or one the bot may no longer post in.
            log.warning("daily post to %s refused: %s", schedule.channel, error)
            return "gone"
        except discord.HTTPException as error:
            log.warning("daily post to %s failed: %s", schedule.channel, error)
            return "failed"
        return "posted"

    async def post_text(self, channel: str, text: str) -> str | None:
        try:
            message = await self.get_partial_messageable(int(channel)).send(
                fit_content([inert(text)]), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("could not post in %s: %s", channel, error)
            return None
        return str(message.id)

    async def edit_text(self, channel: str, message_id: str, text: str) -> Shown:
        message = self.get_partial_messageable(int(channel)).get_partial_message(
            int(message_id))
        try:
            await message.edit(content=fit_content([inert(text)]),
                               allowed_mentions=NO_MENTIONS)
        except DELIVERY_ERRORS as error:
            outcome = delivery_outcome(error)
            log.info("could not edit message %s in %s: %s; %s", message_id, channel,
                     describe_error(error), outcome.value)
            return outcome
        return Shown.SHOWN

    async def send_cue(self, place: Place, people: list[dict[str, Any]],
                       board: Board) -> str | None:
        """A short line that mentions ``people`` by id, with ``allowed_mentions`` limited
        to exactly them: the only pings the bot ever sends."""
        ids = [int(str(p.get("id"))) for p in people if str(p.get("id", "")).isdigit()]
        if not ids:
            return ""
        text = self.cue_text(place, ", ".join(f"<@{user_id}>" for user_id in ids), board)
        allowed = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                          users=[discord.Object(user_id) for user_id in ids])
        try:
            message = await self.get_partial_messageable(int(place.channel)).send(
                text, allowed_mentions=allowed)
        except discord.HTTPException as error:
            log.info("could not cue a turn in %s: %s", place.channel, error)
            return None
        return str(message.id)

    async def delete_message(self, channel: str, message_id: str) -> None:
        try:
            await self.get_partial_messageable(int(channel)).get_partial_message(
                int(message_id)).delete()
        except discord.HTTPException as error:
            log.info("could not delete message %s in %s: %s", message_id, channel, error)

    async def daily_dropped(self, schedule: DailySchedule) -> None:
        """Tell the server, in its system channel when it has one, that the daily post
        stopped because its channel is gone or closed to the bot."""
        guild = self.get_guild(int(schedule.server)) if schedule.server.isdigit() else None
        channel = guild.system_channel if guild is not None else None
        if channel is None:
            return
        text = dropped_text(schedule, f"<#{schedule.channel}>")
        try:
            await channel.send(text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.info("could not tell %s that its daily post stopped: %s", schedule.server,
                     error)
