"""The Discord client: turns interactions into service calls and replies into messages.

It holds no game logic and knows no game: every game the service offers is playable
through the same board, hand and menu handling.

* The public board of a game is one message, edited in place. The store keeps a reference
  to it, so that AI moves and commands can update it and a restart can find it again.
* Buttons and selects are ``DynamicItem``s whose custom ids carry the service payload,
  so clicks on messages sent before a restart still work.
* Anything private (a hand, a private menu) is only ever sent ephemerally.
* Every interaction is acknowledged within ``ACK_SECONDS``: when the service takes
  longer, the interaction is deferred and answered when the work is done. AI moves run
  after the human's move is answered, in a background task, and edit the board.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.adapters.base import ChatAdapter
from bot.adapters.discord.command_sync import CommandSync
from bot.adapters.discord.components import SIGNUP_TEMPLATE, BoardButton, BoardSelect, ReplayButton
from bot.adapters.discord.hands import LiveHands
from bot.adapters.discord.layout import NO_MENTIONS, plain_layout
from bot.adapters.discord.messages import DiscordMessages
from bot.adapters.discord.places import PLATFORM
from bot.adapters.discord.presses import BoardPresses
from bot.adapters.discord.threads import DiscordThreads
from bot.adapters.discord.translator import CatalogueTranslator
from bot.adapters.presses import PressAnswers
from bot.app import App
from bot.store import GameRecord
from renderers.i18n import normalise_language, translate

log = logging.getLogger(__name__)


# The bot never joins voice, so discord.py's warnings about missing voice libraries are
# noise in every operator's log.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


def walk_components(components: Iterable[Any]) -> Iterator[Any]:
    """Every component of a message, nested ones too: the buttons and selects of action
    rows, and in a Components V2 message those in containers and section accessories."""
    for component in components:
        yield component
        yield from walk_components(getattr(component, "children", None) or [])
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


class LogicBot(CommandSync, DiscordMessages, DiscordThreads):
    """The Discord adapter: its start-up, the components that no dynamic item answers,
    and its errors; the rest comes from its parts (``command_sync``, ``messages``,
    ``interactions``, ``places``, ``boards``, ``threads``)."""

    platform = PLATFORM
    # A refusal (discord.py's HTTPException, CommandSyncFailure included), or the network
    # failing under discord.py (aiohttp's errors, a timeout).
    platform_errors = (discord.HTTPException, aiohttp.ClientError, TimeoutError)

    def __init__(self, app: App) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no privileged intent is needed
        if isinstance(self, discord.AutoShardedClient):  # ``ShardedLogicBot``
            discord.AutoShardedClient.__init__(
                self, intents=intents, allowed_mentions=NO_MENTIONS,
                shard_count=app.settings.shard_count, shard_ids=list(app.settings.shard_ids))
        else:
            discord.Client.__init__(self, intents=intents, allowed_mentions=NO_MENTIONS)
        ChatAdapter.__init__(self, app)
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self._resumed = False
        self.synced_scopes: list[str] = []
        self.live_hands = LiveHands()
        self.answers = PressAnswers(self)  # a game's buttons, as on every platform
        self.presses = BoardPresses(self)  # buttons and selects pressed (``presses.py``)
        # The ids of dynamic items that command modules add (the lessons' buttons), which
        # ``on_interaction`` must not answer as foreign.
        self.own_component_templates: list[re.Pattern[str]] = []

    # ------------------------------------------------------------------ start-up
    async def setup_hook(self) -> None:
        self.add_dynamic_items(BoardButton, BoardSelect, ReplayButton)
        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_commands_if_changed()

    async def on_ready(self) -> None:
        if self._resumed:
            # A new session after a lost one: boards that waited out the gap go now.
            self.redelivery.retry_now()
            return
        self._resumed = True
        self.start_loops()
        await self.resume_ai()
        await self.reconcile_boards()
        await self.app.tournaments.resume_all(PLATFORM)

    async def on_resumed(self) -> None:
        """The gateway session came back: Discord is reachable again, so every board
        waiting for a retry is tried now rather than after its backoff."""
        self.redelivery.retry_now()

    def serves(self, record: GameRecord) -> bool:
        """A sharded process draws the boards of its own shards' servers (and, on shard 0,
        of private chats): the shard of a server is (id >> 22) % shard count."""
        shard_ids = getattr(self, "shard_ids", None)
        count = self.shard_count or 1
        if count <= 1 or not shard_ids:
            return True
        guild = int(record.server) if record.server.isdigit() else 0
        return (guild >> 22) % count in shard_ids

    async def close(self) -> None:
        await self.stop_loops()
        await discord.Client.close(self)

    # ---------------------------------------------------------------- components
    async def handle_component(self, interaction: discord.Interaction, payload: str) -> None:
        """A board button or select, answered by ``BoardPresses`` (``presses.py``)."""
        try:
            await self.presses.press(interaction, payload)
        except Exception:
            log.exception("button %r failed", payload)
            await self.apologise(interaction)

    async def handle_replay(self, interaction: discord.Interaction, game_id: int,
                            index: int) -> None:
        """A replay's start, back, forward or end (``BoardPresses.replay``)."""
        try:
            await self.presses.replay(interaction, game_id, index)
        except Exception:
            log.exception("replay %s failed", game_id)
            await self.apologise(interaction)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer component clicks that no dynamic item will: forged or foreign ids.

        discord.py only dispatches a dynamic item when the clicked id matches its template
        and is really on the message; anything else would otherwise fail silently.

        Every interaction's deadline is watched from here, the one place all of them pass.
        """
        self.watch_deadline(interaction)
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, Any] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        component_type = data.get("component_type")
        message = interaction.message
        # discord.py swaps in a dynamic item only when a component of the clicked type has
        # the id; a select's id sent as a button click (a modified client) would otherwise
        # go unanswered.
        on_message = message is not None and any(
            getattr(child, "custom_id", None) == custom_id
            and getattr(getattr(child, "type", None), "value", None) == component_type
            for child in walk_components(message.components))
        ours = any(pattern.fullmatch(custom_id) for pattern in (
            BoardButton.__discord_ui_compiled_template__,
            BoardSelect.__discord_ui_compiled_template__,
            ReplayButton.__discord_ui_compiled_template__,
            re.compile(SIGNUP_TEMPLATE), *self.own_component_templates))
        if on_message and ours:
            return
        place = await self.place_for(interaction)
        try:
            await self.notify(interaction, self.t(place, "error.foreign_button"))
        except discord.HTTPException:
            log.info("could not answer a foreign component %r", custom_id[:100])

    # -------------------------------------------------------------------- errors
    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure):
            language = normalise_language(interaction.locale.value)
            key = ("discord.guild_only" if isinstance(error, app_commands.NoPrivateMessage)
                   else "discord.settings_only_managers")
            await self.send(interaction, plain_layout(translate(language, key)), ephemeral=True)
            return
        log.error("command %s failed", interaction.command.qualified_name
                  if interaction.command else "?", exc_info=error)
        await self.apologise(interaction)


class ShardedLogicBot(LogicBot, discord.AutoShardedClient):
    """The bot on the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (docs/scaling.md): Discord
    sends this process the events of its shards' servers only (direct messages come on
    shard 0), while every process shares one PostgreSQL database, whose claims keep each
    timer step and daily post once."""
