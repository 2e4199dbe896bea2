"""The L-game solver and agents: the spec's solved facts, the table's consistency with the
rules, and the computer players' strength.

Counts are checked against ``lgame_reference``, an independent brute-force implementation,
or against the figures the spec quotes from the seed (``shared/rules/lgame.md``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import zlib

import pytest

from engines import lgame
from engines.base import NotYourTurn
from engines.lgame import LGameState
from engines.lgame.board import PLACEMENTS, l_moves, mask_names
from engines.lgame.solver import (
    LOSS,
    NEUTRAL_PAIRS,
    START_KEY,
    UNKNOWN,
    WIN,
    all_position_keys,
    canonical_key,
    solved_table,
    split_key,
    successors,
)
from engines.registry import get_game
from engines.selfplay import run_selfplay
from tests.helpers import lgame_reference as ref
from tests.helpers.lgame_positions import random_states
from tests.helpers.paths import REPO_ROOT

ROOT = REPO_ROOT
GAME = get_game("lgame")
VARIANTS = [pytest.param(False, id="standard"), pytest.param(True, id="sudden_death")]


# --- helpers --------------------------------------------------------------------------------


def relative_of_key(key: int) -> ref.Relative:
    """Translate an engine position key into the reference's representation, by cell names."""
    mover, other, pair = split_key(key)
    return ref.Relative(ref.cells(mask_names(PLACEMENTS[mover].mask)),
                        ref.cells(mask_names(PLACEMENTS[other].mask)),
                        ref.cells(mask_names(NEUTRAL_PAIRS[pair])))


def state_for_key(key: int, sudden_death: bool, turn: int) -> LGameState:
    """A game in the position ``key`` with seat ``turn`` to move, built through from_dict."""
    mover, other, pair = split_key(key)
    ls = [mover, other] if turn == 0 else [other, mover]
    data = lgame.new_game({"sudden_death": sudden_death}, 2, 0).to_dict()
    data.update(ls=[PLACEMENTS[i].code for i in ls],
                neutrals=mask_names(NEUTRAL_PAIRS[pair]), turn=turn, history=[])
    return LGameState.from_dict(data)


def score_of_child(state: LGameState, action: str) -> tuple[int, int]:
    """Value and distance (for the opponent) of the position ``action`` leaves."""
    child = LGameState.from_dict(state.to_dict())
    child.apply(child.turn, action)
    table = solved_table(state.sudden_death)
    key = child.relative_key()
    return table.value[key], table.distance[key]


# --- 1. the solved facts ------------------------------------------------------------------


