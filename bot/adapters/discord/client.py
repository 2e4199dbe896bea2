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

import asyncio
import datetime as dt
import logging
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.adapters.base import ChatAdapter
from bot.adapters.common import (
    pick_language,
    thinking_line,
)
from bot.adapters.delivery import Drawn, Shown
from bot.adapters.discord import limits
from bot.adapters.discord.errors import DELIVERY_ERRORS, delivery_outcome, describe_error
from bot.adapters.discord.hands import LiveHands
from bot.adapters.discord.layout import (
    BUTTON_PREFIX,
    NO_MENTIONS,
    SIGNUP_TEMPLATE,
    BoardButton,
    BoardSelect,
    Layout,
    MenuButton,
    ReplayButton,
    as_v2,
    board_layout,
    build_view,
    fit_content,
    hand_layout,
    inert,
    message_fields,
    plain_layout,
    with_line,
)
from bot.adapters.discord.limits import command_list_problems, describe
from bot.adapters.discord.presses import DAILY_PAYLOAD, BoardPresses
from bot.adapters.discord.translator import CatalogueTranslator
from bot.adapters.presses import PressAnswers
from bot.app import App
from bot.names import clean_display_name
from bot.puzzles.daily import PostOutcome
from bot.service import Board, Opponent, Place, Reply, User, ai_player
from bot.store import DailySchedule, GameRecord
from engines.registry import get_game
from renderers.i18n import normalise_language, translate

log = logging.getLogger(__name__)

PLATFORM = "discord"
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
def guild_key(guild_id: int) -> str:
    return f"guild:{guild_id}"


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


