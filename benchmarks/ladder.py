"""The ladder of computer levels: duplicate-deal matches between adjacent levels of a game,
with each pair's score, its 95% interval, the Elo difference and the decision times.

Run from the repository root::

    .venv/bin/python -m benchmarks.ladder lgame [--deals 100] [--pairs easy:medium,...]
        [--options "ops=not,nand"] [--workers 2] [--seed 1] [--budget fast|full] [--json]

A *deal* is one seed: the game is played twice from it, the upper level on seat 0 and then
on seat 1, so the cards (or the draw of who starts) favour neither level. ``--deals 100``
plays 200 games per pair. The score is the upper level's wins plus half its draws over the
games; its 95% interval is the mean ± 1.96 standard errors of the per-deal scores (the two
games of a deal are one sample, so the luck of the deal cancels out). The Elo difference is
``400 · log10(s / (1 − s))``, with the interval's ends converted the same way.

``--budget fast`` (the default) plays the searching levels with the fixed, smaller budgets
of ``FAST`` below (node or sample counts: deterministic, and a 200-game pair finishes in
minutes on two cores); ``--budget full`` uses the levels exactly as the bot makes them
(``make_agent``), time budgets included. Decision times are measured either way and printed
per level as p50/p99 in milliseconds. Progress goes to stderr, a line per pair and every 10
deals. Without ``--deals`` the run is a quick one (``QUICK_DEALS`` per pair, the expert pairs
left out unless named with ``--pairs``): seconds, not the hours of the measured ladder.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engines.base import Agent, parse_option_text  # noqa: E402
from engines.registry import get_game, make_agent  # noqa: E402

# The adjacent pairs of each game's ladder, lower level first.
LADDERS: dict[str, list[tuple[str, str]]] = {
    "lgame": [("easy", "medium"), ("medium", "strong"), ("strong", "perfect")],
    "booleo": [("easy", "medium"), ("medium", "strong"), ("strong", "expert")],
    "digitalo": [("easy", "medium"), ("medium", "strong"), ("strong", "expert")],
    "rithmomachia": [("easy", "medium"), ("medium", "strong"), ("strong", "expert")],
}


# Deals per pair of the default run: enough to see each level beat the one below, quick.
QUICK_DEALS = 4


def _fast_rithmomachia(level: str, rng: random.Random) -> Agent:
    from engines.rithmomachia.agents import FAST_NODE_LIMITS, RithmomachiaAgent
    return RithmomachiaAgent(level, rng, budget_seconds=None,
                             node_limit=FAST_NODE_LIMITS.get(level))


def _fast_booleo(level: str, rng: random.Random) -> Agent:
    from engines.booleo.agents import FAST_SAMPLES, make_agent
    return make_agent(level, rng, samples=FAST_SAMPLES)


def _fast_digitalo(level: str, rng: random.Random) -> Agent:
    from engines.digitalo.agents import FAST_SAMPLES, make_agent
    return make_agent(level, rng, samples=FAST_SAMPLES)


# The fast budgets: how ``--budget fast`` makes a game's agents (games not named here are
# cheap at every level and always use ``make_agent``).
FAST: dict[str, Callable[[str, random.Random], Agent]] = {
    "rithmomachia": _fast_rithmomachia,
    "booleo": _fast_booleo,
    "digitalo": _fast_digitalo,
}


def make(game: str, level: str, rng: random.Random, budget: str) -> Agent:
    if budget == "fast" and game in FAST:
        return FAST[game](level, rng)
    agent: Agent = make_agent(game, level, rng)
    return agent


def play_game(game: str, option_text: str, seed: int, levels: tuple[str, str],
              budget: str) -> tuple[float, list[float], list[float], int]:
    """One game from ``seed`` with ``levels[0]`` on seat 0: seat 0's score (1, ½ or 0), each
    seat's decision times in ms, and the number of decisions."""
    module = get_game(game)
    options = parse_option_text(module.OPTIONS, option_text)
    state = module.new_game(options, 2, seed)
    agents = [make(game, level, random.Random(seed * 2 + seat), budget)
              for seat, level in enumerate(levels)]
    times: list[list[float]] = [[], []]
    while state.outcome() is None:
        (seat,) = state.to_move()
        began = time.perf_counter()
        action = agents[seat].choose(state, seat)
        times[seat].append((time.perf_counter() - began) * 1000)
        state.apply(seat, action)
    outcome = state.outcome()
    assert outcome is not None
    score = 0.5 if outcome.is_draw else (1.0 if 0 in outcome.winners else 0.0)
    return score, times[0], times[1], len(times[0]) + len(times[1])


def play_deal(game: str, option_text: str, seed: int, lower: str, upper: str,
              budget: str) -> dict[str, Any]:
    """Both games of a deal: the upper level's mean score and everyone's times."""
    first, up_1, low_1, n1 = play_game(game, option_text, seed, (upper, lower), budget)
    second, low_2, up_2, n2 = play_game(game, option_text, seed, (lower, upper), budget)
    return {"score": (first + (1.0 - second)) / 2, "upper_ms": up_1 + up_2,
            "lower_ms": low_1 + low_2, "plies": (n1 + n2) / 2}


