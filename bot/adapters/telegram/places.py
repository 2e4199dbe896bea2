"""Who and where on Telegram: a chat or forum topic as a service ``Place`` (in the language
to answer in), a person as a ``User``, who administers a group, the chat's settings,
where a new game goes (a topic of its own, a table of the group), and links to a
game's board."""

from __future__ import annotations

import logging

from telegram import Chat
from telegram import Message as TgMessage
from telegram import User as TgUser
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.adapters.common import pick_language
from bot.adapters.telegram.chats import (
    PLATFORM,
    channel_of,
    chat_of,
    is_private,
    topic_of,
)
from bot.adapters.telegram.limits import TOPIC_NAME_LIMIT
from bot.adapters.telegram.messages import TelegramMessages
from bot.names import clean_display_name
from bot.service import Opponent, Place, User
from bot.store import GameRecord
from engines.registry import get_game
from renderers.i18n import translate

log = logging.getLogger(__name__)


class TelegramPlaces(TelegramMessages):
    """Places, people and their rights, read from a chat and its messages."""

    def game_link(self, record: GameRecord) -> str:
        return self.board_link(record, translate(self.settings.language, "games.here"),
                               supergroup=True)

    def settings_scope(self, place: Place) -> str:
        return f"chat:{chat_of(place.channel)[0]}"

    async def chat_setting(self, chat_id: int, key: str) -> str | None:
        """A chat setting, from memory after the first read: only /settings changes them."""
        return await self.setting(f"chat:{chat_id}", key)

    async def set_chat_setting(self, chat_id: int, key: str, value: str) -> None:
        await self.set_setting(f"chat:{chat_id}", key, value)

    async def place_for(self, chat: Chat, topic: int | None, person: TgUser | None) -> Place:
        """The chat (or forum topic) as a service place, in the language to answer in: the
        one the group's admins chose, else the person's own, else the bot's default."""
        if chat.type == Chat.PRIVATE:  # the person wrote or pressed here: it is open
            self.open_chats.heard(chat.id)
        chosen = await self.chat_setting(chat.id, "language")
        candidates: list[str | None] = [chosen] if chosen and chosen != "auto" else []
        candidates += [person.language_code if person else None, self.settings.language]
        style = await self.chat_setting(chat.id, "board")
        return Place(PLATFORM, channel_of(chat.id, topic), pick_language(candidates),
                     emoji=style != "text",
                     server="" if chat.type == Chat.PRIVATE else str(chat.id))

    async def new_game_place(self, message: TgMessage, place: Place, name: str) -> Place:
        """Where a game asked for by ``message`` is played: in a forum group's General
        topic, a topic of its own named ``name`` (so a whole class plays at once, each pair
        in its topic, as Discord's threads do); anywhere else, ``place``."""
        chat = message.chat
        if not chat.is_forum or topic_of(message) is not None:
            return place
        try:
            topic = await self.bot.create_forum_topic(chat.id, name[:TOPIC_NAME_LIMIT])
        except TelegramError as error:  # no right to manage topics: play in General
            log.info("could not open a topic in %s: %s", chat.id, error)
            return place
        return Place(PLATFORM, channel_of(chat.id, topic.message_thread_id), place.language,
                     place.emoji, place.server)

    @staticmethod
    def has_tables(place: Place) -> bool:
        """Groups have tables; a private chat or a forum topic holds one game, as a Discord
        channel does (``bot.tables``)."""
        return not is_private(place.channel) and chat_of(place.channel)[1] is None

    async def free_place(self, place: Place) -> Place:
        """Where a rematch goes: ``place``, or the room's free table."""
        return await self.service.free_place(place) if self.has_tables(place) else place

    async def place_for_new_game(self, place: Place, user: User, game: str,
                                 rival: Opponent) -> Place | str:
        """A group with a game running gets the next one at a table (``bot.tables``), so a
        class plays many games in one plain group; a private chat or a forum topic holds
        one game, as a Discord channel does. The sentence to answer instead when the
        same game against the same opponent already runs there (a repeated /play)."""
        if not self.has_tables(place):
            return place
        found = await self.service.table_for_new_game(place, user, game, rival)
        if isinstance(found, Place):
            return found
        return self.t(place, "telegram.tables.already", game=get_game(found.game).TITLE,
                      link=self.game_link(found))

    async def place_of_message(self, message: TgMessage, person: TgUser | None) -> Place:
        return await self.place_for(message.chat, topic_of(message), person)

    @staticmethod
    def user_for(person: TgUser, moderator: bool = False) -> User:
        name = clean_display_name(person.full_name, str(person.id))
        return User(PLATFORM, str(person.id), name, moderator)

    async def is_admin(self, chat: Chat, person: TgUser, sender_chat: Chat | None = None
                       ) -> bool:
        """Whether ``person`` may run this chat: its admins, or the user of a private chat."""
        if chat.type == Chat.PRIVATE or (sender_chat is not None and sender_chat.id == chat.id):
            return True  # a private chat's user, or an admin posting anonymously as the group
        try:
            member = await self.bot.get_chat_member(chat.id, person.id)
        except TelegramError:
            log.info("could not check admin rights of %s in %s", person.id, chat.id)
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    @staticmethod
    def board_link(record: GameRecord, here: str, supergroup: bool) -> str:
        """A t.me/c link to the game's board in a supergroup (the only chats whose
        messages have links a member can open; their ids are -100 and the internal id);
        ``here`` elsewhere."""
        chat_id, _ = chat_of(record.channel)
        message = str((record.board_ref or {}).get("message", ""))
        if supergroup and str(chat_id).startswith("-100") and message.isdigit():
            return f"https://t.me/c/{str(chat_id)[4:]}/{message}"
        return here
