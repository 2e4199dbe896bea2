"""bOOleO agents: ``strong`` against ``easy`` over seeded games, seats alternating.

Run from the repository root::

    python -m benchmarks.booleo_agents [--games 200] [--seed 1] [--options "referee=off"]
                                       [--a strong] [--b easy] [--all-variants] [--json]

Game ``i`` uses the seed ``seed * 1_000_003 + i``; agent A plays South (seat 0) in even games
and North in odd ones. Printed per option set: A's wins, draws and losses (with rates), the
mean game length in turns, the outcome reasons, and A's decision times p50/p95/p99/max in
milliseconds (B's p95 beside them). ``--all-variants`` runs the standard game and each option
on its own (referee=off, inactive, extended, bits=5, bits=8).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.agent_matches import run  # noqa: E402
from engines import booleo  # noqa: E402
from engines.base import GameModule, GameState  # noqa: E402

VARIANTS = ["", "referee=off", "inactive", "extended", "bits=5", "bits=8"]


def game_facts(state: GameState, seats: list[int]) -> dict[str, float]:
    assert isinstance(state, booleo.BooleoState)
    return {"turns": state.turns}


def main(argv: list[str] | None = None) -> None:
    module: GameModule = booleo  # type: ignore[assignment]
    run(module, __doc__, VARIANTS, "referee=off bits=5", game_facts, argv)


if __name__ == "__main__":
    main()
