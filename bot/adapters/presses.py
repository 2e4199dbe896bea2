"""A game's button pressed, answered the same way on every platform.

The service decides what a press does (``Service.press``); this module decides how it is
answered, once for all platforms: where the answer is drawn (the pressed board, the
presser's private hand, a note for their eyes only), how a press that raced a newer board
or was refused mends what the presser sees, and that every change leaves through the one
way out (``ChatAdapter.game_changed``). Each platform supplies only the drawing, behind
``Pressed``: one press as its platform lets the bot answer it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from bot.adapters.delivery import Drawn, Shown
from bot.service import Board, Button, Hand, Place, Reply, User

if TYPE_CHECKING:
    from bot.adapters.base import ChatAdapter

# The hint button's payloads: the hint is for the presser's eyes only.
HINT_PREFIX = "i:"


class Pressed(Protocol):
    """One press of a game's button, as its platform lets the bot answer it: the narrow
    surface of the shared answer. ``answer`` may be called more than once; only the first
    call says anything."""

    @property
    def message_id(self) -> int | None:
        """The pressed message; None when the platform does not say."""

    def in_hand(self, reply: Reply) -> bool:
        """Whether the press came from the presser's private copy of their hand."""

    def hands_apart(self, place: Place) -> bool:
        """Whether a hand is shown apart from the board at ``place`` (privately), rather
        than drawn into it (a game alone in a private chat)."""

    @property
    def answers_first(self) -> bool:
        """Whether the press is answered before its board is drawn (Telegram: the
        spinner stops at once, and a rate-limit pause on the edit cannot cost the press
        its answer), rather than by the drawing itself (Discord)."""

    def shows(self, game_id: int) -> set[int] | None:
        """The versions of game ``game_id`` the pressed message's buttons were drawn for
        (empty: it shows none of its buttons, such as a rules message), or None when the
        platform cannot tell."""

    async def answer(self, text: str | None = None, *, alert: bool = False) -> None:
        """Answer the presser: a short text for them alone, or nothing (the press is
        taken). ``alert``: a refusal they must read, not a passing toast."""

    async def show_privately(self, place: Place, game_id: int, shown: Hand | str) -> None:
        """A hand or a hint for the presser's eyes only; answers the press."""

    async def reaches_privately(self) -> bool:
        """Whether a note for the presser's eyes only (a hint) can reach them from this
        press (Discord: an ephemeral answer always does; Telegram: only in their private
        chat, which they must have opened)."""

    async def open_private(self, place: Place) -> None:
        """Answer with the way to open what a note for the presser's eyes needs (Telegram:
        a deep link to their private chat with the bot), as it could not reach them."""

    async def ask(self, place: Place, question: str, yes: Button) -> None:
        """A question for the presser's eyes only before something that voids a result
        (``Reply.confirm``: a hint that leaves the game uncounted), with ``yes``, the
        button that takes it; answers the press."""

    async def show_board(self, place: Place, board: Board, ai_thinking: bool,
                         hand: Hand | None, *, becomes_board: bool) -> Shown:
        """Draw ``board`` (with ``hand`` where hands are not apart) on the pressed message,
        answering the press, and say what came of it; ``becomes_board``: the game had no
        board message, and the pressed one becomes it once the platform confirmed it."""

    async def hand_with_move(self, place: Place, game_id: int, hand: Hand) -> bool:
        """After a move on the board, the presser's hand beside it, if this platform shows
        it from the press (False: it follows the change like everyone's,
        ``deliver_extras``)."""

    async def redraw_hand(self, place: Place, reply: Reply) -> None:
        """Redraw the presser's private hand message where it is, answering the press."""

    async def retire(self, place: Place) -> None:
        """Take the buttons off the pressed message: an older copy of the game's board."""


def changes_game(reply: Reply) -> bool:
    """Whether a press's reply is a change the rest of the bot must hear of (a move, an
    ended game, the computer's turn, news), not only a step through a menu."""
    return reply.ok and (reply.moved or reply.finished or reply.ai_to_move
                         or bool(reply.announcements))


