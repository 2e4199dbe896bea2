"""Messages in Telegram chats: sent (paced, a server's failure tried again), edited (an
unchanged edit never sent), what a failed one means for a board (``delivery_outcome``),
news lines, private texts, the texts the adapter keeps up to date, turn cues that
mention exactly their people, and the daily challenge's post."""

from __future__ import annotations

import datetime as dt
import html
import logging
from dataclasses import replace
from typing import Any

from telegram import Message as TgMessage
from telegram.constants import ChatAction
from telegram.error import (
    BadRequest,
    Forbidden,
    TelegramError,
)
from telegram.ext import Application

from bot.adapters.base import ChatAdapter
from bot.adapters.delivery import Shown
from bot.adapters.telegram.chats import DAILY_LINK_PREFIX, OpenChats, chat_of
from bot.adapters.telegram.layout import (
    Key,
    Message,
    ShownMessages,
    neutral,
    split_text,
    text_message,
)
from bot.adapters.telegram.pacing import retry_server_errors
from bot.puzzles.daily import PostOutcome
from bot.service import Board, Place, Reply
from bot.store import DailySchedule
from renderers.i18n import translate

log = logging.getLogger(__name__)


def delivery_outcome(error: TelegramError) -> Shown:
    """What a failed edit or post means for a board: the message deleted or too old to
    edit (post anew), the chat closed to the bot (try again rarely), or a passing fault:
    a flood wait, a timeout, a reset connection, a 5xx (try again soon)."""
    text = str(error).lower()
    if isinstance(error, Forbidden):
        return Shown.REFUSED
    if isinstance(error, BadRequest):
        if ("not found" in text and "message" in text) or "can't be edited" in text:
            return Shown.GONE
        return Shown.REFUSED
    return Shown.LATER


