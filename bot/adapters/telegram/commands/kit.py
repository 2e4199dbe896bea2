"""What several Telegram commands do the same way (as Discord's ``CommandKit``): read who
sent a command where, find the sender's own game among a group's tables, refuse an
anonymous sender or one past the rate limit, check a moderator, and start a game."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

from telegram import CallbackQuery, Update
from telegram import Message as TgMessage
from telegram.ext import ContextTypes

from bot.adapters.telegram.buttons import SetupButtons
from bot.adapters.telegram.chats import callback_data_of, is_private
from bot.service import Opponent, Place, Reply, User
from engines.registry import get_game
from renderers.i18n import translate

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


class CommandKit(SetupButtons):
    """The steps the commands share; the bot's own buttons come from ``SetupButtons``."""

    async def _context(self, update: Update) -> tuple[TgMessage, Place, User]:
        message = update.effective_message
        person = update.effective_user
        assert message is not None and person is not None
        return message, await self.client.place_of_message(message, person), \
            self.client.user_for(person)

    async def _game_context(self, update: Update
                            ) -> tuple[TgMessage, Place, User] | None:
        """Like ``_context``, for a command about "my game": in a group with several games
        at its tables (``bot.tables``), the place of the one game its sender sits in. With
        several, the sender is asked which (links to their boards) and None returned."""
        message, place, user = await self._context(update)
        if is_private(place.channel):
            return message, place, user
        seated = await self.service.seated_games(place, user)
        if len(seated) == 1:
            return message, replace(place, channel=seated[0].channel), user
        if len(seated) > 1:
            games = "\n".join(self.t(place, "telegram.tables.game", number=record.id,
                                     game=get_game(record.game).TITLE,
                                     link=self.client.game_link(record))
                               for record in seated)
            await self.client.reply_text(message, place, self.t(
                place, "telegram.tables.which", games=games))
            return None
        return message, place, user

    async def _playing_context(self, update: Update
                               ) -> tuple[TgMessage, Place, User] | None:
        """``_game_context`` for a command that plays in the sender's game (a move, the
        hand): None too when it is sent as the group, which is told so (``anonymous``)."""
        found = await self._game_context(update)
        if found is None or await self.anonymous(found[0], found[1]):
            return None
        return found

    async def anonymous(self, message: TgMessage, place: Place) -> bool:
        """Messages sent as the group or a channel all come from one shared account, which
        must not take a seat; say so instead."""
        if message.sender_chat is None:
            return False
        await self.client.reply_text(message, place, self.t(place, "telegram.anonymous"))
        return True

    async def own_press(self, query: CallbackQuery) -> tuple[TgMessage, Place] | None:
        """The message pressed and its place, when the press's data is on that message (as
        for the bot's other own buttons); else the presser is told the button is not
        theirs, and None."""
        source = query.message
        if not isinstance(source, TgMessage) or (query.data or "") not in callback_data_of(
                source):
            place = (await self.client.place_of_message(source, query.from_user)
                     if isinstance(source, TgMessage) else None)
            language = place.language if place else self.client.settings.language
            await self.client.answer(query, translate(language, "error.foreign_button"),
                                     alert=True)
            return None
        return source, await self.client.place_of_message(source, query.from_user)

    async def refused_for_speed(self, message: TgMessage, place: Place, user: User) -> bool:
        """For commands that only read: past the person's rate limit, say so instead."""
        refusal = await self.service.rate_refusal(place, user)
        if refusal is not None:
            await self.client.reply_text(message, place, refusal)
        return refusal is not None

    async def moderator(self, update: Update, place: Place) -> bool:
        """Group admins moderate (a private chat has no class to moderate); anyone else is
        told so."""
        message = update.effective_message
        person = update.effective_user
        assert message is not None and person is not None
        if not is_private(place.channel) and await self.client.is_admin(
                message.chat, person, message.sender_chat):
            return True
        await self.client.reply_text(message, place, translate(
            place.language, "moderation.only_admins",
            "Only this group's admins can do that."))
        return False

    async def settings_admin(self, update: Update, message: TgMessage, place: Place) -> bool:
        """Whether the sender may change what this chat is set to (``/settings``, the daily
        post's time): its admins (``is_admin``); anyone else is told so."""
        person = update.effective_user
        assert person is not None
        if await self.client.is_admin(message.chat, person, message.sender_chat):
            return True
        await self.client.reply_text(message, place, self.t(
            place, "telegram.settings.admins_only"))
        return False

    def invited(self, message: TgMessage) -> Opponent | None:
        """The opponent named by replying to their message: the bot itself means the
        computer; other bots cannot play."""
        replied = message.reply_to_message
        person = replied.from_user if replied is not None else None
        if person is None or (message.is_topic_message and replied is not None
                              and replied.message_id == message.message_thread_id):
            return None  # in a forum topic every message "replies" to the topic's start
        if person.id == self.client.bot.id:
            return Opponent("ai", "")
        if person.is_bot:
            return None
        return Opponent("user", user=self.client.user_for(person))

    async def start_game(self, message: TgMessage, place: Place, user: User, game: str,
                         rival: Opponent, options: str, creator_seat: int | None) -> None:
        in_topic = await self.game_in_topic(message, place, user, game, rival, options,
                                            creator_seat)
        if in_topic is not None:
            await self.client.reply_text(message, place, in_topic)
            return
        table = await self.client.place_for_new_game(place, user, game, rival)
        if isinstance(table, str):
            await self.client.reply_text(message, place, table)
            return
        await self.post_board_reply(message, table, await self.service.start_game(
            table, user, game, rival, options, creator_seat))

    async def post_board_reply(self, message: TgMessage, place: Place, reply: Reply,
                               missing: str = "error.internal") -> None:
        """The board a command's ``reply`` brings (a new game, /board, a typed move, the
        daily challenge) posted in reply to the command, or why there is none: the reply's
        notice, else the message ``missing``."""
        if not reply.ok or reply.board is None:
            await self.client.reply_text(message, place, reply.notice or self.t(place, missing))
            return
        await self.client.post_board(place, reply, reply_to=message.message_id)
