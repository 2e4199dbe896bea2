"""A button or select pressed on Discord: a menu step, a move, "my hand", joining, the hint,
an ended game's panel, a replay's step or a daily post's Play button, answered where it
was pressed (the public board, or a private hand) and drawn as the service replies. The
rest of the Discord client is in ``client.py``, whose ``handle_component`` and
``handle_replay`` (what the dynamic items call) bring presses here."""

from __future__ import annotations

import logging
from collections.abc import Coroutine
from typing import Any, ClassVar, Protocol

import discord

from bot.adapters.common import BoardVersions
from bot.adapters.discord.errors import DELIVERY_ERRORS, describe_error
from bot.adapters.discord.hands import LiveHands
from bot.adapters.discord.layout import (
    NO_MENTIONS,
    Layout,
    fit_content,
    hand_layout,
    message_fields,
    plain_layout,
    rendered,
    replay_view,
)
from bot.adapters.end_panel import end_choice, is_end_panel
from bot.app import App
from bot.daily import DailyChallenge
from bot.service import Board, Place, Reply, Service, User

log = logging.getLogger(__name__)

# A daily post's Play button: ``daily:<server id>``, handled here, not by the service.
DAILY_PAYLOAD = "daily:"


class PressesClient(Protocol):
    """What the presses use of the Discord client. Named here, not imported: the client
    holds the presses, and an import back would be a cycle."""

    platform: ClassVar[str]
    app: App
    service: Service
    daily: DailyChallenge
    boards: BoardVersions
    live_hands: LiveHands

    def t(self, place: Place, key: str, **params: Any) -> str: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...

    async def run_ai(self, place: Place) -> None: ...

    async def place_for(self, interaction: discord.Interaction) -> Place: ...

    def actor(self, interaction: discord.Interaction) -> User: ...

    async def acknowledge(self, interaction: discord.Interaction) -> None: ...

    async def send(self, interaction: discord.Interaction, layout: Layout, *,
                   ephemeral: bool, view: discord.ui.View | None = None
                   ) -> discord.Message | None: ...

    async def edit_source(self, interaction: discord.Interaction, layout: Layout, *,
                          view: discord.ui.View | None = None) -> None: ...

    async def notify(self, interaction: discord.Interaction, text: str) -> None: ...

    async def announce(self, channel_id: str, lines: list[str]) -> None: ...

    async def after_change(self, place: Place, reply: Reply, *, update: bool = True,
                           actor: str | None = None, wake_ai: bool = True,
                           new_game: bool = False) -> None: ...

    def board_for(self, place: Place, board: Board, ai_thinking: bool,
                  header: list[str] | None = None) -> Layout: ...

    def board_shown(self, game_id: int, version: int) -> None: ...

    async def board_message_id(self, game_id: int) -> int | None: ...

    async def update_board(self, place: Place, board: Board,
                           ai_thinking: bool = False) -> None: ...

    async def post_board(self, interaction: discord.Interaction, place: Place, reply: Reply,
                         header: list[str] | None = None) -> None: ...

    async def remember_message(self, place: Place, game_id: int, message: discord.Message,
                               version: int) -> None: ...

    async def retire_board(self, place: Place, game_id: int, keep: int | None = None, *,
                           v2: bool = False) -> None: ...

    def moved_fields(self, place: Place, v2: bool) -> dict[str, Any]: ...

    def forget_game(self, game_id: int) -> None: ...


