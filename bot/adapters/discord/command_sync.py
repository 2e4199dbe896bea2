"""Publishing the slash commands to Discord: only when the translated command list differs
from the one last synced (Discord rate-limits syncing, and a restart changes nothing),
checked against the documented limits, with a refusal explained command by command."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.adapters.base import ChatAdapter
from bot.adapters.discord.limits import command_list_problems, describe

log = logging.getLogger(__name__)


class CommandSync(ChatAdapter, discord.Client):
    """The command tree's publication; the client builds the tree (``LogicBot``)."""

    tree: app_commands.CommandTree[Any]
    synced_scopes: list[str]

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
