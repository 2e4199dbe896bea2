"""Property-test checks that hold for every engine: the JSON round trip, typed text that is
either refused without a change or names a legal move, and (for the card games) a public view
that does not depend on which hidden card is where."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from hypothesis import strategies as st

from engines.base import GameError, GameModule, GameState

State = TypeVar("State", bound=GameState)


def round_trip(state: State) -> State:
    return type(state).from_dict(json.loads(json.dumps(state.to_dict())))


def check_typed_text(state: GameState, legal: list[str], text: str) -> None:
    """``text`` is either refused by both ``parse_action`` and ``apply`` without any change,
    or parses to a legal action that plays exactly as the typed text does."""
    (seat,) = state.to_move()
    before = state.to_dict()
    try:
        action = state.parse_action(text, seat)
    except GameError:
        assert state.to_dict() == before
        trial = round_trip(state)
        try:
            trial.apply(seat, text)
        except GameError:
            assert trial.to_dict() == before
        else:
            raise AssertionError(f"apply accepted {text!r}, which parse_action refused") from None
        return
    assert state.to_dict() == before
    assert action in legal, (text, action)
    typed, canonical = round_trip(state), round_trip(state)
    typed.apply(seat, text)
    canonical.apply(seat, action)
    assert typed.to_dict() == canonical.to_dict()


def check_hidden_cards(state: GameState, data: st.DataObject,
                       sort_cards: Callable[[Iterable[str]], list[str]]) -> None:
    """Swap a card between a hand and the draw pile and reorder the pile: the public view and
    the other seat's view stay the same, so neither can reveal a hidden card."""
    changed: dict[str, Any] = state.to_dict()
    draw = list(reversed(changed["draw"]))
    seat = data.draw(st.integers(0, 1), label="hidden seat")
    hand = list(changed["hands"][seat])
    if not draw:
        return
    if hand:
        i = data.draw(st.integers(0, len(hand) - 1), label="hand card")
        j = data.draw(st.integers(0, len(draw) - 1), label="draw card")
        hand[i], draw[j] = draw[j], hand[i]
    changed["draw"], changed["hands"][seat] = draw, sort_cards(hand)
    other = type(state).from_dict(changed)
    assert other.view(None) == state.view(None)
    assert other.view(1 - seat) == state.view(1 - seat)


def random_playout(module: GameModule, options: dict[str, Any], seed: int,
                   moves: int) -> GameState:
    """A game after up to ``moves`` uniformly random legal actions, seeded."""
    state = module.new_game(options, 2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state
