"""Computer turns while the worker processes freeze or die (issue 22, items 7 and 8).

Run from the repository root::

    python benchmarks/worker_faults.py [--games 6] [--budget 3] [--seconds 30]
        [--fault-every 8]

``--games`` games of Boolean Rithmomachia against the strong computer (a search of up to
1.8 s a move) run through the service with the bot's pool (``Limits()``: two spawned
worker processes) and a computer-move budget of ``--budget`` seconds; their humans answer
every computer move at once with a random legal move. Two phases:

* **frozen**: every ``--fault-every`` seconds all worker processes are stopped (SIGSTOP),
  for ``--seconds``; every computer turn must still move, within the budget plus the
  pool's wedge allowance (``WEDGED_AFTER_SECONDS``) and its wait for a free thread.
* **killed**: every ``--fault-every`` seconds a random worker process is killed
  (SIGKILL), for ``--seconds``.

For each phase it prints the computer turns made, how many were random fallbacks (over
the budget, or the worker died on every try), p50/max of a turn's time from asking to the
saved move, turns that did not move, and whether every move the service acknowledged is
in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import summary
from bot.limits import WEDGED_AFTER_SECONDS, Limits
from bot.service import Opponent, Place, Service, User
from bot.store import SQLiteStore
from engines.registry import get_game
from renderers.i18n import translate

WORKER_NAME = "pebble_pool_worker"  # what pebble calls its worker processes


@dataclass
class Tally:
    turns: list[float] = field(default_factory=list)
    fallbacks: int = 0
    not_moved: int = 0
    acknowledged: dict[int, int] = field(default_factory=dict)  # game id -> moves saved


def worker_pids() -> set[int]:
    return {child.pid for child in multiprocessing.active_children()
            if child.name == WORKER_NAME and child.pid is not None}


async def play(service: Service, index: int, stop: asyncio.Event, tally: Tally) -> None:
    """A person against the strong computer, answering each computer move at once."""
    place = Place("bench", f"faults-{index}")
    user = User("bench", f"pupil-{index}", f"Pupil {index}")
    rng = random.Random(index)
    module = get_game("rithmomachia")
    fallback_texts = {translate("en", "ai.fallback.timeout"),
                      translate("en", "ai.fallback.crashed")}
    reply = None
    while not stop.is_set():
        if reply is None or reply.finished or not reply.ok:
            reply = await service.start_game(place, user, "rithmomachia",
                                             Opponent("ai", "strong"))
            if not reply.ok:
                raise RuntimeError(f"game {index} did not start: {reply.notice}")
        if reply.ai_to_move:
            asked = time.monotonic()
            reply = await service.play_ai_turn(place)
            tally.turns.append(time.monotonic() - asked)
            tally.fallbacks += bool(fallback_texts & set(reply.announcements))
            tally.not_moved += not reply.moved
            if reply.moved and reply.board is not None:
                game = reply.board.game_id
                tally.acknowledged[game] = tally.acknowledged.get(game, 0) + 1
            continue
        record = await service.store.running_game(place.platform, place.channel)
        if record is None:
            reply = None
            continue
        state = module.State.from_dict(record.state)
        seat = service.seat_of(record, user)
        assert seat is not None
        reply = await service.move(place, user, state.action_text(
            rng.choice(state.legal_actions(seat))))
        if reply.moved and reply.board is not None:
            game = reply.board.game_id
            tally.acknowledged[game] = tally.acknowledged.get(game, 0) + 1


async def phase(service: Service, store: SQLiteStore, name: str, games: int,
                seconds: float, fault: asyncio.Future[None] | None,
                first_game: int) -> Tally:
    tally = Tally()
    stop = asyncio.Event()
    players = [asyncio.ensure_future(play(service, first_game + n, stop, tally))
               for n in range(games)]
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        await asyncio.sleep(5.0)
        print(f"  {name}: {time.monotonic() - started:4.0f} s, {len(tally.turns)} computer "
              f"turns, {tally.fallbacks} random", file=sys.stderr, flush=True)
    stop.set()
    await asyncio.gather(*players)
    if fault is not None:
        fault.cancel()
    saved = 0
    for game, count in tally.acknowledged.items():
        moves = len(await store.moves(game))
        saved += min(moves, count)
        if moves < count:
            print(f"  game {game}: {count} moves acknowledged, {moves} saved", flush=True)
    lost = sum(tally.acknowledged.values()) - saved
    result = summary(tally.turns) if tally.turns else {}
    print(f"{name:>7}: {len(tally.turns)} computer turns, {tally.fallbacks} random "
          f"fallbacks, {tally.not_moved} without a move; turn p50 "
          f"{result.get('p50_ms', 0) / 1000:.2f} s, max {result.get('max_ms', 0) / 1000:.2f} s;"
          f" acknowledged moves lost: {lost}", flush=True)
    return tally


async def keep_freezing(every: float) -> None:
    while True:
        for pid in worker_pids():
            os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(every)


async def keep_killing(every: float) -> None:
    rng = random.Random(0)
    while True:
        await asyncio.sleep(every)
        pids = sorted(worker_pids())
        if pids:
            os.kill(rng.choice(pids), signal.SIGKILL)


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await SQLiteStore.open(Path(folder) / "bench.sqlite3")
        limits = replace(Limits(), computer_move_seconds=args.budget, command_burst=None,
                         games_per_server=None, games_per_user=None)
        service = Service(store, limits=limits)
        service.workers.start()
        try:
            await service.workers.run(os.getpid)
            print(f"budget {args.budget} s, wedge allowance {WEDGED_AFTER_SECONDS} s, "
                  f"{args.games} games, a fault every {args.fault_every} s", flush=True)
            freezer = asyncio.ensure_future(keep_freezing(args.fault_every))
            await phase(service, store, "frozen", args.games, args.seconds, freezer, 0)
            killer = asyncio.ensure_future(keep_killing(args.fault_every))
            await phase(service, store, "killed", args.games, args.seconds, killer,
                        args.games)
        finally:
            service.workers.shutdown()
            for pid in worker_pids():
                os.kill(pid, signal.SIGCONT)
            await store.close()


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--budget", type=float, default=3.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--fault-every", type=float, default=8.0)
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
