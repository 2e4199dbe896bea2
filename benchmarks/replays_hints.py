"""How long a hint and a replay take to work out, and a replay step to draw.

Run from the repository root::

    python benchmarks/replays_hints.py [--games 8] [--seed 0] [--turing-hard]

For every game, ``--games`` games of random legal moves are played to their end (200
moves at most, then a resignation; the Turing Machine: a solo puzzle, nine steps and a
guess). At every position of the mover a hint is worked out as the service's pool does
it (``engines.analysis.hint``, from the state's dict); then the finished game's replay
(``engines.analysis.replay``) is built and every step drawn (``renderers.replay``).
Prints p50/p99/max per game. The L-game's first hint includes building the solved table
(about half a second, once per worker process). ``--turing-hard`` adds 6-verifier
extreme and nightmare puzzles, whose creation alone takes seconds each.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import summary
from engines.analysis import hint, replay
from engines.base import GameState
from engines.registry import get_game
from renderers.replay import render_step

GAMES = ("lgame", "rithmomachia", "booleo", "digitalo", "turing")
HARD_TURING = ({"difficulty": "hard", "verifiers": 6, "mode": "extreme"},
               {"difficulty": "hard", "verifiers": 6, "mode": "nightmare"})


def play(game: str, options: dict[str, Any], seed: int,
         hints: list[float]) -> GameState:
    """A random game to its end, timing a hint for the mover at every position."""
    module = get_game(game)
    players = 1 if game == "turing" else 2
    state = module.new_game(options, players, seed)
    rng = random.Random(seed)
    for number in range(200):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        started = time.perf_counter()
        hint(game, state.to_dict(), seat, seed)
        hints.append(time.perf_counter() - started)
        actions = state.legal_actions(seat)
        if game == "turing":
            actions = [a for a in actions if a.startswith("guess") == (number >= 9)]
        state.apply(seat, rng.choice(actions))
    if state.outcome() is None:
        state.resign(state.to_move()[0])
    return state


def measure(game: str, options: dict[str, Any], games: int, seed: int) -> dict[str, Any]:
    hints: list[float] = []
    builds: list[float] = []
    draws: list[float] = []
    steps = 0
    for number in range(games):
        final = play(game, options, seed + number, hints)
        started = time.perf_counter()
        found = replay(game, final.to_dict(), 1 if game == "turing" else 2)
        builds.append(time.perf_counter() - started)
        for index in range(len(found["frames"])):
            started = time.perf_counter()
            render_step(found, index, ["Ann", "Bo"], "en", index % 2 == 0)
            draws.append(time.perf_counter() - started)
        steps += len(found["frames"])
        print(f"  {game} game {number + 1}/{games}: {len(found['frames'])} steps",
              file=sys.stderr, flush=True)
    return {"game": game, "options": options, "steps": steps, "hint": summary(hints),
            "replay_build": summary(builds), "step_render": summary(draws)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--turing-hard", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs: list[tuple[str, dict[str, Any]]] = [(game, {}) for game in GAMES]
    if args.turing_hard:
        runs += [("turing", options) for options in HARD_TURING]
    results = []
    for game, options in runs:
        print(f"{game} {options or ''}", file=sys.stderr, flush=True)
        results.append(measure(game, options, args.games, args.seed))
    if args.json:
        print(json.dumps(results))
        return
    print(f"{'game':<34} {'what':<13} {'n':>5} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9}")
    for result in results:
        label = result["game"] + (" " + ",".join(f"{k}={v}" for k, v in
                                               result["options"].items())
                                  if result["options"] else "")
        for what in ("hint", "replay_build", "step_render"):
            row = result[what]
            print(f"{label[:34]:<34} {what:<13} {row['n']:>5} {row['p50_ms']:>9.1f} "
                  f"{row['p99_ms']:>9.1f} {row['max_ms']:>9.1f}")


if __name__ == "__main__":
    main()
