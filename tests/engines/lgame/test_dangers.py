"""The L-game's danger marks (issue 27): which moves of the player to move let the opponent
trap their L at once, checked by brute force over random positions (every legal move, every
reply of the opponent, then whether the player could still move), and how the board tells
them."""

from __future__ import annotations

import random

import pytest

from engines import lgame
from engines.analysis import dangers
from engines.base import parse_option_text
from engines.lgame import LGameState
from engines.lgame.analysis import trap_threats
from engines.lgame.board import PLACEMENT_BY_CODE, PLACEMENTS, l_moves
from engines.lgame.rules import LATER_OPTIONS
from renderers import lgame as render

NAMES = ["Ann", "Bo"]


def random_position(seed: int, sudden_death: bool = False) -> LGameState:
    """A position of a random legal game, the game still running."""
    rng = random.Random(seed)
    while True:
        state = lgame.new_game({"sudden_death": sudden_death}, 2, seed)
        for _ in range(rng.randrange(0, 24)):
            if state.outcome() is not None:
                break
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
        if state.outcome() is None:
            return state


def trapped_by_brute_force(state: LGameState) -> dict[str, tuple[int, int]]:
    """Per placement code of the mover's L: (moves, moves after which some legal reply of
    the opponent leaves the mover with no legal move), by playing them all out."""
    seat = state.turn
    counts: dict[str, tuple[int, int]] = {}
    for action in state.legal_actions(seat):
        after = LGameState.from_dict(state.to_dict())
        after.apply(seat, action)
        trapped = after.outcome() is None and any(
            not l_moves(mine, their, neutrals)
            for mine in [after.ls[seat]]
            for their, neutrals in (after._decode(1 - seat, reply)
                                    for reply in after.legal_actions(1 - seat)))
        code = action.split()[0]
        moves, bad = counts.get(code, (0, 0))
        counts[code] = (moves + 1, bad + trapped)
    return counts


@pytest.mark.parametrize("seed", range(8))
def test_a_move_counts_as_trapped_exactly_when_a_reply_leaves_no_move(seed: int) -> None:
    state = random_position(seed, sudden_death=seed == 7)
    seat = state.turn
    expected = trapped_by_brute_force(state)
    found = trap_threats(state, seat)
    assert trap_threats(state, seat, table=False) == found, "the lessons' way, no table"
    if not any(bad for _, bad in expected.values()):
        assert found == []
        return
    assert {entry["placement"]: (entry["moves"], entry["trapped"]) for entry in found} \
        == expected
    for entry in found:
        assert entry["cells"] == sorted(PLACEMENTS[PLACEMENT_BY_CODE[entry["placement"]]]
                                        .cell_names)
    assert dangers("lgame", state.to_dict(), seat) == found


def test_no_marks_for_the_player_not_to_move_or_after_the_end() -> None:
    state = random_position(1)
    assert trap_threats(state, 1 - state.turn) == []
    state.resign(state.turn)
    assert trap_threats(state, 0) == [] and trap_threats(state, 1) == []


def threatened_position() -> LGameState:
    return next(state for seed in range(50)
                if trap_threats(state := random_position(seed), state.turn))


def test_the_board_tells_how_many_moves_let_the_opponent_trap_the_l() -> None:
    state = threatened_position()
    seat = state.turn
    threats = trap_threats(state, seat)
    view = {**state.view(None), "threats": threats}
    total = sum(entry["moves"] for entry in threats)
    bad = sum(entry["trapped"] for entry in threats)
    english = render.render(view, NAMES, "en", emoji=True)
    if bad < total:
        assert (f"⚠ {NAMES[seat]}: {bad} of your {total} moves let {NAMES[1 - seat]} trap "
                "your L next turn.") in english
    for language in ("nl", "de"):
        assert "⚠ " + NAMES[seat] in render.render(view, NAMES, language, emoji=False)
    lines = render.danger_lines(view, NAMES, "en")
    assert 1 <= len(lines) <= 3 and all(len(line) < 120 for line in lines), lines
    assert "⚠" not in render.render(state.view(None), NAMES, "en", emoji=True)


def test_the_places_named_are_the_shorter_list() -> None:
    """Safe places when they are fewer than the unsafe ones, else the unsafe ones; places
    whose safety depends on the neutral move on a line of their own."""
    def entry(code: str, moves: int, trapped: int) -> dict[str, object]:
        return {"placement": code,
                "cells": sorted(PLACEMENTS[PLACEMENT_BY_CODE[code]].cell_names),
                "moves": moves, "trapped": trapped}
    view = {**lgame.new_game({}, 2, 0).view(None), "to_move": 0}
    view["threats"] = [entry("a1NE", 13, 0), entry("d4SW", 13, 13), entry("a4ES", 13, 13)]
    lines = render.danger_lines(view, NAMES, "en")
    assert lines[0] == "⚠ Ann: 26 of your 39 moves let Bo trap your L next turn."
    assert lines[1] == "Safe: L on a1 a2 a3 b1" and len(lines) == 2
    view["threats"] = [entry("a1NE", 13, 0), entry("d4SW", 13, 13), entry("a4ES", 13, 4)]
    lines = render.danger_lines(view, NAMES, "en")
    assert lines[1] == "Unsafe whatever the neutrals do: L on c4 d2 d3 d4"
    assert lines[2] == "Safe only with the right neutral move: L on a3 a4 b4 c4"
    view["threats"] = [entry("d4SW", 13, 13)]
    assert render.danger_lines(view, NAMES, "en") == [
        "⚠ Ann: each of your 13 moves lets Bo trap your L next turn."]
    view["threats"] = [entry("d4SW", 13, 0)]
    assert render.danger_lines(view, NAMES, "en") == []


def test_the_easiest_computer_plays_with_the_marks_on_and_old_games_load() -> None:
    assert lgame.INFO.beginner_options == "danger=on"
    assert parse_option_text(lgame.OPTIONS, lgame.INFO.beginner_options)["danger"] is True
    assert {"danger"} == LATER_OPTIONS
    data = lgame.new_game({}, 2, 5).to_dict()
    del data["options"]["danger"]
    assert LGameState.from_dict(data).options["danger"] is False