class PressAnswers:
    """The shared answer to a game's button; ``adapter`` draws and delivers."""

    def __init__(self, adapter: ChatAdapter) -> None:
        self.adapter = adapter

    async def answer(self, pressed: Pressed, home: Place, user: User, payload: str) -> None:
        """Let the service take the press made at ``home`` by ``user``, answer it, and
        send whatever changed out the one way (even when the answer failed: a saved
        move must still reach the board, the cues and the computer)."""
        hint = payload.startswith(HINT_PREFIX)
        # Whether a hint can reach the presser alone is asked before the service takes
        # it (a hint that voids the result must never be lost), and only for a hint.
        reaches = await pressed.reaches_privately() if hint else True
        reply = await self.adapter.service.press(home, user, payload, reaches=reaches)
        place = reply.place or home
        drawn = Drawn.NOTHING
        sees_hand = False  # whether the press itself showed the presser their hand
        try:
            if hint:
                await self._hint(pressed, place, reply)
            elif pressed.in_hand(reply):
                sees_hand = True
                await pressed.redraw_hand(place, reply)
            else:
                drawn, sees_hand = await self._on_board(pressed, place, reply)
        finally:
            if changes_game(reply):
                await self.adapter.game_changed(place, reply, drawn=drawn,
                                                by=user.id if sees_hand else None)

    async def _hint(self, pressed: Pressed, place: Place, reply: Reply) -> None:
        if reply.needs_private:
            # It could not reach the presser alone: not taken, and the way to fix that.
            await pressed.open_private(place)
            return
        if reply.confirm is not None:
            # A hint that would void the result: the service asks first, and only its
            # yes, pressed by the player, takes the hint (``bot.hints``).
            await pressed.ask(place, reply.notice or "", reply.confirm)
            return
        if not reply.ok or reply.board is None:
            await pressed.answer(reply.notice or self.adapter.t(place, "error.internal"),
                                 alert=not reply.light)
            return
        await pressed.show_privately(place, reply.board.game_id, reply.notice or "")

    async def _on_board(self, pressed: Pressed, place: Place,
                        reply: Reply) -> tuple[Drawn, bool]:
        """A press on the public board: the board it leads to is drawn on the pressed
        message (the fast path), or where the game's board is when the press raced a
        newer one; how much was drawn, and whether the presser was shown their hand."""
        adapter = self.adapter
        board = reply.board
        if not reply.ok or board is None:
            await pressed.answer(reply.notice or adapter.t(place, "error.internal"),
                                 alert=not reply.light)
            if board is not None:
                await self._mend_after_refusal(pressed, place, board, reply.ai_to_move)
            return Drawn.NOTHING, False
        if reply.hand is not None and not reply.moved and pressed.hands_apart(place):
            # "My hand" on the board: the hand opens privately; the board is unchanged.
            await pressed.show_privately(place, board.game_id, reply.hand)
            return Drawn.BOARD, True
        if pressed.answers_first:
            await pressed.answer()
        outcome = Shown.SHOWN
        # Under the board's lock, so that a repost (/board, a typed move) cannot slip in
        # between reading which message is the board and drawing on the pressed one. A
        # wait here cannot cost a platform's deadline: Discord's watch answers for the
        # press when the drawing comes late.
        async with adapter.boards.lock(board.game_id):
            current = await adapter.board_message_id(board.game_id)
            if current is not None and pressed.message_id not in (None, current):
                # The press raced a repost: the newer message is the board, and the
                # pressed one is an older copy that must not come back.
                await pressed.retire(place)
                await pressed.answer()
                outcome = Shown.GONE
            elif adapter.boards.newer_shown(board.game_id, board.version):
                # A newer board is drawn already (the computer answered first): it stays.
                await pressed.answer()
            else:
                hand = None if pressed.hands_apart(place) else reply.hand
                outcome = await pressed.show_board(place, board, reply.ai_to_move, hand,
                                                   becomes_board=current is None)
                if outcome is Shown.SHOWN:
                    adapter.board_shown(board.game_id, board.version)
        if outcome is Shown.GONE:
            # Deleted under the press (or an older copy, retired): drawn where the
            # game's board is, a new one if that is gone too.
            await adapter.update_board(place, board, reply.ai_to_move)
        else:  # not confirmed: the game is redrawn as stored until it is
            adapter.board_behind(board.game_id, outcome)
        if reply.hand is None or not pressed.hands_apart(place):
            return Drawn.BOARD, reply.hand is not None
        return Drawn.BOARD, await pressed.hand_with_move(place, board.game_id, reply.hand)

    async def _mend_after_refusal(self, pressed: Pressed, place: Place, board: Board,
                                  ai_thinking: bool) -> None:
        """A refused press (stale, not your turn, forged): what the presser sees is made
        the stored game, so that a board left behind by a failed or late edit is mended
        by the next press, and an older copy of the board is retired, leaving one board
        with live buttons."""
        adapter = self.adapter
        game_id = board.game_id
        drawn_for = pressed.shows(game_id)
        up_to_date = adapter.boards.shown(game_id) == board.version
        if drawn_for is not None and not drawn_for:
            # Not a board of this game (the rules, a daily post, a forged payload's
            # message): it stays as it is.
            if not up_to_date:
                await adapter.update_board(place, board, ai_thinking)
            return
        current = await adapter.board_message_id(game_id)
        if current is not None and pressed.message_id not in (None, current):
            await pressed.retire(place)
            if not up_to_date:
                await adapter.update_board(place, board, ai_thinking)
            return
        if up_to_date and (drawn_for is None or drawn_for == {board.version}):
            # It shows this version already, perhaps a step into the mover's menu (a
            # piece picked): "not your turn" from someone else must not throw the mover
            # back to the menu's start.
            return
        await adapter.update_board(place, board, ai_thinking)
