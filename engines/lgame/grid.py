"""The L-game's menu as the board itself: sixteen buttons you tap (issue 23).

The list menu (``LGameState.menu`` without ``GRID_TOKEN``) makes a move in two taps: the
new L by its squares, then the neutral piece. This is its second view, for a player who
would rather point at the board: the path ``("G", ...)`` is a sequence of tapped cells.

* **The new L.** Each tap adds a square to the L being drawn (the menu's back button takes
  the last tap back). The cells every remaining legal L could still cover are shown 🟨,
  the tapped ones 🟩; as soon as only one legal L covers all tapped squares it is taken,
  so two taps usually do. A tap that no legal L could cover is refused
  with the reason.
* **The neutral piece.** Then the new L stands 🟩 on the grid (the preview), and the
  player taps a neutral piece ⚫ and the empty square it goes to, or "Neutrals stay". In
  ``sudden_death`` both neutrals may move, one after the other.

Every move the grid makes is one of ``legal_actions`` and every legal move can be made on
it (``tests/engines/lgame/test_grid.py`` walks both ways).
"""

from __future__ import annotations

from typing import Protocol

from engines.base import Action, Choice, InvalidMove, Message, grid_group
from engines.lgame.board import (
    FULL_BOARD,
    PLACEMENTS,
    cell_name,
    cells_of,
    l_moves,
    parse_cell,
)


class LGameState(Protocol):
    """What the grid reads of the rules' state (``engines.lgame.state.LGameState``, whose
    menu, ``menu.py``, imports this module)."""

    ls: list[int]
    neutrals: int

    @property
    def max_neutral_steps(self) -> int: ...

    def _apply_neutral_steps(self, placement: int,
                             steps: list[tuple[int | None, int | None]]) -> int: ...

    def _encode(self, placement: int, neutrals_after: int) -> Action: ...

GROUP = grid_group(4)
# The board's own squares, as ``renderers.lgame`` draws them (X red, O blue), so the
# grid of buttons reads as the board above it; a test keeps the two the same.
PIECE_GLYPHS = ("🟥", "🟦")
NEUTRAL = "⚫"
EMPTY = "⬜"
TAPPED = "🟩"  # the squares of the new L: tapped so far, or the whole L once it is fixed
POSSIBLE = "🟨"  # squares a legal L through the tapped ones could still cover
PICKED = "🟡"  # the neutral piece picked up, waiting for where it goes

SIZE = 4
# Top rank first, as the board is drawn.
DISPLAY_ORDER = tuple(rank * SIZE + file for rank in range(SIZE - 1, -1, -1)
                      for file in range(SIZE))


def _not_offered() -> InvalidMove:
    return InvalidMove("error.not_in_menu", "That option is not on the menu.")


def _tapped_already(cell: int) -> InvalidMove:
    # A tap is taken back with the menu's back button, so a path never grows past the
    # squares of one L and its neutral steps (a button's payload has room for ten).
    return InvalidMove("lgame.grid.tapped_already",
                       "{cell} is tapped already; ↩ back takes the last tap back.",
                       cell=cell_name(cell))


