"""Time from a Discord click to the bot's first response, through the real discord.py client.

Run from the repository root. It needs the dev extras (simcord), which ``./run-tests``
installs; without them it says so and stops. Progress goes to stderr::

    python benchmarks/discord_latency.py [--games 10] [--ai-seconds 0.5] [--json]

simcord runs discord.py against an in-memory Discord, so the numbers are the bot's own
work per interaction (discord.py parsing and dispatch, the dynamic item, the service call
with its SQLite commit, building the reply) without network time. Discord's budget for the
first response is 3 s. Two cases:

1. Two humans play L-games with buttons: every click's time to its interaction callback.
2. A human plays an AI whose every move takes ``--ai-seconds`` of wall time in its worker
   thread: the click that completes the human's move must still be answered at once, and
   the AI's move reaches the board later by itself.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import click_benchmark_arguments, slow_lgame_agent, summary
from engines import lgame

try:
    from tests.helpers.discord_world import (
        World,
        components_of,
        discord_world,
        stamp_requests,
    )
except ImportError as missing:  # simcord is a dev extra: say so instead of a traceback
    sys.exit(f"benchmarks/discord_latency.py needs the dev extras ({missing.name} is "
             "missing): run ./run-tests once, or .venv/bin/pip install -e '.[dev]'")


async def board(world: World) -> Any:
    record = await world.store.running_game("discord", str(world.channel.id))
    if record is None or record.board_ref is None:
        return None
    message_id = int(record.board_ref["message"])
    return next(m for m in world.channel.history() if m.id == message_id)


async def click_once(world: World, actor: Any, rng: random.Random,
                     stamps: list[tuple[float, str, str]]) -> float | None:
    message = await board(world)
    if message is None:
        return None
    options = [c for c in components_of(message) if c["type"] == 2 and c.get("style") == 1]
    if not options:
        return None
    stamps.clear()
    started = time.perf_counter()
    await actor.click(message, custom_id=rng.choice(options)["custom_id"])
    answered = next(t for t, _, path in stamps if path.endswith("/callback"))
    return answered - started


async def humans(games: int, seed: int) -> tuple[list[float], float]:
    """Each press's time to its answer, and the process's CPU seconds while they were
    played (the bot, the platform's library and the fake platform, all in this process:
    a figure to compare codes by, not the bot's alone)."""
    latencies: list[float] = []
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with discord_world(Path(folder)) as world:
            stamps = stamp_requests(world)
            cpu = time.process_time()
            for number in range(games):
                print(f"two humans: game {number + 1}/{games}, {len(latencies)} clicks",
                      file=sys.stderr, flush=True)
                await world.alice.slash(world.channel, "play", game="lgame",
                                        opponent=world.bob, options="move_limit=30")
                for _ in range(200):
                    record = await world.store.running_game("discord", str(world.channel.id))
                    if record is None:
                        break
                    seat = lgame.LGameState.from_dict(record.state).turn
                    mover = (world.alice if record.players[seat]["id"] == str(world.alice.id)
                             else world.bob)
                    latency = await click_once(world, mover, rng, stamps)
                    if latency is not None:
                        latencies.append(latency)
            cpu = time.process_time() - cpu
    return latencies, cpu


async def slow_ai(moves: int, ai_seconds: float, seed: int) -> tuple[list[float], list[float]]:
    acknowledgements: list[float] = []
    ai_shown: list[float] = []
    rng = random.Random(seed)
    with slow_lgame_agent(ai_seconds), tempfile.TemporaryDirectory() as folder:
        async with discord_world(Path(folder), settle_timeout=ai_seconds + 30) as world:
            stamps = stamp_requests(world)
            await world.alice.slash(world.channel, "play", game="lgame", level="easy")
            while len(ai_shown) < moves:
                print(f"against a {ai_seconds} s AI: move {len(ai_shown) + 1}/{moves}",
                      file=sys.stderr, flush=True)
                record = await world.store.running_game("discord", str(world.channel.id))
                if record is None:
                    await world.alice.slash(world.channel, "play", game="lgame",
                                            level="easy")
                    continue
                started = time.perf_counter()
                latency = await click_once(world, world.alice, rng, stamps)
                if latency is None:
                    break
                acknowledgements.append(latency)
                after = await world.store.get_game(record.id)
                if after is not None and after.version > record.version:
                    await world.bot.wait_for_background()
                    edits = [t for t, method, path in stamps if method == "PATCH"]
                    if edits:
                        ai_shown.append(edits[-1] - started)
    return acknowledgements, ai_shown


async def main() -> None:
    args = click_benchmark_arguments(__doc__.split("\n")[0])
    clicks, cpu = await humans(args.games, args.seed)
    acknowledgements, ai_shown = await slow_ai(args.ai_moves, args.ai_seconds, args.seed)
    result = {"human_clicks": summary(clicks),
              "clicks_against_slow_ai": summary(acknowledgements),
              "ai_move_on_board": summary(ai_shown), "ai_seconds": args.ai_seconds,
              "cpu_ms_per_human_click": round(cpu * 1000 / max(1, len(clicks)), 3)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"click → first response, two humans:     {result['human_clicks']}")
    print(f"click → first response, {args.ai_seconds}s AI:        "
          f"{result['clicks_against_slow_ai']}")
    print(f"click → AI's move on the board:          {result['ai_move_on_board']}")
    print(f"process CPU a click, two humans:         {result['cpu_ms_per_human_click']} ms "
          "(the bot, discord.py and simcord, all in this process)")


if __name__ == "__main__":
    asyncio.run(main())
