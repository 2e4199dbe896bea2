"""How long a quick computer level (an engine's ``QUICK_LEVELS``) takes to choose a move.

Run from the repository root::

    python benchmarks/quick_levels.py [--games 10] [--seed 0]

The bot plays these levels on its event loop instead of in a worker process
(``bot.service.core.quick_level``), which is only right while a move costs about a millisecond.
Each game is played ``--games`` times from its default options to the end (or 200 moves),
every move chosen by the quick level as the service does it (``bot.jobs.computer_move``,
state copied through its dict), and every choice timed. Prints p50/p99/max per game, a row
as each game is done (about a minute in all by default; progress on stderr).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.progress import Progress
from benchmarks.timing import summary
from bot.jobs import computer_move
from engines.registry import game_names, get_game


def timings(name: str, level: str, games: int, seed: int) -> list[float]:
    module = get_game(name)
    seconds: list[float] = []
    progress = Progress(f"{name} {level}", games)
    for game in range(games):
        progress(game, f"{len(seconds)} moves")
        state = module.new_game({}, 2, seed + game)
        for step in range(200):
            if state.outcome() is not None:
                break
            seat = state.to_move()[0]
            started = time.perf_counter()
            action = computer_move(name, level, seed + step, state.to_dict(), seat)
            seconds.append(time.perf_counter() - started)
            state.apply(seat, action)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    random.seed(args.seed)
    for name in game_names():
        for level in sorted(get_game(name).INFO.quick_levels):
            row = summary(timings(name, level, args.games, args.seed))
            print(f"{name:>13} {level:<7} moves {row['n']:>6}  p50 {row['p50_ms']:6.2f} ms  "
                  f"p99 {row['p99_ms']:6.2f} ms  max {row['max_ms']:6.2f} ms", flush=True)


if __name__ == "__main__":
    main()
