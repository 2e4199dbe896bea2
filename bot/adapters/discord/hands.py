"""Live hands on Discord: a player's private hand message is brought up to date when
their turn begins, so that they tap a card at once instead of reopening the hand.

A hand is an ephemeral message, which only the interaction that sent or last edited it
can change, and only while its token lasts (15 minutes). So the last such interaction of
each player in each game is kept; when it is too old or the edit fails, the player
opens the hand with the board's button as before.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.adapters.discord.layout import NO_MENTIONS, Layout, message_fields

log = logging.getLogger(__name__)

# An interaction token lasts 15 minutes; a minute is left for the edit itself.
HAND_TOKEN_SECONDS = 14 * 60.0


@dataclass(frozen=True)
class _Held:
    interaction: discord.Interaction
    message_id: int | None  # a follow-up; None for the interaction's own response
    since: float


class LiveHands:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._held: dict[tuple[int, str], _Held] = {}

    def remember(self, game_id: int, user_id: str, interaction: discord.Interaction,
                 message_id: int | None = None) -> None:
        """``interaction`` shows ``user_id``'s hand of ``game_id`` (in its response, or in
        its follow-up ``message_id``)."""
        self._held[(game_id, user_id)] = _Held(interaction, message_id, self._clock())

    def forget(self, game_id: int) -> None:
        for key in [key for key in self._held if key[0] == game_id]:
            del self._held[key]

    def holds(self, game_id: int, user_id: str) -> bool:
        held = self._held.get((game_id, user_id))
        return held is not None and self._clock() - held.since < HAND_TOKEN_SECONDS

    async def redraw(self, game_id: int, user_id: str, layout: Layout) -> bool:
        """Show ``layout`` in the player's hand message; False when there is none that
        can still be edited (the player then opens the hand from the board)."""
        held = self._held.get((game_id, user_id))
        if held is None or not self.holds(game_id, user_id):
            self._held.pop((game_id, user_id), None)
            return False
        # A card hand is a Components V2 message, and its layout always V2 (``hand_layout``).
        fields = message_fields(layout, edit=True)
        try:
            if held.message_id is None:
                await held.interaction.edit_original_response(allowed_mentions=NO_MENTIONS,
                                                              **fields)
            else:
                await held.interaction.followup.edit_message(
                    held.message_id, allowed_mentions=NO_MENTIONS, **fields)
        except discord.HTTPException as error:
            log.info("could not redraw the hand of %s in game %s: %s", user_id, game_id, error)
            self._held.pop((game_id, user_id), None)
            return False
        return True
