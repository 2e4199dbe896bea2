"""What both platforms do alike for a tournament (``bot.tournaments.TournamentHost``): show
a round's new games and a game it changed through the adapter's own board path, and keep
the tournament's one message (sign-ups, then standings) up to date in place.

A platform supplies ``TournamentPanel``: where a game of the tournament is played (a
Discord thread, a Telegram topic or table) and how the message with its sign-up button is
posted and edited.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from bot.adapters.base import ChatAdapter
from bot.service import Place, Reply
from bot.store.tournament_rows import TournamentRecord
from bot.tournaments import Tournaments
from renderers.i18n import translate

SIGNUP_PREFIX = "t:"  # the sign-up button's data on both platforms: ``t:<tournament id>``


def signup_data(tournament_id: int) -> str:
    return f"{SIGNUP_PREFIX}{tournament_id}"


def signup_label(record: TournamentRecord) -> str:
    return translate(str(record.state.get("language") or "en"), "tournament.signup_button",
                     "✋ Sign up / withdraw")


class TournamentPanel(Protocol):
    async def open_game_place(self, tournament: TournamentRecord, title: str) -> Place: ...

    async def post_tournament(self, tournament: TournamentRecord, text: str,
                              signup: bool) -> str | None:
        """Post the message (with the sign-up button when ``signup``); its id, or None."""
        ...

    async def edit_tournament(self, tournament: TournamentRecord, message_id: str,
                              text: str, signup: bool) -> bool:
        """Redraw the message; False when it is gone (it is then posted again)."""
        ...


class ChatTournamentHost:
    def __init__(self, adapter: ChatAdapter, tournaments: Tournaments,
                 panel: TournamentPanel) -> None:
        self.adapter = adapter
        self.tournaments = tournaments
        self.panel = panel
        self._drawn: dict[int, str] = {}  # what each message shows now: edits only changes
        self._locks: dict[int, asyncio.Lock] = {}

    async def open_game_place(self, tournament: TournamentRecord, title: str) -> Place:
        return await self.panel.open_game_place(tournament, title)

    async def show_new_game(self, place: Place, reply: Reply) -> None:
        await self.adapter.game_changed(place, reply)

    async def show_game_change(self, place: Place, reply: Reply) -> None:
        await self.adapter.game_changed(place, reply)

    async def show_tournament(self, tournament: TournamentRecord) -> None:
        """Edit the message in place, or post it (the first time, or when it was deleted).
        Read afresh under a lock, so two changes at once never post two messages."""
        async with self._locks.setdefault(tournament.id, asyncio.Lock()):
            current = await self.tournaments.get(tournament.id) or tournament
            text = self.tournaments.text(current)
            signup = current.status == "signup"
            drawn = f"{signup}:{text}"
            ref = current.message_ref or {}
            message_id = str(ref.get("message", ""))
            if message_id and self._drawn.get(current.id) == drawn:
                return
            if message_id and await self.panel.edit_tournament(current, message_id, text,
                                                               signup):
                self._drawn[current.id] = drawn
                return
            posted = await self.panel.post_tournament(current, text, signup)
            if posted is not None:
                await self.tournaments.set_message(current.id, {"channel": current.channel,
                                                                "message": posted})
                self._drawn[current.id] = drawn
