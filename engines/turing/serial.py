"""The Turing Machine's storage: a state to JSON and back. Functions of the rules' state;
``TuringState.to_dict`` and ``from_dict`` call them."""

from __future__ import annotations

from typing import TypeVar

from engines.base import JSON, InvalidMove, Outcome, StateError
from engines.turing.puzzle import Puzzle
from engines.turing.rules import Sheet, TuringRules

Loaded = TypeVar("Loaded", bound=TuringRules)


def to_dict(state: TuringRules) -> JSON:
    """The state as JSON (``GameState.to_dict``)."""
    return {"schema": state.schema_version, "options": state.options, "seed": state.seed,
            "puzzle": state.puzzle.to_dict(), "machine": state.machine, "round": state.round,
            "sheets": [sheet.to_dict() for sheet in state.sheets],
            "actions": state.actions,
            "outcome": state._outcome.to_dict() if state._outcome else None}


def from_dict(cls: type[Loaded], data: JSON) -> Loaded:
    """A ``cls`` state from what ``to_dict`` wrote (``GameState.from_dict``)."""
    try:
        if data.get("schema") != cls.schema_version:
            raise StateError(f"unknown Turing Machine schema {data.get('schema')!r}")
        sheets = [Sheet.from_dict(s) for s in data["sheets"]]
        state = cls(dict(data["options"]), len(sheets), int(data["seed"]),
                    Puzzle.from_dict(data["puzzle"]), data["machine"])
        state.sheets = sheets
        state.round = int(data["round"])
        state.actions = [[int(seat), str(action)] for seat, action in data["actions"]]
        state._outcome = Outcome.from_dict(data["outcome"]) if data["outcome"] else None
    except (KeyError, TypeError, ValueError, InvalidMove) as error:
        raise StateError(f"bad Turing Machine state: {error}") from None
    if any(len(sheet.rounds) < 1 for sheet in state.sheets):
        raise StateError("a sheet without rounds")
    return state
