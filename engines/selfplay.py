"""The strength benchmark every game shares: agent against agent, seats swapped each game."""

from __future__ import annotations

import random
import statistics
import time

from engines.base import JSON, GameModule, parse_option_text
from engines.registry import make_agent


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_selfplay(module: GameModule, levels: list[str], games: int, seed: int,
                 option_text: str = "") -> JSON:
    """Play ``games`` games; agent A takes seat 0 in even games and seat 1 in odd ones."""
    options = parse_option_text(module.OPTIONS, option_text)
    rng = random.Random(seed)
    agents = [make_agent(module.NAME, level, random.Random(rng.getrandbits(64)))
              for level in levels]
    results = {"a_wins": 0, "b_wins": 0, "draws": 0}
    lengths: list[int] = []
    decision_ms: list[list[float]] = [[], []]
    for game_number in range(games):
        seats = [0, 1] if game_number % 2 == 0 else [1, 0]  # seats[agent] = seat it plays
        state = module.new_game(options, 2, rng.getrandbits(32))
        moves = 0
        while state.outcome() is None:
            seat = state.to_move()[0]
            agent = seats.index(seat)
            started = time.perf_counter()
            action = agents[agent].choose(state, seat)
            decision_ms[agent].append((time.perf_counter() - started) * 1000)
            state.apply(seat, action)
            moves += 1
        outcome = state.outcome()
        assert outcome is not None
        lengths.append(moves)
        if outcome.is_draw:
            results["draws"] += 1
        elif seats[0] in outcome.winners:
            results["a_wins"] += 1
        else:
            results["b_wins"] += 1
    all_ms = decision_ms[0] + decision_ms[1]
    return {
        "game": module.NAME,
        "agents": f"{levels[0]} vs {levels[1]}",
        "games": games,
        "seed": seed,
        **results,
        "a_score": round((results["a_wins"] + results["draws"] / 2) / games, 3),
        "mean_length": round(statistics.fmean(lengths), 1),
        "decision_ms_p50": round(_percentile(all_ms, 0.50), 3) if all_ms else 0.0,
        "decision_ms_p95": round(_percentile(all_ms, 0.95), 3) if all_ms else 0.0,
    }
