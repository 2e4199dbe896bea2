"""The Turing Machine explained: which test to make next (a hint), what each test of a
finished game ruled out, and the machine's decision tree for the same puzzle.

A hint knows only what the player knows: the shown cards (the puzzle's candidates at the
optimal level, which every player can work out) and the player's own results. It never
reads the secret, so it cannot give the code away before the player could deduce it.
Everything here is CPU work (the machine's search): call it off the event loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

from engines.base import JSON
from engines.turing.cards import code_text
from engines.turing.game import TuringState, parse_code
from engines.turing.machine import next_step, solve
from engines.turing.puzzle import Candidate, Puzzle

# One test result as a sheet stores it: (proposal "241", letter "B", answer).
Result = tuple[str, str, bool]


def sheet_results(rounds: Iterable[JSON]) -> list[Result]:
    """Every test result of one sheet (its ``rounds``), in the order they were made."""
    return [(str(r["proposal"]), str(letter), bool(answer))
            for r in rounds if r.get("proposal") for letter, answer in r.get("tests", [])]


def consistent(candidates: Sequence[Candidate], letters: str,
               results: Iterable[Result]) -> list[Candidate]:
    """The candidates that answer every one of ``results`` as it was answered."""
    checks = [(parse_code(proposal), letters.index(letter), answer)
              for proposal, letter, answer in results]
    return [c for c in candidates
            if all(c.criteria[index].accepts(code) == answer for code, index, answer in checks)]


def code_count(candidates: Iterable[Candidate]) -> int:
    return len({c.code for c in candidates})


def split(candidates: Sequence[Candidate], letters: str, proposal: str,
          letter: str) -> tuple[int, int]:
    """How many codes stay possible if verifier ``letter`` answers yes, and if no, to
    ``proposal``."""
    code = parse_code(proposal)
    index = letters.index(letter)
    yes = [c for c in candidates if c.criteria[index].accepts(code)]
    no = [c for c in candidates if not c.criteria[index].accepts(code)]
    return code_count(yes), code_count(no)


def hint(state: TuringState, seat: int) -> JSON:
    """The machine's next step for ``seat`` from the seat's own results, and why:
    ``{"kind": "test" | "propose" | "guess" | "next", "proposal", "letter", "code",
    "codes", "yes", "no"}``. ``codes`` counts the codes still possible; ``yes`` and
    ``no`` how many a test leaves on each answer. Before a proposal the hint names the
    proposal and the first test the machine would make with it."""
    sheet = state.sheets[seat]
    if state.outcome() is not None or seat not in state.to_move():
        raise ValueError("not this seat's turn")
    puzzle = state.puzzle
    letters = puzzle.letters
    remaining = consistent(state.candidates(), letters, sheet_results(sheet.rounds))
    found: JSON = {"game": "turing", "codes": code_count(remaining)}
    if not remaining:
        return {**found, "kind": "none"}
    if found["codes"] == 1:
        return {**found, "kind": "guess", "code": code_text(remaining[0].code)}
    proposal: str | None = sheet.current["proposal"]
    tested = [letter for letter, _ in sheet.current["tests"]]
    left = sheet.tests_left(state.round)
    if left <= 0:
        return {**found, "kind": "next"}
    kind = "test"
    if proposal is None:
        step = next_step(remaining)
        if step.code is None:
            return {**found, "kind": "next"}
        proposal, kind = code_text(step.code), "propose"
    step = next_step(remaining, parse_code(proposal), [letters.index(t) for t in tested], left)
    if step.kind != "test" or step.letter is None:
        return {**found, "kind": "next", "proposal": proposal}
    letter = letters[step.letter]
    yes, no = split(remaining, letters, proposal, letter)
    return {**found, "kind": kind, "proposal": proposal, "letter": letter, "yes": yes,
            "no": no}


def ruled_out(puzzle: Puzzle, frames: Sequence[JSON]) -> list[JSON | None]:
    """Per frame of a replay (``engines.replay.Frame.to_dict()``, with private views):
    for a test, ``{"seat", "proposal", "letter", "answer", "before", "after"}``, the codes
    the tester still held possible before and after it; None for other frames."""
    candidates = puzzle.candidates("optimal")
    letters = puzzle.letters
    effects: list[JSON | None] = [None]
    for previous, frame in pairwise(frames):
        seat = frame.get("seat")
        action = str(frame.get("action") or "")
        if seat is None or not action.startswith("test ") or not frame.get("private"):
            effects.append(None)
            continue
        before = sheet_results(previous["private"][seat].get("sheet", []))
        after = sheet_results(frame["private"][seat].get("sheet", []))
        if len(after) != len(before) + 1:
            effects.append(None)
            continue
        proposal, letter, answer = after[-1]
        effects.append({"seat": seat, "proposal": proposal, "letter": letter,
                        "answer": answer,
                        "before": code_count(consistent(candidates, letters, before)),
                        "after": code_count(consistent(candidates, letters, after))})
    return effects


# The tree's first nodes (depth first) that a replay keeps: a screen shows a few dozen
# lines, and the largest nightmare trees are half a megabyte of JSON.
TREE_NODES = 200
_BRANCHES = ("next", "yes", "no")


def prune(node: JSON, budget: list[int]) -> JSON:
    """``node`` with its first ``budget[0]`` nodes in depth-first order; each subtree past
    them is ``{"kind": "cut", "nodes": <how many it held>}``."""
    if budget[0] <= 0:
        return {"kind": "cut", "nodes": tree_size(node)}
    budget[0] -= 1
    return {key: prune(value, budget) if key in _BRANCHES and isinstance(value, dict)
            else value for key, value in node.items()}


def tree_size(node: JSON) -> int:
    return 1 + sum(tree_size(node[key]) for key in _BRANCHES
                   if isinstance(node.get(key), dict))


def machine_tree(puzzle: Puzzle) -> JSON:
    """The machine's decision tree (``Plan.tree``) for the puzzle at the optimal level,
    cut to its first ``TREE_NODES`` nodes; its worst case, and whether it is proven
    worst-case optimal."""
    plan = solve(puzzle.candidates("optimal"), puzzle.size)
    tree: dict[str, Any] = {"tree": prune(plan.tree(), [TREE_NODES]), "proven": plan.proven,
                            "worst": list(plan.worst)}
    return tree
