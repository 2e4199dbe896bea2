"""bOOleO agents: ``strong`` against ``easy`` over seeded games, seats alternating.

Run from the repository root::

    python benchmarks/booleo_agents.py [--games 200] [--seed 1] [--options "referee=off"]
                                       [--a strong] [--b easy] [--all-variants] [--json]

Game ``i`` uses the seed ``seed * 1_000_003 + i``; agent A plays South (seat 0) in even games
and North in odd ones. Printed per option set: A's wins, draws and losses (with rates), the
mean game length in turns, the outcome reasons, and A's decision times p50/p95/p99/max in
milliseconds (B's p95 beside them). ``--all-variants`` runs the standard game and each option
on its own (referee=off, inactive, extended, bits=5, bits=8).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engines import booleo  # noqa: E402
from engines.base import parse_option_text  # noqa: E402

VARIANTS = ["", "referee=off", "inactive", "extended", "bits=5", "bits=8"]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="", help='game options, e.g. "referee=off bits=5"')
    parser.add_argument("--a", default="strong", choices=booleo.LEVELS)
    parser.add_argument("--b", default="easy", choices=booleo.LEVELS)
    parser.add_argument("--all-variants", action="store_true")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def percentile(values: list[float], share: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def play(option_text: str, games: int, seed: int, a: str, b: str) -> dict[str, Any]:
    options = parse_option_text(booleo.OPTIONS, option_text)
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    times: list[list[float]] = [[], []]
    lengths: list[int] = []
    for game in range(games):
        game_seed = seed * 1_000_003 + game
        seats = [0, 1] if game % 2 == 0 else [1, 0]  # seats[agent] = the seat it plays
        agents = [booleo.make_agent(level, random.Random(game_seed * 2 + i))
                  for i, level in enumerate((a, b))]
        state = booleo.new_game(options, 2, game_seed)
        while state.outcome() is None:
            seat = state.turn
            agent = seats.index(seat)
            began = time.perf_counter()
            action = agents[agent].choose(state, seat)
            times[agent].append((time.perf_counter() - began) * 1000)
            state.apply(seat, action)
        outcome = state.outcome()
        assert outcome is not None
        reasons[outcome.reason] += 1
        lengths.append(state.turns)
        if outcome.is_draw:
            results["draws"] += 1
        elif seats[0] in outcome.winners:
            results["wins"] += 1
        else:
            results["losses"] += 1
    ms = times[0]
    return {
        "options": option_text or "standard",
        "agents": f"{a} vs {b}",
        "games": games,
        "wins": results["wins"], "draws": results["draws"], "losses": results["losses"],
        "win_rate": round(results["wins"] / games, 3),
        "draw_rate": round(results["draws"] / games, 3),
        "loss_rate": round(results["losses"] / games, 3),
        "mean_turns": round(statistics.fmean(lengths), 1),
        "reasons": dict(reasons),
        "decisions": len(ms),
        "a_ms_p50": round(percentile(ms, 0.50), 2),
        "a_ms_p95": round(percentile(ms, 0.95), 2),
        "a_ms_p99": round(percentile(ms, 0.99), 2),
        "a_ms_max": round(max(ms), 2),
        "b_ms_p95": round(percentile(times[1], 0.95), 2),
    }


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    variants = VARIANTS if args.all_variants else [args.options]
    for option_text in variants:
        result = play(option_text, args.games, args.seed, args.a, args.b)
        if args.json:
            print(json.dumps(result, sort_keys=True))
            continue
        print(f"{result['agents']}, {result['options']}, {result['games']} games: "
              f"{result['wins']} wins ({result['win_rate']:.1%}), "
              f"{result['draws']} draws ({result['draw_rate']:.1%}), "
              f"{result['losses']} losses ({result['loss_rate']:.1%}); "
              f"mean {result['mean_turns']} turns; {result['reasons']}")
        print(f"  {args.a} decision ms over {result['decisions']}: p50 {result['a_ms_p50']}, "
              f"p95 {result['a_ms_p95']}, p99 {result['a_ms_p99']}, max {result['a_ms_max']}"
              f" ({args.b} p95 {result['b_ms_p95']})")


if __name__ == "__main__":
    main()