def elo(score: float) -> float:
    """The Elo difference that predicts ``score``; ±inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def _rounded(value: float) -> float:
    return value if math.isinf(value) else round(value)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def summarise(lower: str, upper: str, deals: list[dict[str, Any]]) -> dict[str, Any]:
    scores = [d["score"] for d in deals]
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    upper_ms = [t for d in deals for t in d["upper_ms"]]
    lower_ms = [t for d in deals for t in d["lower_ms"]]
    return {
        "pair": f"{upper} vs {lower}", "games": 2 * len(deals),
        "score": round(mean, 3), "low": round(low, 3), "high": round(high, 3),
        "elo": _rounded(elo(mean)), "elo_low": _rounded(elo(low)),
        "elo_high": _rounded(elo(high)),
        "upper_p50_ms": round(percentile(upper_ms, 0.5), 2),
        "upper_p99_ms": round(percentile(upper_ms, 0.99), 2),
        "lower_p50_ms": round(percentile(lower_ms, 0.5), 2),
        "lower_p99_ms": round(percentile(lower_ms, 0.99), 2),
        "plies": round(statistics.fmean(d["plies"] for d in deals), 1),
    }


def run_pair(game: str, option_text: str, lower: str, upper: str, deals: int, seed: int,
             workers: int, budget: str, first: int = 0, deal_log: str = "") -> dict[str, Any]:
    """Deals ``first`` to ``first + deals - 1`` of the seed; each finished deal is also
    appended to ``deal_log`` (a JSON line) when given, so that a long pair can be split
    over several runs (``--first``) and summarised from the logs (``--from-logs``)."""
    seeds = [seed * 1_000_003 + i for i in range(first, first + deals)]
    done: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_deal, game, option_text, s, lower, upper, budget)
                   for s in seeds]
        for number, future in enumerate(futures, start=1):
            done.append(future.result())
            if deal_log:
                with open(deal_log, "a", encoding="utf-8") as log:
                    log.write(json.dumps({"pair": f"{lower}:{upper}",
                                          "seed": seeds[number - 1], **done[-1]}) + "\n")
            if number % 10 == 0 or number == deals:
                running = statistics.fmean(d["score"] for d in done)
                print(f"  {game} {upper} vs {lower}: {number}/{deals} deals, "
                      f"score so far {running:.3f}", file=sys.stderr, flush=True)
    return summarise(lower, upper, done)


def print_logged(game: str, logs: list[str]) -> None:
    """Each pair's summary from deal logs; a seed logged twice counts once."""
    by_pair: dict[str, dict[int, dict[str, Any]]] = {}
    for name in logs:
        with open(name, encoding="utf-8") as log:
            for line in log:
                deal = json.loads(line)
                by_pair.setdefault(deal.pop("pair"), {})[deal.pop("seed")] = deal
    for pair, deals in by_pair.items():
        lower, upper = pair.split(":", 1)
        row = summarise(lower, upper, list(deals.values()))
        print(f"{game} (from logs) {row['pair']}: {row['games']} games, score "
              f"{row['score']:.1%} [{row['low']:.1%}, {row['high']:.1%}], Elo {row['elo']:+} "
              f"[{row['elo_low']:+}, {row['elo_high']:+}]; {upper} ms p50 "
              f"{row['upper_p50_ms']} p99 {row['upper_p99_ms']}; plies {row['plies']}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("game", choices=sorted(LADDERS))
    parser.add_argument("--deals", type=int, default=None,
                        help="two games per deal (default: a quick run of "
                             f"{QUICK_DEALS} deals per pair without the expert pairs, about a "
                             "minute; docs/ai.md's ladder is --deals 100)")
    parser.add_argument("--pairs", default="",
                        help="lower:upper,... (default: the game's whole ladder)")
    parser.add_argument("--options", default="", help='game options, e.g. "ops=not,nand"')
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", choices=("fast", "full"), default="fast")
    parser.add_argument("--first", type=int, default=0,
                        help="the first deal's number (to split a pair over runs)")
    parser.add_argument("--deal-log", default="", help="append each deal to this JSON-lines file")
    parser.add_argument("--from-logs", nargs="+", default=[], metavar="LOG",
                        help="play nothing: summarise the deals of these --deal-log files")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.from_logs:
        print_logged(args.game, args.from_logs)
        return
    pairs = ([tuple(p.split(":", 1)) for p in args.pairs.split(",")] if args.pairs
             else LADDERS[args.game])
    deals = args.deals
    if deals is None:
        # The default run shows that the ladder works and roughly how it climbs, within
        # about a minute (issue 24: every benchmark's default run); an expert pair takes
        # hours for 200 games and is asked for by name.
        deals = QUICK_DEALS
        if not args.pairs:
            pairs = [(lower, upper) for lower, upper in pairs if upper != "expert"]
        print(f"quick run: {deals} deals per pair, {', '.join(f'{u} vs {lo}' for lo, u in pairs)}"
              " (--deals 100 for the measured ladder, --pairs strong:expert for the expert)",
              file=sys.stderr, flush=True)
    for lower, upper in pairs:
        print(f"  {args.game} {upper} vs {lower}: {deals} deals…", file=sys.stderr, flush=True)
        row = run_pair(args.game, args.options, lower, upper, deals, args.seed,
                       args.workers, args.budget, args.first, args.deal_log)
        row.update(game=args.game, options=args.options or "standard", budget=args.budget)
        if args.json:
            print(json.dumps(row, sort_keys=True), flush=True)
            continue
        print(f"{args.game} ({row['options']}, {args.budget}) {row['pair']}: "
              f"{row['games']} games, score {row['score']:.1%} "
              f"[{row['low']:.1%}, {row['high']:.1%}], Elo {row['elo']:+} "
              f"[{row['elo_low']:+}, {row['elo_high']:+}]; {upper} ms p50 "
              f"{row['upper_p50_ms']} p99 {row['upper_p99_ms']}, {lower} ms p50 "
              f"{row['lower_p50_ms']} p99 {row['lower_p99_ms']}; plies {row['plies']}",
              flush=True)


if __name__ == "__main__":
    main()