class TelegramMessages(ChatAdapter):
    """Sending and editing messages through the application's bot."""

    application: Application[Any, Any, Any, Any, Any, Any]
    shown: ShownMessages
    open_chats: OpenChats

    @property
    def bot(self) -> Any:
        return self.application.bot

    @property
    def username(self) -> str:
        return str(self.bot.username or "")

    # ---------------------------------------------------------- daily challenge
    def daily_link(self, server: str) -> str:
        return f"https://t.me/{self.username}?start={DAILY_LINK_PREFIX}{server.replace('-', 'm')}"

    def daily_message(self, text: str, server: str, language: str) -> Message:
        play = Key(translate(language, "daily.play", "▶ Play"), url=self.daily_link(server))
        return text_message(text, ((play,),))

    # -------------------------------------------------------------------- cues
    async def post_text(self, channel: str, text: str) -> str | None:
        sent = await self.send(channel, text_message(text))
        return str(sent.message_id) if sent is not None else None

    async def edit_text(self, channel: str, message_id: str, text: str) -> Shown:
        chat_id, _ = chat_of(channel)
        self.shown.forget(chat_id, int(message_id))
        try:
            await self.bot.edit_message_text(text_message(text).html, chat_id=chat_id,
                                             message_id=int(message_id))
        except TelegramError as error:
            if isinstance(error, BadRequest) and "not modified" in str(error).lower():
                return Shown.SHOWN
            outcome = delivery_outcome(error)
            log.info("could not edit message %s in %s: %s; %s", message_id, channel, error,
                     outcome.value)
            return outcome
        return Shown.SHOWN

    async def send_cue(self, place: Place, people: list[dict[str, Any]],
                       board: Board) -> str | None:
        """A message that mentions ``people`` by their ids (a text mention notifies even a
        person without a username), never by a name anyone typed."""
        mentions = ", ".join(
            f'<a href="tg://user?id={int(str(p.get("id")))}">'
            f'{html.escape(neutral(str(p.get("name", "?"))), quote=False)}</a>'
            for p in people if str(p.get("id", "")).isdigit())
        if not mentions:
            return ""
        marker = "\x00"
        text = html.escape(neutral(self.cue_text(place, marker, board)), quote=False)
        chat_id, topic = chat_of(place.channel)
        try:
            sent = await retry_server_errors(lambda: self.bot.send_message(
                chat_id, text.replace(marker, mentions), message_thread_id=topic))
        except TelegramError as error:
            log.info("could not cue a turn in %s: %s", place.channel, error)
            return None
        return str(sent.message_id)

    async def delete_message(self, channel: str, message_id: str) -> None:
        try:
            await self.bot.delete_message(chat_of(channel)[0], int(message_id))
        except TelegramError as error:
            log.info("could not delete message %s in %s: %s", message_id, channel, error)

    async def post_daily(self, schedule: DailySchedule, day: str) -> PostOutcome:
        text = await self.daily.post_for(schedule, dt.date.fromisoformat(day))
        message = self.daily_message(text, schedule.server, schedule.language)
        chat_id, topic = chat_of(schedule.channel)
        try:
            await self.bot.send_message(chat_id, message.html, message_thread_id=topic,
                                        reply_markup=message.markup())
        except Forbidden as error:
            log.warning("daily post to %s refused: %s", schedule.channel, error)
            return "gone"  # the bot was removed from the group, or the chat closed to it
        except BadRequest as error:
            log.warning("daily post to %s refused: %s", schedule.channel, error)
            return "gone" if "not found" in str(error).lower() else "failed"
        except TelegramError as error:
            log.warning("daily post to %s failed: %s", schedule.channel, error)
            return "failed"
        return "posted"

    async def send(self, channel: str, message: Message,
                   reply_to: int | None = None) -> TgMessage | None:
        """Post in a chat; best effort, since what it reports is already saved."""
        sent = await self.send_outcome(channel, message, reply_to)
        return None if isinstance(sent, Shown) else sent

    async def send_outcome(self, channel: str, message: Message,
                           reply_to: int | None = None) -> TgMessage | Shown:
        """Post in a chat: the message, or why Telegram did not take it (``Shown``)."""
        chat_id, topic = chat_of(channel)
        try:
            sent: TgMessage = await retry_server_errors(lambda: self.bot.send_message(
                chat_id, message.html, message_thread_id=topic, reply_markup=message.markup(),
                reply_to_message_id=reply_to, allow_sending_without_reply=True,
                message_effect_id=message.effect or None))
            self.shown.remember(chat_id, sent.message_id, message)
            self.open_chats.heard(chat_id)
            return sent
        except TelegramError as error:
            if isinstance(error, Forbidden):
                self.open_chats.refused(chat_id)
            if message.effect:  # an effect Telegram no longer knows: the words still go
                return await self.send_outcome(channel, replace(message, effect=""),
                                               reply_to)
            outcome = delivery_outcome(error)
            log.warning("could not send to %s: %s; %s", channel, error, outcome.value)
            return Shown.REFUSED if outcome is Shown.GONE else outcome

    async def can_write_privately(self, user_id: int) -> bool:
        """Whether the bot may write to the person's private chat: known open
        (``open_chats``), else asked of Telegram by a chat action ("typing…", which
        sends nothing and is answered 403 where a message would be). Another process may
        have seen the chat open (webhook workers), or this one before a restart."""
        if user_id in self.open_chats:
            return True
        try:
            await self.bot.send_chat_action(user_id, ChatAction.TYPING)
        except (Forbidden, BadRequest):
            self.open_chats.refused(user_id)
            return False
        except TelegramError as error:
            log.info("could not ask whether %s has a private chat: %s", user_id, error)
            return False
        self.open_chats.heard(user_id)
        return True

    async def reply_text(self, source: TgMessage, place: Place, text: str,
                         rows: tuple[tuple[Key, ...], ...] = ()) -> None:
        """Answer a command; text too long for one message is split, buttons go last."""
        pieces = split_text(text)
        for index, piece in enumerate(pieces):
            last = index == len(pieces) - 1
            await self.send(place.channel, Message(piece, rows if last else ()),
                            reply_to=source.message_id if index == 0 else None)

    async def edit(self, chat_id: int, message_id: int, message: Message) -> bool:
        """Edit a message; an unchanged one counts as edited (and is not sent when this
        process wrote it so). False when it is gone or could not be edited."""
        return await self.edit_outcome(chat_id, message_id, message) is Shown.SHOWN

    async def edit_outcome(self, chat_id: int, message_id: int, message: Message) -> Shown:
        """Edit a message and say what came of it (``delivery.Shown``)."""
        if self.shown.unchanged(chat_id, message_id, message):
            return Shown.SHOWN
        try:
            await self.bot.edit_message_text(message.html, chat_id=chat_id,
                                             message_id=message_id,
                                             reply_markup=message.markup())
        except TelegramError as error:
            if isinstance(error, BadRequest) and "not modified" in str(error).lower():
                self.shown.remember(chat_id, message_id, message)
                return Shown.SHOWN
            outcome = delivery_outcome(error)
            log.info("could not edit message %s in %s: %s; %s", message_id, chat_id, error,
                     outcome.value)
            return outcome
        self.shown.remember(chat_id, message_id, message)
        return Shown.SHOWN

    async def announce(self, channel: str, lines: list[str]) -> None:
        if lines:
            await self.send(channel, text_message("\n".join(lines)))

    async def deliver_private(self, reply: Reply) -> None:
        """Texts meant for one player each, to their private chats; never to the group."""
        for user_id, text in reply.private.items():
            if user_id.isdigit():
                await self.send(user_id, text_message(text))
