"""Offline tools: ``python -m engines <game> <tool> [...]``.

* ``python -m engines lgame solve [--sudden-death] [--json]``: solved statistics.
* ``python -m engines turing solve (--cards 4,9,11,14 [--code 241 | --criteria 4.1,9.0,11.0,14.2]
  [--mode classic|nightmare] | --puzzle TM-...) [--level optimal|par] [--tree] [--json]``:
  the machine's score and plan. When several valid assignments fit, each is played and the
  worst score is reported.
* ``python -m engines turing count --cards N [--json]``: valid puzzles with N cards.
* ``python -m engines turing generate [--difficulty D] [--verifiers N] [--mode M] [--seed S]
  [--json]``: a random puzzle, its share code and its secret.
* ``python -m engines <game> selfplay --agents A,B --games N --seed S [--json]``: one agent
  against another, seats swapped every game.
* ``python -m engines <game> puzzle (--seed S [--theme T] | --code CODE) [--json]``: a
  generated puzzle (lgame, rithmomachia, booleo, digitalo): its themes, level, rating,
  share code, position, accepted answers and proof. The same seed and theme give the same
  puzzle.

Bad input prints one ``error: ...`` line to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from engines.base import JSON, GameError, InvalidMove
from engines.registry import get_game, resolve_name
from engines.selfplay import run_selfplay

if TYPE_CHECKING:
    from engines.puzzles import Puzzle as PuzzleType
    from engines.turing.puzzle import Puzzle

_TURING_SOLVE_FLAGS = ("cards", "code", "criteria", "puzzle", "mode", "level")


def _print(result: JSON, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, sort_keys=True))
        return
    width = max(len(k) for k in result)
    for key, value in result.items():
        print(f"{key.replace('_', ' '):<{width}}  {value}")


def plain_help(docstring: str) -> str:
    """The module's docstring as a terminal shows it: without reStructuredText's ````…````
    around literals, which ``--help`` printed as they are."""
    return docstring.replace("``", "")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engines",
                                     description=plain_help(__doc__ or ""),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="game name or alias, e.g. lgame or turing")
    tools = parser.add_subparsers(dest="tool", required=True)

    solve = tools.add_parser("solve", help="solve the game (L-game) or a puzzle (turing)")
    solve.add_argument("--sudden-death", action="store_true",
                       help="lgame: solve the variant instead")
    solve.add_argument("--cards", help="turing: the verifiers' cards in letter order, "
                                       "e.g. 4,9,11,14")
    solve.add_argument("--puzzle", help="turing: a share code such as TM-C4S-... "
                                        "instead of --cards")
    secret = solve.add_mutually_exclusive_group()
    secret.add_argument("--code", help="turing, with --cards: the solution code, e.g. 241")
    secret.add_argument("--criteria", help="turing, with --cards: the secret criteria, "
                                           "e.g. 4.1,9.0,11.0,14.2")
    solve.add_argument("--mode", choices=("classic", "nightmare"),
                       help="turing, with --cards: the mode (default classic)")
    solve.add_argument("--level", choices=("optimal", "par"),
                       help="turing: the machine's level (default optimal)")
    solve.add_argument("--tree", action="store_true",
                       help="turing: include the machine's whole decision tree")
    solve.add_argument("--json", action="store_true", help="print one JSON object")

    count = tools.add_parser("count", help="turing: count the valid puzzles with N cards")
    count.add_argument("--cards", type=int, required=True, help="how many cards, 1 to 6")
    count.add_argument("--json", action="store_true", help="print one JSON object")

    generate = tools.add_parser("generate", help="turing: generate a random puzzle")
    generate.add_argument("--difficulty", choices=("easy", "standard", "hard"),
                          default="standard")
    generate.add_argument("--verifiers", type=int, choices=(4, 5, 6), default=4)
    generate.add_argument("--mode", choices=("classic", "extreme", "nightmare"),
                          default="classic")
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("--json", action="store_true", help="print one JSON object")

    puzzle = tools.add_parser("puzzle", help="a generated puzzle with its answers and proof")
    source = puzzle.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", type=int, help="the puzzle's seed, a whole number >= 0")
    source.add_argument("--code", help="a share code such as LG-11-1Z89 instead of --seed")
    puzzle.add_argument("--theme", help="with --seed: the theme (default: one the seed picks)")
    puzzle.add_argument("--json", action="store_true", help="print one JSON object")

    selfplay = tools.add_parser("selfplay", help="play agents against each other")
    selfplay.add_argument("--agents", required=True, help="two levels, e.g. perfect,easy")
    selfplay.add_argument("--games", type=int, default=100)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--options", default="", help="game options, e.g. 'sudden_death'")
    selfplay.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        name = resolve_name(args.game)
        if args.tool in ("count", "generate") and name != "turing":
            parser.error(f"'{args.tool}' is only available for turing, not {name}")
        if args.tool == "solve":
            if name == "lgame":
                given = [f"--{flag}" for flag in (*_TURING_SOLVE_FLAGS, "tree")
                         if getattr(args, flag) not in (None, False)]
                if given:
                    parser.error(f"{', '.join(given)}: only for turing")
                from engines.lgame.solver import solve_statistics
                _print(solve_statistics(args.sudden_death), args.json)
            elif name == "turing":
                _turing_solve(parser, args)
            else:
                parser.error(f"'solve' is not available for {name}")
        elif args.tool == "count":
            _turing_count(parser, args)
        elif args.tool == "generate":
            _turing_generate(args)
        elif args.tool == "puzzle":
            _puzzle(parser, args, name)
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


# ------------------------------------------------------------------ turing: count
def _turing_count(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    from engines.turing.count import MAX_CARDS, count_puzzles
    if not 1 <= args.cards <= MAX_CARDS:
        parser.error(f"--cards is a number of cards from 1 to {MAX_CARDS}")
    started = time.perf_counter()
    result: JSON = dict(count_puzzles(args.cards).to_dict())
    result["seconds"] = round(time.perf_counter() - started, 3)
    _print(result, args.json)


# ------------------------------------------------------------------------- puzzle
def _puzzle(parser: argparse.ArgumentParser, args: argparse.Namespace, name: str) -> None:
    from engines.puzzles import decode_puzzle_code, puzzle_generator
    if args.code is not None:
        if args.theme is not None:
            parser.error("--code already names the theme; drop --theme")
        puzzle = decode_puzzle_code(args.code)
        if puzzle.game != name:
            raise InvalidMove("puzzle.error.other_game",
                              "That code is a puzzle of {game}, not of {asked}.",
                              game=puzzle.game, asked=name)
    else:
        puzzle = puzzle_generator(name).generate(args.seed, args.theme)
    state = puzzle.position()
    result: JSON = {
        "game": puzzle.game, "theme": puzzle.theme, "themes": list(puzzle.themes),
        "level": puzzle.level, "rating": puzzle.rating, "code": puzzle.share_code(),
        "seed": puzzle.seed, "seat": puzzle.seat, "position": _puzzle_picture(puzzle),
        "accepted": list(puzzle.accepted),
        "answers": [str(state.action_text(action)) for action in puzzle.accepted],
        "proof": puzzle.proof}
    if args.json:
        _print({**result, "state": puzzle.state}, True)
        return
    _print({"game": puzzle.game, "theme": f"{puzzle.theme} ({', '.join(puzzle.themes)})",
            "level": puzzle.level, "rating": puzzle.rating, "code": result["code"],
            "seed": puzzle.seed, "to move": f"seat {puzzle.seat}",
            "answers": "; ".join(f"{text} [{action}]" for text, action
                                 in zip(result["answers"], puzzle.accepted, strict=True))},
           False)
    print("position")
    for line in result["position"]:
        print(f"  {line}")
    print("proof")
    for line in json.dumps(puzzle.proof, indent=2, sort_keys=True).splitlines():
        print(f"  {line}")


def _puzzle_picture(puzzle: PuzzleType) -> list[str]:
    """The position as the generator draws it in text (at most 32 columns), or the
    state's JSON for a generator that does not draw: the renderers, which draw boards
    for the bot, are a layer above the engines."""
    from engines.puzzles import puzzle_generator
    draw = getattr(puzzle_generator(puzzle.game), "picture", None)
    if callable(draw):
        return [str(line) for line in draw(puzzle)]
    return [json.dumps(puzzle.state, sort_keys=True)]


# --------------------------------------------------------------- turing: generate
def _turing_generate(args: argparse.Namespace) -> None:
    from engines.turing.cards import code_text
    from engines.turing.generator import generate
    from engines.turing.puzzle import LETTERS
    puzzle = generate(args.difficulty, args.verifiers, args.mode, args.seed)
    cards = {LETTERS[i]: list(verifier) for i, verifier in enumerate(puzzle.verifiers)}
    result: JSON = {"puzzle": puzzle.share_code(), "mode": puzzle.mode,
                    "difficulty": puzzle.difficulty, "verifiers": puzzle.size,
                    "seed": args.seed, "cards": cards, "code": code_text(puzzle.code),
                    "criteria": list(puzzle.secret)}
    if args.json:
        _print(result, True)
        return
    _print({**result, "cards": _letters_text(cards),
            "criteria": _letters_text(dict(zip(cards, puzzle.secret, strict=True)))}, False)


def _letters_text(by_letter: dict[str, Any]) -> str:
    def one(value: Any) -> str:
        return "/".join(map(str, value)) if isinstance(value, list) else str(value)
    return ", ".join(f"{letter} {one(value)}" for letter, value in by_letter.items())


# ------------------------------------------------------------------ turing: solve
def _turing_solve(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    from engines.turing.cards import code_text
    from engines.turing.machine import actual_candidate, play, solve
    from engines.turing.puzzle import LETTERS, SIZES

    if args.sudden_death:
        parser.error("--sudden-death: only for lgame")
    level = args.level or "optimal"
    started = time.perf_counter()
    fits = _turing_puzzles(parser, args)
    # Every fit shows the same cards in the same mode, so the machine sees the same
    # candidates and one plan serves them all; only the answers it gets differ.
    plan = solve(fits[0].candidates(level), fits[0].size)
    runs = [(play(plan, actual_candidate(puzzle)), puzzle) for puzzle in fits]
    run, puzzle = max(runs, key=lambda pair: pair[0].score)
    seconds = round(time.perf_counter() - started, 3)

    def share(p: Puzzle) -> str | None:
        """Share codes exist for 4 to 6 verifiers; booklet entries may have fewer."""
        return p.share_code() if p.size in SIZES else None

    cards = {LETTERS[i]: list(verifier) for i, verifier in enumerate(puzzle.verifiers)}
    result: JSON = {
        "mode": puzzle.mode, "level": level, "cards": cards,
        "assignments": len(fits), "score": list(run.score), "worst": list(plan.worst),
        "code": code_text(run.code), "criteria": list(puzzle.secret),
        "puzzle": share(puzzle), "transcript": run.to_dict()["transcript"],
        "runs": [{"criteria": list(p.secret), "code": code_text(r.code),
                  "score": list(r.score), "puzzle": share(p)} for r, p in runs],
        "seconds": seconds}
    if args.tree:
        result["tree"] = plan.tree()
    if args.json:
        _print(result, True)
        return
    scores = Counter(r.score for r, _ in runs)
    text: JSON = {
        "mode": puzzle.mode, "level": level, "cards": _letters_text(cards),
        "assignments": len(fits),
        "score": _score_text(run.score) + (" (the worst over the assignments)"
                                          if len(fits) > 1 else ""),
        "worst": _score_text(plan.worst) + " (the plan's bound over every candidate)",
        "code": code_text(run.code),
        "criteria": _letters_text(dict(zip(cards, puzzle.secret, strict=True))),
        "puzzle": share(puzzle) or "-",
        "transcript": _transcript_text(result["transcript"]),
    }
    if len(fits) > 1:
        text["scores"] = "; ".join(f"{_score_text(score)} x{number}"
                                   for score, number in sorted(scores.items()))
    text["seconds"] = seconds
    _print(text, False)
    if args.tree:
        print("tree")
        for line in _tree_lines(plan.tree(), 1, ""):
            print(line)


def _turing_puzzles(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Puzzle]:
    """The puzzles the flags describe: one for ``--puzzle``, every fit for ``--cards``."""
    from engines.turing.cards import CRITERIA
    from engines.turing.puzzle import decode_puzzle, puzzle_from_cards
    from engines.turing.rules import parse_code

    if args.puzzle is not None:
        extra = [f"--{flag}" for flag in ("cards", "code", "criteria", "mode")
                 if getattr(args, flag) is not None]
        if extra:
            parser.error(f"--puzzle already fixes the cards and the secret; drop "
                         f"{', '.join(extra)}")
        return [decode_puzzle(args.puzzle)]
    if args.cards is None and args.criteria is None:
        parser.error("turing solve needs --cards or --puzzle")
    criteria = None
    if args.criteria is not None:
        criteria = [part for part in re.split(r"[\s,;]+", args.criteria.strip()) if part]
        for criterion_id in criteria:
            if criterion_id not in CRITERIA:
                raise InvalidMove("turing.error.unknown_criterion",
                                  "'{got}' is not a criterion; criteria look like 4.1 "
                                  "(card 4, its criterion 1, counting from 0).",
                                  got=criterion_id[:20])
    if args.cards is not None:
        cards = _card_numbers(args.cards)
    else:
        assert criteria is not None
        cards = [CRITERIA[criterion_id].card for criterion_id in criteria]
    if criteria is not None and [CRITERIA[c].card for c in criteria] != cards:
        raise InvalidMove("turing.error.criteria_cards",
                          "The criteria {criteria} are not on the cards {cards}, in order.",
                          criteria=", ".join(criteria), cards=", ".join(map(str, cards)))
    code = parse_code(args.code) if args.code is not None else None
    fits = puzzle_from_cards(cards, code=code, criteria=criteria, mode=args.mode or "classic")
    if not fits:
        given = (f" and code {args.code.strip()}" if code is not None
                 else f" and criteria {', '.join(criteria)}" if criteria is not None else "")
        raise InvalidMove("turing.error.no_valid_puzzle",
                          "No valid puzzle has the cards {cards}{with_code}.",
                          cards=", ".join(map(str, cards)), with_code=given)
    return fits


def _card_numbers(text: str) -> list[int]:
    try:
        return [int(part) for part in re.split(r"[\s,;]+", text.strip()) if part]
    except ValueError:
        raise InvalidMove("turing.error.bad_cards",
                          "Give 1 to 6 different card numbers from 1 to 48, such as "
                          "4,9,11,14.") from None


def _score_text(score: tuple[int, int] | list[int]) -> str:
    rounds, tests = score
    return f"{rounds} round{'' if rounds == 1 else 's'}, {tests} test{'' if tests == 1 else 's'}"


def _transcript_text(transcript: list[JSON]) -> str:
    if not transcript:
        return "no test needed"
    rounds: dict[int, list[JSON]] = {}
    for record in transcript:
        rounds.setdefault(int(record["round"]), []).append(record)
    return "; ".join(
        f"round {number} propose {records[0]['proposal']}: "
        + ", ".join(f"{r['verifier']} {'yes' if r['answer'] else 'no'}" for r in records)
        for number, records in rounds.items())


def _tree_lines(node: JSON, depth: int, label: str) -> list[str]:
    """The decision tree of ``Plan.tree()`` as indented text, two spaces a level."""
    pad = "  " * depth + label
    kind = node["kind"]
    if kind == "code":
        return [f"{pad}code {node['code']} ({_score_text((node['rounds'], node['tests']))})"]
    if kind == "round":
        head = (f"{pad}round {node['round']}: propose {node['proposal']} "
                f"({node['candidates']} candidates, {node['codes']} codes, worst "
                f"{_score_text(node['worst'])} to go)")
        return [head, *_tree_lines(node["next"], depth + 1, "")]
    if kind == "end_round":
        return [f"{pad}end the round", *_tree_lines(node["next"], depth + 1, "")]
    return [f"{pad}test {node['verifier']}",
            *_tree_lines(node["yes"], depth + 1, "yes: "),
            *_tree_lines(node["no"], depth + 1, "no: ")]


if __name__ == "__main__":
    sys.exit(main())