def test_cli_solve_reports_the_spec_figures() -> None:
    result = subprocess.run([sys.executable, "-m", "engines", "lgame", "solve", "--json"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    stats = json.loads(result.stdout)
    assert stats["positions"] == 18368
    assert stats["positions_up_to_symmetry"] == 2296
    assert stats["lost_now"] == 15
    assert stats["lost_later"] == 14
    assert stats["not_lost"] == 2267
    assert stats["start_value"] == "draw"
    assert stats["rules"] == "standard"
    # The three classes of the spec split the whole set.
    assert stats["lost_now"] + stats["lost_later"] + stats["not_lost"] == 2296
    assert stats["won"] + stats["drawn"] == stats["not_lost"]


def test_reference_has_8_orientations_and_48_placements() -> None:
    shapes = ref.orientations()
    assert len(shapes) == 8
    assert all(len(shape) == 4 for shape in shapes)
    assert len(ref.PLACEMENTS) == 48
    assert len(set(ref.PLACEMENTS)) == 48


def test_reference_counts_positions_independently() -> None:
    ordered_pairs = [(a, b) for a in ref.PLACEMENTS for b in ref.PLACEMENTS if not a & b]
    # Two disjoint Ls leave 8 free cells, and the two neutrals take any 2 of them.
    assert len(ordered_pairs) * 28 == 18368
    everything = list(ref.all_relatives())
    assert len(everything) == len(set(everything)) == 18368
    classes: dict[tuple[tuple[ref.Cell, ...], ...], list[ref.Relative]] = {}
    for rel in everything:
        classes.setdefault(ref.canonical(rel), []).append(rel)
    assert len(classes) == 2296
    # No position is its own mirror image (an L has no symmetry), so every class has 8.
    assert {len(members) for members in classes.values()} == {8}
    lost_now = [c for c, members in classes.items()
                if not ref.l_targets(members[0].mover, members[0].other, members[0].neutrals)]
    assert len(lost_now) == 15


def test_engine_placements_are_the_reference_placements() -> None:
    engine = {ref.cells(mask_names(p.mask)) for p in PLACEMENTS}
    assert len(PLACEMENTS) == 48
    assert engine == set(ref.PLACEMENTS)


def test_engine_placement_names_follow_the_spec_reading() -> None:
    """Each placement's name ``<corner> <leg> <foot>`` describes its cells, and each of the 48
    placements has exactly one name."""
    for p in PLACEMENTS:
        corner, leg, foot = p.notation.split()
        assert ref.placement_from_name(corner, leg, foot) == ref.cells(mask_names(p.mask))
    names: dict[ref.Piece, list[str]] = {}
    for file in "abcd":
        for rank in "1234":
            for leg in "NESW":
                for foot in "NESW":
                    piece = ref.placement_from_name(file + rank, leg, foot)
                    if piece is not None:
                        names.setdefault(piece, []).append(f"{file}{rank}{leg}{foot}")
    assert len(names) == 48
    assert all(len(n) == 1 for n in names.values())
    assert {n[0] for n in names.values()} == {p.code for p in PLACEMENTS}
    # The spec's example: 'a1 N E' runs north from a1 with the foot pointing east.
    assert ref.placement_from_name("a1", "N", "E") == ref.cells(["a1", "a2", "a3", "b1"])


def test_engine_position_space_and_symmetry_classes_match_the_reference() -> None:
    keys = list(all_position_keys())
    assert len(keys) == len(set(keys)) == 18368
    relatives = [relative_of_key(k) for k in keys]
    assert set(relatives) == set(ref.all_relatives())
    # The engine's classes and the reference's classes are the same partition.
    engine_classes: dict[int, set[tuple[tuple[ref.Cell, ...], ...]]] = {}
    for key, rel in zip(keys, relatives, strict=True):
        engine_classes.setdefault(canonical_key(key), set()).add(ref.canonical(rel))
    assert len(engine_classes) == 2296
    assert all(len(names) == 1 for names in engine_classes.values())


def test_start_key_is_the_spec_start() -> None:
    assert relative_of_key(START_KEY) == ref.START.relative()
    assert solved_table(False).outcome_of(START_KEY) == "draw"


# --- 3. the table against the rules ---------------------------------------------------------


def check_table_locally(sudden_death: bool) -> None:
    """Every entry follows from its successors' entries, by the definition of win and loss."""
    table = solved_table(sudden_death)
    keys = list(all_position_keys())
    assert sum(table.valid) == len(keys) == 18368
    value, distance = table.value, table.distance
    for key in keys:
        assert table.valid[key]
        mover, other, pair = split_key(key)
        after = list(successors(key, sudden_death))
        assert len(after) == len(set(after))
        lost_now = not l_moves(mover, other, NEUTRAL_PAIRS[pair])
        assert lost_now == (not after)
        if not after:
            assert (value[key], distance[key]) == (LOSS, 0), key
            continue
        assert all(table.valid[s] for s in after)
        losses = [distance[s] for s in after if value[s] == LOSS]
        if losses:
            assert (value[key], distance[key]) == (WIN, 1 + min(losses)), key
        elif all(value[s] == WIN for s in after):
            assert (value[key], distance[key]) == (LOSS, 1 + max(distance[s] for s in after)), key
        else:
            assert value[key] == UNKNOWN, key


def test_solved_table_is_locally_consistent_standard() -> None:
    check_table_locally(False)


def test_solved_table_is_locally_consistent_sudden_death() -> None:
    check_table_locally(True)


@pytest.mark.parametrize("sudden_death", VARIANTS)
def test_successors_agree_with_legal_actions(sudden_death: bool) -> None:
    """The solver's move generator and the game's legal actions describe the same moves."""
    for state in random_states(sudden_death, 60, seed=11, max_plies=30):
        actions = state.legal_actions(state.turn)
        children = set()
        for action in actions:
            child = LGameState.from_dict(state.to_dict())
            child.apply(child.turn, action)
            children.add(child.relative_key())
        assert len(children) == len(actions)
        assert children == set(successors(state.relative_key(), sudden_death))


@pytest.mark.slow
@pytest.mark.parametrize("sudden_death", VARIANTS)
def test_successors_match_the_reference_everywhere(sudden_death: bool) -> None:
    for key in all_position_keys():
        engine = {relative_of_key(s) for s in successors(key, sudden_death)}
        assert engine == ref.relative_moves(relative_of_key(key), sudden_death), key


@pytest.mark.slow
@pytest.mark.parametrize("sudden_death", VARIANTS)
def test_solved_table_matches_an_independent_solve(sudden_death: bool) -> None:
    values, distances = ref.solve(sudden_death)
    table = solved_table(sudden_death)
    names = {WIN: ref.WIN, LOSS: ref.LOSS, UNKNOWN: ref.DRAW}
    for key in all_position_keys():
        rel = relative_of_key(key)
        assert names[table.value[key]] == values[rel], key
        if values[rel] != ref.DRAW:
            assert table.distance[key] == distances[rel], key
    if not sudden_death:
        classes: dict[tuple[tuple[ref.Cell, ...], ...], ref.Relative] = {}
        for rel in values:
            classes.setdefault(ref.canonical(rel), rel)
        lost = [r for r in classes.values() if values[r] == ref.LOSS]
        assert sum(1 for r in lost if distances[r] == 0) == 15
        assert sum(1 for r in lost if distances[r] > 0) == 14
        assert len(classes) - len(lost) == 2267
        assert values[ref.START.relative()] == ref.DRAW


# --- 3. perfect never loses -----------------------------------------------------------------


def sampled(key: int, every: int) -> bool:
    """A fixed, well-spread choice of one key in ``every`` (not tied to any one piece)."""
    return zlib.crc32(key.to_bytes(4, "big")) % every == 0


def walk_perfect_tree(sudden_death: bool, agent_every: int) -> int:
    """Walk the whole game tree from the start, once with perfect as X and once as O: the
    opponent tries every legal reply, the perfect side every move that keeps its result.

    At each of the perfect side's positions the table must not say lost, and the agent's
    own choice (checked at one position in ``agent_every``, a fixed sample) must not leave the
    opponent a won position, and from a won position must get strictly closer to the win.
    Returns the number of positions where the agent was asked."""
    table = solved_table(sudden_death)
    value, distance = table.value, table.distance
    agent = lgame.make_agent("perfect", random.Random(7))
    following: dict[int, list[int]] = {}
    checked: set[int] = set()  # the agent's choice depends only on the position

    def acceptable(key: int, after: int) -> bool:
        if value[key] == WIN:
            return value[after] == LOSS and distance[after] < distance[key]
        return value[after] != WIN

    for seat in (0, 1):
        start = (START_KEY, seat == 0)
        seen = {start}
        stack = [start]
        while stack:
            key, perfect_moves = stack.pop()
            after = following.get(key)
            if after is None:
                after = following[key] = list(successors(key, sudden_death))
            if perfect_moves:
                assert value[key] != LOSS, f"perfect as seat {seat} reached a lost position"
                assert after
                if sampled(key, agent_every) and key not in checked:
                    checked.add(key)
                    state = state_for_key(key, sudden_death, seat)
                    state.apply(seat, agent.choose(state, seat))
                    assert acceptable(key, state.relative_key()), (key, state.actions)
                children = [(s, False) for s in after if acceptable(key, s)]
                assert children
            else:
                children = [(s, True) for s in after]
            for child in children:
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return len(checked)


def test_perfect_never_loses_standard() -> None:
    assert walk_perfect_tree(False, agent_every=6) > 2000


def test_perfect_never_loses_sudden_death() -> None:
    assert walk_perfect_tree(True, agent_every=1) > 1000


@pytest.mark.slow
def test_perfect_never_loses_standard_every_position() -> None:
    assert walk_perfect_tree(False, agent_every=1) > 15000


# --- 4. agents ------------------------------------------------------------------------------


@pytest.mark.parametrize("sudden_death", VARIANTS)
def test_every_agent_returns_legal_actions(sudden_death: bool) -> None:
    agents = [lgame.make_agent(level, random.Random(i)) for i, level in enumerate(lgame.LEVELS)]
    for state in random_states(sudden_death, 40, seed=5, max_plies=30):
        legal = set(state.legal_actions(state.turn))
        for agent in agents:
            assert agent.choose(state, state.turn) in legal, agent.level
            with pytest.raises(NotYourTurn):
                agent.choose(state, 1 - state.turn)


def test_perfect_always_chooses_a_best_move() -> None:
    """The table's level picks among the moves the table ranks best, in the preference the
    engine documents: leave the opponent lost soonest, else drawn, else lost latest.
    (``strong`` is a level of its own below it: ``test_agents.py``.)"""

    def rank(score: tuple[int, int]) -> tuple[int, int]:
        v, d = score
        return (0, d) if v == LOSS else (1, 0) if v == UNKNOWN else (2, -d)

    agents = [lgame.make_agent("perfect", random.Random(3))]
    for state in random_states(False, 40, seed=9, max_plies=30):
        best = min(rank(score_of_child(state, a)) for a in state.legal_actions(state.turn))
        for agent in agents:
            assert rank(score_of_child(state, agent.choose(state, state.turn))) == best


def test_perfect_beats_easy() -> None:
    result = run_selfplay(GAME, ["perfect", "easy"], 40, seed=1)
    assert result["games"] == 40
    assert result["b_wins"] == 0
    assert result["a_score"] >= 0.95


def test_perfect_beats_easy_in_sudden_death() -> None:
    result = run_selfplay(GAME, ["perfect", "easy"], 20, seed=2, option_text="sudden_death")
    assert result["b_wins"] == 0
    assert result["a_score"] >= 0.9


def test_perfect_against_perfect_is_always_drawn() -> None:
    result = run_selfplay(GAME, ["perfect", "perfect"], 10, seed=3)
    assert result["draws"] == 10


def test_medium_never_beats_perfect() -> None:
    result = run_selfplay(GAME, ["medium", "perfect"], 20, seed=4)
    assert result["a_wins"] == 0


def test_medium_beats_easy() -> None:
    # Its true score is about 77% (docs/ai.md); 40 games put one run within ±13 points.
    result = run_selfplay(GAME, ["medium", "easy"], 40, seed=5)
    assert result["a_score"] >= 0.6


def test_medium_sometimes_errs() -> None:
    """medium is not perfect in disguise: in some positions its choice is worse than the
    best, judged by the table (a drawn position thrown away, or a win not taken)."""
    medium = lgame.make_agent("medium", random.Random(6))
    perfect = lgame.make_agent("perfect", random.Random(6))

    def result_class(score: tuple[int, int]) -> int:
        return {LOSS: 0, UNKNOWN: 1, WIN: 2}[score[0]]

    mistakes = 0
    for state in random_states(False, 80, seed=13, max_plies=30):
        best = min(result_class(score_of_child(state, a)) for a in state.legal_actions(state.turn))
        assert result_class(score_of_child(state, perfect.choose(state, state.turn))) == best
        if result_class(score_of_child(state, medium.choose(state, state.turn))) > best:
            mistakes += 1
    assert mistakes > 0
