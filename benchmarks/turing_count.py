"""Wall time of counting every valid Turing Machine puzzle (``engines.turing.count``).

Run from the repository root::

    python benchmarks/turing_count.py [--runs 3] [--large] [--json]

Times ``count_puzzles(4)`` ``--runs`` times and reports the best and the median; ``--large``
adds five and six cards (about half a minute and a minute and a half, once each by default).
The card tables are built before the first timed run, so every run measures the search only.
CPU time is reported beside wall time: on a busy machine the two part company.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.progress import Progress  # noqa: E402
from engines.turing.count import count_puzzles  # noqa: E402


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3, help="timed runs of four cards")
    parser.add_argument("--large", action="store_true", help="also time five and six cards")
    parser.add_argument("--large-runs", type=int, default=1, help="timed runs of five and six")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def time_count(cards: int, runs: int) -> dict[str, Any]:
    """Best and median wall (and CPU) seconds of ``count_puzzles(cards)`` over ``runs``."""
    walls: list[float] = []
    cpus: list[float] = []
    result = None
    progress = Progress(f"count_puzzles({cards})", max(1, runs))
    for run in range(max(1, runs)):
        progress(run, "timing", force=True)
        cpu_began = time.process_time()
        began = time.perf_counter()
        result = count_puzzles(cards)
        walls.append(time.perf_counter() - began)
        cpus.append(time.process_time() - cpu_began)
    assert result is not None
    return {
        **result.to_dict(),
        "runs": len(walls),
        "best_s": round(min(walls), 3),
        "median_s": round(statistics.median(walls), 3),
        "best_cpu_s": round(min(cpus), 3),
        "median_cpu_s": round(statistics.median(cpus), 3),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    began = time.perf_counter()
    Progress("turing_count").say("building the card tables")
    count_puzzles(1)  # builds the tables
    rows = [time_count(4, args.runs)]
    if args.large:
        rows += [time_count(cards, args.large_runs) for cards in (5, 6)]
    config: dict[str, Any] = {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                              "load_average": [round(x, 2) for x in os.getloadavg()]}
    result: dict[str, Any] = {
        "config": config,
        "counts": rows,
        "total_s": round(time.perf_counter() - began, 2),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"count_puzzles on {config['cpus']} CPUs, Python {config['python']}, "
          f"load average {config['load_average']}")
    for row in rows:
        print(f"  {row['cards']} cards: {row['puzzles']:>10,} puzzles over "
              f"{row['card_sets']:>9,} card sets  best {row['best_s']:7.3f} s  "
              f"median {row['median_s']:7.3f} s  (CPU best {row['best_cpu_s']:.3f} s, "
              f"median {row['median_cpu_s']:.3f} s) over {row['runs']} runs")
    print(f"total {result['total_s']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
