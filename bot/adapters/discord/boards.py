"""A game's board on Discord: drawn, edited in place, posted anew when its message is gone,
and retired (its buttons stripped) when a newer board replaces it; the board as a
command's answer, with its player's hand offered privately beside it; the hands of those
whose turn began redrawn where they have them open (``LiveHands``)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.adapters.common import thinking_line
from bot.adapters.delivery import Drawn, Shown
from bot.adapters.discord.components import message_fields
from bot.adapters.discord.errors import DELIVERY_ERRORS, delivery_outcome, describe_error
from bot.adapters.discord.hands import LiveHands, hand_layout
from bot.adapters.discord.interactions import InteractionAnswers
from bot.adapters.discord.layout import (
    NO_MENTIONS,
    Layout,
    as_v2,
    board_layout,
    plain_layout,
    with_line,
)
from bot.adapters.discord.markdown import fit_content, inert
from bot.adapters.discord.places import PLATFORM, DiscordPlaces
from bot.service import Board, Place, Reply, User

log = logging.getLogger(__name__)


class DiscordBoards(InteractionAnswers, DiscordPlaces):
    """Drawing the boards of games, and what a change shows beside them."""

    live_hands: LiveHands

    def board_for(self, place: Place, board: Board, ai_thinking: bool,
                  header: list[str] | None = None) -> Layout:
        layout = board_layout(board, place.language, list(header or []))
        if ai_thinking:
            layout = with_line(layout, inert(thinking_line(board, place.language)))
        return layout

    async def remember_message(self, place: Place, game_id: int, message: discord.Message,
                               version: int) -> None:
        """Make ``message`` the game's board."""
        await self.remember_board(place, game_id, {"channel": str(message.channel.id),
                                                   "message": str(message.id)}, version)

    async def edit_board(self, place: Place, message_id: int, board: Board,
                         ai_thinking: bool) -> Shown:
        layout = self.board_for(place, board, ai_thinking)
        channel = self.get_partial_messageable(int(place.channel))
        try:
            await channel.get_partial_message(message_id).edit(
                allowed_mentions=NO_MENTIONS, **message_fields(layout, edit=True))
            return Shown.SHOWN
        except DELIVERY_ERRORS as error:
            outcome = delivery_outcome(error)
            log.info("could not edit the board of game %s (message %s in %s): %s; %s",
                     board.game_id, message_id, place.channel, describe_error(error),
                     outcome.value)
            return outcome

    async def send_board(self, place: Place, board: Board,
                         ai_thinking: bool) -> dict[str, str] | Shown:
        layout = self.board_for(place, board, ai_thinking)
        channel = self.get_partial_messageable(int(place.channel))
        try:
            message = await channel.send(allowed_mentions=NO_MENTIONS,
                                         **message_fields(layout, edit=False))
        except DELIVERY_ERRORS as error:
            outcome = delivery_outcome(error)
            log.warning("could not post the board of game %s in %s: %s; %s", board.game_id,
                        place.channel, describe_error(error), outcome.value)
            return Shown.REFUSED if outcome is Shown.GONE else outcome
        return {"channel": str(message.channel.id), "message": str(message.id)}

    async def retire_old_board(self, place: Place, ref: dict[str, Any], board: Board) -> Shown:
        channel = self.get_partial_messageable(int(ref.get("channel") or place.channel))
        try:
            await channel.get_partial_message(int(ref["message"])).edit(
                allowed_mentions=NO_MENTIONS, **self.moved_fields(place, board.grid))
        except DELIVERY_ERRORS as error:
            outcome = delivery_outcome(error)
            log.info("could not retire the old board %s of game %s: %s; %s",
                     ref.get("message"), board.game_id, describe_error(error), outcome.value)
            return outcome
        return Shown.SHOWN

    def moved_fields(self, place: Place, v2: bool) -> dict[str, Any]:
        """An old board's edit to "this board moved", its buttons gone: in a text display
        when the message is Components V2 (a board with a grid), which it stays."""
        moved = Layout(self.t(place, "board.moved"), [], [])
        return message_fields(as_v2(moved) if v2 else moved, edit=True)

    async def retire_board(self, place: Place, game_id: int, keep: int | None = None, *,
                           v2: bool = False) -> None:
        """Strip the buttons from the game's old board message, which a new one replaces
        (``v2``: the game's boards are Components V2, ``Board.grid``)."""
        message_id = await self.board_message_id(game_id)
        if message_id is None or message_id == keep:
            return
        channel = self.get_partial_messageable(int(place.channel))
        try:
            await channel.get_partial_message(message_id).edit(
                allowed_mentions=NO_MENTIONS, **self.moved_fields(place, v2))
        except discord.HTTPException:
            log.info("could not retire board message %s", message_id)

    async def post_board(self, interaction: discord.Interaction, place: Place,
                         reply: Reply) -> None:
        """Send the board, with the reply's news above it, as this interaction's public
        answer and make it the game's board; the rest of the change follows
        (``game_changed``), and when the answer fails, the board is drawn through the
        channel there."""
        board = reply.board
        assert board is not None
        drawn = Drawn.NOTHING
        try:
            layout = self.board_for(place, board, reply.ai_to_move, reply.announcements)
            try:
                message = await self.send(interaction, layout, ephemeral=False)
            except DELIVERY_ERRORS as error:
                log.warning("the board of game %s could not be the answer to its command "
                            "(%s); it is drawn through the channel instead", board.game_id,
                            describe_error(error))
                return
            if message is None:
                return
            async with self.boards.lock(board.game_id):
                newer = self.boards.newer_shown(board.game_id, board.version)
                await self.retire_board(place, board.game_id, keep=message.id, v2=board.grid)
                await self.remember_message(place, board.game_id, message, board.version)
                if newer:
                    # The game moved on while this board was being sent: the newest is
                    # drawn over it.
                    self.boards.set_shown(board.game_id, board.version)
                    self.redelivery.behind(board.game_id, at_once=True)
            drawn = Drawn.BOARD_AND_NEWS
            await self.offer_hand(interaction, place, board)
        finally:
            await self.game_changed(place, reply, by=str(interaction.user.id), drawn=drawn)

    async def offer_hand(self, interaction: discord.Interaction, place: Place,
                         board: Board) -> None:
        """Whoever put up a board of a game with private hands gets their own hand with it,
        privately: the first move no longer starts with a "My hand" tap, and the hand is
        redrawn in place when their turn comes (``LiveHands``)."""
        if board.hand_button is None:
            return
        current = await self.service.hand(place, self.actor(interaction))
        if current.hand is None:  # a spectator, or a player between seats
            return
        try:
            shown = await self.send(interaction, hand_layout(current.hand, place.language),
                                    ephemeral=True)
        except discord.HTTPException:
            log.info("could not hand over the hand in %s", place.channel)
            return
        self.live_hands.remember(board.game_id, str(interaction.user.id), interaction,
                                 shown.id if shown is not None else None)

    async def answer_change(self, interaction: discord.Interaction, place: Place,
                            reply: Reply) -> None:
        """Answer a command that changes the game away from its board (join, resign…)."""
        if not reply.ok:
            await self.notify(interaction, reply.notice or self.t(place, "error.internal"))
            return
        lines = reply.announcements or [self.t(place, "discord.move_played")]
        await self.send(interaction, plain_layout(fit_content(lines)), ephemeral=False)
        if reply.hand is not None:
            await self.send(interaction, hand_layout(reply.hand, place.language), ephemeral=True)
        await self.game_changed(place, reply, drawn=Drawn.NEWS, by=str(interaction.user.id)
                                if reply.hand is not None else None)

    async def deliver_extras(self, place: Place, reply: Reply, *, actor: str | None) -> None:
        """Whose turn has just begun sees it in the hand they have open: their last hand
        message is redrawn with its menu (while Discord lets it be edited), so the next
        tap is already a move."""
        if reply.board is None or reply.board.hand_button is None:
            return
        for player in reply.turn_began:
            user_id = str(player.get("id", ""))
            if (player.get("platform") != PLATFORM or user_id == actor
                    or not self.live_hands.holds(reply.board.game_id, user_id)):
                continue
            current = await self.service.hand(place, User(PLATFORM, user_id, ""))
            if current.hand is not None:
                await self.live_hands.redraw(reply.board.game_id, user_id,
                                             hand_layout(current.hand, place.language))

    def forget_game(self, game_id: int) -> None:
        super().forget_game(game_id)
        self.live_hands.forget(game_id)
