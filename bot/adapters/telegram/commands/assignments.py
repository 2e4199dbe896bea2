"""``/assign`` and ``/progress`` on Telegram (``bot.classroom.assignments``).

Typed in a group: ``/assign win 3 lgame medium by 2026-12-01`` (admins), ``/assign`` or
``/assign list`` (anyone), ``/assign close 2`` (admins). New and closed work is answered
in the group for the class. ``/progress`` sends the asker their own standing in their
private chat, and ``/progress all`` sends an admin the class table and its CSV there: a
group shows everything to everyone, and only moderators see others' progress.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io

from telegram import Message as TgMessage
from telegram import Update
from telegram import User as TgUser
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.adapters.telegram.client import TelegramBot
from bot.adapters.telegram.commands import Commands
from bot.adapters.telegram.layout import text_message
from bot.service import Place, User
from renderers.i18n import translate


class AssignmentCommands:
    def __init__(self, client: TelegramBot, commands: Commands) -> None:
        self.client = client
        self.commands = commands

    async def _context(self, update: Update) -> tuple[TgMessage, TgUser, Place, User]:
        message, person = update.effective_message, update.effective_user
        assert message is not None and person is not None
        place = await self.client.place_of_message(message, person)
        return message, person, place, self.client.user_for(person)

    async def assign(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, person, place, user = await self._context(update)
        if await self.commands.refused_for_speed(message, place, user):
            return
        words = list(context.args or [])
        sets_work = bool(words) and words[0].lower() != "list"
        # Only a command that sets or closes work asks whether the sender is an admin (one
        # call to Telegram), and a refused one is answered by the shared text.
        moderator = sets_work and place.server != "" and await self.client.is_admin(
            message.chat, person, message.sender_chat)
        answer = await self.client.app.assignments.command(place, user, words, moderator)
        await self.client.reply_text(message, place, answer.text)

    async def progress(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, _, place, user = await self._context(update)
        if await self.commands.refused_for_speed(message, place, user):
            return
        assignments = self.client.app.assignments
        everyone = [w.lower() for w in context.args or []][:1] == ["all"]
        if not place.server:
            await self.client.reply_text(message, place, await assignments.progress(place,
                                                                                    user))
            return
        if everyone and not await self.commands.moderator(update, place):
            return
        text = (await assignments.class_table(place) if everyone
                else await assignments.progress(place, user))
        if await self.client.send(user.id, text_message(text)) is None:
            await self.client.reply_text(message, place, translate(
                place.language, "progress.private_only",
                "Progress is sent in a private chat, where only you see it: open a chat "
                "with me (tap my name, then Start) and ask again."))
            return
        if everyone:
            data = await assignments.class_csv(place)
            day = dt.datetime.now(dt.UTC).date().isoformat()
            with contextlib.suppress(TelegramError):  # the table arrived; the file helps
                await self.client.bot.send_document(
                    int(user.id), io.BytesIO(data.encode("utf-8")),
                    filename=f"progress-{place.server.lstrip('-')}-{day}.csv")
        await self.client.reply_text(message, place, translate(
            place.language, "progress.sent", "Sent to you privately."))
