"""Ending games and leaving them: resignations, a game abandoned by a player or a
moderator (also every game of a server the bot was removed from), and a seat left in a
game the others play on, anonymised for ``/forget-me``: the service's ``Endings``, which
work through its core."""

from __future__ import annotations

from bot.replies import Place, Reply, ServiceError, User, place_of_record
from bot.service.core import Core, has_left, seat_of
from bot.service.presenter import t
from bot.store import GameRecord, MoveRecord
from engines.base import StateError


class Endings:
    """Resigning, abandoning, and anonymising a seat left behind."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def resign(self, place: Place, user: User) -> Reply:
        async def work() -> Reply:
            async with self.core.locked_game(place) as (record, state):
                seat = seat_of(record, user)
                if seat is None or record.status != "active":
                    raise ServiceError(t(place, "error.not_a_player"
                                         if seat is None else "error.cannot_join"),
                                       record)
                reply = await self.core.resign_seats(place, record, state, [seat], "resign")
                reply.announcements.append(t(place, "game.resigned", name=user.name))
                return reply
        return await self.core.guard(place, work, actor=user)

    async def abandon(self, place: Place, user: User, game_id: int | None = None,
                      metered: bool = True) -> Reply:
        """End the channel's game without a result. ``game_id``, when given, must be the
        game running there (a moderator ending a game from elsewhere names its number,
        and a game that ended meanwhile must not take a new one down with it).
        ``metered=False`` is for the bot acting on a person's behalf (``/forget-me`` ends
        all their games at once), which their rate limit must not cut short."""
        async def work() -> Reply:
            async with self.core.locked_game(place) as (record, state):
                if game_id is not None and record.id != game_id:
                    raise ServiceError(t(
                        place, "abandon.no_such_game",
                        "No game #{number} is running in this server; /games lists them.",
                        number=game_id))
                seat = seat_of(record, user)
                if (seat is None or has_left(record, seat)) and not user.is_moderator:
                    raise ServiceError(t(place, "error.moderator_only"), record)
                state.abandon()
                reply = await self.core.save_and_reply(
                    place, record, state, record.players, "abandoned",
                    MoveRecord(seat, "abandon", user.id), None)
                reply.announcements.append(t(place, "game.abandoned_by", name=user.name))
                return reply
        return await self.core.guard(place, work, actor=user if metered else None)

    async def anonymise_left_seat(self, place: Place, user: User, token: str,
                                  name: str) -> bool:
        """Give ``user``'s seat in the running game at ``place`` the id ``token`` and
        ``name``, when they have left that game and the others play on. Saved like a move,
        under the game's lock, so the cached record cannot write the old name back."""
        try:
            async with self.core.locked_game(place) as (record, state):
                seat = seat_of(record, user)
                if seat is None or not has_left(record, seat):
                    return False
                players = [dict(p) for p in record.players]
                players[seat].update(id=token, name=name)
                await self.core.save(place, record, state, players, record.status,
                                     MoveRecord(seat, "forget", token))
                return True
        except (ServiceError, StateError):
            return False

    async def game_in_server(self, place: Place, game_id: int) -> GameRecord | None:
        """Running game ``game_id`` when it is in the server or group around ``place``:
        a game a moderator there may end from another channel (``abandon`` at its place).
        None for any other number, so a guessed number reveals nothing elsewhere."""
        if not place.server:
            return None
        record = await self.core.store.get_game(game_id)
        if (record is None or not record.running or record.platform != place.platform
                or record.server != place.server):
            return None
        return record

    async def end_games_in(self, platform: str, server: str) -> list[tuple[Place, Reply]]:
        """Abandon every running game of a server or group the bot was removed from: nobody
        can play them any more, and running they would count toward their players' limits
        forever. Returns each game's place and reply (its board and announcement)."""
        ended: list[tuple[Place, Reply]] = []
        bot_user = User(platform, "bot", "logic-bot", is_moderator=True)
        for record in await self.core.store.games_with_status("waiting", "active"):
            if record.platform != platform or record.server != server:
                continue
            place = place_of_record(record)
            reply = await self.abandon(place, bot_user, record.id, metered=False)
            if reply.ok:
                ended.append((place, reply))
        return ended
