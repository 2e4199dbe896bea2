"""Games in threads: a new game in a text channel may open a thread of its own under a
short public note, so that a class's pairs all play from one channel; when the thread
cannot be opened, the game is played in the channel and its board says so."""

from __future__ import annotations

import logging

import discord

from bot.adapters.delivery import Drawn
from bot.adapters.discord import limits
from bot.adapters.discord.boards import DiscordBoards
from bot.adapters.discord.components import message_fields
from bot.adapters.discord.errors import DELIVERY_ERRORS, describe_error
from bot.adapters.discord.layout import NO_MENTIONS, plain_layout
from bot.adapters.discord.places import PLATFORM
from bot.service import Opponent, Place, User, ai_player
from engines.registry import get_game

log = logging.getLogger(__name__)


class DiscordThreads(DiscordBoards):
    """Where a new game goes: its own thread, or the channel."""

    async def wants_thread(self, interaction: discord.Interaction, place: Place) -> bool:
        """Whether a new game opens its own thread: in a text channel whose server turned
        threads on, or whose own game is already running, so that a class's pairs can all
        play from one channel instead of being told it is taken."""
        channel = interaction.channel
        if channel is None or channel.type is not discord.ChannelType.text:
            return False
        return (await self.guild_setting(interaction.guild_id, "threads") == "on"
                or await self.service.running_record(place) is not None)

    async def play_in_thread(self, interaction: discord.Interaction, place: Place, user: User,
                             game: str, rival: Opponent, options: str,
                             creator_seat: int | None, invited: discord.User | None) -> None:
        """Open a thread under a short public note and start the game inside it."""
        title = get_game(game).TITLE
        starter = await self.send(interaction, plain_layout(
            self.t(place, "discord.thread_starter", creator=user.name, game=title)),
            ephemeral=False)
        rival_name = (rival.user.name if rival.user is not None
                      else ai_player(rival.level or "strong")["name"] if rival.kind == "ai"
                      else "…")
        header: list[str] = []
        try:
            assert starter is not None
            thread = await starter.create_thread(
                name=self.t(place, "discord.thread_name", game=title,
                            players=f"{user.name} vs {rival_name}")[:limits.THREAD_NAME[1]],
                auto_archive_duration=1440)
            game_place = Place(PLATFORM, str(thread.id), place.language, place.emoji,
                               place.server)
            target: discord.abc.Messageable = thread
        except DELIVERY_ERRORS as error:
            # The note above would point at a thread that does not exist: it goes, and the
            # board below says where the game is instead.
            log.warning("could not open a thread in %s (%s); the game is played in the "
                        "channel", place.channel, describe_error(error))
            await self.drop_note(starter)
            header.append(self.t(place, "discord.thread_failed"))
            game_place, target, thread = place, self.get_partial_messageable(
                int(place.channel)), None
        reply = await self.service.start_game(game_place, user, game, rival, options,
                                              creator_seat)
        if not reply.ok or reply.board is None:
            if thread is not None:
                await self.drop_note(starter)
            await self.notify(interaction, reply.notice or self.t(place, "error.internal"))
            return
        layout = self.board_for(game_place, reply.board, reply.ai_to_move,
                                [*header, *reply.announcements])
        try:
            message = await target.send(allowed_mentions=NO_MENTIONS,
                                        **message_fields(layout, edit=False))
        except DELIVERY_ERRORS as error:
            # A game nobody can see would block the place; take it back and say why.
            log.warning("could not post a board in %s (%s); the game is taken back",
                        game_place.channel, describe_error(error))
            await self.service.abandon(game_place, user)
            if thread is not None:
                await self.drop_note(starter)
            await self.notify(interaction, self.t(
                place, "discord.missing_permissions", permissions="Send Messages in Threads"))
            return
        await self.remember_message(game_place, reply.board.game_id, message,
                                    reply.board.version)
        if thread is not None and invited is not None:
            try:
                await thread.add_user(invited)
            except discord.HTTPException:
                log.info("could not add %s to thread %s", invited.id, thread.id)
        await self.game_changed(game_place, reply, drawn=Drawn.BOARD_AND_NEWS)

    @staticmethod
    async def drop_note(note: discord.Message | None) -> None:
        """Delete a public note that would now say something false."""
        if note is None:
            return
        try:
            await note.delete()
        except DELIVERY_ERRORS as error:
            log.info("could not delete the note %s: %s", note.id, describe_error(error))
