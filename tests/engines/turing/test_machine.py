"""The machine: the rulebook's scores, a plain reference on small cases, and properties of
its plans, play, decision trees and ``next_step`` on generated puzzles."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.turing import machine_heuristic as machine_module
from engines.turing.cards import CODES
from engines.turing.generator import generate
from engines.turing.machine import (
    Machine,
    Step,
    machine_score,
    next_step,
    play,
    solve,
)
from engines.turing.puzzle import Candidate, Puzzle
from tests.helpers.turing_plans import (
    check_heuristic,
    check_plan,
    check_run,
    play_by_steps,
    reference_worst,
    small_candidate_sets,
)

CHALLENGE_ONE = Puzzle("classic", ((4,), (9,), (11,), (14,)), ("4.1", "9.0", "11.0", "14.2"))
CHALLENGE_TWO = Puzzle("classic", ((3,), (7,), (10,), (14,)), ("3.1", "7.1", "10.1", "14.1"))
B63_YRW_4 = Puzzle("classic", ((2,), (5,), (9,), (15,), (18,), (22,)),
                   ("2.2", "5.1", "9.1", "15.0", "18.1", "22.2"))


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


# Derandomized: a rare seed makes the exact check (``check_heuristic`` solves the set
# exactly) run for many minutes (a run of the suite met one past 25 minutes, on a machine
# shared with other runs). The eight examples are then the same, quick ones in every run.
@settings(max_examples=8, deadline=None, derandomize=True)
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
    from engines.turing.rules import machine_scores
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
