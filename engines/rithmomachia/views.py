"""Boolean Rithmomachia's view: the board, counts, standing and the last move. A function
of the rules' state; ``RithmomachiaState.view`` calls ``view``."""

from __future__ import annotations

from engines.base import (
    JSON,
    NotYourTurn,
)
from engines.json_copy import copy_json
from engines.rithmomachia.board import (
    CELL_NAMES,
    LAYOUT_SHAPES,
    SHAPE_NAMES,
    owner_of,
    piece_info,
    value_of,
)
from engines.rithmomachia.moves import (
    SEATS,
    victories,
)
from engines.rithmomachia.rules import NAME, SEAT_NAMES, RithmomachiaRules


def view(state: RithmomachiaRules, player: int | None) -> JSON:
    """What ``player`` (or the public, for None) sees (``GameState.view``)."""
    if player is not None and player not in (0, 1):
        raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
    board = [{"cell": CELL_NAMES[c], **piece_info(value_of(code)), "owner": owner_of(code)}
             for c, code in enumerate(state.board) if code]
    standing = victories(state.board)
    return {
        "game": NAME,
        "viewer": player,
        "seat_names": list(SEAT_NAMES),
        "options": dict(state.options),
        "ops": [op.upper() for op in state.rules.ops],
        "push": state.push,
        "setup": state.options["setup"],
        "phase": state.phase,
        "to_move": state.turn if state._outcome is None else None,
        "ply": state.plies,
        "move_limit": state.move_limit,
        "board": board,
        "layout": [[SHAPE_NAMES[s].lower() for s in row] for row in LAYOUT_SHAPES],
        "unplaced": [state.unplaced(s) if state.phase == "placement" else []
                     for s in range(SEATS)],
        "counts": standing["counts"],
        "standing": {"victories": standing["victories"],
                     "victory_counts": standing["victory_counts"],
                     "leader": standing["winners"][0] if standing["winners"] else None,
                     "label": standing["label"]},
        "repetitions": state.history.get(state.key(), 0),
        "last_move": copy_json(state.last_move),  # its list of captured cells too
        "last_events": copy_json(state.last_events),
        "outcome": state._outcome.to_dict() if state._outcome else None,
    }
