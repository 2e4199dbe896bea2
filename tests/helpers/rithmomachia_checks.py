"""What the Rithmomachia rules tests (``test_rithmomachia_rules.py`` and
``test_rithmomachia_captures.py``) read off a state: its pieces by the plain reference, the
captures among a move's events, a snapshot, and a refusal that must leave the state as it
was."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.base import GameError
from engines.rithmomachia import RithmomachiaState
from tests.helpers import rithmomachia_reference as ref
from tests.helpers.rithmomachia_positions import Pieces


def pieces_of(state: RithmomachiaState) -> Pieces:
    return ref.board_of(state.to_dict())


def captures(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["target"]: e for e in events if e["type"] == "capture"}


def snapshot(state: RithmomachiaState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def refusal(state: RithmomachiaState, player: int, action: str) -> GameError:
    before = snapshot(state)
    with pytest.raises(GameError) as caught:
        state.apply(player, action)
    assert snapshot(state) == before
    return caught.value
