"""Commands of a group's admins: ``/timer``, ``/classboard``, ``/export`` and
``/settings``."""

from __future__ import annotations

import io

from telegram import Update
from telegram.ext import ContextTypes

from bot.adapters.telegram.chats import PLATFORM
from bot.adapters.telegram.commands.kit import CommandKit
from bot.classroom import parse_policy
from renderers.i18n import translate


class ClassroomCommands(CommandKit):
    """The moderators' tools."""

    async def timer(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/timer`` shows the policy; ``/timer 5 15 forfeit|ai`` or ``/timer off`` (admins)
        sets it."""
        message, place, _ = await self._context(update)
        classroom = self.client.classroom
        words = [w.lower() for w in context.args or []]
        if not words:
            policy = await classroom.policy(PLATFORM, place.channel)
            await self.client.reply_text(message, place,
                                         classroom.describe(place.language, policy))
            return
        if not await self.moderator(update, place):
            return
        if words[0] == "off":
            await self.client.reply_text(message, place, await classroom.set_policy(place, None))
            return
        policy = parse_policy(words)
        if policy is None:
            await self.client.reply_text(message, place, classroom.usage(place.language))
            return
        await self.client.reply_text(message, place, await classroom.set_policy(place, policy))

    async def class_board(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/classboard``: one message here listing every game of this group and whose
        turn it is, kept up to date in place; ``/classboard off`` stops it (admins)."""
        message, place, _ = await self._context(update)
        if not place.server:
            await self.client.reply_text(message, place, self.t(place,
                                                                "classboard.servers_only"))
            return
        if not await self.moderator(update, place):
            return
        if [w.lower() for w in context.args or []][:1] == ["off"]:
            closed = await self.client.close_class_board(place)
            await self.client.reply_text(message, place, self.t(
                place, "classboard.closed" if closed else "classboard.none"))
            return
        if not await self.client.open_class_board(place):
            await self.client.reply_text(message, place, self.t(place, "error.internal"))

    async def export(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The group's results as a CSV document (admins)."""
        message, place, user = await self._context(update)
        if await self.refused_for_speed(message, place, user):
            return
        if not await self.moderator(update, place):
            return
        classroom = self.client.classroom
        data = await classroom.export_csv(PLATFORM, place.server)
        chat_id, topic = message.chat.id, message.message_thread_id
        await self.client.bot.send_document(
            chat_id, io.BytesIO(data.encode("utf-8")),
            filename=classroom.export_name(place.server, self.client.daily.today()),
            caption=translate(place.language, "export.ready_group",
                              "The results of this group, as CSV."),
            message_thread_id=topic if message.is_topic_message else None,
            reply_to_message_id=message.message_id, allow_sending_without_reply=True)
        # The final standings of the group's tournaments, when it has had any.
        tournaments = self.client.app.tournaments
        standings = await tournaments.standings_csv(PLATFORM, place.server)
        if standings is not None:
            await self.client.bot.send_document(
                chat_id, io.BytesIO(standings.encode("utf-8")),
                filename=tournaments.export_name(place.server, self.client.daily.today()),
                caption=translate(place.language, "export.tournaments",
                                  "The final standings of this group's tournaments, as CSV."),
                message_thread_id=topic if message.is_topic_message else None)

    # --------------------------------------------------------------------- /settings
    async def settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, _ = await self._context(update)
        person = update.effective_user
        assert person is not None
        if not await self.client.is_admin(message.chat, person, message.sender_chat):
            await self.client.reply_text(message, place, self.t(
                place, "telegram.settings.admins_only"))
            return
        await self.client.send(place.channel, await self.settings_panel(place, message.chat.id),
                               reply_to=message.message_id)
