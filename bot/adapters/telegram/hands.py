"""Hands on Telegram, which has no ephemeral messages: a player's hand goes to their
private chat with the bot, as a message that keeps the hand's buttons until a newer hand
replaces it. A player who never opened that chat (Telegram forbids bots to start one)
gets a ``t.me/<bot>?start=hand-<game>`` link in the group, once a game. The rest of the
Telegram client is in ``client.py``."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from telegram import Message as TgMessage
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.adapters.telegram.chats import (
    HAND_LINK_PREFIX,
    HINT_LINK,
    PLATFORM,
    OpenChats,
    is_private,
)
from bot.adapters.telegram.layout import Key, Message, ShownMessages, hand_message, text_message
from bot.service import Board, Hand, Place, Service, User
from renderers.i18n import translate

log = logging.getLogger(__name__)


class HandsClient(Protocol):
    """What the hands use of the Telegram client. Named here, not imported: the client
    holds the hands, and an import back would be a cycle."""

    service: Service
    shown: ShownMessages
    open_chats: OpenChats

    @property
    def bot(self) -> Any: ...

    @property
    def username(self) -> str: ...

    def t(self, place: Place, key: str, **params: Any) -> str: ...

    async def board_ref(self, game_id: int) -> dict[str, Any]: ...

    async def send(self, channel: str, message: Message,
                   reply_to: int | None = None) -> TgMessage | None: ...


class PrivateHands:
    """Each player's hand in their private chat, and the links for those without one."""

    def __init__(self, client: HandsClient) -> None:
        self.client = client
        # (game, player) → their latest hand message, and whether it still has buttons
        self.messages: dict[tuple[int, str], tuple[int, bool]] = {}
        # (game, player) sent a link to open a private chat, so it is sent once
        self.linked: set[tuple[int, str]] = set()

    def forget(self, game_id: int) -> None:
        """Drop what a finished game kept: its hand messages and links sent."""
        for key in [key for key in self.messages if key[0] == game_id]:
            del self.messages[key]
        self.linked = {key for key in self.linked if key[0] != game_id}

    def hand_link(self, game_id: int) -> str:
        return self.chat_link(f"{HAND_LINK_PREFIX}{game_id}")

    def hint_link(self) -> str:
        """The link that opens the private chat a hint goes to (``/start hint``)."""
        return self.chat_link(HINT_LINK)

    def open_chat_key(self, place: Place, start: str = "") -> Key:
        """The button that opens the person's private chat with the bot (``chat_link``)."""
        return Key(translate(place.language, "telegram.open_chat", "💬 Open a chat with me"),
                   url=self.chat_link(start))

    def chat_link(self, start: str = "") -> str:
        """A link that opens the person's private chat with the bot, and sends ``/start``
        with ``start`` when they press Start."""
        return f"https://t.me/{self.client.username}" + (f"?start={start}" if start else "")

    async def hand_title(self, place: Place, game_id: int) -> str:
        title = str((await self.client.board_ref(game_id)).get("title") or "")
        return self.client.t(place, "telegram.hand.title", chat=title or self.client.t(
            place, "telegram.hand.your_group"))

    async def private_hand(self, place: Place, game_id: int, hand: Hand) -> Message:
        """A hand for the player's private chat, with a one-tap way back to the group's
        board where Telegram gives its messages links (supergroups)."""
        ref = await self.client.board_ref(game_id)
        chat, message = str(ref.get("chat", "")), str(ref.get("message", ""))
        back = None
        if chat.startswith("-100") and message.isdigit():
            title = str(ref.get("title") or "") or self.client.t(place,
                                                                 "telegram.hand.your_group")
            back = Key(self.client.t(place, "telegram.hand.back", chat=title)[:40],
                       url=f"https://t.me/c/{chat[4:]}/{message}")
        return hand_message(hand, place.language, title=await self.hand_title(place, game_id),
                            back=back)

    async def send_hand(self, place: Place, user_id: str, game_id: int,
                        hand: Hand) -> bool | None:
        """The hand as a new message in the player's private chat. False when the player
        never opened that chat (Telegram forbids bots to start one); None when sending
        failed for another reason, which a deep link would not cure."""
        message = await self.private_hand(place, game_id, hand)
        try:
            sent = await self.client.bot.send_message(int(user_id), message.html,
                                                      reply_markup=message.markup())
        except Forbidden:
            self.client.open_chats.refused(int(user_id))
            return False
        except BadRequest as error:
            if "chat not found" in str(error).lower():
                self.client.open_chats.refused(int(user_id))
                return False
            log.warning("could not send a hand to %s: %s", user_id, error)
            return None
        except TelegramError as error:
            log.warning("could not send a hand to %s: %s", user_id, error)
            return None
        self.client.shown.remember(int(user_id), sent.message_id, message)
        self.client.open_chats.heard(int(user_id))
        previous = self.messages.get((game_id, user_id))
        self.messages[(game_id, user_id)] = (sent.message_id, bool(message.rows))
        if previous is not None and previous[1]:
            # The older hand's buttons would only answer "out of date" now.
            self.client.shown.forget(int(user_id), previous[0])
            try:
                await self.client.bot.edit_message_reply_markup(int(user_id), previous[0])
            except TelegramError as error:
                log.info("could not retire hand message %s: %s", previous[0], error)
        return True

    async def push_hands(self, place: Place, board: Board, players: list[dict[str, Any]],
                         skip: str | None) -> None:
        """In a group game with hidden hands, each of ``players`` gets their hand and menu
        privately; one who never opened a chat with the bot gets a link, once."""
        if board.hand_button is None or is_private(place.channel):
            return
        for player in players:
            user_id = str(player.get("id", ""))
            if (player.get("kind") != "human" or player.get("platform") != PLATFORM
                    or user_id == skip):
                continue
            reply = await self.client.service.hand(place, User(PLATFORM, user_id, ""))
            if reply.hand is None:
                continue
            if await self.send_hand(place, user_id, board.game_id, reply.hand) is not False:
                continue
            if (board.game_id, user_id) not in self.linked:
                self.linked.add((board.game_id, user_id))
                await self.client.send(place.channel, self.start_me(
                    place, str(player.get("name")), board.game_id))

    def start_me(self, place: Place, name: str, game_id: int) -> Message:
        """A group message with a deep link for a player the bot cannot write to yet."""
        return text_message(self.client.t(place, "telegram.hand.start_me", name=name),
                            ((Key(self.client.t(place, "telegram.hand.open_chat"),
                                  url=self.hand_link(game_id)),),))
