"""The machine: the rulebook's scores, a plain reference on small cases, and properties of
its plans, play, decision trees and ``next_step`` on generated puzzles."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.turing import machine_heuristic as machine_module
from engines.turing.cards import CODES, Code, code_text
from engines.turing.generator import generate
from engines.turing.machine import (
    HeuristicMachine,
    Machine,
    MachineRun,
    Plan,
    Step,
    machine_score,
    next_step,
    play,
    solve,
)
from engines.turing.puzzle import LETTERS, MAX_TESTS_PER_ROUND, Candidate, Puzzle

CHALLENGE_ONE = Puzzle("classic", ((4,), (9,), (11,), (14,)), ("4.1", "9.0", "11.0", "14.2"))
CHALLENGE_TWO = Puzzle("classic", ((3,), (7,), (10,), (14,)), ("3.1", "7.1", "10.1", "14.1"))
B63_YRW_4 = Puzzle("classic", ((2,), (5,), (9,), (15,), (18,), (22,)),
                   ("2.2", "5.1", "9.1", "15.0", "18.1", "22.2"))


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


# ---------------------------------------------------------------- the rulebook


def test_challenge_one() -> None:
    optimal = machine_score(CHALLENGE_ONE, "optimal")
    assert optimal.score == optimal.worst == (1, 1)
    assert optimal.run.code == (2, 4, 1)
    par = machine_score(CHALLENGE_ONE, "par")
    assert par.score == (1, 3)
    assert par.run.code == (2, 4, 1)


def test_challenge_two() -> None:
    par = machine_score(CHALLENGE_TWO, "par")
    assert par.score == par.worst == (2, 4)
    optimal = machine_score(CHALLENGE_TWO, "optimal")
    assert optimal.score == (1, 3)
    # Seven codes need three tests; one round cannot split them perfectly, so the worst
    # case takes a second round, though the real secret is found in the first.
    assert optimal.worst == (2, 3)
    assert optimal.run.code == (4, 3, 5)


def test_b63_yrw_4_needs_no_test() -> None:
    result = machine_score(B63_YRW_4, "optimal")
    assert result.score == result.worst == (0, 0)
    assert result.run.transcript == ()
    assert result.plan.tree() == {"kind": "code", "code": "513", "rounds": 0, "tests": 0}
    assert next_step(B63_YRW_4.candidates("optimal")) == Step("guess", code=(5, 1, 3))


@pytest.mark.parametrize("puzzle", [CHALLENGE_ONE, CHALLENGE_TWO, B63_YRW_4])
@pytest.mark.parametrize("level", ["optimal", "par"])
def test_rulebook_puzzles_match_the_reference(puzzle: Puzzle, level: str) -> None:
    candidates = puzzle.candidates(level)
    if len(candidates) > 16:
        pytest.skip("too many candidates for the plain reference")
    assert solve(candidates, puzzle.size).worst == reference_worst(candidates, puzzle.size)


# ---------------------------------------------------------------- against the reference


def test_a_second_round_costs_two_tests_not_the_deepest_path() -> None:
    # Six codes, and no round separates them all. The best plan's deepest path takes three
    # tests in the first round, its two-round paths only two: (2, 2). A bound once charged
    # every two-round plan three tests and the machine settled for (2, 3).
    puzzle = generate("easy", 4, "classic", 286)
    candidates = puzzle.candidates("optimal")
    assert reference_worst(candidates, 4) == (2, 2)
    assert check_plan(candidates, 4).worst == (2, 2)


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


@settings(max_examples=20, deadline=None)
@given(small_candidate_sets())
def test_the_search_agrees_with_the_plain_reference(case: tuple[list[Candidate], int]) -> None:
    candidates, letters = case
    plan = check_plan(candidates, letters)
    assert plan.worst == reference_worst(candidates, letters)


# ---------------------------------------------------------------- generated puzzles


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["easy", "standard", "hard"]), st.sampled_from([4, 5, 6]),
       st.sampled_from(["optimal", "par"]), st.integers(0, 100_000))
def test_classic_puzzles(difficulty: str, size: int, level: str, seed: int) -> None:
    puzzle = generate(difficulty, size, "classic", seed)
    result = machine_score(puzzle, level)
    assert result.run.code == puzzle.code
    check_run(result.plan, result.run, Candidate(puzzle.secret_criteria, puzzle.code))
    check_plan(puzzle.candidates(level), size)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(["extreme", "nightmare"]), st.sampled_from(["optimal", "par"]),
       st.integers(0, 100_000))
def test_small_extreme_and_nightmare_puzzles(mode: str, level: str, seed: int) -> None:
    puzzle = generate("easy", 4, mode, seed)
    result = machine_score(puzzle, level)
    assert result.run.code == puzzle.code
    check_run(result.plan, result.run, Candidate(puzzle.secret_criteria, puzzle.code))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["classic", "extreme", "nightmare"]),
       st.sampled_from(["easy", "standard", "hard"]), st.sampled_from([4, 5]),
       st.sampled_from(["optimal", "par"]), st.integers(0, 100_000))
def test_generated_puzzles_at_large(mode: str, difficulty: str, size: int, level: str,
                                    seed: int) -> None:
    if mode != "classic":
        # Extreme and nightmare ``par`` sets, and hard ones, can take minutes each; four
        # letters of the easier bands at ``optimal`` keep the run to a few minutes.
        difficulty, size, level = ("easy" if difficulty == "hard" else difficulty), 4, \
            "optimal"
    puzzle = generate(difficulty, size, mode, seed)
    result = machine_score(puzzle, level)
    assert result.run.code == puzzle.code
    check_plan(puzzle.candidates(level), puzzle.size, actuals=16)


def test_relabelling_symmetry_changes_no_value() -> None:
    """Nightmare candidates are closed under relabelling the letters, which the machine
    exploits; without that shortcut it must find the same values."""
    for seed in range(4):
        puzzle = generate("easy", 4, "nightmare", seed)
        candidates = puzzle.candidates("optimal")
        fast = Machine(candidates, 4)
        assert fast.symmetric
        plain = Machine(candidates, 4)
        plain.symmetric = False
        assert solve(candidates, 4, fast).worst == solve(candidates, 4, plain).worst
    classic = Machine(CHALLENGE_TWO.candidates("par"), 4)
    assert not classic.symmetric


# ---------------------------------------------------------------- next_step


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


@pytest.mark.parametrize(("puzzle", "level"), [(CHALLENGE_ONE, "par"), (CHALLENGE_TWO, "par"),
                                               (CHALLENGE_TWO, "optimal")])
def test_next_step_plays_like_the_plan(puzzle: Puzzle, level: str) -> None:
    candidates = puzzle.candidates(level)
    plan = solve(candidates, puzzle.size)
    for actual in candidates:
        run = play(plan, actual)
        fresh = play_by_steps(candidates, actual, None)
        reused = play_by_steps(candidates, actual, plan.machine)
        assert fresh == reused == (run.code, run.rounds, run.tests)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["classic", "nightmare"]), st.integers(0, 100_000))
def test_next_step_identifies_the_code(mode: str, seed: int) -> None:
    puzzle = generate("easy", 4, mode, seed)
    candidates = puzzle.candidates("optimal")
    actual = Candidate(puzzle.secret_criteria, puzzle.code)
    plan = solve(candidates, puzzle.size)
    code, rounds, tests = play_by_steps(candidates, actual, plan.machine)
    assert code == puzzle.code
    assert (rounds, tests) <= plan.worst


def test_next_step_on_a_set_no_test_could_leave() -> None:
    """A relabelling-closed machine shares memo entries between relabelled sets, which is
    sound only for sets that tests leave; for any other set a new machine answers."""
    puzzle = generate("easy", 4, "nightmare", 3)
    candidates = puzzle.candidates("optimal")
    plan = solve(candidates, 4)
    assert plan.machine.symmetric
    odd = candidates[::2]
    assert not plan.machine.reachable(plan.machine.subset(odd))
    with pytest.raises(ValueError):
        plan.machine.next_step(odd)
    assert next_step(odd, machine=plan.machine) == next_step(odd)
    assert solve(odd, 4, plan.machine).worst == solve(odd, 4).worst


def test_next_step_mid_round() -> None:
    candidates = CHALLENGE_TWO.candidates("par")
    step = next_step(candidates)
    assert step.kind == "propose" and step.code is not None
    assert step.text().startswith("propose ")
    first = next_step(candidates, step.code)
    assert first.kind == "test" and first.letter is not None
    # Out of tests, the round ends; a proposal that tells nothing still needs one test.
    assert next_step(candidates, step.code, [0, 1, 2]).kind == "end_round"
    assert next_step(candidates, step.code, [], tests_left=0).kind == "end_round"
    useless = next((code for code in CODES
                    if all(len({c.criteria[v].accepts(code) for c in candidates}) == 1
                           for v in range(4))), None)
    if useless is not None:
        assert next_step(candidates, useless).kind == "test"


def test_play_refuses_a_secret_outside_the_plan() -> None:
    plan = solve(CHALLENGE_ONE.candidates("optimal"), 4)
    outsider = next(c for c in CHALLENGE_ONE.candidates("par")
                    if c not in CHALLENGE_ONE.candidates("optimal"))
    with pytest.raises(ValueError):
        play(plan, outsider)


def test_results_are_json_safe() -> None:
    result = machine_score(CHALLENGE_TWO, "par")
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["score"] == [2, 4]
    assert data["run"]["transcript"][0]["round"] == 1


# ---------------------------------------------------------------- past the node budget


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


@pytest.mark.parametrize("delegates", [True, False])
@pytest.mark.parametrize(("puzzle", "level"), [(CHALLENGE_ONE, "par"), (CHALLENGE_TWO, "par"),
                                               (CHALLENGE_TWO, "optimal")])
def test_past_its_budget_the_machine_plays_a_flagged_heuristic_plan(
        puzzle: Puzzle, level: str, delegates: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not delegates:
        monkeypatch.setattr(machine_module, "_HEURISTIC_EXACT_BUDGET", 0)
    candidates = puzzle.candidates(level)
    plan = check_heuristic(candidates, puzzle.size)
    if delegates:
        # Sets this small get an exact machine of their own: the plan is optimal, but
        # nothing proved that before the budget ran out, so it stays flagged.
        assert plan.worst == solve(candidates, puzzle.size).worst


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["classic", "extreme", "nightmare"]), st.sampled_from(["optimal", "par"]),
       st.booleans(), st.integers(0, 100_000))
def test_the_heuristic_on_generated_puzzles(mode: str, level: str, delegates: bool,
                                            seed: int) -> None:
    puzzle = generate("easy", 4, mode, seed)
    original = machine_module._HEURISTIC_EXACT_BUDGET
    machine_module._HEURISTIC_EXACT_BUDGET = original if delegates else 0
    try:
        check_heuristic(puzzle.candidates(level), puzzle.size)
    finally:
        machine_module._HEURISTIC_EXACT_BUDGET = original


def test_machine_scores_say_whether_they_are_proven() -> None:
    from engines.turing.game import machine_scores
    scores = machine_scores(CHALLENGE_ONE)
    assert scores["par"] == {"score": [1, 3], "worst": list(solve(
        CHALLENGE_ONE.candidates("par"), 4).worst), "proven": True}
    assert scores["optimal"]["score"] == [1, 1] and scores["optimal"]["proven"] is True


def test_a_plan_found_just_within_budget_is_followed_to_the_end() -> None:
    # The search stops once it has the value; following the plan may still search a
    # little more, and that must not count against a budget already spent.
    candidates = CHALLENGE_TWO.candidates("par")
    measured = Machine(candidates, 4, node_budget=None)
    solve(candidates, 4, machine=measured)
    assert measured.nodes > 0
    exact_fit = Machine(candidates, 4, node_budget=measured.nodes)
    plan = solve(candidates, 4, machine=exact_fit)
    assert plan.proven
    for actual in candidates:
        check_run(plan, play(plan, actual), actual)