def _mask(cells: set[int]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


class Reading:
    """A grid path read: the squares tapped for the new L, the L once fixed, and the
    neutral pieces' steps after it (whole steps, and a picked-up piece)."""

    def __init__(self, state: LGameState, player: int, taps: tuple[str, ...]) -> None:
        self.state, self.player = state, player
        self.legal = l_moves(state.ls[player], state.ls[1 - player], state.neutrals)
        self.tapped: set[int] = set()
        self.placement: int | None = None
        self.steps: list[tuple[int, int]] = []
        self.picked: int | None = None
        for token in taps:
            cell = parse_cell(token)
            if cell is None:
                raise _not_offered()
            if self.placement is None:
                self._tap_l(cell)
                covering = self.candidates()
                if len(covering) == 1:
                    self.placement = covering[0]
                    self.tapped = set()
            elif self.picked is None:
                self._pick(cell)
            else:
                self._drop(cell)

    def candidates(self) -> list[int]:
        mask = _mask(self.tapped)
        return [p for p in self.legal if PLACEMENTS[p].mask & mask == mask]

    def _tap_l(self, cell: int) -> None:
        if cell in self.tapped:
            raise _tapped_already(cell)
        self.tapped.add(cell)
        if not self.candidates():
            raise InvalidMove("lgame.grid.no_l",
                              "No move of your L covers {cells}: tap squares of one L.",
                              cells=" ".join(cell_name(c) for c in sorted(self.tapped)))

    def neutrals(self) -> int:
        """Where the neutral pieces stand after the steps taken so far."""
        assert self.placement is not None
        return self.state._apply_neutral_steps(self.placement, list(self.steps))

    def _movable(self) -> set[int]:
        moved = {target for _, target in self.steps}
        return set(cells_of(self.neutrals())) - moved

    def _pick(self, cell: int) -> None:
        if len(self.steps) >= self.state.max_neutral_steps:
            raise _not_offered()
        if cell not in self._movable():
            raise InvalidMove("lgame.grid.not_neutral",
                              "{cell} holds no neutral piece you may move: tap a ⚫, or "
                              "“Neutrals stay”.", cell=cell_name(cell))
        self.picked = cell

    def _drop(self, cell: int) -> None:
        assert self.picked is not None
        if cell == self.picked:
            raise _tapped_already(cell)
        if cell not in self.empty():
            raise InvalidMove("lgame.grid.not_empty",
                              "{cell} is not empty: tap an empty square ⬜ for the neutral "
                              "piece.", cell=cell_name(cell))
        self.steps.append((self.picked, cell))
        self.picked = None

    def empty(self) -> set[int]:
        assert self.placement is not None
        other = PLACEMENTS[self.state.ls[1 - self.player]].mask
        occupied = PLACEMENTS[self.placement].mask | other | self.neutrals()
        return set(cells_of(FULL_BOARD & ~occupied))

    def action(self, neutrals: int) -> str:
        assert self.placement is not None
        return self.state._encode(self.placement, neutrals)


def _glyph(state: LGameState, player: int, cell: int, neutrals: int,
           new_l: int | None) -> str:
    """What stands on ``cell`` now, as the board shows it; with the new L fixed, the
    mover's old L is gone and the new one stands 🟩."""
    bit = 1 << cell
    if new_l is not None and PLACEMENTS[new_l].mask & bit:
        return TAPPED
    if neutrals & bit:
        return NEUTRAL
    for seat in (0, 1):
        if seat == player and new_l is not None:
            continue
        if PLACEMENTS[state.ls[seat]].mask & bit:
            return PIECE_GLYPHS[seat]
    return EMPTY


def menu(state: LGameState, player: int, taps: tuple[str, ...]) -> list[Choice]:
    """The grid after ``taps``: sixteen cells (top rank first) and, once the L is fixed,
    "Neutrals stay". Empty when the taps complete the move (the caller then has its
    action from the last choice)."""
    reading = Reading(state, player, taps)
    if reading.placement is None:
        possible = 0
        if reading.tapped:
            for placement in reading.candidates():
                possible |= PLACEMENTS[placement].mask
        cells = []
        for cell in DISPLAY_ORDER:
            if cell in reading.tapped:
                label = TAPPED
            elif possible >> cell & 1:
                label = POSSIBLE
            else:
                label = _glyph(state, player, cell, state.neutrals, None)
            cells.append(Choice(cell_name(cell), label, group=GROUP))
        return cells
    neutrals = reading.neutrals()
    if len(reading.steps) >= state.max_neutral_steps:
        return []
    last_step = len(reading.steps) + 1 == state.max_neutral_steps
    cells = []
    empty = reading.empty() if reading.picked is not None else set()
    for cell in DISPLAY_ORDER:
        label = _glyph(state, player, cell, neutrals, reading.placement)
        action = None
        if cell == reading.picked:
            label = PICKED
        elif cell in empty and last_step:
            assert reading.picked is not None
            action = reading.action(neutrals & ~(1 << reading.picked) | 1 << cell)
        cells.append(Choice(cell_name(cell), label, action, group=GROUP))
    keep = (Message("lgame.menu.keep", "Neutrals stay") if not reading.steps
            else Message("lgame.menu.keep_other", "Other neutral stays"))
    return [*cells, Choice("-", keep, reading.action(neutrals))]


def prompt(state: LGameState, player: int, taps: tuple[str, ...]) -> Message:
    """What to tap next."""
    reading = Reading(state, player, taps)
    if reading.placement is None:
        if not reading.tapped:
            return Message("lgame.grid.tap_l", "Tap a square of your new L.")
        return Message("lgame.grid.tap_more",
                       "Tap another square of your new L (🟨 could still be part of it).")
    if reading.picked is not None:
        return Message("lgame.grid.tap_target", "Tap the empty square ⬜ where it goes.")
    return Message("lgame.grid.tap_neutral",
                   "Your new L is 🟩. Tap a neutral piece ⚫ to move it, or “Neutrals stay”.")
