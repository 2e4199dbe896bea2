"""Digitalo agents: ``strong`` against ``easy`` over seeded matches, seats alternating.

Run from the repository root::

    python -m benchmarks.digitalo_agents [--games 200] [--seed 1] [--options "bits=5"]
                                         [--a strong] [--b easy] [--all-variants] [--json]

A game is a whole match, played in rounds until someone reaches 1000₂ = 8 points. Match ``i``
uses the seed ``seed * 1_000_003 + i``; agent A plays South (seat 0) in even matches and North
in odd ones (who starts the first round is the seed's choice). Printed per option set: A's
match wins, draws and losses (with rates), the means per match of rounds, moves and A's rounds
won, drawn and lost, the outcome reasons, and A's decision times p50/p95/p99/max in
milliseconds (B's p95 beside them). ``--all-variants`` runs the standard game and each option
on its own (inverters=off, free_discard, bits=5, bits=6, bits=8).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.agent_matches import run  # noqa: E402
from engines import digitalo  # noqa: E402
from engines.base import GameModule, GameState  # noqa: E402

VARIANTS = ["", "inverters=off", "free_discard", "bits=5", "bits=6", "bits=8"]


def match_facts(state: GameState, seats: list[int]) -> dict[str, float]:
    assert isinstance(state, digitalo.DigitaloState)
    winners = [result["winner"] for result in state.round_results]
    return {"rounds": state.round, "moves": len(state.actions),
            "rounds_won": winners.count(seats[0]), "rounds_drawn": winners.count(None),
            "rounds_lost": winners.count(seats[1])}


def main(argv: list[str] | None = None) -> None:
    module: GameModule = digitalo  # type: ignore[assignment]
    run(module, __doc__, VARIANTS, "bits=5 free_discard", match_facts, argv, unit="matches")


if __name__ == "__main__":
    main()
