"""The L-game's view: the pieces, the placements' names, the move count and the last move.
A function of the rules' state; ``LGameState.view`` calls ``view``."""

from __future__ import annotations

from engines.base import JSON
from engines.lgame.board import PLACEMENTS, mask_names
from engines.lgame.rules import NAME, LGameRules

MARKS = ("X", "O")


def view(state: LGameRules, player: int | None) -> JSON:
    """What ``player`` (or the public, for None) sees (``GameState.view``); the L-game hides
    nothing."""
    return {
        "game": NAME,
        "viewer": player,
        "pieces": {
            "X": list(PLACEMENTS[state.ls[0]].cell_names),
            "O": list(PLACEMENTS[state.ls[1]].cell_names),
            "neutral": mask_names(state.neutrals),
        },
        "placements": {"X": PLACEMENTS[state.ls[0]].notation,
                       "O": PLACEMENTS[state.ls[1]].notation},
        "to_move": state.turn if state._outcome is None else None,
        "plies": state.plies,
        "move_limit": state.options["move_limit"],
        "sudden_death": state.sudden_death,
        "last_move": state.last_move,
        "outcome": state._outcome.to_dict() if state._outcome else None,
    }
