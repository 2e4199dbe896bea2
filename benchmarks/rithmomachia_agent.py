"""Boolean Rithmomachia agents: ``strong`` against ``easy`` over seeded games, colours
alternating, with the strong agent's time per move measured against its budget.

Run from the repository root::

    .venv/bin/python -m benchmarks.rithmomachia_agent [--games 100] [--budget 0.25]
        [--seconds 100] [--seed 1] [--options "push=off"] [--quiet] [--json]

The default run takes about 2 minutes: the strong agent gets 0.25 s a move, and no new
game starts after ``--seconds`` (100), so fewer than ``--games`` may be played; the result
says how many. The acceptance run is the full one, the bot's own budget and every game::

    .venv/bin/python -m benchmarks.rithmomachia_agent --budget 2.0 --seconds 0

A line per game goes to stderr as it ends (``--quiet`` leaves it out).

Game ``i`` uses the seed ``seed * 1_000_003 + i``; the strong agent plays White (seat 0) in
even games and Black in odd ones. Printed: the strong agent's wins, draws and losses (with
rates), the outcome reasons and victory labels, the mean game length in plies, the strong
agent's nodes per second and mean search depth, and its move times (p50, p95, max) as a
share of the budget, with the number of moves over budget + 10%. Acceptance: at least 90%
wins over 100 games, and no move over budget + 10%.
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

from benchmarks.agent_matches import percentile  # noqa: E402
from engines import rithmomachia  # noqa: E402
from engines.base import parse_option_text  # noqa: E402
from engines.rithmomachia.agents import RithmomachiaAgent  # noqa: E402


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget", type=float, default=0.25,
                        help="the strong agent's seconds per move (the bot's is 2.0)")
    parser.add_argument("--seconds", type=float, default=100.0,
                        help="start no game after this many seconds (0: play every game)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="", help='game options, e.g. "push=off"')
    parser.add_argument("--quiet", action="store_true", help="no line per game on stderr")
    parser.add_argument("--progress", action="store_true",
                        help="(the default now) a line per game")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def play(games: int, budget: float, seed: int, option_text: str,
         progress: bool, time_limit: float = 0.0) -> dict[str, Any]:
    options = parse_option_text(rithmomachia.OPTIONS, option_text)
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    seconds: list[float] = []
    depths: list[int] = []
    nodes = 0
    plies: list[int] = []
    started = time.perf_counter()
    played = 0
    for game in range(games):
        if time_limit and time.perf_counter() - started >= time_limit:
            break
        played += 1
        game_seed = seed * 1_000_003 + game
        strong_seat = game % 2
        agents = {strong_seat: RithmomachiaAgent("strong", random.Random(game_seed * 2),
                                                 budget_seconds=budget),
                  1 - strong_seat: RithmomachiaAgent("easy", random.Random(game_seed * 2 + 1))}
        state = rithmomachia.new_game(options, 2, game_seed)
        while state.outcome() is None:
            seat = state.turn
            agent = agents[seat]
            began = time.perf_counter()
            action = agent.choose(state, seat)
            spent = time.perf_counter() - began
            if seat == strong_seat and state.phase == "play":
                seconds.append(spent)
                depths.append(agent.last_depth)
                nodes += agent.last_nodes
            state.apply(seat, action)
        outcome = state.outcome()
        assert outcome is not None
        reasons[outcome.reason] += 1
        plies.append(state.plies)
        if outcome.is_draw:
            result = "draws"
        else:
            result = "wins" if strong_seat in outcome.winners else "losses"
            labels[str(outcome.detail.get("label"))] += 1
        results[result] += 1
        if progress:
            print(f"game {game + 1}/{games}: strong "
                  f"{'White' if strong_seat == 0 else 'Black'}, {result}, "
                  f"{outcome.reason} {outcome.detail.get('label')}, {state.plies} plies, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    shares = [s / budget for s in seconds]
    games = max(played, 1)
    return {
        "games": played,
        "budget_seconds": budget,
        "options": option_text or "standard",
        "wins": results["wins"], "draws": results["draws"], "losses": results["losses"],
        "win_rate": round(results["wins"] / games, 3),
        "draw_rate": round(results["draws"] / games, 3),
        "reasons": dict(reasons),
        "labels": dict(labels),
        "mean_plies": round(statistics.fmean(plies), 1),
        "strong_moves": len(seconds),
        "nodes_per_second": round(nodes / sum(seconds)) if seconds else 0,
        "mean_depth": round(statistics.fmean(depths), 2) if depths else 0.0,
        "time_p50_share": round(percentile(shares, 0.50), 3) if shares else 0.0,
        "time_p95_share": round(percentile(shares, 0.95), 3) if shares else 0.0,
        "time_max_share": round(max(shares), 3) if shares else 0.0,
        "over_budget_moves": sum(1 for s in shares if s > 1.1),
        "wall_seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    result = play(args.games, args.budget, args.seed, args.options, not args.quiet,
                  args.seconds)
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return
    print(f"strong vs easy, {result['options']}, {result['games']} games, "
          f"{result['budget_seconds']} s per move: {result['wins']} wins "
          f"({result['win_rate']:.1%}), {result['draws']} draws ({result['draw_rate']:.1%}), "
          f"{result['losses']} losses; mean {result['mean_plies']} plies; "
          f"{result['reasons']}; labels {result['labels']}")
    print(f"  strong: {result['strong_moves']} moves, {result['nodes_per_second']} nodes/s, "
          f"mean depth {result['mean_depth']}; move time / budget p50 "
          f"{result['time_p50_share']}, p95 {result['time_p95_share']}, max "
          f"{result['time_max_share']}; {result['over_budget_moves']} over budget + 10%; "
          f"{result['wall_seconds']} s in all")


if __name__ == "__main__":
    main()
