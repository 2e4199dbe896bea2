"""The engine contract, checked on every registered game (``engines/base.py``): a sixth
game is covered by registering it.

Random legal play from seeded starts; at every position the state survives its JSON round
trip unchanged, every view is JSON, every seat to move has legal actions in canonical text
that reads back as itself, and each of the move menu's complete paths is played or refused
in words without a change (the card games' menus also offer slots where a card does not
fit, which the referee explains). A game resigned or abandoned at any point survives its
round trip too (a Digitalo match resigned in the middle of a round once did not: its
unfinished round was counted among the finished ones)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import Choice, GameError, GameState
from engines.registry import game_info, game_names, get_game
from tests.helpers.engine_checks import round_trip

# A Turing game generates and scores a puzzle when it starts (seconds, not milliseconds).
EXAMPLES = {"turing": 3}
MOVES = 40


def complete_paths(state: GameState, seat: int, path: tuple[str, ...] = (),
                   depth: int = 0) -> list[str]:
    """The actions at the ends of the menu's paths (the first few of each step, so that a
    wide menu stays quick)."""
    actions: list[str] = []
    choices: list[Choice] = state.menu(seat, path)
    for choice in choices[:6]:
        if choice.action is not None:
            actions.append(choice.action)
        elif depth < 6:
            actions += complete_paths(state, seat, (*path, choice.token), depth + 1)
    return actions


def check_position(state: GameState) -> None:
    assert round_trip(state).to_dict() == state.to_dict()
    json.dumps(state.view(None))
    for seat in range(len(state.to_dict().get("hands", [])) or 2):
        json.dumps(state.view(seat))
    if state.outcome() is not None:
        return
    movers = state.to_move()
    assert movers, "a running game has someone to move"
    for seat in movers:
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to move but has no legal action"
        for action in legal[:5]:
            assert state.parse_action(action, seat) == action, "canonical text reads back"
            assert state.action_text(action)
        menu_actions = complete_paths(state, seat)
        assert menu_actions, "the menu offers a way to move"
        before = state.to_dict()
        for action in menu_actions[:8]:
            # Played, or refused in words with nothing changed: the card games' menus also
            # offer a slot where the card does not fit, which the referee explains.
            trial = round_trip(state)
            try:
                trial.apply(seat, action)
            except GameError as error:
                assert error.key and trial.to_dict() == before, action


@pytest.mark.parametrize("game", game_names())
def test_every_game_keeps_the_contract_in_random_play(game: str) -> None:
    module = get_game(game)
    assert module.INFO.name == game and game_info(game) is module.INFO

    @settings(max_examples=EXAMPLES.get(game, 12), deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(0, 2 ** 31 - 1))
    def play(seed: int) -> None:
        options: dict[str, Any] = {}
        state = module.new_game(options, 2, seed)
        rng = random.Random(seed)
        for _ in range(MOVES):
            check_position(state)
            if state.outcome() is not None:
                break
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_actions(seat)))

    play()


@pytest.mark.parametrize("game", game_names())
def test_a_resigned_or_abandoned_game_survives_its_round_trip(game: str) -> None:
    module = get_game(game)

    @settings(max_examples=EXAMPLES.get(game, 40), deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2 ** 31 - 1), moves=st.integers(0, 4 * MOVES),
           ending=st.sampled_from(["resign 0", "resign 1", "abandon"]))
    def end(seed: int, moves: int, ending: str) -> None:
        state = module.new_game({}, 2, seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if state.outcome() is not None:
                return  # the game ended by its rules first: the other test's case
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.outcome() is not None:
            return
        if ending == "abandon":
            state.abandon()
        else:
            state.resign(int(ending.split()[1]))
        # (A Turing game goes on while a player who has not resigned is left.)
        loaded = round_trip(state)
        assert loaded.to_dict() == state.to_dict()
        assert loaded.outcome() == state.outcome()
        json.dumps(loaded.view(None))
        if loaded.outcome() is not None:
            assert loaded.to_move() == []
            assert all(loaded.legal_actions(seat) == [] for seat in (0, 1))

    end()
