"""Boolean Rithmomachia's ladder of computer players (``engines/rithmomachia/agents.py``) and
its teaching preset."""

from __future__ import annotations

import random

import pytest

from engines import rithmomachia
from engines.base import parse_option_text
from engines.rithmomachia import RithmomachiaState, new_game
from engines.rithmomachia.agents import RithmomachiaAgent, Search
from engines.rithmomachia.equations import occupancy
from engines.rithmomachia.moves import move_text
from tests.helpers.rithmomachia_positions import BLACK, WHITE, position


def pyramids_left(state: RithmomachiaState, seat: int) -> int:
    return int(state.view(None)["counts"][seat]["pyramids"])


def reply_takes_every_pyramid(state: RithmomachiaState, action: str, seat: int) -> bool:
    """After ``seat`` plays ``action``: can the opponent take all of its Pyramids at once?"""
    child = RithmomachiaState.from_dict(state.to_dict())
    child.apply(seat, action)
    if child.outcome() is not None:
        return False
    for reply in child.legal_actions(1 - seat):
        after = RithmomachiaState.from_dict(child.to_dict())
        after.apply(1 - seat, reply)
        if pyramids_left(after, seat) == 0:
            return True
    return False


def exposed_pyramid() -> RithmomachiaState:
    # White's one Pyramid (1111 on 2c1) is taken by Black's 0000 on 4d3 (NOT) wherever that
    # can step next to it: only moves down to level 1 keep it out of reach.
    return position({"2c1": (WHITE, 0b1111), "4d3": (BLACK, 0b0000), "4a4": (BLACK, 0b1111)},
                    guards=False, push=False)


def test_in_the_test_position_some_moves_throw_the_game_and_some_do_not() -> None:
    state = exposed_pyramid()
    verdicts = {reply_takes_every_pyramid(state, a, WHITE)
                for a in state.legal_actions(WHITE)}
    assert verdicts == {True, False}


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_easy_and_medium_never_leave_every_pyramid_capturable(level: str) -> None:
    state = exposed_pyramid()
    for seed in range(12):
        agent = RithmomachiaAgent(level, random.Random(seed), budget_seconds=None,
                                  node_limit=3000)
        action = agent.choose(state, WHITE)
        assert not reply_takes_every_pyramid(state, action, WHITE), (seed, action)


@pytest.mark.slow
def test_easy_avoids_throwing_in_positions_from_real_games() -> None:
    """From seeded games of ``easy`` against a random player: wherever ``easy``'s move lets
    the opponent take all its Pyramids at once, every other move would have too."""
    throws_possible = 0
    for seed in range(6):
        state = new_game({}, 2, seed)
        easy = RithmomachiaAgent("easy", random.Random(seed))
        rng = random.Random(100 + seed)
        while state.outcome() is None and state.plies < 16:
            seat = state.turn
            if seat == WHITE:
                action = easy.choose(state, seat)
                if reply_takes_every_pyramid(state, action, seat):
                    assert all(reply_takes_every_pyramid(state, a, seat)
                               for a in state.legal_actions(seat))
                throws_possible += 1
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
    assert throws_possible >= 10


def test_levels_and_their_budgets() -> None:
    assert rithmomachia.LEVELS == ("easy", "medium", "strong", "expert")
    budgets = {level: RithmomachiaAgent(level, random.Random(1)).budget_seconds
               for level in ("medium", "strong", "expert")}
    assert budgets["expert"] == 2.0
    assert budgets["strong"] is not None and budgets["strong"] < budgets["expert"]


class SteppingClock:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_expert_spends_its_whole_budget_and_no_more() -> None:
    clock = SteppingClock(0.0005)
    agent = RithmomachiaAgent("expert", random.Random(1), budget_seconds=0.1, clock=clock)
    state = new_game({}, 2, 9)
    assert agent.choose(state, WHITE) in state.legal_actions(WHITE)
    assert 0.08 <= clock.now <= 0.1 * 1.1


@pytest.mark.parametrize("level", ["easy", "medium", "strong", "expert"])
def test_every_level_is_replayable_from_its_seed(level: str) -> None:
    state = new_game({}, 2, 4)
    picks = {RithmomachiaAgent(level, random.Random(8), budget_seconds=None,
                               node_limit=120).choose(state, WHITE) for _ in range(2)}
    assert len(picks) == 1


def test_the_teaching_preset_comes_first_and_is_the_not_nand_game() -> None:
    name, options, label = rithmomachia.PRESETS[0]
    assert name == "teaching" and label.key == "rithmo.preset.teaching"
    parsed = parse_option_text(rithmomachia.OPTIONS, options)
    assert parsed["ops"] == "not,nand"
    state = new_game(parsed, 2, 1)
    assert state.outcome() is None and state.legal_actions(WHITE)
    for _, text, _ in rithmomachia.PRESETS:
        new_game(parse_option_text(rithmomachia.OPTIONS, text), 2, 1)


def capture_worth(state: RithmomachiaState, action: str, seat: int) -> int:
    """What ``action`` captures, as ``easy`` weighs it (``GAIN``: a Pyramid most)."""
    move = next(m for m in state.moves() if move_text(m) == action)
    masks = occupancy(state.board)
    search = Search(state.rules, state.push, 1, None, None)
    return search.gain(state.board, masks[seat], masks[1 - seat], move, seat)[1]


def test_easy_takes_the_biggest_capture_that_does_not_throw_the_game() -> None:
    """In positions from seeded random games: ``easy`` captures, and every bigger capture
    would have let the opponent take all its Pyramids at once."""
    positions_with_captures = 0
    for seed in range(8):
        state = new_game({}, 2, seed)
        rng = random.Random(200 + seed)
        for _ in range(4):
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
            if state.outcome() is not None:
                break
        if state.outcome() is not None:
            continue
        seat = state.turn
        worths = {a: capture_worth(state, a, seat) for a in state.legal_actions(seat)}
        if not any(worths.values()):
            continue
        positions_with_captures += 1
        action = RithmomachiaAgent("easy", random.Random(seed)).choose(state, seat)
        assert worths[action] > 0, (seed, action)
        # Only the bigger captures need the (slow) check: each of them must throw the game.
        for bigger in (a for a, w in worths.items() if w > worths[action]):
            assert reply_takes_every_pyramid(state, bigger, seat), (seed, action, bigger)
    assert positions_with_captures >= 3
