"""Checks of the Turing machine's plans against a plain reference search, shared by the
machine's tests."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from hypothesis import strategies as st

from engines.turing.cards import CODES, Code, code_text
from engines.turing.generator import generate
from engines.turing.machine import (
    HeuristicMachine,
    Machine,
    MachineRun,
    Plan,
    next_step,
    play,
    solve,
)
from engines.turing.puzzle import LETTERS, MAX_TESTS_PER_ROUND, Candidate


def reference_worst(candidates: Sequence[Candidate], letters: int) -> tuple[int, int]:
    """The rules' recursion as plainly as possible: sets are frozensets of candidates,
    every proposal and letter is tried, nothing is bounded."""
    everyone = tuple(dict.fromkeys(candidates))

    def one_code(s: frozenset[Candidate]) -> bool:
        return len({c.code for c in s}) == 1

    @cache
    def rounds(s: frozenset[Candidate]) -> tuple[int, int]:
        if one_code(s):
            return (0, 0)
        values = []
        for proposal in CODES:
            value = within(s, proposal, MAX_TESTS_PER_ROUND, True)
            if value is not None:
                values.append((value[0] + 1, value[1]))
        return min(values)

    @cache
    def within(s: frozenset[Candidate], proposal: Code, left: int, first: bool
               ) -> tuple[int, int] | None:
        if one_code(s):
            return (0, 0)
        values = [] if first else [rounds(s)]
        for letter in range(letters if left else 0):
            yes = frozenset(c for c in s if c.criteria[letter].accepts(proposal))
            if yes and yes != s:
                parts = [within(part, proposal, left - 1, False) for part in (yes, s - yes)]
                if all(part is not None for part in parts):
                    worst = max(part for part in parts if part is not None)
                    values.append((worst[0], worst[1] + 1))
        return min(values) if values else None

    return rounds(frozenset(everyone))


def walk(tree: dict[str, Any], actual: Candidate) -> tuple[list[tuple[int, str, str, bool]],
                                                           dict[str, Any]]:
    """The transcript the tree gives against ``actual``, and the leaf it reaches."""
    transcript: list[tuple[int, str, str, bool]] = []
    node = tree
    number, proposal = 0, ""
    while node["kind"] != "code":
        if node["kind"] == "round":
            number, proposal = node["round"], node["proposal"]
            node = node["next"]
        elif node["kind"] == "end_round":
            node = node["next"]
        else:
            letter = LETTERS.index(node["verifier"])
            code = tuple(int(digit) for digit in proposal)
            answer = actual.criteria[letter].accepts((code[0], code[1], code[2]))
            transcript.append((number, proposal, node["verifier"], answer))
            node = node["yes" if answer else "no"]
    return transcript, node


def leaves(tree: dict[str, Any]) -> list[dict[str, Any]]:
    if tree["kind"] == "code":
        return [tree]
    if tree["kind"] == "test":
        return leaves(tree["yes"]) + leaves(tree["no"])
    return leaves(tree["next"])


def check_run(plan: Plan, run: MachineRun, actual: Candidate) -> None:
    """The run identifies ``actual``'s code within the rules and the plan's bound, and the
    tree tells the same story."""
    assert run.code == actual.code
    assert run.score <= plan.worst
    per_round: dict[int, list[int]] = {}
    for record in run.transcript:
        per_round.setdefault(record.round, []).append(record.letter)
        assert record.answer == actual.criteria[record.letter].accepts(record.proposal)
    for letters in per_round.values():
        assert 1 <= len(letters) <= MAX_TESTS_PER_ROUND
        assert len(set(letters)) == len(letters)
    assert sorted(per_round) == list(range(1, run.rounds + 1))
    assert len({r.proposal for r in run.transcript if r.round == 1}) <= 1
    transcript, leaf = walk(plan.tree(), actual)
    assert transcript == [(r.round, code_text(r.proposal), LETTERS[r.letter], r.answer)
                          for r in run.transcript]
    assert (leaf["code"], leaf["rounds"], leaf["tests"]) == (code_text(run.code), run.rounds,
                                                             run.tests)


def check_plan(candidates: Sequence[Candidate], letters: int, actuals: int = 8) -> Plan:
    plan = solve(candidates, letters)
    tree = plan.tree()
    assert json.loads(json.dumps(tree)) == tree
    assert max((leaf["rounds"], leaf["tests"]) for leaf in leaves(tree)) == plan.worst
    for actual in random.Random(len(candidates)).sample(list(candidates),
                                                        min(actuals, len(candidates))):
        check_run(plan, play(plan, actual), actual)
    return plan


@st.composite
def small_candidate_sets(draw: st.DrawFn) -> tuple[list[Candidate], int]:
    """Candidates of a generated classic puzzle, some of them at random when many."""
    size = draw(st.sampled_from([4, 5]))
    difficulty = draw(st.sampled_from(["easy", "standard", "hard"]))
    level = draw(st.sampled_from(["optimal", "par"]))
    puzzle = generate(difficulty, size, "classic", draw(st.integers(0, 10_000)))
    candidates = puzzle.candidates(level)
    if len(candidates) > 9:
        picks = draw(st.lists(st.integers(0, len(candidates) - 1), min_size=2, max_size=9,
                              unique=True))
        candidates = [candidates[i] for i in picks]
    return candidates, size


def budgeted_plan(candidates: Sequence[Candidate], letters: int, budget: int) -> Plan:
    return solve(candidates, letters, machine=Machine(candidates, letters, node_budget=budget))


def check_heuristic(candidates: Sequence[Candidate], letters: int) -> Plan:
    """A plan past a budget of 0 nodes: the heuristic's, flagged, never better than the
    exact worst case, and internally consistent for every secret it may meet."""
    plan = budgeted_plan(candidates, letters, 0)
    assert isinstance(plan.machine, HeuristicMachine) and not plan.proven
    # The exact worst case without a budget: some small sets need more than it.
    exact = solve(candidates, letters, machine=Machine(candidates, letters, node_budget=None))
    assert exact.proven
    assert plan.worst >= exact.worst
    tree = plan.tree()
    assert max((leaf["rounds"], leaf["tests"]) for leaf in leaves(tree)) == plan.worst
    for actual in random.Random(len(candidates)).sample(list(candidates),
                                                        min(8, len(candidates))):
        run = play(plan, actual)
        check_run(plan, run, actual)
        assert play_by_steps(candidates, actual, plan.machine) == (run.code, run.rounds,
                                                                   run.tests)
    return plan


def play_by_steps(candidates: Sequence[Candidate], actual: Candidate,
                  machine: Machine | None) -> tuple[Code, int, int]:
    """A game driven only by ``next_step``, the way an agent asks "what now?"."""
    remaining = list(candidates)
    rounds = tests = 0
    proposal: Code | None = None
    tested: list[int] = []
    while True:
        step = next_step(remaining, proposal, tested, machine=machine)
        if step.kind == "guess":
            assert step.code is not None
            return step.code, rounds, tests
        if step.kind == "propose":
            assert proposal is None and step.code is not None
            proposal, tested = step.code, []
            rounds += 1
        elif step.kind == "test":
            assert proposal is not None and step.letter is not None
            assert step.letter not in tested and len(tested) < MAX_TESTS_PER_ROUND
            answer = actual.criteria[step.letter].accepts(proposal)
            remaining = [c for c in remaining
                         if c.criteria[step.letter].accepts(proposal) == answer]
            tested.append(step.letter)
            tests += 1
        else:
            assert step.kind == "end_round" and tested
            proposal = None
