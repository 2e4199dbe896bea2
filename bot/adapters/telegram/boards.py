"""A game's board on Telegram: composed (in a private chat with the owner's hand inside it),
edited in place, posted at the bottom of the chat and made the game's board, retired
when a newer one replaces it; what a change shows beside it: private texts, a win's
confetti, and the hands of those whose turn began (``PrivateHands``)."""

from __future__ import annotations

from typing import Any

from telegram import Message as TgMessage

from bot.adapters.delivery import Drawn, Shown
from bot.adapters.telegram.chats import (
    PLATFORM,
    chat_of,
    is_private,
)
from bot.adapters.telegram.hands import PrivateHands
from bot.adapters.telegram.layout import (
    Message,
    board_message,
    text_message,
)
from bot.adapters.telegram.places import TelegramPlaces
from bot.service import Board, Hand, Place, Reply, User
from renderers.i18n import translate

# 7.4, ``message_effect_id``; private chats only). Refused ids fall back to no effect.
CELEBRATION_EFFECT = "5046509860389126442"
# The end panel marks a winner's line with it (``Core._finale``).
WINNER_MARK = "🏆"


class TelegramBoards(TelegramPlaces):
    """Drawing the boards of games, and what a change shows beside them."""

    hands: PrivateHands

    async def compose_board(self, place: Place, board: Board, *, ai_thinking: bool = False,
                            header: list[str] | None = None,
                            hand: Hand | None = None) -> Message:
        """The board message; in a private chat a game with hidden hands shows the chat
        owner's hand and menu inside it."""
        if hand is None and board.hand_button is not None and is_private(place.channel):
            owner = User(PLATFORM, str(chat_of(place.channel)[0]), "")
            hand = (await self.service.hand(place, owner)).hand
        return board_message(board, place.language, header=header, ai_thinking=ai_thinking,
                             hand=hand)

    async def remember_message(self, place: Place, game_id: int, message: TgMessage,
                               version: int) -> None:
        """Make ``message`` the game's board."""
        title = message.chat.title or message.chat.full_name or ""
        await self.remember_board(place, game_id, {
            "chat": str(message.chat.id), "message": str(message.message_id),
            "title": title}, version)

    async def edit_board(self, place: Place, message_id: int, board: Board,
                         ai_thinking: bool) -> Shown:
        message = await self.compose_board(place, board, ai_thinking=ai_thinking)
        return await self.edit_outcome(chat_of(place.channel)[0], message_id, message)

    async def send_board(self, place: Place, board: Board,
                         ai_thinking: bool) -> dict[str, str] | Shown:
        message = await self.compose_board(place, board, ai_thinking=ai_thinking)
        sent = await self.send_outcome(place.channel, message)
        if isinstance(sent, Shown):
            return sent
        return {"chat": str(sent.chat.id), "message": str(sent.message_id),
                "title": sent.chat.title or sent.chat.full_name or ""}

    async def forget_drawn(self, game_id: int) -> None:
        ref = await self.board_ref(game_id)
        chat, message = str(ref.get("chat", "")), str(ref.get("message", ""))
        if chat.lstrip("-").isdigit() and message.isdigit():
            self.shown.forget(int(chat), int(message))

    async def retire_old_board(self, place: Place, ref: dict[str, Any], board: Board) -> Shown:
        chat = str(ref.get("chat", ""))
        chat_id = int(chat) if chat.lstrip("-").isdigit() else chat_of(place.channel)[0]
        return await self.edit_outcome(chat_id, int(ref["message"]),
                                       text_message(self.t(place, "board.moved")))

    async def retire_message(self, place: Place, chat_id: int, message_id: int) -> None:
        """Strip the buttons from an old board, which a newer message replaces."""
        await self.edit(chat_id, message_id, text_message(self.t(place, "board.moved")))

    async def post_board(self, place: Place, reply: Reply, *,
                         reply_to: int | None = None) -> None:
        """Post the board at the bottom of the chat, with the reply's news above it, and
        make it the game's board; the rest of the change follows (``game_changed``)."""
        board = reply.board
        assert board is not None
        # Not posted (a fault, a refusal): the delivery path draws it where the game's
        # board is, and says the news on its own.
        drawn = Drawn.NOTHING
        try:
            async with self.boards.lock(board.game_id):
                message = await self.compose_board(place, board, ai_thinking=reply.ai_to_move,
                                                   header=reply.announcements)
                sent = await self.send(place.channel, message, reply_to=reply_to)
                if sent is None:
                    return
                old = await self.board_message_id(board.game_id)
                if old is not None and old != sent.message_id:
                    await self.retire_message(place, sent.chat.id, old)
                await self.remember_message(place, board.game_id, sent, board.version)
                drawn = Drawn.BOARD_AND_NEWS
        finally:
            await self.game_changed(place, reply, drawn=drawn)

    async def deliver_extras(self, place: Place, reply: Reply, *, actor: str | None) -> None:
        """Private texts to their players' chats, and the hands of those whose turn has
        just begun (everyone to move, in a new game): a player in the middle of a
        simultaneous round keeps the hand they are using."""
        await self.deliver_private(reply)
        if reply.board is None:
            return
        if reply.finished and is_private(place.channel) and WINNER_MARK in reply.board.prompt:
            # A game won against the computer or a puzzle solved, alone: a moment, with
            # Telegram's confetti (the final board is an edit, which takes no effect).
            await self.send(place.channel, Message(
                translate(place.language, "telegram.celebrate", "🎉 You won! Well played."),
                effect=CELEBRATION_EFFECT))
        if reply.started:
            await self.hands.push_hands(place, reply.board, reply.board.to_move, skip=actor)
        elif reply.moved:
            await self.hands.push_hands(place, reply.board, reply.turn_began, skip=actor)

    def forget_game(self, game_id: int) -> None:
        super().forget_game(game_id)
        self.hands.forget(game_id)

    async def send_hand(self, place: Place, user_id: str, game_id: int,
                        hand: Hand) -> bool | None:
        """``PrivateHands.send_hand``, kept here as the commands (``commands/``) call it."""
        return await self.hands.send_hand(place, user_id, game_id, hand)

    def start_me(self, place: Place, name: str, game_id: int) -> Message:
        """``PrivateHands.start_me``, kept here as the commands (``commands/``) call it."""
        return self.hands.start_me(place, name, game_id)
