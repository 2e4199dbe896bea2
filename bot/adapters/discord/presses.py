"""A button or select pressed on Discord: an ended game's panel, a replay's step or a daily
post's Play button answered here; a game's button (a menu step, a move, "my hand",
joining, the hint) answered as on every platform (``bot.adapters.presses``), drawn
through ``DiscordPressed``. The rest of the Discord client is in ``client.py``, whose
``handle_component`` and ``handle_replay`` (what the dynamic items call) bring presses
here."""

from __future__ import annotations

import logging
from typing import Any, ClassVar, Protocol

import discord

from bot.adapters.delivery import Shown
from bot.adapters.discord.components import message_fields, replay_view
from bot.adapters.discord.errors import DELIVERY_ERRORS, describe_error
from bot.adapters.discord.hands import LiveHands, hand_layout
from bot.adapters.discord.layout import NO_MENTIONS, Layout, plain_layout, question_layout
from bot.adapters.discord.markdown import fit_content, rendered
from bot.adapters.end_panel import end_choice, is_end_panel
from bot.adapters.presses import PressAnswers
from bot.app import App
from bot.payloads import Payload
from bot.puzzles.daily import DailyChallenge
from bot.service import Board, Button, Hand, Place, Reply, User

log = logging.getLogger(__name__)

# A daily post's Play button: ``daily:<server id>``, handled here, not by the service.
DAILY_PAYLOAD = "daily:"


class PressesClient(Protocol):
    """What the presses use of the Discord client. Named here, not imported: the client
    holds the presses, and an import back would be a cycle."""

    platform: ClassVar[str]
    app: App
    daily: DailyChallenge
    live_hands: LiveHands
    answers: PressAnswers

    def t(self, place: Place, key: str, **params: Any) -> str: ...

    async def place_for(self, interaction: discord.Interaction) -> Place: ...

    def actor(self, interaction: discord.Interaction) -> User: ...

    async def acknowledge(self, interaction: discord.Interaction) -> None: ...

    async def send(self, interaction: discord.Interaction, layout: Layout, *,
                   ephemeral: bool, view: discord.ui.View | None = None
                   ) -> discord.Message | None: ...

    async def edit_source(self, interaction: discord.Interaction, layout: Layout, *,
                          view: discord.ui.View | None = None) -> None: ...

    async def notify(self, interaction: discord.Interaction, text: str) -> None: ...

    def board_for(self, place: Place, board: Board, ai_thinking: bool,
                  header: list[str] | None = None) -> Layout: ...

    async def post_board(self, interaction: discord.Interaction, place: Place,
                         reply: Reply) -> None: ...

    async def remember_message(self, place: Place, game_id: int, message: discord.Message,
                               version: int) -> None: ...

    def moved_fields(self, place: Place, v2: bool) -> dict[str, Any]: ...

    async def edit_board(self, place: Place, message_id: int, board: Board,
                         ai_thinking: bool) -> Shown: ...


