"""What the agent benchmarks of the turn-based games share: seeded games between two levels,
seats alternating, with win rates and decision times.

Game ``i`` uses the seed ``seed * 1_000_003 + i``; agent A plays seat 0 in even games and seat 1
in odd ones, so neither agent profits from moving first.

``--seconds`` (default 100) bounds a run: no game starts after it (shared equally by the
option sets of ``--all-variants``), so the default run ends within about 2 minutes and the
result says how many games were played; ``--seconds 0`` plays every game. Progress goes to
stderr every few seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.progress import Progress
from engines.base import GameModule, GameState, parse_option_text
from engines.registry import make_agent

# Per-game numbers a benchmark adds to the standard ones (a game's length, rounds won, ...);
# the summary prints their means over all games.
GameFacts = Callable[[GameState, list[int]], dict[str, float]]


def parse_args(doc: str | None, levels: Sequence[str], argv: list[str] | None,
               example_options: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="",
                        help=f'game options, e.g. "{example_options}"')
    parser.add_argument("--a", default="strong", choices=levels)
    parser.add_argument("--b", default="easy", choices=levels)
    parser.add_argument("--all-variants", action="store_true")
    parser.add_argument("--seconds", type=float, default=100.0,
                        help="start no game after this many seconds (0: play every game)")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def seat_to_move(state: GameState) -> int:
    (seat,) = state.to_move()
    return seat


def play(module: GameModule, option_text: str, games: int, seed: int, a: str, b: str,
         facts: GameFacts, time_limit: float = 0.0) -> dict[str, Any]:
    """``games`` games, or fewer when ``time_limit`` seconds pass first."""
    options = parse_option_text(module.OPTIONS, option_text)
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    times: list[list[float]] = [[], []]
    progress = Progress(f"{a} vs {b}, {option_text or 'standard'}", games)
    started = time.perf_counter()
    played = 0
    for game in range(games):
        if time_limit and time.perf_counter() - started >= time_limit:
            break
        progress(game, f"{results['wins']} wins")
        played += 1
        game_seed = seed * 1_000_003 + game
        seats = [0, 1] if game % 2 == 0 else [1, 0]  # seats[agent] = the seat it plays
        agents = [make_agent(module.NAME, level, random.Random(game_seed * 2 + i))
                  for i, level in enumerate((a, b))]
        state = module.new_game(options, 2, game_seed)
        while state.outcome() is None:
            seat = seat_to_move(state)
            agent = seats.index(seat)
            began = time.perf_counter()
            action = agents[agent].choose(state, seat)
            times[agent].append((time.perf_counter() - began) * 1000)
            state.apply(seat, action)
        outcome = state.outcome()
        assert outcome is not None
        reasons[outcome.reason] += 1
        totals.update(facts(state, seats))
        if outcome.is_draw:
            results["draws"] += 1
        elif seats[0] in outcome.winners:
            results["wins"] += 1
        else:
            results["losses"] += 1
    ms = times[0]
    games = max(played, 1)  # the rates below are over the games played
    return {
        "options": option_text or "standard",
        "agents": f"{a} vs {b}",
        "games": played,
        "wins": results["wins"], "draws": results["draws"], "losses": results["losses"],
        "win_rate": round(results["wins"] / games, 3),
        "draw_rate": round(results["draws"] / games, 3),
        "loss_rate": round(results["losses"] / games, 3),
        "means": {name: round(total / games, 2) for name, total in totals.items()},
        "reasons": dict(reasons),
        "decisions": len(ms),
        "a_ms_p50": round(percentile(ms, 0.50), 2),
        "a_ms_p95": round(percentile(ms, 0.95), 2),
        "a_ms_p99": round(percentile(ms, 0.99), 2),
        "a_ms_max": round(max(ms), 2) if ms else float("nan"),
        "b_ms_p95": round(percentile(times[1], 0.95), 2),
    }


def run(module: GameModule, doc: str | None, variants: list[str], example_options: str,
        facts: GameFacts, argv: list[str] | None = None, unit: str = "games") -> None:
    args = parse_args(doc, module.LEVELS, argv, example_options)
    option_sets = variants if args.all_variants else [args.options]
    for option_text in option_sets:
        result = play(module, option_text, args.games, args.seed, args.a, args.b, facts,
                      args.seconds / len(option_sets))
        if args.json:
            print(json.dumps(result, sort_keys=True))
            continue
        means = ", ".join(f"{name} {value}" for name, value in result["means"].items())
        print(f"{result['agents']}, {result['options']}, {result['games']} {unit}: "
              f"{result['wins']} wins ({result['win_rate']:.1%}), "
              f"{result['draws']} draws ({result['draw_rate']:.1%}), "
              f"{result['losses']} losses ({result['loss_rate']:.1%}); "
              f"mean per game: {means}; {result['reasons']}")
        print(f"  {args.a} decision ms over {result['decisions']}: p50 {result['a_ms_p50']}, "
              f"p95 {result['a_ms_p95']}, p99 {result['a_ms_p99']}, max {result['a_ms_max']}"
              f" ({args.b} p95 {result['b_ms_p95']})")
