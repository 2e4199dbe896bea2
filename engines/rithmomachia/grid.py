"""Rithmomachia's menu as the board itself: one level's 4×4 cells as buttons, with a level
switcher beside them (issue 23, "boards you tap").

The list menu (``RithmomachiaState.menu``) makes a move in two taps: a piece (or a push
pair), then its target. This is its second view. The path ``("G", ...)`` holds the list
menu's own tokens, which are cell names (``2c1``), and level switches ``v1`` to ``v4``:

* each row is a rank of the level on view (rank 4 at the top, as the board is drawn),
  and its fifth button shows another level: the column reads 4, 3, 2, 1 from the top;
* the cells the list menu offers at this step are marked (``▸`` a piece that can move,
  ``→`` an empty target, ``⇒`` a piece a move would push), the piece picked up is in
  brackets; a tap on another cell is refused with the reason;
* the level on view is the one where this step has most options, until a switch says
  otherwise; choosing a cell goes on to the next step at its own best level.

Every move the grid makes is one of ``legal_actions`` and every legal move can be made on
it (``tests/engines/rithmomachia/test_grid.py`` walks both ways).
"""

from __future__ import annotations

from typing import Protocol

from engines.base import Choice, InvalidMove, Message, grid_group, not_in_menu
from engines.rithmomachia.board import CELL_BY_NAME, CELL_NAMES, cell_at, code_label


class RithmomachiaState(Protocol):
    """What the grid reads of the rules' state (``engines.rithmomachia.state``'s, whose
    menu, ``menu.py``, imports this module)."""

    board: list[int]

    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]: ...


GROUP = grid_group(5)  # four cells and the level key, in each row
SWITCH_PREFIX = "v"
EMPTY = "·"
MOVABLE = "▸"
TARGET = "→"
PUSHED = "⇒"
# A path holds at most ten tokens (a button's payload has room for no more): "G", the
# list menu's three cells at most, and the level switches between them.
MAX_TOKENS_AFTER_GRID = 9
MOST_CELL_TOKENS = 3


class Reading:
    """A grid path read: the list menu's path and the level on view (None: the best)."""

    def __init__(self, state: RithmomachiaState, player: int,
                 tokens: tuple[str, ...]) -> None:
        self.list_path: list[str] = []
        self.view: int | None = None
        for token in tokens:
            if token.startswith(SWITCH_PREFIX) and token[1:] in ("1", "2", "3", "4"):
                self.view = int(token[1:]) - 1
                continue
            if token not in CELL_BY_NAME:
                raise not_in_menu()
            offered = {choice.token for choice in state.menu(player, tuple(self.list_path))}
            if token not in offered:
                raise InvalidMove("rithmomachia.grid.not_offered",
                                  "{cell} is not a choice now: tap a marked cell (▸ → ⇒), or "
                                  "another level on the right.", cell=token)
            self.list_path.append(token)
            self.view = None
        still_needed = MOST_CELL_TOKENS - len(self.list_path)
        if self.view is not None and len(tokens) + still_needed > MAX_TOKENS_AFTER_GRID:
            raise InvalidMove("rithmomachia.grid.too_many_switches",
                              "That is many level switches in one move: ↩ back, then pick "
                              "the level again.")


def _level_of(name: str) -> int:
    return int(name[0]) - 1


def menu(state: RithmomachiaState, player: int, tokens: tuple[str, ...]) -> list[Choice]:
    """The grid after ``tokens``: four rows of a level's four cells and a level key."""
    reading = Reading(state, player, tokens)
    step = {choice.token: choice
            for choice in state.menu(player, tuple(reading.list_path))
            if len(choice.token) == len(CELL_NAMES[0])}  # cells, not push pairs
    if not step:
        return []
    level = reading.view
    if level is None:
        counts = [sum(1 for name in step if _level_of(name) == z) for z in range(4)]
        level = counts.index(max(counts))
    picked = reading.list_path[0] if reading.list_path else None
    choices: list[Choice] = []
    for rank in range(3, -1, -1):
        for file in range(4):
            cell = cell_at(level, file, rank)
            name = CELL_NAMES[cell]
            code = state.board[cell]
            piece = code_label(code) if code else ""
            offered = step.get(name)
            if offered is not None and not reading.list_path:
                label = f"{MOVABLE}{piece}"
            elif offered is not None:
                # The cell the moving piece leaves may be where a pushed piece goes.
                label = f"{PUSHED}{piece}" if piece and name != picked else TARGET
            elif name == picked:
                label = f"[{piece}]"
            else:
                label = piece or EMPTY
            choices.append(Choice(name, label, offered.action if offered else None,
                                  group=GROUP))
        # The key beside rank r shows level r: level 4 at the top, as the levels are drawn.
        marker = f"[{rank + 1}]" if rank == level else f"L{rank + 1}"
        choices.append(Choice(f"{SWITCH_PREFIX}{rank + 1}", marker, group=GROUP))
    return choices


def prompt(state: RithmomachiaState, player: int, tokens: tuple[str, ...]) -> Message:
    """What to tap next, and which level is on view."""
    reading = Reading(state, player, tokens)
    if not reading.list_path:
        return Message("rithmomachia.grid.tap_piece",
                       "Tap a piece to move (▸). The keys on the right show the other levels.")
    if len(reading.list_path) == 1:
        return Message("rithmomachia.grid.tap_target",
                       "Tap where {cell} goes (→), or a piece it pushes (⇒).",
                       cell=reading.list_path[0])
    return Message("rithmomachia.grid.tap_push",
                   "Tap where the pushed piece goes (→).")
