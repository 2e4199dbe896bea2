"""Boolean Rithmomachia's menus: the pieces that can move, their destinations and a push's
cell (or the grid of ``engines/rithmomachia/grid.py``), and the placements."""

from __future__ import annotations

from engines.base import (
    GRID_TOKEN,
    Choice,
    Message,
    not_in_menu,
)
from engines.rithmomachia import grid as rithmomachia_grid
from engines.rithmomachia.board import (
    CELL_BY_NAME,
    CELL_NAMES,
    bits,
    code_label,
    piece_label,
    value_of,
)
from engines.rithmomachia.equations import occupancy
from engines.rithmomachia.moves import (
    encode_move,
    move_captures,
    move_text,
)
from engines.rithmomachia.notation import (
    placement_text,
)
from engines.rithmomachia.rules import RithmomachiaRules


class RithmomachiaMenus(RithmomachiaRules):
    """The menus of a Boolean Rithmomachia state."""

    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        self._check_turn(player)
        if self.phase == "placement":
            return self._placement_menu(player, path)
        if path[:1] == (GRID_TOKEN,):
            return rithmomachia_grid.menu(self, player, path[1:])
        by_source = self._moves_by_source()
        if not path:
            return [*(Choice(CELL_NAMES[s], piece_label(value_of(self.board[s]), s, player))
                      for s in by_source), *self._push_pairs(by_source)]
        if len(path[0]) == 2 * len(CELL_NAMES[0]):  # a push chosen on the first step
            source, dest = (CELL_BY_NAME.get(path[0][:3], -1),
                            CELL_BY_NAME.get(path[0][3:], -1))
            if source not in by_source or len(path) > 1:
                raise not_in_menu()
            return self._push_choices(by_source[source], dest)
        source = CELL_BY_NAME.get(path[0], -1)
        if source not in by_source or len(path) > 3:
            raise not_in_menu()
        mine = by_source[source]
        if len(path) == 1:
            choices = []
            masks = occupancy(self.board)
            for dest in dict.fromkeys((m >> 6) & 63 for m in mine):
                occupant = self.board[dest]
                if occupant:
                    choices.append(Choice(CELL_NAMES[dest], Message(
                        "rithmomachia.menu.push", "→ {cell} push {piece}",
                        cell=CELL_NAMES[dest], piece=code_label(occupant))))
                else:
                    move = encode_move(source, dest)
                    choices.append(Choice(CELL_NAMES[dest], self._move_label(move, dest, masks),
                                          move_text(move)))
            return choices
        if len(path) > 2:
            raise not_in_menu()
        return self._push_choices(mine, CELL_BY_NAME.get(path[1], -1))

    def offers_grid(self) -> bool:
        return self.phase != "placement"  # a level's cells as buttons (``rithmomachia_grid``)

    def menu_prompt(self, player: int, path: tuple[str, ...]) -> Message | None:
        if path[:1] == (GRID_TOKEN,) and self.offers_grid():
            return rithmomachia_grid.prompt(self, player, path[1:])
        return None

    def _push_pairs(self, by_source: dict[int, list[int]]) -> list[Choice]:
        """Each push as one first-step option ("2c1⇒2c2"), so that a push,
        about half of a good player's moves, takes two taps like any other move: the pair,
        then where the pushed piece goes (issue 23's two taps per move). The Pyramid's own
        option still lists its pushes too, for players who start from the piece."""
        pairs = dict.fromkeys((m & 63, (m >> 6) & 63)
                              for moves in by_source.values() for m in moves if m >> 12)
        return [Choice(f"{CELL_NAMES[source]}{CELL_NAMES[dest]}",
                       Message("rithmomachia.menu.push_pair", "{source}⇒{cell}",
                               source=CELL_NAMES[source], cell=CELL_NAMES[dest]),
                       group="push")
                for source, dest in pairs]

    def _push_choices(self, moves: list[int], dest: int) -> list[Choice]:
        """Where the piece pushed off ``dest`` may go, one option per cell."""
        pushes = [m for m in moves if (m >> 6) & 63 == dest and m >> 12]
        if not pushes:
            raise not_in_menu()
        masks = occupancy(self.board)
        return [Choice(CELL_NAMES[(m >> 12) - 1],
                       self._move_label(m, (m >> 12) - 1, masks, push=True), move_text(m))
                for m in pushes]

    def _move_label(self, move: int, cell: int, masks: tuple[int, int],
                    push: bool = False) -> str:
        """``→ 2d1``, or ``push → 2d1`` for where a pushed piece goes, with how many pieces
        the move takes; ``masks`` is ``occupancy(self.board)``."""
        taken = bin(move_captures(self.board, move, self.turn, self.rules, masks)).count("1")
        where = (Message("rithmomachia.menu.push_to", "push → {cell}", cell=CELL_NAMES[cell])
                 if push else f"→ {CELL_NAMES[cell]}")
        if not taken:
            return where
        return Message("rithmomachia.menu.takes", "{move} · takes {count}", move=where,
                       count=taken)

    def _placement_menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        options = self.placements(player)
        values = list(dict.fromkeys(v for v, _ in options))
        if not path:
            return [Choice(bits(v), piece_label(v, owner=player)) for v in values]
        if len(path) > 1 or path[0] not in {bits(v) for v in values}:
            raise not_in_menu()
        value = int(path[0], 2)
        return [Choice(CELL_NAMES[c], CELL_NAMES[c], placement_text(v, c))
                for v, c in options if v == value]
