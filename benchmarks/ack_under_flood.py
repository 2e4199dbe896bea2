"""Discord's 3-second acknowledgement while a flood of AI games keeps the computer busy.

Run from the repository root (needs the dev extras, for simcord)::

    python benchmarks/ack_under_flood.py [--flood 60] [--clicks 60] [--seconds 30]
        [--pools process:2,thread:2]

Each pool clicks for ``--seconds`` and until ``--clicks``, but never past twice
``--seconds``, so the default run ends within about 2 minutes; progress goes to stderr.
``--clicks 150 --seconds 60`` is the longer run of docs/performance.md.

``--flood`` games of Boolean Rithmomachia against the strong computer (a real alpha-beta
search of up to 2 s of CPU a move) run through the service at once: their humans answer
every computer move at once with a random legal move, so the pool for CPU-heavy work never
runs dry. Meanwhile two people play the L-game with buttons through the real discord.py
client (simcord, an in-memory Discord), and every click's time to the bot's first response
is measured, as in ``discord_latency.py``. It is run once per pool in ``--pools``, each
``kind:size``: ``process:2`` is what the bot runs with (``Limits()``); ``thread:2`` is the
same pool in threads of the bot's own process, where the searches compete with the event
loop for Python's lock; a large pool shows what an unbounded one would do. Prints
p50/p99/max of the click acknowledgements, and how many computer moves the flood made
meanwhile.

simcord runs the bot's timers on a virtual clock that stands still while the bot has work
in a pool, so the bot's deadline watch (``ACK_SECONDS``, 1 s, which defers any interaction
not yet answered) never fires here: a click whose work takes longer is measured to when
that work ends. On a real event loop the watch would answer it at 1 s; the numbers are an
upper bound of the acknowledgement. The flood keeps both cores busy: the machine is busy
while the clicks are measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.discord_latency import click_once
from benchmarks.progress import Progress
from benchmarks.timing import summary
from bot.limits import Limits, RateLimiter, Workers
from bot.service import Opponent, Place, Reply, Service, User
from engines.registry import get_game
from tests.helpers.discord_world import World, discord_world, stamp_requests

DISCORD_ACK_SECONDS = 3.0


async def flood_game(service: Service, index: int, stop: asyncio.Event,
                     computer_moves: list[float]) -> None:
    """A person against the strong computer who answers each of its moves at once."""
    place = Place("discord", f"flood-{index}", emoji=False, server="flood")
    user = User("discord", f"flooder-{index}", f"Flooder {index}")
    rng = random.Random(index)
    module = get_game("rithmomachia")
    reply: Reply | None = None
    while not stop.is_set():
        if reply is None or reply.finished or not reply.ok:
            reply = await service.start_game(place, user, "rithmomachia",
                                             Opponent("ai", "strong"))
            if not reply.ok:
                raise RuntimeError(f"flood game {index} did not start: {reply.notice}")
        if reply.ai_to_move:
            started = time.perf_counter()
            reply = await service.play_ai_turn(place)
            computer_moves.append(time.perf_counter() - started)
            continue
        record = await service.store.running_game(place.platform, place.channel)
        if record is None:
            reply = None
            continue
        state = module.State.from_dict(record.state)
        seat = service.seat_of(record, user)
        assert seat is not None
        action = rng.choice(state.legal_actions(seat))
        reply = await service.move(place, user, state.action_text(action))


async def clicks_during_flood(world: World, clicks: int, seconds: float,
                              seed: int) -> list[float]:
    """Two people play L-games by buttons, at least ``clicks`` clicks over at least
    ``seconds`` (but no longer than twice ``seconds``); the time of each click to its
    first answer."""
    rng = random.Random(seed)
    stamps = stamp_requests(world)
    latencies: list[float] = []
    progress = Progress("clicks during the flood", clicks)
    until = time.perf_counter() + seconds
    give_up = until + seconds
    while ((len(latencies) < clicks or time.perf_counter() < until)
           and time.perf_counter() < give_up):
        progress(len(latencies))
        record = await world.store.running_game("discord", str(world.channel.id))
        if record is None:
            await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob,
                                    options="move_limit=30")
            continue
        seat = get_game("lgame").State.from_dict(record.state).to_move()[0]
        mover = world.alice if record.players[seat]["id"] == str(world.alice.id) else world.bob
        latency = await click_once(world, mover, rng, stamps)
        if latency is None:
            break
        latencies.append(latency)
    return latencies


async def one_run(kind: str, pool: int, flood: int, clicks: int, seconds: float,
                  seed: int) -> dict[str, Any]:
    Progress(f"{kind} pool of {pool}").say(f"starting {flood} flood games")
    with tempfile.TemporaryDirectory() as folder:
        async with discord_world(Path(folder), settle_timeout=120) as world:
            service: Service = world.bot.service
            # The bot's limits with the pool under test; no rate limit, since the two
            # test players click as fast as the loop lets them.
            service.limits = replace(Limits(), cpu_workers=pool, games_per_server=None)
            service.workers = Workers(pool, service.limits.queued_jobs,
                                      processes=kind == "process")
            service.rate = RateLimiter(None, 1.0)
            service.workers.start()
            stop = asyncio.Event()
            computer_moves: list[float] = []
            flooders = [asyncio.ensure_future(flood_game(service, n, stop, computer_moves))
                        for n in range(flood)]
            while len(computer_moves) < pool:  # the flood has filled the pool
                await asyncio.sleep(0.1)
            started = time.perf_counter()
            latencies = await clicks_during_flood(world, clicks, seconds, seed)
            elapsed = time.perf_counter() - started
            stop.set()
            service.workers.shutdown()
            for task in flooders:
                task.cancel()
            await asyncio.gather(*flooders, return_exceptions=True)
    result = summary(latencies)
    result.update(kind=kind, pool=pool, flood_games=flood, seconds=round(elapsed, 1),
                  computer_moves=len(computer_moves),
                  over_3s=sum(1 for s in latencies if s >= DISCORD_ACK_SECONDS))
    return result


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flood", type=int, default=60)
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="keep clicking at least this long (and at most twice as long)")
    parser.add_argument("--pools", default="process:2,thread:2",
                        help="pools to compare, comma-separated kind:size, kind being "
                             "process or thread")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()


async def main() -> None:
    args = parse_args()
    pools = [(kind, int(size)) for kind, _, size in
             (pool.partition(":") for pool in args.pools.split(","))]
    if any(kind not in ("process", "thread") for kind, _ in pools):
        raise SystemExit("--pools: each is process:N or thread:N")
    results = [await one_run(kind, size, args.flood, args.clicks, args.seconds, args.seed)
               for kind, size in pools]
    if args.json:
        print(json.dumps(results))
        return
    print(f"{args.flood} AI games flooding the pool; clicks → first response (ms):")
    for row in results:
        print(f"  {row['kind']:>7} pool of {row['pool']:>2}: p50 {row['p50_ms']:8.1f}  "
              f"p99 {row['p99_ms']:8.1f}  "
              f"max {row['max_ms']:8.1f}  ≥3 s: {row['over_3s']}/{row['n']}  "
              f"({row['computer_moves']} computer moves in {row['seconds']} s)")


if __name__ == "__main__":
    asyncio.run(main())
