"""Offline tools: ``python -m engines <game> <tool> [...]``.

* ``python -m engines lgame solve [--sudden-death] [--json]``: solved statistics.
* ``python -m engines <game> selfplay --agents A,B --games N --seed S [--json]``: one agent
  against another, seats swapped every game.
"""

from __future__ import annotations

import argparse
import json
import sys

from engines.base import JSON, GameError
from engines.registry import get_game, resolve_name
from engines.selfplay import run_selfplay


def _print(result: JSON, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, sort_keys=True))
        return
    width = max(len(k) for k in result)
    for key, value in result.items():
        print(f"{key.replace('_', ' '):<{width}}  {value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="game name or alias, e.g. lgame")
    tools = parser.add_subparsers(dest="tool", required=True)
    solve = tools.add_parser("solve", help="solve the game completely (L-game)")
    solve.add_argument("--sudden-death", action="store_true", help="solve the variant instead")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    selfplay = tools.add_parser("selfplay", help="play agents against each other")
    selfplay.add_argument("--agents", required=True, help="two levels, e.g. perfect,easy")
    selfplay.add_argument("--games", type=int, default=100)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--options", default="", help="game options, e.g. 'sudden_death'")
    selfplay.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        name = resolve_name(args.game)
        if args.tool == "solve":
            if name != "lgame":
                parser.error(f"'solve' is not available for {name}")
            from engines.lgame import solve_statistics
            _print(solve_statistics(args.sudden_death), args.json)
        else:
            agents = [a.strip() for a in args.agents.split(",")]
            if len(agents) != 2 or args.games < 1:
                parser.error("--agents takes two levels separated by a comma, --games at least 1")
            _print(run_selfplay(get_game(name), agents, args.games, args.seed, args.options),
                   args.json)
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
