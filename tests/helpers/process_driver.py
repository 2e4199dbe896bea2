"""One bot process for the multi-process tests: a service on a PostgreSQL database that
plays the database's running games for a while, as a balancer's share of the presses
would, and prints every move it saved (``moved <game> <version>``) as it is acknowledged,
and every current press refused because another process saved first (``busy …``).

    python -m tests.helpers.process_driver <url> <seed> <seconds>

The computer's lease is made short (a test cannot wait the production margin), so that a
process killed while it holds one is taken over within the test's time.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from dataclasses import replace

import bot.service.turns
from bot.limits import Limits
from bot.service import Place, Service, User
from bot.store.postgres import PostgresStore
from engines.registry import get_game
from renderers.i18n import translate
from tests.helpers.forged import whole_move

LEASE_MARGIN_SECONDS = 0.5
BUSY = translate("en", "error.busy")


async def drive(url: str, seed: int, seconds: float, pause: float = 0.0) -> None:
    """Play the database's active games at random for ``seconds`` (or until none is left),
    printing each saved move; ``pause`` between presses keeps the games going long enough
    for a second process to play its share (without it one process can end them all)."""
    bot.service.turns.AI_LEASE_MARGIN_SECONDS = LEASE_MARGIN_SECONDS
    store = await PostgresStore.open(url)
    limits = replace(Limits.unlimited(), computer_move_seconds=1.0)
    service = Service(store, limits=limits)
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            games = await store.games_with_status("active")
            if not games:
                break
            record = rng.choice(games)
            place = Place(record.platform, record.channel, server=record.server)
            state = get_game(record.game).State.from_dict(record.state)
            seat = state.to_move()[0]
            player = record.players[seat]
            if player.get("kind") == "ai":
                reply = await service.play_ai_turn(place)
            else:
                user = User(record.platform, str(player["id"]), str(player["name"]))
                reply = await service.press(place, user, whole_move(record))
            if reply.moved and reply.board is not None:
                print(f"moved {reply.board.game_id} {reply.board.version}", flush=True)
            elif reply.notice == BUSY:
                # A current press lost a race for the save: what the database's game lock
                # exists to prevent.
                print(f"busy {record.id} {record.version}", flush=True)
            await asyncio.sleep(pause)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(drive(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]),
                      float(sys.argv[4]) if len(sys.argv) > 4 else 0.0))
