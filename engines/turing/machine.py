"""The machine: a worst-case optimal player of a Turing Machine puzzle.

Specification: ``shared/rules/turing.md``, section "The machine". A round is one proposal
and up to three tests of distinct verifier letters, each chosen after seeing the previous
answers; the round may end after any test. The machine must reach a state where every
remaining candidate has the same code, and minimises, in the worst case over the
candidates, first the rounds and then the tests.

Model. A cost ``(rounds, tests)`` is packed into one int, ``rounds * _BIG + tests``, so that
lexicographic comparison is ``<`` and adding costs is ``+``. Adding a constant keeps the
lexicographic order, and so the worst case of a strategy is a plain minimax over answers:

* ``R(S) = (1, 0) + min over proposals p of T(S, p, 3, first=True)`` (``0`` if one code);
* ``T(S, p, k, first)`` = the best of ending the round (``R(S)``, not on the first step) and,
  for a letter ``v`` whose answer splits ``S``, ``(0, 1) + max(T(S_yes, ...), T(S_no, ...))``
  with ``k - 1`` tests left (``0`` for a part with one code).

A test that splits nothing is never worth making, and a letter already tested with the
round's proposal splits nothing any more, so "distinct letters" needs no bookkeeping.

Modules. ``machine_exact`` holds the exact search (``Machine``), which counts its nodes
and gives up past ``NODE_BUDGET`` (a count, not a time, so that every computer scores a
puzzle alike and a game replays exactly); ``machine_heuristic`` the fallback the machine
then plays by (``HeuristicMachine``), whose worst case is still computed exactly over its
own decision tree but is not proven optimal, and the plan says so (``Plan.proven``). This
module plans, plays and answers ``next_step`` with either, and re-exports both.

Laziness. The heuristic chooses without values, so a heuristic plan is only its root until
asked: playing a secret (``play``, ``next_step``) chooses along that secret's path alone,
the worst case (``Plan.value``) walks the tree only where it can matter (see
``HeuristicMachine._round_value``), and the full tree is built only for ``Plan.tree``.
On the largest nightmare sets that tree has thousands of rounds.

Ties between equally good choices go to the first found: letters before ending a round,
proposals in the order of their bounds (see ``machine_exact``). The score against the
real secret can depend on that choice (rulebook challenge #2 at ``optimal`` scores (1, 3)
here; another worst-case optimal plan would score (2, 3)), the worst case never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import JSON
from engines.turing.cards import CODES, Code, code_text
from engines.turing.machine_costs import _BIG, NODE_BUDGET, Score, _unpack
from engines.turing.machine_exact import Machine, SearchBudgetExceeded, Step
from engines.turing.machine_heuristic import HeuristicMachine
from engines.turing.puzzle import LETTERS, MAX_TESTS_PER_ROUND, Candidate, Puzzle

__all__ = [
    "NODE_BUDGET", "HeuristicMachine", "Machine", "MachineResult", "MachineRun", "Plan",
    "Score", "SearchBudgetExceeded", "Step", "TestRecord", "actual_candidate",
    "machine_score", "next_step", "play", "solve",
]


@dataclass(frozen=True)
class TestRecord:
    """One test the machine made: in which round, with which proposal, the answer."""

    round: int
    proposal: Code
    letter: int
    answer: bool

    def to_dict(self) -> JSON:
        return {"round": self.round, "proposal": code_text(self.proposal),
                "verifier": LETTERS[self.letter], "answer": self.answer}


@dataclass(frozen=True)
class MachineRun:
    """The machine playing against one actual secret."""

    code: Code
    rounds: int
    tests: int
    transcript: tuple[TestRecord, ...]

    @property
    def score(self) -> Score:
        return (self.rounds, self.tests)

    def to_dict(self) -> JSON:
        return {"code": code_text(self.code), "rounds": self.rounds, "tests": self.tests,
                "transcript": [record.to_dict() for record in self.transcript]}


def _exact_or_heuristic(machine: Machine, s: int, options: tuple[int, ...]
                        ) -> tuple[Machine, int | None]:
    """``R(s)`` on ``machine`` within its node budget; past it, the heuristic and no value
    yet: the heuristic plays without one, and its worst case is a walk of its whole
    tree, which a plan makes only when asked (``Plan.value``)."""
    machine.nodes = 0
    try:
        value = machine.exact_rounds_value(s, options)
        # Following the plan (play, tree) asks only what the search has nearly answered:
        # no budget may stop it halfway through a proven plan.
        machine.node_budget = None
        return machine, value
    except SearchBudgetExceeded:
        return HeuristicMachine(machine), None


@dataclass
class Plan:
    """The machine's whole strategy from a set of candidates."""

    machine: Machine
    root: int
    options: tuple[int, ...]
    _value: int | None = field(default=None, repr=False)
    _tree: JSON | None = field(default=None, repr=False)

    @property
    def value(self) -> int:
        """The plan's worst case, packed; for the heuristic, computed on first use."""
        if self._value is None:
            self._value = self.machine.exact_rounds_value(self.root, self.options)
        return self._value

    @property
    def worst(self) -> Score:
        return _unpack(self.value)

    @property
    def proven(self) -> bool:
        """Whether the plan is worst-case optimal; False for the heuristic's plan."""
        return self.machine.proven

    def tree(self) -> JSON:
        """The decision tree as nested JSON-safe dicts (see ``_round_node``)."""
        if self._tree is None:
            self._tree = _round_node(self.machine, self.root, self.options, 1, 0)
        return self._tree


def _leaf(machine: Machine, s: int, rounds: int, tests: int) -> JSON:
    return {"kind": "code", "code": code_text(machine.code(s)), "rounds": rounds,
            "tests": tests}


