"""What the Rithmomachia rules tests in tests/engines/rithmomachia/ (``test_rules.py`` and
``test_captures.py``) read off a state: its pieces by the plain reference, the
captures among a move's events. A refusal that must leave the state as it was is
``tests.helpers.refusals``'s, as for the other games."""

from __future__ import annotations

from typing import Any

from engines.rithmomachia import RithmomachiaState
from tests.helpers import rithmomachia_reference as ref
from tests.helpers.rithmomachia_positions import Pieces


def pieces_of(state: RithmomachiaState) -> Pieces:
    return ref.board_of(state.to_dict())


def captures(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["target"]: e for e in events if e["type"] == "capture"}
