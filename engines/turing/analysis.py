"""The Turing Machine explained: which test to make next (a hint), what each test of a
finished game ruled out, and the machine's decision tree for the same puzzle.

A hint is the test whose answer leaves the fewest codes in the worst case, one test ahead
(the machine's whole-game search took over a minute on 6-verifier nightmare puzzles). It
knows only what the player knows: the shown cards (the puzzle's candidates at the
optimal level, which every player can work out) and the player's own results. It never
reads the secret, so it cannot give the code away before the player could deduce it.
Everything here is CPU work (candidates, the machine's tree): call it off the event loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from engines.base import JSON
from engines.turing.cards import CODES, Code, code_bit, code_text
from engines.turing.machine import solve
from engines.turing.puzzle import Candidate, Puzzle
from engines.turing.rules import parse_code
from engines.turing.state import TuringState

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


@dataclass(frozen=True)
class Splits:
    """Per verifier letter and code still possible, the proposals that some (``any``) and
    that every (``every``) remaining candidate with that code has the verifier accept,
    as bitmasks over the 125 codes. A test's answer keeps code ``k`` on the yes side when
    ``any`` has the proposal's bit, on the no side when ``every`` lacks it: so a split is
    counted for every proposal and letter at once, without going through the candidates
    again."""

    codes: tuple[Code, ...]
    any: tuple[tuple[int, ...], ...]
    every: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, candidates: Sequence[Candidate], letters: int) -> Splits:
        codes = tuple(sorted({c.code for c in candidates}))
        where = {code: i for i, code in enumerate(codes)}
        some = [[0] * len(codes) for _ in range(letters)]
        every = [[-1] * len(codes) for _ in range(letters)]
        for candidate in candidates:
            k = where[candidate.code]
            for v, chosen in enumerate(candidate.criteria):
                some[v][k] |= chosen.mask
                every[v][k] &= chosen.mask
        return cls(codes, tuple(map(tuple, some)), tuple(map(tuple, every)))

    def split(self, proposal: Code, letter: int) -> tuple[int, int]:
        bit = code_bit(proposal)
        yes = sum(1 for mask in self.any[letter] if mask & bit)
        no = sum(1 for mask in self.every[letter] if not mask & bit)
        return yes, no


def _best(splits: Splits, proposals: Sequence[Code], letters: Sequence[int]
          ) -> tuple[Code, int, int, int] | None:
    """The proposal and letter whose answer leaves the fewest codes in the worst case
    (then the most in the better case: an even split), and that split; None when no test
    rules out any code."""
    total = len(splits.codes)
    best: tuple[tuple[int, int], Code, int, int, int] | None = None
    for proposal in proposals:
        for letter in letters:
            yes, no = splits.split(proposal, letter)
            if not (0 < yes < total or 0 < no < total):
                continue  # no answer it can give rules out a code
            key = (max(yes, no), -min(yes, no))
            if best is None or key < best[0]:
                best = (key, proposal, letter, yes, no)
    return None if best is None else best[1:]


def hint(state: TuringState, seat: int) -> JSON:
    """The test that splits the codes still possible best, from ``seat``'s own results,
    and why: ``{"kind": "test" | "propose" | "guess" | "next" | "none", "action",
    "proposal", "letter", "code", "codes", "yes", "no"}``. ``action`` is the move to make
    now (absent for "none", when the results contradict each other); ``codes`` counts the
    codes still possible, ``yes`` and ``no`` how many the test leaves on each answer;
    "best" leaves the fewest in the worst case. Before a proposal, the hint names the
    proposal to make and the first test with it; "next" means no test left this round
    tells anything new."""
    sheet = state.sheets[seat]
    if state.outcome() is not None or seat not in state.to_move():
        raise ValueError("not this seat's turn")
    letters = state.puzzle.letters
    remaining = consistent(state.candidates(), letters, sheet_results(sheet.rounds))
    found: JSON = {"game": "turing", "codes": code_count(remaining)}
    if not remaining:
        return {**found, "kind": "none"}
    if found["codes"] == 1:
        only = code_text(remaining[0].code)
        return {**found, "kind": "guess", "action": f"guess {only}", "code": only}
    if sheet.tests_left(state.round) <= 0:
        return {**found, "kind": "next", "action": "next"}
    splits = Splits.of(remaining, len(letters))
    proposal: str | None = sheet.current["proposal"]
    tested = {letter for letter, _ in sheet.current["tests"]}
    untested = [v for v, letter in enumerate(letters) if letter not in tested]
    best = _best(splits, CODES if proposal is None else [parse_code(proposal)], untested)
    if best is None:
        return {**found, "kind": "next", "action": "next", "proposal": proposal}
    code, letter, yes, no = best
    action = f"propose {code_text(code)}" if proposal is None else f"test {letters[letter]}"
    return {**found, "kind": "propose" if proposal is None else "test", "action": action,
            "proposal": code_text(code), "letter": letters[letter], "yes": yes, "no": no}


def ruled_out(puzzle: Puzzle, frames: Sequence[JSON]) -> list[JSON | None]:
    """Per frame of a replay (``engines.replay.Frame.to_dict()``, with private views):
    for a test, ``{"seat", "proposal", "letter", "answer", "before", "after"}``, the codes
    the tester still held possible before and after it; None for other frames."""
    candidates = puzzle.candidates("optimal")
    letters = puzzle.letters
    effects: list[JSON | None] = [None]
    # Each seat's candidates so far, narrowed by one result per test: not filtered from
    # all candidates again at every test.
    held: dict[int, list[Candidate]] = {}
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
        if seat not in held:
            held[seat] = consistent(candidates, letters, before)
        count_before = code_count(held[seat])
        held[seat] = consistent(held[seat], letters, after[-1:])
        effects.append({"seat": seat, "proposal": proposal, "letter": letter,
                        "answer": answer, "before": count_before,
                        "after": code_count(held[seat])})
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
