"""What adapters may read of stored games and settings, and the board reference they
write: adapters reach the database only through these (``Service`` shows them), never
through its ``store``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.replies import Opponent, Place, User
from bot.service.core import Core
from bot.store import GameRecord
from bot.tables import free_table, same_pairing, seated_games


class Records:
    """Stored games, tables and settings as the adapters see them."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def game_record(self, game_id: int) -> GameRecord | None:
        """The stored record, read afresh: its board reference may have been set by
        another process (or a moment ago by this one) since the cache was filled."""
        return await self.core.store.get_game(game_id)

    async def running_record(self, place: Place) -> GameRecord | None:
        return await self.core.running(place)

    async def table_for_new_game(self, place: Place, user: User, game: str, rival: Opponent
                                 ) -> Place | GameRecord:
        """Where a new game of a room with tables goes (``bot.tables``): ``place`` while
        it is free, else the room's lowest free table; or the running game of the room
        that already is this one (same game, same opponent), which is not started twice."""
        if await self.core.running(place) is None:
            return place
        for record in await seated_games(self.core.store, place, user):
            if same_pairing(record, game, user, rival):
                return record
        return await free_table(self.core.store, place)

    async def free_place(self, place: Place) -> Place:
        """``place`` while no game runs there, else the lowest free table of its room."""
        if await self.core.running(place) is None:
            return place
        return await free_table(self.core.store, place)

    async def seated_games(self, place: Place, user: User) -> list[GameRecord]:
        """The running games of ``place``'s room (its own and its tables') ``user`` sits in."""
        return await seated_games(self.core.store, place, user)

    async def set_board_ref(self, game_id: int, ref: dict[str, Any]) -> None:
        """Remember where the game's board message is (and its language and style), so
        that AI moves, timers and a restart can find and redraw it."""
        await self.core.store.set_board_ref(game_id, ref)
        cached = self.core.cache.get(game_id)
        if cached is not None:
            # The cached record is what a press from a private chat reads the board's
            # language and style from (``place_of_record``): a stale one drew a group's
            # text-style board in emoji after the first move made in a hand.
            self.core.cache[game_id] = (replace(cached[0], board_ref=dict(ref)), cached[1])

    async def get_setting(self, platform: str, scope: str, key: str) -> str | None:
        return await self.core.store.get_setting(platform, scope, key)

    async def set_setting(self, platform: str, scope: str, key: str, value: str) -> None:
        await self.core.store.set_setting(platform, scope, key, value)