class BoardPresses:
    def __init__(self, client: PressesClient) -> None:
        self.client = client
        self.service = client.service

    def t(self, place: Place, key: str, **params: object) -> str:
        return self.client.t(place, key, **params)

    async def press(self, interaction: discord.Interaction, payload: str) -> None:
        """A board button or select (``BoardButton``, ``BoardSelect``) with its payload."""
        client = self.client
        place = await client.place_for(interaction)
        user = client.actor(interaction)
        if payload.startswith(DAILY_PAYLOAD):
            await self.play_daily(interaction, place, user, payload[len(DAILY_PAYLOAD):])
            return
        if is_end_panel(payload):
            await self.end_panel(interaction, place, user, payload)
            return
        source = interaction.message
        reply = await self.service.press(place, user, payload)
        if payload.startswith("i:"):  # the hint button: for the presser's eyes only
            await client.notify(interaction, reply.notice or self.t(place, "error.internal"))
            if reply.ok:
                await client.after_change(reply.place or place, reply, wake_ai=False)
                await client.announce((reply.place or place).channel, reply.announcements)
            return
        try:
            if source is not None and source.flags.ephemeral:
                await self._answer_in_hand(interaction, place, reply)
            else:
                await self._answer_on_board(interaction, place, reply, source)
            await client.announce(place.channel, reply.announcements)
        finally:
            # Whatever happened to the answer, a saved move must not leave the computer
            # waiting for a turn nobody will give it.
            if reply.ai_to_move:
                client.spawn(client.run_ai(place))

    async def end_panel(self, interaction: discord.Interaction, place: Place, user: User,
                        payload: str) -> None:
        """A button of an ended game's panel: the game again as a new board below, or the
        presser's results, the rules or the replay, for them alone."""
        client = self.client
        choice = await end_choice(client.app, place, user, payload)
        if choice.action == "again":
            reply = await self.service.rematch(place, user, choice.game_id)
            if not reply.ok or reply.board is None:
                await client.notify(interaction, reply.notice or self.t(place, "error.internal"))
                return
            await client.post_board(interaction, place, reply, reply.announcements)
        elif choice.action == "replay":
            step = await client.app.replays.step(
                choice.game_id, 0, place.language, place.emoji, place=place, user=user)
            await client.send(interaction, Layout(fit_content([rendered(step.text)]), [], []),
                              ephemeral=True, view=replay_view(step))
        else:
            await client.notify(interaction, choice.text)

    async def replay(self, interaction: discord.Interaction, game_id: int, index: int) -> None:
        """A replay's start, back, forward or end: the step replaces the message."""
        client = self.client
        place = await client.place_for(interaction)
        step = await client.app.replays.step(
            game_id, index, place.language, place.emoji, place=place,
            user=client.actor(interaction))
        await client.edit_source(interaction, Layout(fit_content([rendered(step.text)]), [],
                                                     []), view=replay_view(step))

    async def _answer_in_hand(self, interaction: discord.Interaction, place: Place,
                              reply: Reply) -> None:
        """A click inside a private hand message: the hand is redrawn where it is."""
        client = self.client
        if reply.hand is not None:
            await client.edit_source(interaction, hand_layout(reply.hand, place.language,
                                                              reply.notice))
            if reply.board is not None:
                client.live_hands.remember(reply.board.game_id, str(interaction.user.id),
                                           interaction)
        else:
            await client.edit_source(interaction, plain_layout(reply.notice or ""))
        if reply.moved:
            await client.after_change(place, reply, wake_ai=False,
                                      actor=str(interaction.user.id))

    async def _answer_on_board(self, interaction: discord.Interaction, place: Place,
                               reply: Reply, source: discord.Message | None) -> None:
        client = self.client
        board = reply.board
        if reply.hand is not None and not reply.moved:
            # The hand button on the public board: the hand opens privately.
            shown = await client.send(interaction, hand_layout(reply.hand, place.language,
                                                               reply.notice), ephemeral=True)
            if board is not None:
                client.live_hands.remember(board.game_id, str(interaction.user.id),
                                           interaction, shown.id if shown is not None else None)
            return
        if reply.ok and board is not None:
            answered = await self._show_on_pressed_board(interaction, place, reply, board)
            if not answered:
                # The answer is only the fast path: the saved move is drawn through the
                # channel, and the rest of the change (cues, class board) still follows.
                await client.update_board(place, board, reply.ai_to_move)
                if reply.moved:
                    await client.after_change(place, reply, update=False, wake_ai=False,
                                              actor=str(interaction.user.id))
                return
            if source is not None:
                async with client.boards.lock(board.game_id):
                    if await client.board_message_id(board.game_id) != source.id:
                        await client.retire_board(place, board.game_id, keep=source.id,
                                                  v2=board.grid)
                        await client.remember_message(place, board.game_id, source,
                                                      board.version)
            if reply.hand is not None:
                shown = await client.send(interaction, hand_layout(reply.hand, place.language),
                                          ephemeral=True)
                client.live_hands.remember(board.game_id, str(interaction.user.id),
                                           interaction, shown.id if shown is not None else None)
            if reply.moved:  # the board is drawn above; the rest of a change is shared
                await client.after_change(place, reply, update=False, wake_ai=False,
                                          actor=str(interaction.user.id))
            elif reply.finished:
                client.forget_game(board.game_id)
            return
        await client.notify(interaction, reply.notice or self.t(place, "error.internal"))
        if board is not None and client.boards.shown(board.game_id) != board.version:
            # A stale or refused click: show the current board where the game lives, and
            # leave no second live board behind.
            if source is not None and source.id != await client.board_message_id(board.game_id):
                await self.retire_source(place, source)
            await client.update_board(place, board, reply.ai_to_move)

    async def _show_on_pressed_board(self, interaction: discord.Interaction, place: Place,
                                     reply: Reply, board: Board) -> bool:
        """Answer the press by editing the pressed board to ``board``; False when the
        answer failed (the interaction expired, 10062; was answered already, 40060; a
        fault of Discord's), which is a platform's refusal, not a bug: one line says so."""
        client = self.client
        try:
            if client.boards.newer_shown(board.game_id, board.version):
                # A newer board is already drawn (the AI answered first): keep it.
                await client.acknowledge(interaction)
                return True
            # No lock around the answer: waiting behind another edit could miss
            # Discord's deadline. The version check above keeps boards in order, and a
            # late confirmation of an older board is redrawn (``board_shown``).
            await client.edit_source(interaction, client.board_for(place, board,
                                                                   reply.ai_to_move))
        except DELIVERY_ERRORS as error:
            log.warning("the answer to a press on game %s failed (%s); its board is drawn "
                        "through the channel instead", board.game_id, describe_error(error))
            return False
        client.board_shown(board.game_id, board.version)
        return True

    async def retire_source(self, place: Place, source: discord.Message) -> None:
        try:
            await source.edit(allowed_mentions=NO_MENTIONS,
                              **self.client.moved_fields(place, source.flags.components_v2))
        except discord.HTTPException:
            log.info("could not retire message %s", source.id)

    async def play_daily(self, interaction: discord.Interaction, place: Place, user: User,
                         server: str) -> None:
        """The Play button of a daily post: the attempt opens in the player's DMs."""
        client = self.client
        try:
            dm = await interaction.user.create_dm()
        except discord.HTTPException:
            await client.notify(interaction, self.t(place, "discord.daily.no_dm"))
            return
        private = Place(client.platform, str(dm.id), place.language, place.emoji)
        reply = await client.daily.start_attempt(private, user, server)
        if not reply.ok or reply.board is None:
            await client.notify(interaction, reply.notice or self.t(place, "error.internal"))
            return
        layout = client.board_for(private, reply.board, False, reply.announcements)
        try:
            message = await dm.send(allowed_mentions=NO_MENTIONS,
                                    **message_fields(layout, edit=False))
        except DELIVERY_ERRORS as error:
            # Not delivered, so not consumed: Play again starts it once DMs are open.
            log.info("the daily challenge could not reach %s by DM (%s); the attempt is "
                     "withdrawn", user.id, describe_error(error))
            await client.daily.withdraw_attempt(private, user, reply.board.game_id)
            await client.notify(interaction, self.t(place, "discord.daily.no_dm"))
            return
        await client.remember_message(private, reply.board.game_id, message,
                                      reply.board.version)
        await client.notify(interaction, self.t(place, "discord.daily.in_dm",
                                                link=message.jump_url))
