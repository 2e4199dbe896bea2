"""Games saved before issue 39 moved the engines into one package per game load unchanged.

A saved game is the state's JSON (``to_dict``), which names the game (``"game"``, the
registry's name) and never a module or a class, so moving modules cannot orphan a stored
game; these states, written by the engines as they were before the move
(``saved_states.json``: each game a few moves in, one per rule set), check that the
new modules read them back to the same state and the same public view."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engines.registry import get_game

SAVED = json.loads((Path(__file__).parent / "saved_states.json").read_text("utf-8"))


@pytest.mark.parametrize("saved", SAVED, ids=lambda s: f"{s['game']} {s['options']}".strip())
def test_a_game_saved_before_the_move_loads_and_saves_unchanged(saved: dict[str, Any]) -> None:
    state = get_game(saved["game"]).State.from_dict(saved["state"])
    assert state.to_dict() == saved["state"]
    assert json.loads(json.dumps(state.view(None))) == saved["public_view"]


def test_every_game_has_a_saved_state() -> None:
    assert {s["game"] for s in SAVED} == {"lgame", "turing", "booleo", "digitalo",
                                           "rithmomachia"}
