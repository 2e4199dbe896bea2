"""The machine's search shortcuts against plain definitions: fiber bounds, families of
proposals, the ordering by ``_rank``, and the heuristic's relabelling-shared memo and work
wall, each on small cases where the plain reference can answer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from engines.turing import machine_exact, machine_heuristic
from engines.turing.generator import generate
from engines.turing.machine import HeuristicMachine, Machine, play, solve
from engines.turing.machine_exact import _BIG, _rounds_bound
from engines.turing.puzzle import Candidate
from tests.test_turing_machine import (
    check_heuristic,
    check_plan,
    reference_worst,
    small_candidate_sets,
)


def plain_families(machine: Machine, s: int) -> list[int]:
    """``Machine._families`` as first written: every proposal's set of splits, the first
    proposal of each, and no family whose splits another kept family all has."""
    families: dict[frozenset[int], int] = {}
    for proposal in machine._proposals:
        splits = frozenset(min(y, s ^ y) for m in machine._answers[proposal]
                           if (y := m & s) and y != s)
        if splits:
            families.setdefault(splits, proposal)
    kept: list[tuple[frozenset[int], int]] = []
    for splits, proposal in sorted(families.items(), key=lambda item: -len(item[0])):
        if not any(splits <= other for other, _ in kept):
            kept.append((splits, proposal))
    return [proposal for _, proposal in kept]


def random_subsets(machine: Machine, count: int, seed: int) -> list[int]:
    """Sets that tests could leave: the universe narrowed by random answers."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        s = machine.universe
        for _ in range(rng.randrange(4)):
            proposal = rng.choice(machine._proposals)
            letter = rng.randrange(machine.letters)
            part = machine._answers[proposal][letter] & s
            s = part if rng.random() < 0.5 and part else (s ^ part or s)
        found.append(s)
    return found


@pytest.mark.parametrize("mode", ["classic", "extreme", "nightmare"])
def test_families_match_their_plain_definition(mode: str) -> None:
    for seed in range(3):
        puzzle = generate("hard" if mode == "classic" else "easy", 4, mode, seed)
        machine = Machine(puzzle.candidates("par"), puzzle.size)
        for s in random_subsets(machine, 6, seed):
            assert machine._families(s, machine._proposals) == plain_families(machine, s)


@settings(max_examples=6, deadline=None)
@given(small_candidate_sets())
def test_the_fiber_floor_is_a_lower_bound(case: tuple[list[Candidate], int]) -> None:
    candidates, letters = case
    machine = Machine(candidates, letters)
    s = machine.universe
    if machine.single(s):
        return
    floor = machine._fiber_floor(s, _rounds_bound(machine.code_count(s)))
    rounds, tests = reference_worst(candidates, letters)
    assert floor <= rounds * _BIG + tests


def fiber_case() -> tuple[list[Candidate], int]:
    """A classic set where a fiber's codes outnumber what the count bound allows."""
    for seed in range(200):
        puzzle = generate("hard", 4, "classic", seed)
        candidates = puzzle.candidates("par")
        machine = Machine(candidates, 4)
        for s in random_subsets(machine, 20, seed):
            static = _rounds_bound(machine.code_count(s)) if not machine.single(s) else 0
            members = machine.members(s)
            if static and len(members) <= 9 and machine._fiber_floor(s, static) > static:
                return members, 4
    raise AssertionError("no set where fibers raise the bound")  # pragma: no cover


def test_the_fiber_floor_raises_the_bound_and_stays_below_the_value() -> None:
    candidates, letters = fiber_case()
    machine = Machine(candidates, letters)
    s = machine.universe
    static = _rounds_bound(machine.code_count(s))
    floor = machine._fiber_floor(s, static)
    rounds, tests = reference_worst(candidates, letters)
    assert static < floor <= rounds * _BIG + tests
    assert check_plan(candidates, letters).worst == (rounds, tests)


@settings(max_examples=6, deadline=None)
@given(small_candidate_sets())
def test_ordering_by_rank_changes_no_value(case: tuple[list[Candidate], int],
                                           ) -> None:
    # Small sets have too few codes to be ranked; rank them all, as large sets are.
    candidates, letters = case
    original = machine_exact._RANK_ABOVE
    machine_exact._RANK_ABOVE = 0
    try:
        plan = check_plan(candidates, letters)
    finally:
        machine_exact._RANK_ABOVE = original
    assert plan.worst == reference_worst(candidates, letters)


@pytest.mark.parametrize("seed", range(3))
def test_the_relabelling_shared_heuristic_plays_its_own_tree(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nightmare universes past ``_DELEGATE_MAX`` share the heuristic's memo between
    relabelled sets; on a small one made to do so, its plan must stay consistent."""
    monkeypatch.setattr(machine_heuristic, "_DELEGATE_MAX", 0)
    puzzle = generate("easy", 4, "nightmare", seed)
    candidates = puzzle.candidates("optimal")
    plan = check_heuristic(candidates, 4)
    assert isinstance(plan.machine, HeuristicMachine) and plan.machine._canonical


@pytest.mark.parametrize("mode", ["classic", "nightmare"])
def test_past_the_wall_the_heuristic_still_plays_its_own_tree(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine_heuristic, "_HEURISTIC_WALL", 0)
    puzzle = generate("easy", 4, mode, 7)
    check_heuristic(puzzle.candidates("optimal"), 4)


def test_failed_delegates_leave_their_subsets_a_chance() -> None:
    """A set too hard for its sub-budget does not stand in for its subsets, which get
    exact machines of their own while the heuristic's exact work lasts."""
    puzzle = generate("hard", 6, "classic", 39)  # one of the benchmark's guessed puzzles
    candidates = puzzle.candidates("par")
    plan = solve(candidates, 6, machine=Machine(candidates, 6, node_budget=0))
    heuristic = plan.machine
    assert isinstance(heuristic, HeuristicMachine)
    assert heuristic._fallbacks and heuristic._delegates
    run = play(plan, Candidate(puzzle.secret_criteria, puzzle.code))
    assert run.code == puzzle.code and run.score <= plan.worst
