"""Rithmomachia's board as buttons (``engines.rithmomachia.grid``): every move the grid
makes is legal and every legal move can be made on it, over random positions; each step
is four rows of a level's cells with the level key beside them; taps it cannot take are
refused with the reason."""

from __future__ import annotations

import random

import pytest

from engines import rithmomachia
from engines.base import GRID_TOKEN, GameError, grid_width
from engines.rithmomachia import RithmomachiaState
from engines.rithmomachia import grid as rithmomachia_grid

LEVEL_KEYS = ("v1", "v2", "v3", "v4")


def positions(seed: int, plies: int = 16) -> list[RithmomachiaState]:
    rng = random.Random(seed)
    state = rithmomachia.new_game({}, 2, seed)
    found = []
    for _ in range(plies):
        if state.outcome() is not None:
            break
        found.append(RithmomachiaState.from_dict(state.to_dict()))
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def grid_moves(state: RithmomachiaState, seat: int) -> tuple[set[str], int]:
    """Every action a grid path completes, looking at every level once per step (a
    switch, then a cell of that level), as a player would; and the longest path."""
    actions: set[str] = set()
    longest = 0
    waiting: list[tuple[str, ...]] = [(GRID_TOKEN,)]
    while waiting:
        path = waiting.pop()
        for key in LEVEL_KEYS:
            viewed = (*path, key)
            try:
                cells = [c for c in state.menu(seat, viewed) if c.token not in LEVEL_KEYS]
            except GameError:
                continue
            for choice in cells:
                if choice.label == rithmomachia_grid.EMPTY or choice.label[0] not in "▸→⇒":
                    continue  # not a choice at this step: the grid refuses it
                longest = max(longest, len(viewed) + 1)
                if choice.action is not None:
                    actions.add(choice.action)
                else:
                    waiting.append((*viewed, choice.token))
    return actions, longest


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_grid_makes_exactly_the_legal_moves(seed: int) -> None:
    for state in positions(seed)[::3]:
        seat = state.to_move()[0]
        made, longest = grid_moves(state, seat)
        assert made == set(state.legal_actions(seat))
        assert longest <= 10, "a grid path fits a button's payload"


def test_each_step_is_a_level_with_its_key_column() -> None:
    state = rithmomachia.new_game({}, 2, 5)
    seat = state.to_move()[0]
    cells = state.menu(seat, (GRID_TOKEN,))
    assert len(cells) == 20 and {grid_width(c.group) for c in cells} == {5}
    # Each row: four cells of one rank (4 at the top) and the key of one level (4 at the top).
    keys = [cells[row * 5 + 4].token for row in range(4)]
    assert keys == ["v4", "v3", "v2", "v1"]
    level = {c.token[0] for c in cells if c.token not in LEVEL_KEYS}
    assert len(level) == 1, "one level on view"
    ranks = [cells[row * 5].token[2] for row in range(4)]
    assert ranks == ["4", "3", "2", "1"]
    # The home level is on view, every piece that can move marked.
    movable = {c.token for c in state.menu(seat, ()) if len(c.token) == 3}
    assert {c.token for c in cells if c.label.startswith(rithmomachia_grid.MOVABLE)} == movable
    assert f"[{level.pop()}]" in [c.label for c in cells]


def test_refusals_say_why_and_switches_are_bounded() -> None:
    state = rithmomachia.new_game({}, 2, 5)
    seat = state.to_move()[0]
    empty = next(c.token for c in state.menu(seat, (GRID_TOKEN, "v2")) if c.token[0] == "2")
    with pytest.raises(GameError) as refused:
        state.menu(seat, (GRID_TOKEN, "v2", empty))
    assert "is not a choice now" in str(refused.value)
    # Switching back and forth is allowed until the path would outgrow a button.
    path: tuple[str, ...] = (GRID_TOKEN,)
    switches = 0
    while True:
        try:
            state.menu(seat, (*path, LEVEL_KEYS[switches % 4]))
        except GameError as error:
            assert "level switches" in str(error)
            break
        path = (*path, LEVEL_KEYS[switches % 4])
        switches += 1
    assert switches >= 5 and len(path) + 3 <= 10
