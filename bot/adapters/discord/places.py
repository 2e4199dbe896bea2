"""Who and where on Discord: a channel or thread as a service ``Place`` (in the language to
answer in), a member as a ``User``, who moderates, the server's settings, and links to a
game's board."""

from __future__ import annotations

import discord

from bot.adapters.base import ChatAdapter
from bot.adapters.common import pick_language
from bot.names import clean_display_name
from bot.service import Place, User
from bot.store import GameRecord

PLATFORM = "discord"


def guild_key(guild_id: int) -> str:
    return f"guild:{guild_id}"


class DiscordPlaces(ChatAdapter, discord.Client):
    """Places, people and their rights, read from an interaction."""

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

    @staticmethod
    def board_link(record: GameRecord) -> str:
        """A jump URL to the game's board message, or a mention of its channel (which
        pings nobody) when no board was posted."""
        ref = record.board_ref or {}
        if record.server and ref.get("channel") and ref.get("message"):
            return (f"https://discord.com/channels/{record.server}/{ref['channel']}/"
                    f"{ref['message']}")
        return f"<#{record.channel}>"

    def game_link(self, record: GameRecord) -> str:
        return self.board_link(record)

    def settings_scope(self, place: Place) -> str:
        return guild_key(int(place.server)) if place.server.isdigit() else \
            f"channel:{place.channel}"
