"""How Discord says no to a board's edit or post, and what that means for the board.

Expected refusals (an expired interaction, a deleted message, a channel the bot lost)
are one line in the log with the game and what the bot does about them; a traceback is
for bugs."""

from __future__ import annotations

import aiohttp
import discord

from bot.adapters.delivery import Shown

# What Discord (or the network under discord.py) answers a board's edit or post with,
# when it does not take it.
DELIVERY_ERRORS = (discord.HTTPException, aiohttp.ClientError, TimeoutError)
UNKNOWN_MESSAGE = 10008  # https://discord.com/developers/docs/topics/opcodes-and-status-codes


def delivery_outcome(error: BaseException) -> Shown:
    """What a failed edit or post means for the board: the message deleted (10008: post
    anew), a passing fault (429, 5xx, a timeout or a reset connection: try again soon),
    or a refusal that passes only when someone acts (no access to the channel, the
    channel gone: try again rarely)."""
    if isinstance(error, discord.NotFound):
        return Shown.GONE if error.code == UNKNOWN_MESSAGE else Shown.REFUSED
    if isinstance(error, discord.HTTPException):
        return Shown.LATER if error.status >= 500 or error.status == 429 else Shown.REFUSED
    return Shown.LATER


def describe_error(error: BaseException) -> str:
    """One line for the log: Discord's status and code, or the network's error."""
    if isinstance(error, discord.HTTPException):
        first_line = error.text.splitlines()[0] if error.text else ""
        return f"{error.status} (code {error.code}) {first_line}".strip()
    return f"{type(error).__name__} {error}".strip()
