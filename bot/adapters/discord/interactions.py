"""Answering Discord interactions: the first answer or a follow-up, the clicked message's
edit, and the deadline watch that defers whatever has not answered in time.

Discord drops an interaction not acknowledged within 3 s, and one answered twice fails
(40060): the handler and the watch share a lock per interaction (``answer_lock``), and
whoever holds it sees whether the other already answered."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

from bot.adapters.base import ChatAdapter
from bot.adapters.discord.components import message_fields
from bot.adapters.discord.layout import NO_MENTIONS, Layout, as_v2, plain_layout
from renderers.i18n import normalise_language, translate

log = logging.getLogger(__name__)

# Discord drops an interaction that is not acknowledged within 3 s
# (https://discord.com/developers/docs/interactions/receiving-and-responding): whatever
# has not answered after a second is deferred, which leaves a slow school network two
# seconds for the deferral's own round trip.
ACK_SECONDS = 1.0


def answer_lock(interaction: discord.Interaction) -> asyncio.Lock:
    """The lock of an interaction's first answer, which its handler and its deadline
    watch both may give: whoever holds it sees whether the other already answered, so the
    interaction is never answered twice (Discord's 40060)."""
    lock = interaction.extras.get("answer_lock")
    if lock is None:
        lock = interaction.extras["answer_lock"] = asyncio.Lock()
    return lock


def stop_watch(interaction: discord.Interaction) -> None:
    """The first answer is given: the deadline watch has nothing left to do."""
    watch = interaction.extras.get("deadline")
    if watch is not None:
        watch.cancel()


class InteractionAnswers(ChatAdapter, discord.Client):
    """The answers to an interaction, as every command and button gives them."""

    # ---------------------------------------------------------------- answering
    def watch_deadline(self, interaction: discord.Interaction) -> None:
        """Start the interaction's deadline watch (``keep_deadline``), once, as it arrives.
        An autocomplete cannot be deferred: its one answer is its choices."""
        if (interaction.type is discord.InteractionType.autocomplete
                or "deadline" in interaction.extras or interaction.response.is_done()):
            return
        interaction.extras["deadline"] = asyncio.ensure_future(self.keep_deadline(interaction))

    async def keep_deadline(self, interaction: discord.Interaction) -> None:
        """Defer the interaction if nothing has answered it ``ACK_SECONDS`` after it
        arrived, whatever its handler is waiting for (a computer move, a puzzle, a
        database under load): Discord drops an interaction not answered within 3 s.

        A component is deferred silently: its answer edits the clicked message or follows
        up. A command is deferred privately: the answer may be a refusal, and the first
        follow-up of a deferral replaces the "thinking…" message, taking over its
        visibility; a public answer then goes to the channel instead (see ``send``)."""
        await asyncio.sleep(ACK_SECONDS)
        if answer_lock(interaction).locked():
            # The handler's answer is on its way (perhaps through discord.py's retries of
            # a 5xx or a 429): a deferral could only queue behind it.
            return
        async with answer_lock(interaction):
            if interaction.response.is_done():
                return
            try:
                if interaction.type is discord.InteractionType.application_command:
                    await interaction.response.defer(ephemeral=True, thinking=True)
                    interaction.extras["private_thinking"] = True
                else:
                    await interaction.response.defer()
            except discord.HTTPException as error:
                log.info("could not defer interaction %s: %s", interaction.id, error)

    async def acknowledge(self, interaction: discord.Interaction) -> None:
        """Answer a component with nothing to show (its message is already right)."""
        async with answer_lock(interaction):
            if not interaction.response.is_done():
                await interaction.response.defer()
        stop_watch(interaction)

    async def send(self, interaction: discord.Interaction, layout: Layout, *,
                   ephemeral: bool, view: discord.ui.View | None = None,
                   files: Sequence[discord.File] = ()) -> discord.Message | None:
        """Answer the interaction, or follow it up when it was answered or deferred
        (``view``: components built elsewhere, such as a replay's)."""
        fields = ({"content": layout.content, "view": view} if view is not None
                  else message_fields(layout, edit=False))
        if files:
            fields["files"] = list(files)
        async with answer_lock(interaction):
            first = not interaction.response.is_done()
            if first:
                await interaction.response.send_message(ephemeral=ephemeral,
                                                        allowed_mentions=NO_MENTIONS, **fields)
        if first:
            stop_watch(interaction)
            return None if ephemeral else await interaction.original_response()
        if not ephemeral and interaction.extras.pop("private_thinking", False):
            channel = self.get_partial_messageable(interaction.channel_id or 0)
            message = await channel.send(allowed_mentions=NO_MENTIONS, **fields)
            place_language = normalise_language(interaction.locale.value)
            await interaction.edit_original_response(
                content=translate(place_language, "discord.done"))
            return message
        interaction.extras["private_thinking"] = False
        return await interaction.followup.send(ephemeral=ephemeral,
                                               allowed_mentions=NO_MENTIONS, wait=True,
                                               **fields)

    async def edit_source(self, interaction: discord.Interaction, layout: Layout, *,
                          view: discord.ui.View | None = None) -> None:
        """Replace the clicked message's content and components (``view``: components
        built elsewhere, such as a replay's). A Components V2 message (a card hand) stays
        V2, as Discord wants: a classic layout, such as a refusal, becomes a text display."""
        source = interaction.message
        if view is None and source is not None and source.flags.components_v2:
            layout = as_v2(layout)
        fields = ({"content": layout.content, "view": view} if view is not None
                  else message_fields(layout, edit=True))
        async with answer_lock(interaction):
            first = not interaction.response.is_done()
            if first:
                await interaction.response.edit_message(allowed_mentions=NO_MENTIONS,
                                                        **fields)
        if first:
            stop_watch(interaction)
        else:
            await interaction.edit_original_response(allowed_mentions=NO_MENTIONS, **fields)

    async def notify(self, interaction: discord.Interaction, text: str) -> None:
        await self.send(interaction, plain_layout(text), ephemeral=True)

    async def apologise(self, interaction: discord.Interaction) -> None:
        place_language = normalise_language(interaction.locale.value)
        text = translate(place_language, "error.internal")
        try:
            await self.send(interaction, plain_layout(text), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send the apology for interaction %s", interaction.id)
