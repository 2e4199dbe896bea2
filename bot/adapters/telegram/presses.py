"""A game button pressed on Telegram: a menu step, a move, "my hand", joining, or the hint,
answered where it was pressed (the group's board, or a private hand) and drawn as the
service replies. The rest of the Telegram client is in ``client.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram import CallbackQuery
from telegram import Message as TgMessage

from bot.adapters.delivery import Shown
from bot.adapters.telegram.chats import callback_data_of, is_private
from bot.adapters.telegram.layout import text_message
from bot.payloads import Payload, game_of
from bot.service import Board, Hand, Place, Reply, User
from renderers.i18n import translate

if TYPE_CHECKING:
    from bot.adapters.telegram.client import TelegramBot


class BoardPresses:
    def __init__(self, client: TelegramBot) -> None:
        self.client = client
        self.service = client.service

    async def press(self, query: CallbackQuery, source: TgMessage, data: str) -> None:
        """A game button: a menu step, a move, "my hand", or joining."""
        person = query.from_user
        user = self.client.user_for(person)
        home = await self.client.place_of_message(source, person)
        reply = await self.service.press(home, user, data)
        # Set when the press was for a game elsewhere: a private hand's button, or a board
        # of a game at a table of this group (``bot.tables``).
        place = reply.place
        if data.startswith("i:"):
            await self._answer_hint(query, home, place or home, user, reply)
            return
        try:
            if place is not None and is_private(home.channel):
                await self._answer_in_hand(query, source, place, user, reply)
            else:
                await self._answer_on_board(query, source, place or home, user, reply)
            await self.client.announce((place or home).channel, reply.announcements)
        finally:
            # Whatever happened to the answer, a saved move must not leave the computer
            # waiting for a turn nobody will give it.
            if reply.ai_to_move:
                self.client.spawn(self.client.run_ai(place or home))

    @staticmethod
    def shows_game(message: TgMessage, game_id: int) -> bool:
        """Whether ``message`` carries buttons of game ``game_id``: an older board of it,
        which a press may retire. Any other message that forged data was pressed on (the
        rules, a daily post) is left as it is."""
        markup = message.reply_markup
        for row in markup.inline_keyboard if markup else ():
            for key in row:
                if game_of(key.callback_data) == game_id:
                    return True
        return False

    async def _answer_hint(self, query: CallbackQuery, home: Place, place: Place, user: User,
                           reply: Reply) -> None:
        """The hint button: the hint goes to the presser alone (in their private chat;
        it may name their cards), the game's chat is told a hint was taken."""
        if not reply.ok:
            await self.client.answer(query, reply.notice or self.client.t(home, "error.internal"),
                              alert=not reply.light)
            return
        text = text_message(reply.notice or "")
        if await self.client.send(home.channel if is_private(home.channel) else user.id,
                           text) is None:
            await self.client.answer(query, self.client.t(home, "hint.private_only"), alert=True)
        else:
            await self.client.answer(query)
        await self.client.after_change(place, reply, wake_ai=False)
        await self.client.announce(place.channel, reply.announcements)

    async def _answer_in_hand(self, query: CallbackQuery, source: TgMessage, place: Place,
                              user: User, reply: Reply) -> None:
        """A click in a private hand message: the hand is redrawn where it is."""
        message = (await self.client.hands.private_hand(place, reply.board.game_id, reply.hand)
                   if reply.hand is not None and reply.board is not None else None)
        if not reply.ok:
            await self.client.answer(query, reply.notice, alert=not reply.light)
        elif message is not None and self.client.shown.unchanged(source.chat.id,
                                                                  source.message_id, message):
            # Nothing to redraw ("My hand" under the hand itself): say so, or the press
            # would seem to do nothing.
            await self.client.answer(query, translate(place.language, "hand.up_to_date",
                                                      "🂠 This is your hand, up to date."))
        else:
            await self.client.answer(query)
        if message is not None and reply.board is not None:
            await self.client.edit(source.chat.id, source.message_id, message)
            self.client.hands.messages[(reply.board.game_id, user.id)] = (source.message_id,
                                                                   bool(message.rows))
        elif reply.finished or reply.board is None:
            await self.client.edit(source.chat.id, source.message_id,
                            text_message(reply.notice or self.client.t(place, "error.game_over")))
        if reply.moved:
            await self.client.after_change(place, reply, actor=user.id, wake_ai=False)

    async def _answer_on_board(self, query: CallbackQuery, source: TgMessage, place: Place,
                               user: User, reply: Reply) -> None:
        board = reply.board
        if not reply.ok or board is None:
            await self.client.answer(query, reply.notice or self.client.t(place, "error.internal"),
                              alert=not reply.light)
            if board is not None:
                await self.redraw_after_refusal(place, source, board, reply.ai_to_move)
            return
        if reply.hand is not None and not reply.moved and not is_private(place.channel):
            await self.open_hand(query, place, user, board.game_id, reply.hand)
            return
        # Answered first: the spinner stops at once, and a rate-limit pause on the edit
        # below cannot cost the click its answer.
        await self.client.answer(query)
        shown = Shown.SHOWN
        async with self.client.boards.lock(board.game_id):
            current = await self.client.board_message_id(board.game_id)
            if not self.client.boards.newer_shown(board.game_id, board.version):
                # A hand is drawn into the board only in a private chat; in a group the
                # joiner's hand (which a join returns) goes to their private chat instead.
                hand = reply.hand if is_private(place.channel) else None
                message = await self.client.compose_board(
                    place, board, ai_thinking=reply.ai_to_move, hand=hand)
                # A board counts as shown only once Telegram confirmed the edit: one that
                # failed (a 5xx, a timeout) must be drawn again by the next press.
                if current is None or current == source.message_id:
                    shown = await self.client.edit_outcome(source.chat.id, source.message_id,
                                                           message)
                    if shown is Shown.SHOWN and current is None:
                        await self.client.remember_message(place, board.game_id, source,
                                                           board.version)
                else:
                    # The press raced a repost (/board, a typed move): the newer message
                    # is the board, and the pressed one stays retired.
                    shown = await self.client.edit_outcome(source.chat.id, current, message)
                    if self.shows_game(source, board.game_id):
                        await self.client.retire_message(place, source.chat.id, source.message_id)
                if shown is Shown.SHOWN:
                    self.client.board_shown(board.game_id, board.version)
        if shown is Shown.GONE:  # deleted under the press: a new board, the old retired
            await self.client.update_board(place, board, reply.ai_to_move)
        else:  # a failed edit is not left for the next press: the game is redrawn
            self.client.board_behind(board.game_id, shown)
        if reply.moved:
            await self.client.after_change(place, reply, update=False, wake_ai=False)

    async def redraw_after_refusal(self, place: Place, source: TgMessage, board: Board,
                                   ai_thinking: bool) -> None:
        """A refused press (stale, not your turn, forged): the pressed message shows the
        current board if it shows the game at all, so that a board left behind by a
        failed or late edit is always mended by the next press; an older copy of the board
        is retired, leaving one live board."""
        current = await self.client.board_message_id(board.game_id)
        if not self.shows_game(source, board.game_id):
            if self.client.boards.shown(board.game_id) != board.version:
                await self.client.update_board(place, board, ai_thinking)
            return
        if current is not None and current != source.message_id:
            await self.client.retire_message(place, source.chat.id, source.message_id)
            await self.client.update_board(place, board, ai_thinking)
            return
        message = await self.client.compose_board(place, board, ai_thinking=ai_thinking)
        if menu_stamps(callback_data_of(source)) == menu_stamps(message.callback_data()) and \
                self.client.boards.shown(board.game_id) == board.version:
            # It already shows this version, perhaps a step into the mover's menu (a
            # piece picked, squares tapped on the grid): "not your turn" from someone
            # else must not throw the mover back to the menu's start.
            return
        async with self.client.boards.lock(board.game_id):
            if self.client.boards.newer_shown(board.game_id, board.version):
                return
            if await self.client.edit(source.chat.id, source.message_id, message):
                self.client.board_shown(board.game_id, board.version)

    async def open_hand(self, query: CallbackQuery, place: Place, user: User, game_id: int,
                        hand: Hand) -> None:
        """"My hand" on a group board: the hand goes to the private chat, and a short hand
        also shows in an alert only the presser sees. Without a private chat yet, the
        answer opens one through a deep link."""
        sent = await self.client.hands.send_hand(place, user.id, game_id, hand)
        if sent is None:
            await self.client.answer(query, self.client.t(place, "error.internal"), alert=True)
            return
        if not sent:
            await self.client.answer(query, url=self.client.hands.hand_link(game_id))
            return
        if len(hand.text) <= 200:
            await self.client.answer(query, hand.text, alert=True)
        else:
            await self.client.answer(query, self.client.t(place, "telegram.hand.sent"))


def menu_stamps(callback_data: set[str]) -> set[tuple[int, int]]:
    """The (game, version) pairs a message's buttons were drawn for: two boards of one
    version at different menu steps have the same stamps."""
    stamps = set()
    for data in callback_data:
        payload = Payload.parse(data)
        if payload is not None:
            stamps.add((payload.game_id, payload.version))
    return stamps
