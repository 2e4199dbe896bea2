"""A strict simcord: every REST request the bot makes is checked against Discord's
documented limits (``bot.adapters.discord.limits``) and a violation is answered as
Discord answers it, ``400 Bad Request`` with code 50035 "Invalid Form Body" and the
field's path in ``errors``, so discord.py raises the ``HTTPException`` a real bot gets.

simcord records each request in ``backend.http_requests`` before it routes it; the
check runs there, after the record, so a refused request is still in the log, as it
was still sent."""

from __future__ import annotations

from typing import Any

import discord
import simcord
from simcord.backend.errors import invalid_form_body

from bot.adapters.discord.limits import error_tree, request_problems


class StrictRequests(list[Any]):
    """simcord's request log that refuses what Discord refuses."""

    def append(self, entry: Any) -> None:
        super().append(entry)
        problems = request_problems(entry.method, entry.path, entry.json)
        if problems:
            raise invalid_form_body(errors=error_tree(problems))


def make_strict(env: Any) -> None:
    """Make ``env`` (a ``simcord.run`` environment) refuse requests over Discord's limits."""
    backend = env.backend
    if not isinstance(backend.http_requests, StrictRequests):
        backend.http_requests = StrictRequests(backend.http_requests)


class strict_run(simcord.run):
    """``simcord.run`` with a strict Discord from the first request on: the command sync
    of ``setup_hook`` runs inside ``__aenter__``, before a test could make it strict."""

    def __init__(self, bot: discord.Client, **options: Any) -> None:
        super().__init__(bot, **options)
        make_strict(self._env)  # simcord's own attribute: the Env it is about to start