class LogicBot(ChatAdapter, discord.Client):
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

    def command_guild(self) -> discord.Object | None:
        dev_guild = self.settings.discord_dev_guild.strip()
        return discord.Object(int(dev_guild)) if dev_guild.isdigit() else None

    async def sync_commands_if_changed(self) -> bool:
        """Sync only when the translated command payload differs from the last one synced,
        because Discord rate-limits syncing and a restart changes nothing."""
        guild = self.command_guild()
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        payload = []
        for command in self.tree.get_commands(guild=guild):
            payload.append(await command.get_translated_payload(self.tree, translator)
                           if translator is not None else command.to_dict(self.tree))
        scope = f"commands:{self.application_id}:{guild.id if guild else 'global'}"

        async def publish() -> None:
            await self.tree.sync(guild=guild)
            self.synced_scopes.append(scope)
            log.info("synced %d commands to %s", len(payload), scope)

        published = await self.publish_if_changed(scope, payload, publish)
        if published and command_list_problems(payload, global_scope=guild is None):
            log.warning("discord: Discord took a command list that breaks the limits in "
                        "bot/adapters/discord/limits.py, which may be out of date: %s",
                        self.explain_command_refusal(None, payload))
        return published

    def explain_command_refusal(self, error: Exception | None, payload: Any) -> str:
        """Which command and field break which limit, by the documented limits (with the
        text's length), then what Discord said, in one line: discord.py's
        ``CommandSyncFailure`` names the command of each refused part ("In command 'x'
        … description: …")."""
        ours = [describe(problem, payload) for problem in command_list_problems(payload)]
        theirs = ([line.strip() for line in str(error).splitlines() if line.strip()]
                  if error is not None else [])
        return "; ".join(ours + (["Discord said: " + " ".join(theirs)] if theirs else []))

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

    # ---------------------------------------------------------------- who/where
    async def guild_setting(self, guild_id: int | None, key: str) -> str | None:
        """A server setting, from memory after the first read: every click needs them
        before its answer, and only /logic-settings (through ``set_guild_setting``)
        changes them."""
        if guild_id is None:
            return None
        return await self.setting(guild_key(guild_id), key)

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        await self.set_setting(guild_key(guild_id), key, value)

    async def place_for(self, interaction: discord.Interaction) -> Place:
        """The channel (or thread) as a service place, in the language to answer in.

        A language set by the server's managers wins; otherwise each member is answered
        in their own Discord language, then the server's, then the bot's default.
        """
        guild_id = interaction.guild_id
        chosen = await self.guild_setting(guild_id, "language")
        candidates: list[str | None] = [chosen] if chosen and chosen != "auto" else []
        candidates += [interaction.locale.value,
                       interaction.guild_locale.value if interaction.guild_locale else None,
                       self.settings.language]
        language = pick_language(candidates)
        style = await self.guild_setting(guild_id, "board")
        channel_id = interaction.channel_id or interaction.user.id
        return Place(PLATFORM, str(channel_id), language, emoji=style != "text",
                     server=str(guild_id) if guild_id else "")

    @staticmethod
    def user_for(member: discord.abc.User, moderator: bool = False) -> User:
        name = clean_display_name(member.display_name, str(member.id))
        return User(PLATFORM, str(member.id), name, moderator)

    def actor(self, interaction: discord.Interaction) -> User:
        """The person who acted, as the service sees them; moderation, where a command
        needs it, is decided by ``is_moderator`` (``moderator_actor``)."""
        return self.user_for(interaction.user)

    async def is_moderator(self, interaction: discord.Interaction, *,
                           server_wide: bool = False) -> bool:
        """Who may end others' games, export results, set timers and settings: members
        who can manage messages (or the server), or who hold the teacher role named with
        /logic-settings teacher-role. Never in DMs: there is no class there.

        In one channel the channel's permissions count (its overrides included);
        ``server_wide`` rights (the server's settings, games in other channels) come from
        the member's roles across the server instead."""
        if interaction.guild_id is None:
            return False
        permissions = (getattr(interaction.user, "guild_permissions", None) if server_wide
                       else interaction.permissions)
        if permissions is not None and (permissions.manage_messages
                                        or permissions.manage_guild):
            return True
        role = await self.guild_setting(interaction.guild_id, "teacher_role")
        roles = getattr(interaction.user, "roles", [])
        return bool(role) and any(str(r.id) == role for r in roles)

    async def moderator_actor(self, interaction: discord.Interaction) -> User:
        return self.user_for(interaction.user, await self.is_moderator(interaction))

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

    async def announce(self, channel_id: str, lines: list[str]) -> None:
        """Public lines in the channel; best effort, as the move they report is saved."""
        if not lines:
            return
        channel = self.get_partial_messageable(int(channel_id))
        try:
            await channel.send(fit_content([inert(line) for line in lines]),
                               allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("could not announce in %s: %s", channel_id, error)

    # -------------------------------------------------------------------- boards
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

    @staticmethod
    def missing_permissions(interaction: discord.Interaction) -> list[str]:
        """Channel permissions the bot lacks to keep a board up to date here.

        Answers to interactions need none, but AI moves and edits go through the channel,
        so a game started without them would freeze at the computer's first move.
        """
        if interaction.guild_id is None:
            return []
        have = interaction.app_permissions
        channel = interaction.channel
        in_thread = channel is not None and channel.type in (
            discord.ChannelType.public_thread, discord.ChannelType.private_thread)
        needed = [("View Channel", have.view_channel),
                  ("Send Messages in Threads", have.send_messages_in_threads) if in_thread
                  else ("Send Messages", have.send_messages)]
        return [name for name, granted in needed if not granted]

    # ------------------------------------------------------------------- threads
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

    @staticmethod
    def board_link(record: GameRecord) -> str:
        """A jump URL to the game's board message, or a mention of its channel (which
        pings nobody) when no board was posted."""
        ref = record.board_ref or {}
        if record.server and ref.get("channel") and ref.get("message"):
            return (f"https://discord.com/channels/{record.server}/{ref['channel']}/"
                    f"{ref['message']}")
        return f"<#{record.channel}>"

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

    # ---------------------------------------------------------- daily challenge
    def daily_layout(self, text: str, server: str, language: str) -> Layout:
        play = MenuButton(translate(language, "daily.play"),
                          BUTTON_PREFIX + DAILY_PAYLOAD + server, 0, primary=True)
        return Layout(fit_content([inert(text)]), [play], [], False)

    async def post_daily(self, schedule: DailySchedule, day: str) -> PostOutcome:
        text = await self.daily.post_for(schedule, dt.date.fromisoformat(day))
        layout = self.daily_layout(text, schedule.server, schedule.language)
        channel = self.get_partial_messageable(int(schedule.channel))
        view = build_view(layout)
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        try:
            await channel.send(layout.content, allowed_mentions=NO_MENTIONS, **extra)
        except (discord.NotFound, discord.Forbidden) as error:
            # A deleted channel, or one the bot may no longer post in.
            log.warning("daily post to %s refused: %s", schedule.channel, error)
            return "gone"
        except discord.HTTPException as error:
            log.warning("daily post to %s failed: %s", schedule.channel, error)
            return "failed"
        return "posted"

    # -------------------------------------------------------------------- cues
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

    async def post_text(self, channel: str, text: str) -> str | None:
        try:
            message = await self.get_partial_messageable(int(channel)).send(
                fit_content([inert(text)]), allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("could not post in %s: %s", channel, error)
            return None
        return str(message.id)

    async def edit_text(self, channel: str, message_id: str, text: str) -> Shown:
        message = self.get_partial_messageable(int(channel)).get_partial_message(
            int(message_id))
        try:
            await message.edit(content=fit_content([inert(text)]),
                               allowed_mentions=NO_MENTIONS)
        except DELIVERY_ERRORS as error:
            outcome = delivery_outcome(error)
            log.info("could not edit message %s in %s: %s; %s", message_id, channel,
                     describe_error(error), outcome.value)
            return outcome
        return Shown.SHOWN

    def game_link(self, record: GameRecord) -> str:
        return self.board_link(record)

    def settings_scope(self, place: Place) -> str:
        return guild_key(int(place.server)) if place.server.isdigit() else \
            f"channel:{place.channel}"

    async def send_cue(self, place: Place, people: list[dict[str, Any]],
                       board: Board) -> str | None:
        """A short line that mentions ``people`` by id, with ``allowed_mentions`` limited
        to exactly them: the only pings the bot ever sends."""
        ids = [int(str(p.get("id"))) for p in people if str(p.get("id", "")).isdigit()]
        if not ids:
            return ""
        text = self.cue_text(place, ", ".join(f"<@{user_id}>" for user_id in ids), board)
        allowed = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                          users=[discord.Object(user_id) for user_id in ids])
        try:
            message = await self.get_partial_messageable(int(place.channel)).send(
                text, allowed_mentions=allowed)
        except discord.HTTPException as error:
            log.info("could not cue a turn in %s: %s", place.channel, error)
            return None
        return str(message.id)

    async def delete_message(self, channel: str, message_id: str) -> None:
        try:
            await self.get_partial_messageable(int(channel)).get_partial_message(
                int(message_id)).delete()
        except discord.HTTPException as error:
            log.info("could not delete message %s in %s: %s", message_id, channel, error)

    async def daily_dropped(self, schedule: DailySchedule) -> None:
        """Tell the server, in its system channel when it has one, that the daily post
        stopped because its channel is gone or closed to the bot."""
        guild = self.get_guild(int(schedule.server)) if schedule.server.isdigit() else None
        channel = guild.system_channel if guild is not None else None
        if channel is None:
            return
        text = translate(schedule.language, "daily.dropped",
                         "The daily challenge could no longer be posted in <#{channel}>, so "
                         "it has stopped. A moderator can start it again with /daily.",
                         channel=schedule.channel)
        try:
            await channel.send(text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.info("could not tell %s that its daily post stopped: %s", schedule.server,
                     error)

    # -------------------------------------------------------------------- errors
    async def apologise(self, interaction: discord.Interaction) -> None:
        place_language = normalise_language(interaction.locale.value)
        text = translate(place_language, "error.internal")
        try:
            await self.send(interaction, plain_layout(text), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send the apology for interaction %s", interaction.id)

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
