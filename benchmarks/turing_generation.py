"""How long the Turing Machine puzzle generator takes per difficulty, size and mode.

For every combination, ``--puzzles`` seeds (default 200) are generated; printed per
combination: p50, p99 and max in milliseconds. The target of issue 5 is a p99 under 200 ms.

    .venv/bin/python -m benchmarks.turing_generation --puzzles 200
"""

from __future__ import annotations

import argparse
import json
import time

from benchmarks.timing import summary
from engines.turing.generator import generate
from engines.turing.puzzle import DIFFICULTIES, MODES, SIZES


def time_generation(difficulty: str, size: int, mode: str, puzzles: int, seed: int
                    ) -> list[float]:
    seconds: list[float] = []
    for number in range(puzzles):
        start = time.perf_counter()
        generate(difficulty, size, mode, seed + number)
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--puzzles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.json:
        print(f"{'mode':<10} {'band':<9} {'size':>4} {'n':>4} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'max ms':>8}")
    worst_p99 = 0.0
    for mode in args.modes:
        for difficulty in DIFFICULTIES:
            for size in SIZES:
                row = summary(time_generation(difficulty, size, mode, args.puzzles,
                                              args.seed))
                worst_p99 = max(worst_p99, row["p99_ms"])
                if args.json:
                    print(json.dumps({"mode": mode, "difficulty": difficulty, "size": size,
                                      **row}), flush=True)
                else:
                    print(f"{mode:<10} {difficulty:<9} {size:>4} {row['n']:>4} "
                          f"{row['p50_ms']:>8.1f} {row['p99_ms']:>8.1f} "
                          f"{row['max_ms']:>8.1f}", flush=True)
    if not args.json:
        print(f"highest p99: {worst_p99:.1f} ms (target: under 200 ms)")


if __name__ == "__main__":
    main()