class DiscordPressed:
    """A press on Discord (``presses.Pressed``): answered through its interaction, which
    must be answered within three seconds (the client's deadline watch defers it when
    the work runs long), and whose failure is a refusal of the platform, not a bug."""

    def __init__(self, client: PressesClient, interaction: discord.Interaction,
                 payload: str) -> None:
        self.client = client
        self.interaction = interaction
        self.source = interaction.message
        parsed = Payload.parse(payload)
        # The yes of a hint's question (``ask``): the question's own ephemeral message,
        # which becomes the answer.
        self.says_yes = parsed is not None and parsed.says_yes

    @property
    def message_id(self) -> int | None:
        return self.source.id if self.source is not None else None

    def in_hand(self, reply: Reply) -> bool:
        return self.source is not None and self.source.flags.ephemeral

    def hands_apart(self, place: Place) -> bool:
        return True  # a hand is always an ephemeral message of its own

    answers_first = False  # the pressed message's edit is the answer

    def shows(self, game_id: int) -> set[int] | None:
        return None  # the versions are in the components' ids; the boards' record decides

    async def answer(self, text: str | None = None, *, alert: bool = False) -> None:
        if text is None:
            await self.client.acknowledge(self.interaction)
        else:
            await self.client.notify(self.interaction, text)

    async def show_privately(self, place: Place, game_id: int, shown: Hand | str) -> None:
        if isinstance(shown, str):
            if self.says_yes:  # the hint takes the question's place, and its button
                await self.client.edit_source(self.interaction, plain_layout(shown))
            else:
                await self.client.notify(self.interaction, shown)
            return
        message = await self.client.send(self.interaction,
                                         hand_layout(shown, place.language), ephemeral=True)
        self.client.live_hands.remember(game_id, str(self.interaction.user.id),
                                        self.interaction,
                                        message.id if message is not None else None)

    async def reaches_privately(self) -> bool:
        return True  # an ephemeral answer is for the presser's eyes only

    async def open_private(self, place: Place) -> None:
        # Never needed (``reaches_privately``); answered all the same, as a fault.
        await self.answer(self.client.t(place, "error.internal"), alert=True)

    async def ask(self, place: Place, question: str, yes: Button) -> None:
        """The question in an ephemeral message with its yes button, which only the
        presser sees (a yes that asks again, the game having moved on, redraws it)."""
        layout = question_layout(question, yes)
        if self.says_yes:
            await self.client.edit_source(self.interaction, layout)
        else:
            await self.client.send(self.interaction, layout, ephemeral=True)

    async def show_board(self, place: Place, board: Board, ai_thinking: bool,
                         hand: Hand | None, *, becomes_board: bool) -> Shown:
        try:
            await self.client.edit_source(self.interaction,
                                          self.client.board_for(place, board, ai_thinking))
        except DELIVERY_ERRORS as error:
            # The interaction expired (10062), was answered already (40060), or Discord
            # failed: the answer is only the fast path, the channel is the other.
            log.warning("the answer to a press on game %s failed (%s); its board is drawn "
                        "through the channel instead", board.game_id, describe_error(error))
            if self.source is None:
                return Shown.LATER
            shown = await self.client.edit_board(place, self.source.id, board, ai_thinking)
            if shown is not Shown.SHOWN:
                return shown
        if becomes_board and self.source is not None:
            await self.client.remember_message(place, board.game_id, self.source,
                                               board.version)
        return Shown.SHOWN

    async def hand_with_move(self, place: Place, game_id: int, hand: Hand) -> bool:
        await self.show_privately(place, game_id, hand)
        return True

    async def redraw_hand(self, place: Place, reply: Reply) -> None:
        if reply.hand is None:
            await self.client.edit_source(self.interaction, plain_layout(reply.notice or ""))
            return
        await self.client.edit_source(self.interaction, hand_layout(
            reply.hand, place.language, reply.notice))
        if reply.board is not None:
            self.client.live_hands.remember(reply.board.game_id,
                                            str(self.interaction.user.id), self.interaction)

    async def retire(self, place: Place) -> None:
        source = self.source
        if source is None:
            return
        try:
            if not self.interaction.response.is_done():
                # Still unanswered: retiring it is the answer.
                await self.client.edit_source(self.interaction, Layout(
                    self.client.t(place, "board.moved"), [], []))
            else:
                await source.edit(allowed_mentions=NO_MENTIONS, **self.client.moved_fields(
                    place, source.flags.components_v2))
        except DELIVERY_ERRORS as error:
            log.info("could not retire message %s: %s", source.id, describe_error(error))


class BoardPresses:
    def __init__(self, client: PressesClient) -> None:
        self.client = client

    def t(self, place: Place, key: str, **params: object) -> str:
        return self.client.t(place, key, **params)

    async def press(self, interaction: discord.Interaction, payload: str) -> None:
        """A board button or select (``BoardButton``, ``BoardSelect``) with its payload:
        a daily post's Play and an ended game's panel here, a game's button answered the
        way every platform answers it (``PressAnswers``)."""
        client = self.client
        place = await client.place_for(interaction)
        user = client.actor(interaction)
        if payload.startswith(DAILY_PAYLOAD):
            await self.play_daily(interaction, place, user, payload[len(DAILY_PAYLOAD):])
            return
        if is_end_panel(payload):
            await self.end_panel(interaction, place, user, payload)
            return
        await client.answers.answer(DiscordPressed(client, interaction, payload), place, user,
                                    payload)

    async def end_panel(self, interaction: discord.Interaction, place: Place, user: User,
                        payload: str) -> None:
        """A button of an ended game's panel: the game again as a new board below, or the
        presser's results, the rules or the replay, for them alone."""
        client = self.client
        choice = await end_choice(client.app, place, user, payload)
        if choice.action == "again":
            reply = await client.app.service.rematch(place, user, choice.game_id)
            if not reply.ok or reply.board is None:
                await client.notify(interaction, reply.notice or self.t(place, "error.internal"))
                return
            await client.post_board(interaction, place, reply)
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