def _round_node(machine: Machine, s: int, options: tuple[int, ...], number: int,
                tests: int) -> JSON:
    """``{"kind": "round", "round", "proposal", "candidates", "codes", "worst", "next"}``;
    below it ``{"kind": "test", "verifier", "yes", "no"}``, ``{"kind": "end_round",
    "next": <round>}`` and leaves ``{"kind": "code", "code", "rounds", "tests"}``. "worst"
    is the (rounds, tests) still to come in the worst case."""
    if machine.single(s):
        return _leaf(machine, s, number - 1, tests)
    value, proposal = machine.best_proposal(s, options)
    return {"kind": "round", "round": number, "proposal": code_text(CODES[proposal]),
            "candidates": s.bit_count(), "codes": machine.code_count(s),
            "worst": list(_unpack(value)),
            "next": _step_node(machine, s, options, proposal, MAX_TESTS_PER_ROUND, True,
                               value - _BIG, number, tests)}


def _step_node(machine: Machine, s: int, options: tuple[int, ...], proposal: int, left: int,
               first: bool, target: int, number: int, tests: int) -> JSON:
    if machine.single(s):
        return _leaf(machine, s, number, tests)
    row = machine.row(proposal)
    _, letter = machine.decide(s, options, proposal, row, left, first, target)
    if letter is None:
        return {"kind": "end_round",
                "next": _round_node(machine, s, options, number + 1, tests)}
    node: dict[str, Any] = {"kind": "test", "verifier": LETTERS[letter]}
    for name, answer in (("yes", True), ("no", False)):
        part, part_options = machine.test(s, options, proposal, letter, answer)
        value = machine.child_value(part, part_options, proposal, row, left - 1, target)
        node[name] = _step_node(machine, part, part_options, proposal, left - 1, False, value,
                                number, tests + 1)
    return node


def _usable(machine: Machine, candidates: Sequence[Candidate]) -> int | None:
    """The set of ``candidates`` on ``machine`` if it can answer for them (they lie in its
    universe and, when it shares memo entries between relabellings, tests could have left
    them), else None."""
    try:
        s = machine.subset(candidates)
    except ValueError:
        return None
    return s if not machine.symmetric or machine.reachable(s) else None


def solve(candidates: Sequence[Candidate], letters: int,
          machine: Machine | None = None) -> Plan:
    """The machine's worst-case optimal plan; ``machine`` reuses an earlier search when
    it can answer for these candidates (see ``_usable``), else a new search starts."""
    root = None if machine is None else _usable(machine, candidates)
    if machine is None or root is None:
        machine = Machine(candidates, letters)
        root = machine.universe  # a new machine's universe is these candidates
    options = machine.options_of(root)
    machine, value = _exact_or_heuristic(machine, root, options)
    return Plan(machine, root, options, value)


def play(plan: Plan, actual: Candidate) -> MachineRun:
    """The machine following ``plan`` when the verifiers answer as ``actual`` does."""
    machine = plan.machine
    s, options = plan.root, plan.options
    if not s & machine.subset([actual]):
        raise ValueError("the actual secret is not among the plan's candidates")
    rounds = tests = 0
    transcript: list[TestRecord] = []
    # Only the path the answers take is asked about: the heuristic's choices need no
    # value, so playing costs it no walk of its whole tree.
    while not machine.single(s):
        proposal, target = machine.round_start(s, options)
        code = CODES[proposal]
        rounds += 1
        row = machine.row(proposal)
        left, first = MAX_TESTS_PER_ROUND, True
        while not machine.single(s):
            letter = machine.step_letter(s, options, proposal, row, left, first, target)
            if letter is None:
                break
            answer = actual.criteria[letter].accepts(code)
            s, options = machine.test(s, options, proposal, letter, answer)
            tests += 1
            left, first = left - 1, False
            transcript.append(TestRecord(rounds, code, letter, answer))
            target = machine.step_target(s, options, proposal, row, left, target)
    return MachineRun(machine.code(s), rounds, tests, tuple(transcript))


def next_step(remaining: Sequence[Candidate], proposal: Code | None = None,
              tested: Sequence[int] = (), tests_left: int | None = None,
              machine: Machine | None = None) -> Step:
    """The machine's decision in a situation (see ``Machine.next_step``); pass the
    ``machine`` of an earlier search (for example ``plan.machine``) to reuse what it
    already computed, which it does when it can answer for ``remaining``."""
    if not remaining:
        raise ValueError("no candidate remains: the answers contradict each other")
    if machine is None or _usable(machine, remaining) is None:
        machine = Machine(remaining, len(remaining[0].criteria))
    machine.nodes = 0
    machine.node_budget = NODE_BUDGET
    try:
        return machine.next_step(remaining, proposal, tested, tests_left)
    except SearchBudgetExceeded:
        return HeuristicMachine(machine).next_step(remaining, proposal, tested, tests_left)


@dataclass(frozen=True)
class MachineResult:
    """The machine on a puzzle: its score against the real secret, its worst case."""

    level: str
    score: Score
    worst: Score
    plan: Plan
    run: MachineRun

    @property
    def proven(self) -> bool:
        return self.plan.proven

    def to_dict(self) -> JSON:
        return {"level": self.level, "score": list(self.score), "worst": list(self.worst),
                "proven": self.proven, "run": self.run.to_dict()}


def actual_candidate(puzzle: Puzzle) -> Candidate:
    return Candidate(puzzle.secret_criteria, puzzle.code)


def machine_score(puzzle: Puzzle, level: str = "optimal") -> MachineResult:
    """The machine's plan for ``puzzle`` at ``level`` and its play against the secret."""
    plan = solve(puzzle.candidates(level), puzzle.size)
    run = play(plan, actual_candidate(puzzle))
    return MachineResult(level, run.score, plan.worst, plan, run)
