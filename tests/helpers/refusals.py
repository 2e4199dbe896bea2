"""The engine tests' check that a refused move changes nothing: the state as canonical JSON
before and after, and the refusal for the test to read."""

from __future__ import annotations

import json

import pytest

from engines.base import GameError, GameState


def snapshot(state: GameState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def refusal(state: GameState, seat: int, action: str) -> GameError:
    """The engine's refusal of ``seat`` playing ``action``, which must leave ``state`` as
    it was."""
    before = snapshot(state)
    with pytest.raises(GameError) as caught:
        state.apply(seat, action)
    assert snapshot(state) == before
    return caught.value
