"""A game's button pressed on Telegram (a menu step, a move, "my hand", joining, the
hint), answered as on every platform (``bot.adapters.presses``) and drawn through
``TelegramPressed``: a callback query on a message of a group (its board) or of the
presser's private chat (their hand, or a game played there). The rest of the Telegram
client is in ``client.py``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup
from telegram import Message as TgMessage
from telegram.error import TelegramError

from bot.adapters.delivery import Shown
from bot.adapters.presses import PressAnswers
from bot.adapters.telegram.chats import callback_data_of, is_private
from bot.adapters.telegram.layout import Key, Message, text_message, yes_key
from bot.adapters.telegram.limits import ALERT_LIMIT
from bot.payloads import Payload
from bot.service import Board, Button, Hand, Place, Reply
from renderers.i18n import translate

if TYPE_CHECKING:
    from bot.adapters.telegram.client import TelegramBot

log = logging.getLogger(__name__)


class TelegramPressed:
    """A press on Telegram (``presses.Pressed``): its answer stops the button's spinner;
    its drawing is an edit of the pressed message, or a private message."""

    def __init__(self, client: TelegramBot, query: CallbackQuery, source: TgMessage,
                 home: Place) -> None:
        self.client = client
        self.query = query
        self.source = source
        self.home = home  # where the press was made, which a hand's game is not

    @property
    def message_id(self) -> int | None:
        return self.source.message_id

    def in_hand(self, reply: Reply) -> bool:
        # A button of a game elsewhere (``Reply.place``), pressed in a private chat.
        return reply.place is not None and is_private(self.home.channel)

    def hands_apart(self, place: Place) -> bool:
        return not is_private(place.channel)

    answers_first = True  # the spinner stops at once; the edit may wait for its turn

    def shows(self, game_id: int) -> set[int]:
        return {version for game, version in menu_stamps(callback_data_of(self.source))
                if game == game_id}

    async def answer(self, text: str | None = None, *, alert: bool = False) -> None:
        await self.client.answer(self.query, text, alert=alert)

    async def reaches_privately(self) -> bool:
        # In the private chat, or a group's presser whose private chat is open.
        return (is_private(self.home.channel)
                or await self.client.can_write_privately(self.query.from_user.id))

    async def open_private(self, place: Place) -> None:
        """The answer opens the private chat, by the link that ``/start hint`` answers."""
        await self.client.answer(self.query, url=self.client.hands.hint_link())

    async def show_privately(self, place: Place, game_id: int, shown: Hand | str) -> None:
        if not isinstance(shown, str):
            await self._open_hand(place, game_id, shown)
            return
        if not await self._tell_privately(shown):
            return
        if self.in_hand_of(place):
            # The hint moved the game on (its version): the hand it was pressed in is
            # redrawn, or its buttons would be refused as out of date; the yes goes too.
            await self._redraw_from_store(place, game_id)
            return
        pressed = Payload.parse(self.query.data)
        if (pressed is not None and pressed.says_yes
                and self.source.message_id != await self.client.board_message_id(game_id)):
            # The yes under /hint's reply: taken, it goes. On the board it goes with the
            # redrawn board, as the hint moved the game on.
            await self._swap_key(None)

    def in_hand_of(self, place: Place) -> bool:
        """Whether the press came from the presser's private hand of the game at
        ``place`` (a private chat's button of a game elsewhere)."""
        return is_private(self.home.channel) and place.channel != self.home.channel

    async def ask(self, place: Place, question: str, yes: Button) -> None:
        """The question in an alert only the presser sees, and the pressed button (the
        💡 Hint, or a yes from before a move) turns into the yes where it is. On a group's
        board everyone sees that yes, but the service takes it from the player only."""
        await self.answer(question, alert=True)
        await self._swap_key(yes_key(yes))

    async def _swap_key(self, key: Key | None) -> None:
        """The pressed button of the pressed message replaced by ``key`` (None: taken
        away), the rest of its keyboard as it is."""
        pressed = self.query.data
        markup = self.source.reply_markup
        rows: list[list[InlineKeyboardButton]] = []
        for row in markup.inline_keyboard if markup is not None else ():
            keys = [button for button in row if button.callback_data != pressed]
            if len(keys) < len(row) and key is not None:
                keys.insert(next(i for i, b in enumerate(row) if b.callback_data == pressed),
                            InlineKeyboardButton(key.label, callback_data=key.data,
                                                 style=key.style or None))
            if keys:
                rows.append(keys)
        chat_id, message_id = self.source.chat.id, self.source.message_id
        # What the message shows is no longer what this process drew on it.
        self.client.shown.forget(chat_id, message_id)
        try:
            await self.client.bot.edit_message_reply_markup(
                chat_id, message_id, reply_markup=InlineKeyboardMarkup(rows) if rows else None)
        except TelegramError as error:
            log.info("could not change the buttons of message %s in %s: %s", message_id,
                     chat_id, error)

    async def _tell_privately(self, text: str) -> bool:
        """A hint, in the presser's private chat (it may name their cards); whether it
        got there. A chat closed since the press was let through (the bot blocked): a
        short hint shows in an alert only the presser sees, never in the group."""
        user_id = str(self.query.from_user.id)
        chat = self.home.channel if is_private(self.home.channel) else user_id
        if await self.client.send(chat, text_message(text)) is not None:
            return True
        await self.answer(text if len(text) <= ALERT_LIMIT
                          else self.client.t(self.home, "hint.private_only"), alert=True)
        return False

    async def _open_hand(self, place: Place, game_id: int, hand: Hand) -> None:
        """"My hand" on a group board: the hand goes to the private chat, and a short hand
        also shows in an alert only the presser sees. Without a private chat yet, the
        answer opens one through a deep link."""
        client = self.client
        sent = await client.hands.send_hand(place, str(self.query.from_user.id), game_id, hand)
        if sent is None:
            await self.answer(client.t(place, "error.internal"), alert=True)
        elif not sent:
            await client.answer(self.query, url=client.hands.hand_link(game_id))
        elif len(hand.text) <= 200:
            await self.answer(hand.text, alert=True)
        else:
            await self.answer(client.t(place, "telegram.hand.sent"))

    async def show_board(self, place: Place, board: Board, ai_thinking: bool,
                         hand: Hand | None, *, becomes_board: bool) -> Shown:
        message = await self.client.compose_board(place, board, ai_thinking=ai_thinking,
                                                  hand=hand)
        shown = await self.client.edit_outcome(self.source.chat.id, self.source.message_id,
                                               message)
        if shown is Shown.SHOWN and becomes_board:
            await self.client.remember_message(place, board.game_id, self.source,
                                               board.version)
        return shown

    async def hand_with_move(self, place: Place, game_id: int, hand: Hand) -> bool:
        return False  # it goes to the chats of all whose turn began (``deliver_extras``)

    async def redraw_hand(self, place: Place, reply: Reply) -> None:
        client = self.client
        message = (await client.hands.private_hand(place, reply.board.game_id, reply.hand)
                   if reply.hand is not None and reply.board is not None else None)
        if not reply.ok:
            await self.answer(reply.notice, alert=not reply.light)
        elif message is not None and client.shown.unchanged(self.source.chat.id,
                                                            self.source.message_id, message):
            # Nothing to redraw ("My hand" under the hand itself): say so, or the press
            # would seem to do nothing.
            await self.answer(translate(place.language, "hand.up_to_date",
                                        "🂠 This is your hand, up to date."))
        else:
            await self.answer()
        if message is not None and reply.board is not None:
            await self._draw_hand(reply.board.game_id, message)
        elif reply.finished or reply.board is None:
            await client.edit(self.source.chat.id, self.source.message_id,
                              text_message(reply.notice or client.t(place, "error.game_over")))

    async def _redraw_from_store(self, place: Place, game_id: int) -> None:
        """The pressed hand redrawn as the presser's hand is stored now."""
        client = self.client
        reply = await client.service.hand(place, client.user_for(self.query.from_user))
        if reply.hand is not None:
            await self._draw_hand(game_id, await client.hands.private_hand(place, game_id,
                                                                           reply.hand))

    async def _draw_hand(self, game_id: int, message: Message) -> None:
        """The pressed message becomes the presser's hand message ``message``."""
        await self.client.edit(self.source.chat.id, self.source.message_id, message)
        self.client.hands.messages[(game_id, str(self.query.from_user.id))] = (
            self.source.message_id, bool(message.rows))

    async def retire(self, place: Place) -> None:
        await self.client.retire_message(place, self.source.chat.id, self.source.message_id)


class BoardPresses:
    def __init__(self, client: TelegramBot) -> None:
        self.client = client
        self.answers = PressAnswers(client)

    async def press(self, query: CallbackQuery, source: TgMessage, data: str) -> None:
        """A game button: a menu step, a move, "my hand", joining, or the hint."""
        person = query.from_user
        home = await self.client.place_of_message(source, person)
        await self.answers.answer(TelegramPressed(self.client, query, source, home), home,
                                  self.client.user_for(person), data)


def menu_stamps(callback_data: set[str]) -> set[tuple[int, int]]:
    """The (game, version) pairs a message's buttons were drawn for: two boards of one
    version at different menu steps have the same stamps."""
    stamps = set()
    for data in callback_data:
        payload = Payload.parse(data)
        if payload is not None:
            stamps.add((payload.game_id, payload.version))
    return stamps
