"""Commands of a group's admins: ``/timer``, ``/classboard``, ``/export`` and
``/settings``."""

from __future__ import annotations

import io
import logging

from telegram import Update
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.adapters.telegram.chats import PLATFORM, is_private
from bot.adapters.telegram.commands.kit import CommandKit
from bot.classroom import parse_policy
from renderers.i18n import translate

log = logging.getLogger(__name__)


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
        """The group's results as a CSV document (admins), and its tournaments' final
        standings when it had any, sent to the asker's private chat: in the group every
        student would see everyone's results. The group hears that they went, or gets a
        deep link that opens that chat (Telegram lets no bot start one)."""
        message, place, user = await self._context(update)
        if await self.refused_for_speed(message, place, user):
            return
        if not await self.moderator(update, place):
            return
        group = message.chat.title or self.t(place, "telegram.hand.your_group")
        classroom, tournaments = self.client.classroom, self.client.app.tournaments
        today = self.client.daily.today()
        files = [(classroom.export_name(place.server, today),
                  await classroom.export_csv(PLATFORM, place.server),
                  translate(place.language, "export.ready_chat",
                            "The results of {group}, as CSV.", group=group))]
        standings = await tournaments.standings_csv(PLATFORM, place.server)
        if standings is not None:
            files.append((tournaments.export_name(place.server, today), standings, translate(
                place.language, "export.tournaments_chat",
                "The final standings of the tournaments in {group}, as CSV.", group=group)))
        sent = await self._send_files(int(user.id), files)
        if is_private(place.channel):
            if sent is None:
                await self.client.reply_text(message, place, self.t(place, "error.internal"))
            return
        if sent is None:
            await self.client.reply_text(message, place, self.t(place, "error.internal"))
        elif sent:
            await self.client.reply_text(message, place, translate(
                place.language, "export.sent_privately",
                "📄 The results are in your private chat with me, where only you see them."))
        else:
            await self.client.reply_text(message, place, translate(
                place.language, "export.private_only",
                "The results go to your private chat with me, where only you see them. "
                "Open it with the button (then Start), and type /export here again."),
                rows=((self.client.hands.open_chat_key(place),),))

    async def _send_files(self, chat_id: int, files: list[tuple[str, str, str]]
                          ) -> bool | None:
        """CSV files (name, text, caption) to a private chat: whether they went, False
        when that chat was never opened (or the bot is blocked there), None when
        Telegram failed otherwise."""
        try:
            for name, data, caption in files:
                await self.client.bot.send_document(
                    chat_id, io.BytesIO(data.encode("utf-8")), filename=name,
                    caption=caption)
        except Forbidden:
            self.client.open_chats.refused(chat_id)
            return False
        except BadRequest as error:
            if "chat not found" in str(error).lower():
                self.client.open_chats.refused(chat_id)
                return False
            log.warning("could not send the export to %s: %s", chat_id, error)
            return None
        except TelegramError as error:
            log.warning("could not send the export to %s: %s", chat_id, error)
            return None
        self.client.open_chats.heard(chat_id)
        return True

    # --------------------------------------------------------------------- /settings
    async def settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, _ = await self._context(update)
        if not await self.settings_admin(update, message, place):
            return
        await self.client.send(place.channel, await self.settings_panel(place, message.chat.id),
                               reply_to=message.message_id)
