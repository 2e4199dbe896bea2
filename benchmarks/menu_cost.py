"""What the pure engines spend building move menus, hand views and legal actions.

Plays seeded random games (a random legal action each turn) of bOOleO, Digitalo,
Rithmomachia and the L-game straight on the engines, no service, and at every position
times, for the seat to move: its top menu, a walk of its menu tree to depth 2 (every option
that does not complete a move is followed, twice over), ``view(seat)`` and
``legal_actions(seat)``. Prints the mean microseconds of each per game, and a digest of
everything those calls returned, so that a run before a change and one after it show the
change kept every menu, view and action the same (same seeds, same digest).

    .venv/bin/python benchmarks/menu_cost.py [--games 30] [--moves 80] [--seed 1]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engines.base import Choice, GameState  # noqa: E402
from engines.registry import get_game  # noqa: E402

GAMES = ("booleo", "digitalo", "rithmomachia", "lgame")
MEASURES = ("top menu", "walk to depth 2", "view", "legal_actions")
WALK_DEPTH = 2


@dataclass
class GameCost:
    """Microseconds spent per measure, the number of positions timed, and the digest."""

    micros: dict[str, float] = field(default_factory=lambda: dict.fromkeys(MEASURES, 0.0))
    positions: int = 0
    digest: Any = field(default_factory=hashlib.sha256)

    def timed(self, measure: str, call: Callable[..., Any], *args: Any) -> Any:
        started = time.perf_counter_ns()
        result = call(*args)
        self.micros[measure] += (time.perf_counter_ns() - started) / 1000
        self.digest.update(repr(result).encode())
        return result


def walk(state: GameState, seat: int, path: tuple[str, ...]) -> list[list[Choice]]:
    """Every menu step under ``path`` down to ``WALK_DEPTH`` tokens, ``path``'s own first."""
    level = state.menu(seat, path)
    steps = [level]
    if len(path) < WALK_DEPTH:
        for choice in level:
            if choice.action is None:
                steps += walk(state, seat, (*path, choice.token))
    return steps


def play(game: str, seed: int, moves: int, cost: GameCost, walks: bool = True) -> None:
    """One seeded random game of ``game``, at most ``moves`` actions, timed at each position
    (the walk of the menu tree only when ``walks``; it draws nothing from the game's random
    choices, so the positions are the same either way)."""
    rng = random.Random(f"{game}:{seed}")
    state = get_game(game).new_game({}, 2, seed)
    for _ in range(moves):
        seats = state.to_move()
        if not seats:
            return
        seat = seats[0]
        cost.timed("top menu", state.menu, seat, ())
        if walks:
            cost.timed("walk to depth 2", walk, state, seat, ())
        cost.timed("view", state.view, seat)
        actions: list[str] = cost.timed("legal_actions", state.legal_actions, seat)
        cost.positions += 1
        cost.digest.update(repr(state.apply(seat, rng.choice(actions))).encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="random games per game kind")
    parser.add_argument("--moves", type=int, default=80, help="most actions in one game")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    print(f"{args.games} games x at most {args.moves} moves each; mean microseconds per "
          "position", flush=True)
    print(f"{'game':<13}{'positions':>10}" + "".join(f"{m:>17}" for m in MEASURES)
          + "  digest", flush=True)
    for game in GAMES:
        cost = GameCost()
        started = time.perf_counter()
        for number in range(args.games):
            play(game, args.seed + number, args.moves, cost)
            print(f"  {game}: game {number + 1}/{args.games}", end="\r", file=sys.stderr,
                  flush=True)
        means = "".join(f"{cost.micros[m] / max(cost.positions, 1):>17.1f}" for m in MEASURES)
        print(f"{game:<13}{cost.positions:>10}{means}  {cost.digest.hexdigest()[:12]}"
              f"  ({time.perf_counter() - started:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
