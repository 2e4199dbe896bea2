"""Sanity checks for the test-only hidden-hand game that adapter tests rely on: if it
leaked a hand itself, those tests could not tell an adapter leak from a game leak."""

from __future__ import annotations

import json
import random

import pytest

from engines.base import GameError, IllegalMove, InvalidMove, NotYourTurn, StateError
from tests.helpers import hidden_game as game
from tests.helpers import hidden_game_renderer as renderer

NAMES = ["Ann", "Bo"]
SEEDS = range(30)
PUBLIC_KEYS = {"game", "viewer", "piles", "totals", "hand_sizes", "to_move", "plies",
               "last_move", "outcome"}


def roundtrip(state: game.SecretCardsState) -> game.SecretCardsState:
    data = json.loads(json.dumps(state.to_dict()))
    copy = game.SecretCardsState.from_dict(data)
    assert copy.to_dict() == state.to_dict() == data
    return copy


def card_count(state: game.SecretCardsState) -> int:
    return sum(len(cards) for cards in (*state.hands, *state.piles))


def assert_public_is_hand_free(state: game.SecretCardsState) -> None:
    public = state.view(None)
    assert set(public) == PUBLIC_KEYS
    text = "\n".join(renderer.render(public, NAMES, "en", emoji)
                     for emoji in (False, True))
    assert "hand:" not in text.lower().replace("cards in hand:", "")
    assert "Your hand" not in text
    # The public view must be a function of public facts only: swapping in other hands of
    # the same sizes may not change a byte of it or of its rendering.
    unused = [c for c in range(1, game.DECK_SIZE + 1)
              if all(c not in cards for cards in (*state.hands, *state.piles))]
    other = game.SecretCardsState.from_dict(state.to_dict())
    other.hands = [unused[:len(state.hands[0])], unused[3:3 + len(state.hands[1])]]
    assert other.view(None) == public
    assert renderer.render(other.view(None), NAMES, "en", False) == renderer.render(
        public, NAMES, "en", False)


def assert_refusals_change_nothing(state: game.SecretCardsState) -> None:
    before = state.to_dict()
    seat = state.turn
    missing = next(c for c in range(1, game.DECK_SIZE + 1) if c not in state.hands[seat])
    attempts: list[tuple[int, str, type[GameError]]] = [
        (seat, "banana", InvalidMove),
        (seat, "", InvalidMove),
        (seat, "play 13", InvalidMove),
        (seat, "play 0", InvalidMove),
        (seat, str(missing), IllegalMove),
        (1 - seat, str(state.hands[1 - seat][0]) if state.hands[1 - seat] else "1", NotYourTurn),
        (5, "1", NotYourTurn),
    ]
    for player, text, error in attempts:
        with pytest.raises(error) as caught:
            state.parse_action(text, player)
        assert caught.value.key and caught.value.default
        with pytest.raises(error):
            state.apply(player, text)
        assert state.to_dict() == before


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_keep_hands_private_and_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_game({}, 2, seed)
    agent = game.make_agent("easy", random.Random(seed + 1))
    assert card_count(state) == 6
    while state.outcome() is None:
        state = roundtrip(state)
        assert_public_is_hand_free(state)
        assert_refusals_change_nothing(state)
        seat = state.turn
        assert state.to_move() == [seat]
        private = state.view(seat)
        assert private["hand"] == sorted(state.hands[seat]) and private["seat"] == seat
        assert f"Your hand: {', '.join(map(str, private['hand']))}" in renderer.render_private(
            private, NAMES, "en", False)
        menu = state.menu(seat, ())
        assert [c.action for c in menu] == [f"play {c}" for c in state.hands[seat]]
        assert [c.label for c in menu] == [f"Card {c}" for c in state.hands[seat]]
        action = agent.choose(state, seat) if rng.random() < 0.5 else rng.choice(
            [state.parse_action(c.token, seat) for c in menu])
        state.apply(seat, action)
        assert card_count(state) == 6
    state = roundtrip(state)
    assert_public_is_hand_free(state)
    outcome = state.outcome()
    assert outcome is not None and state.to_move() == []
    totals = [sum(pile) for pile in state.piles]
    expected = () if totals[0] == totals[1] else ((0,) if totals[0] > totals[1] else (1,))
    assert outcome.winners == expected
    assert "Game over" in renderer.render(state.view(None), NAMES, "en", False)


def test_parse_accepts_bare_numbers_and_menu_paths_stop_at_one_step() -> None:
    state = game.new_game({}, 2, 7)
    card = state.hands[0][0]
    assert state.parse_action(f" {card} ", 0) == state.parse_action(f"PLAY {card}", 0)
    assert state.parse_action(str(card), 0) == f"play {card}"
    with pytest.raises(InvalidMove):
        state.menu(0, (str(card),))


def test_resign_and_abandon_end_the_game_like_lgame() -> None:
    state = game.new_game({}, 2, 3)
    state.resign(1)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "resigned"
    roundtrip(state)
    with pytest.raises(IllegalMove):
        state.abandon()
    other = game.new_game({}, 2, 3)
    other.abandon()
    assert other.outcome() is not None and other.outcome().is_draw  # type: ignore[union-attr]
    assert "abandoned" in renderer.render(other.view(None), NAMES, "en", True)


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(game="lgame"),
    lambda d: d.update(seed=True),
    lambda d: d["hands"][0].append(99),
    lambda d: d["hands"].reverse(),
    lambda d: d.update(turn=1),
    lambda d: d.update(actions=["play 1"]),
    lambda d: d.update(outcome={"winners": [7], "reason": "x", "detail": {}}),
    lambda d: d.update(last_move={"player": 0}),
    lambda d: d.pop("piles"),
])
def test_from_dict_refuses_malformed_data(mutate: object) -> None:
    data = game.new_game({}, 2, 11).to_dict()
    mutate(data)  # type: ignore[operator]
    with pytest.raises(StateError):
        game.SecretCardsState.from_dict(data)
    with pytest.raises(StateError):
        game.SecretCardsState.from_dict([])  # type: ignore[arg-type]
