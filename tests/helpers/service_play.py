"""Playing through the service's buttons as a user would."""

from __future__ import annotations

import random

from bot.service import Place, Reply, Service, User
from bot.store import GameRecord


async def press_one_move(service: Service, place: Place, user: User, reply: Reply,
                         rng: random.Random) -> Reply:
    """Choose random buttons until a whole move has been made; returns the reply after it."""
    assert reply.board is not None
    version = reply.board.version
    while reply.board is not None and reply.board.version == version:
        assert reply.ok, reply.notice
        assert reply.board.buttons, "the player to move must have buttons"
        reply = await service.press(place, user, rng.choice(reply.board.buttons).payload)
    return reply


async def running_game(service: Service, place: Place) -> GameRecord:
    """The game running in ``place``, which the caller knows is there."""
    record = await service.store.running_game(place.platform, place.channel)
    assert record is not None
    return record
