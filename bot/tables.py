"""Several games in one chat: the tables of a room.

A channel holds at most one running game (the store enforces it). A Discord channel gives
each further game a thread and a Telegram forum group a topic, both channels of their own.
A plain Telegram group has neither, yet a class of 15 pairs plays in one group: there, each
further game sits at a *table* of the group, the channel ``<group>#<n>``. Its board is an
ordinary message in the group; a button names its game, so a press finds its table, and a
typed command goes to the table its sender sits at (or asks which, when there are several).
Settings, timer policies and cues stay the room's.
"""

from __future__ import annotations

from dataclasses import replace

from bot.replies import Opponent, Place, User
from bot.store import GameRecord, GameStore

TABLE_MARK = "#"
FIRST_TABLE = 2  # the room's own channel is table 1


def table_channel(room: str, number: int) -> str:
    return f"{room}{TABLE_MARK}{number}"


def room_of(channel: str) -> str:
    """The chat a table belongs to; any other channel is its own room."""
    return channel.partition(TABLE_MARK)[0]


def table_number(channel: str) -> int:
    """1 for the room's own channel, ``n`` for ``<room>#<n>``."""
    _, mark, number = channel.partition(TABLE_MARK)
    return int(number) if mark and number.isdigit() else 1


async def room_games(store: GameStore, place: Place) -> list[GameRecord]:
    """The running games of ``place``'s room, at its own channel and at its tables, by
    table number."""
    if not place.server:
        return []
    room = room_of(place.channel)
    games = [record for record in await store.running_games(place.platform, place.server)
             if room_of(record.channel) == room]
    return sorted(games, key=lambda record: table_number(record.channel))


async def free_table(store: GameStore, place: Place) -> Place:
    """Where a new game of ``place``'s room goes: the lowest table nobody plays at."""
    taken = {record.channel for record in await room_games(store, place)}
    room = room_of(place.channel)
    if room not in taken:
        return replace(place, channel=room)
    number = FIRST_TABLE
    while table_channel(room, number) in taken:
        number += 1
    return replace(place, channel=table_channel(room, number))


def sits_in(record: GameRecord, user: User) -> bool:
    return any(player.get("kind") == "human" and player.get("platform") == user.platform
               and player.get("id") == user.id and not player.get("left")
               for player in record.players)


async def seated_games(store: GameStore, place: Place, user: User) -> list[GameRecord]:
    """The running games of the room in which ``user`` has a seat."""
    return [record for record in await room_games(store, place) if sits_in(record, user)]


def same_pairing(record: GameRecord, game: str, creator: User, rival: Opponent) -> bool:
    """Whether ``record`` is the game ``creator`` asks for again: the same game against the
    same opponent (the same person, the computer, or an open seat). A second such game at
    another table is a repeated command (or a repeated update), not a wish."""
    if record.game != game or not sits_in(record, creator):
        return False
    if rival.kind == "user":
        return rival.user is not None and sits_in(record, rival.user)
    if rival.kind == "ai":
        return any(player.get("kind") == "ai" for player in record.players)
    return record.status == "waiting"
