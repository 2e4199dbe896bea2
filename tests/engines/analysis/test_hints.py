"""Every game's hint proposes a move with its reason (issue 40, defect 8), played over
random positions of each game: the hinted move is legal, the hint as the player reads it
names that move and says why in every language, and in the L-game the move is the solved
table's best."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engines import digitalo, rithmomachia
from engines.analysis import hint
from engines.base import GameState, Message
from engines.lgame import LGameState
from engines.lgame.analysis import RANK, move_results, verdict
from engines.registry import get_game
from renderers.i18n import CATALOGUE, localise
from renderers.replay import render_hint

GAMES = ("lgame", "rithmomachia", "booleo", "digitalo", "turing")
LANGUAGES = ("en", "nl", "de")


def random_positions(game: str, seed: int, count: int) -> Iterator[tuple[GameState, int]]:
    """``count`` positions of a game of random legal moves (a new game when one ends), each
    with the seat to move. Turing: the player guesses only at the end, as a player would."""
    module = get_game(game)
    rng = random.Random(seed)
    state = module.new_game({}, 1 if game == "turing" else 2, seed)
    found = 0
    while found < count:
        if state.outcome() is not None:
            state = module.new_game({}, 1 if game == "turing" else 2, rng.randrange(10**6))
            continue
        seat = state.to_move()[0]
        if rng.random() < 0.4:
            found += 1
            yield state, seat
        actions = state.legal_actions(seat)
        if game == "turing":
            actions = [a for a in actions if not a.startswith("guess")] or actions
        state.apply(seat, rng.choice(actions))


def reason_words(found: dict[str, object], language: str) -> str:
    """The hint as the player reads it, less its move: what is left must say why."""
    text = render_hint(found, language)
    move = found.get("text")
    if isinstance(move, str):
        named = localise(language, move)
        assert named in text, (language, named, text)
        text = text.replace(named, "")
    return text


@pytest.mark.parametrize("game", GAMES)
def test_every_hint_proposes_a_legal_move_and_says_why(game: str) -> None:
    for state, seat in random_positions(game, 7, 10 if game != "rithmomachia" else 6):
        found = hint(game, state.to_dict(), seat, 3)
        action = found.get("action")
        assert isinstance(action, str) and action in state.legal_actions(seat), found
        if game != "turing":
            assert found["text"] == state.action_text(action)
        for language in LANGUAGES:
            rest = reason_words(found, language)
            assert len(rest.split()) >= 4, (language, render_hint(found, language))
            if game == "turing":
                # The Turing hint names its move in its own words: the code or the letter.
                assert action.split()[-1] in rest or action == "next", (action, rest)
        reason = found.get("reason")
        for part in reason if isinstance(reason, list) else [reason] if reason else []:
            assert isinstance(part, Message) and part.key in CATALOGUE["nl"], part


def test_the_l_game_hint_is_the_solved_tables_best_move() -> None:
    for state, seat in random_positions("lgame", 11, 25):
        assert isinstance(state, LGameState)
        found = hint("lgame", state.to_dict(), seat, 5)
        best = verdict(state)
        results = move_results(state)
        assert RANK[results[found["action"]]] == max(RANK[r] for r in results.values())
        assert (found["result"], found["distance"]) == (best.result, best.distance)


def test_a_rithmomachia_hint_names_a_move_not_only_the_threatened_pieces() -> None:
    state = rithmomachia.new_game({}, 2, 3)
    found = hint("rithmomachia", state.to_dict(), 0, 1)
    assert found["action"] in state.legal_actions(0)
    assert localise("en", state.action_text(found["action"])) in render_hint(found, "en")


def test_a_hint_for_the_move_that_wins_a_digitalo_round_says_so() -> None:
    """A hinted move that wins the round says it does (the new round's empty pyramid made
    a winning gate 'It builds your pyramid: 0 of 6 gates')."""
    checked = 0
    for seed in range(6):
        state = digitalo.new_game({}, 2, seed)
        rng = random.Random(seed)
        while state.outcome() is None and checked < 3:
            seat = state.to_move()[0]
            found = hint("digitalo", state.to_dict(), seat, 1)
            trial = digitalo.State.from_dict(state.to_dict())
            events = trial.apply(seat, found["action"])
            if any(e["type"] == "round_over" and e["winner"] == seat for e in events):
                checked += 1
                text = render_hint(found, "en")
                assert "wins the round" in text or "wins the game" in text, text
                assert " 0 of " not in text, text
            state.apply(seat, found["action"] if rng.random() < 0.7
                        else rng.choice(state.legal_actions(seat)))
    assert checked == 3, "some hinted move completes a pyramid"


def test_a_rithmomachia_hint_during_placement_proposes_a_legal_place() -> None:
    state = rithmomachia.new_game({"setup": "placement"}, 2, 4)
    rng = random.Random(4)
    for _ in range(6):
        seat = state.to_move()[0]
        found = hint("rithmomachia", state.to_dict(), seat, 2)
        assert state.phase == "placement" and found["action"] in state.legal_actions(seat)
        assert found["reason"] and all(isinstance(part, Message) for part in found["reason"])
        assert localise("de", state.action_text(found["action"])) in render_hint(found, "de")
        state.apply(seat, rng.choice(state.legal_actions(seat)))
