"""Playing through the service's buttons as a user would, and what the others are told when
they try."""

from __future__ import annotations

import random

from bot.service import Place, Reply, Service, User
from bot.store import GameRecord
from tests.helpers.people import BOB, CAROL


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


async def assert_only_the_mover_may_type(service: Service, place: Place, bobs_move: str,
                                         carols_move: str) -> None:
    """In ``place``, where Alice is to move against Bob: Bob typing ``bobs_move`` is told
    it is not his turn, and Carol typing ``carols_move`` that she is not playing."""
    waiting = await service.move(place, BOB, bobs_move)
    assert not waiting.ok and waiting.notice is not None and "not your turn" in waiting.notice
    outsider = await service.move(place, CAROL, carols_move)
    assert not outsider.ok and outsider.notice == "You are not playing in this game."


async def assert_only_the_mover_may_press(service: Service, place: Place, payload: str) -> None:
    """In ``place``, where Alice is to move against Bob: Carol pressing ``payload`` is told
    she is not playing, and Bob that Alice is to move."""
    outsider = await service.press(place, CAROL, payload)
    assert not outsider.ok and outsider.notice == "You are not playing in this game."
    waiting = await service.press(place, BOB, payload)
    assert not waiting.ok and waiting.notice is not None and "Alice is to move" in waiting.notice
