"""Boolean Rithmomachia's view: the board, counts, standing and the last move."""

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


class RithmomachiaViews(RithmomachiaRules):
    """The view of a Boolean Rithmomachia state."""

    def view(self, player: int | None) -> JSON:
        if player is not None and player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        board = [{"cell": CELL_NAMES[c], **piece_info(value_of(code)), "owner": owner_of(code)}
                 for c, code in enumerate(self.board) if code]
        standing = victories(self.board)
        return {
            "game": NAME,
            "viewer": player,
            "seat_names": list(SEAT_NAMES),
            "options": dict(self.options),
            "ops": [op.upper() for op in self.rules.ops],
            "push": self.push,
            "setup": self.options["setup"],
            "phase": self.phase,
            "to_move": self.turn if self._outcome is None else None,
            "ply": self.plies,
            "move_limit": self.move_limit,
            "board": board,
            "layout": [[SHAPE_NAMES[s].lower() for s in row] for row in LAYOUT_SHAPES],
            "unplaced": [self.unplaced(s) if self.phase == "placement" else []
                         for s in range(SEATS)],
            "counts": standing["counts"],
            "standing": {"victories": standing["victories"],
                         "victory_counts": standing["victory_counts"],
                         "leader": standing["winners"][0] if standing["winners"] else None,
                         "label": standing["label"]},
            "repetitions": self.history.get(self.key(), 0),
            "last_move": copy_json(self.last_move),  # its list of captured cells too
            "last_events": copy_json(self.last_events),
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }
