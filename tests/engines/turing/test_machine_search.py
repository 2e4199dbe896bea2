"""The machine's search shortcuts against plain definitions: fiber bounds, families of
proposals, the ordering by ``_rank``, and the heuristic's relabelling-shared memo and work
wall, each on small cases where the plain reference can answer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from engines.turing import machine_exact, machine_heuristic, machine_sets
from engines.turing.generator import generate
from engines.turing.machine import HeuristicMachine, Machine, play, solve
from engines.turing.machine_costs import _BIG, _rounds_bound
from engines.turing.puzzle import Candidate
from tests.helpers.turing_plans import (
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
    # The heuristic plans lazily: play and the worst case are what create its machines.
    run = play(plan, Candidate(puzzle.secret_criteria, puzzle.code))
    assert run.code == puzzle.code and run.score <= plan.worst
    assert heuristic._fallbacks and heuristic._delegates


@pytest.mark.parametrize("seed", range(2))
def test_small_sets_own_bitmasks_change_no_choice(seed: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Small sets are judged, and below them a relabelling-shared tree is walked, with
    bitmasks of their own (``_Local``): the same policy, only faster."""
    monkeypatch.setattr(machine_heuristic, "_DELEGATE_MAX", 0)
    puzzle = generate("easy", 4, "nightmare", seed)
    candidates = puzzle.candidates("optimal")
    actual = Candidate(puzzle.secret_criteria, puzzle.code)

    def heuristic_result() -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        plan = solve(candidates, 4, machine=Machine(candidates, 4, node_budget=0))
        assert isinstance(plan.machine, HeuristicMachine) and plan.machine._canonical
        return play(plan, actual).score, plan.worst, plan.tree()["worst"]

    local = heuristic_result()
    monkeypatch.setattr(machine_heuristic, "_LOCAL_MAX", 0)
    assert heuristic_result() == local


@pytest.mark.parametrize(("mode", "difficulty", "size", "shared"),
                         [("classic", "hard", 5, False), ("nightmare", "easy", 4, True)])
def test_the_pruned_walk_finds_the_exact_worst_case(
        mode: str, difficulty: str, size: int, shared: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The worst case skips parts whose generic bound cannot raise it; without that
    pruning the walk must find the same value, having walked more."""
    if shared:
        monkeypatch.setattr(machine_heuristic, "_DELEGATE_MAX", 0)
    puzzle = generate(difficulty, size, mode, 11 if mode == "classic" else 3)
    candidates = puzzle.candidates("par")

    def walked() -> tuple[tuple[int, int], int]:
        plan = solve(candidates, size, machine=Machine(candidates, size, node_budget=0))
        heuristic = plan.machine
        assert isinstance(heuristic, HeuristicMachine) and heuristic._canonical == shared
        return plan.worst, len(heuristic._step_values)

    pruned, pruned_steps = walked()
    monkeypatch.setattr(HeuristicMachine, "_generic", staticmethod(lambda s, first: 1 << 62))
    full, full_steps = walked()
    assert pruned == full
    assert pruned_steps < full_steps


def test_play_walks_only_its_own_path() -> None:
    """The heuristic chooses without values: playing one secret asks for one proposal a
    round, not for its whole tree, which only the worst case walks."""
    puzzle = generate("standard", 5, "nightmare", 11)
    candidates = puzzle.candidates("optimal")
    plan = solve(candidates, 5, machine=Machine(candidates, 5, node_budget=0))
    heuristic = plan.machine
    assert isinstance(heuristic, HeuristicMachine)
    run = play(plan, Candidate(puzzle.secret_criteria, puzzle.code))
    assert 1 <= len(heuristic._proposal_of) <= run.rounds
    assert not heuristic._round_values
    assert run.score <= plan.worst
    assert len(heuristic._proposal_of) > run.rounds


@pytest.mark.parametrize("mode", ["classic", "extreme", "nightmare"])
def test_tables_match_their_plain_definitions(mode: str) -> None:
    """Option bitmasks are read from byte strings, sets from binary numerals: they must
    be what setting and reading bits one by one gives."""
    puzzle = generate("easy", 5, mode, 4)
    machine = Machine(puzzle.candidates("par"), 5)
    for letter, column in enumerate(machine._members):
        plain: dict[int, int] = {}
        for position, candidate in enumerate(machine.candidates):
            option = machine.options.index(candidate.criteria[letter].mask)
            plain[option] = plain.get(option, 0) | 1 << position
        assert column == plain and list(column) == list(plain)  # first-seen order too
    for s in random_subsets(machine, 5, 4):
        members = [machine.candidates[i] for i in range(machine.count) if s >> i & 1]
        assert machine.members(s) == members
        assert machine.subset(members) == s
    # Past 255 options, bits are set one by one.
    masks = [machine.candidates[i].masks[0] for i in range(machine.count)]
    many = {mask: 300 + index for index, mask in enumerate(dict.fromkeys(masks))}
    few = {mask: index for index, mask in enumerate(dict.fromkeys(masks))}
    assert {option - 300: bits for option, bits in machine_sets._groups(masks, many).items()} \
        == machine_sets._groups(masks, few)
