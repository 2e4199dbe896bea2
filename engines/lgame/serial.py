"""The L-game's storage: a state to JSON and back, the pieces checked on load. Functions of
the rules' state; ``LGameState.to_dict`` and ``from_dict`` call them."""

from __future__ import annotations

from typing import TypeVar

from engines.base import JSON, GameError, Outcome, StateError
from engines.lgame.board import PLACEMENT_BY_CODE, PLACEMENTS, mask_names, parse_cell
from engines.lgame.rules import NAME, LGameRules

Loaded = TypeVar("Loaded", bound=LGameRules)


def to_dict(state: LGameRules) -> JSON:
    """The state as JSON (``GameState.to_dict``)."""
    return {
        "game": NAME,
        "schema": state.schema_version,
        "options": dict(state.options),
        "seed": state.seed,
        "ls": [PLACEMENTS[i].code for i in state.ls],
        "neutrals": mask_names(state.neutrals),
        "turn": state.turn,
        "plies": state.plies,
        "actions": list(state.actions),
        "history": [[key, count] for key, count in sorted(state.history.items())],
        "last_move": state.last_move,
        "outcome": state._outcome.to_dict() if state._outcome else None,
    }


def from_dict(cls: type[Loaded], data: JSON) -> Loaded:
    """A ``cls`` state from what ``to_dict`` wrote, the pieces checked
    (``GameState.from_dict``)."""
    if not isinstance(data, dict):
        raise StateError(f"an L-game state is a JSON object, not {type(data).__name__}")
    try:
        if data.get("game") != NAME or data.get("schema") != cls.schema_version:
            raise StateError(f"not an L-game state of schema {cls.schema_version}")
        state = cls(dict(data["options"]), int(data["seed"]))
        ls = [PLACEMENT_BY_CODE[code] for code in data["ls"]]
        neutral_cells = [parse_cell(name) for name in data["neutrals"]]
        if len(ls) != 2 or len(neutral_cells) != 2 or None in neutral_cells:
            raise StateError("wrong number of pieces")
        neutrals = sum(1 << c for c in neutral_cells if c is not None)
        masks = [PLACEMENTS[ls[0]].mask, PLACEMENTS[ls[1]].mask, neutrals]
        if (masks[0] & masks[1] or (masks[0] | masks[1]) & neutrals
                or bin(neutrals).count("1") != 2):
            raise StateError("pieces overlap")
        state.ls, state.neutrals = ls, neutrals
        state.turn = int(data["turn"])
        if state.turn not in (0, 1):
            raise StateError("turn must be 0 or 1")
        state.plies = int(data["plies"])
        state.actions = [str(a) for a in data["actions"]]
        if len(state.actions) != state.plies:
            raise StateError("action log does not match the move count")
        state.history = {int(k): int(v) for k, v in data["history"]}
        state.last_move = data.get("last_move")
        outcome = data.get("outcome")
        state._outcome = Outcome.from_dict(outcome) if outcome else None
        return state
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, GameError) as error:
        raise StateError(f"invalid L-game state: {error!r}") from error
