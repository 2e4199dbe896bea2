"""The L-game's menus: the new L's placements, then the neutral pieces' steps; or, after
``GRID_TOKEN``, the board's grid of squares (``grid.py``). Functions of the rules' state;
``LGameState.menu``, ``offers_grid`` and ``menu_prompt`` call them."""

from __future__ import annotations

from engines.base import GRID_TOKEN, Choice, GameError, InvalidMove, Message
from engines.lgame import grid
from engines.lgame.board import (
    FULL_BOARD,
    PLACEMENT_BY_CODE,
    PLACEMENTS,
    cell_name,
    cells_of,
    l_moves,
    parse_cell,
)
from engines.lgame.rules import LGameRules


def choices(state: LGameRules, player: int, path: tuple[str, ...]) -> list[Choice]:
    """The options after ``path`` (``GameState.menu``)."""
    state._check_turn(player)
    if path[:1] == (GRID_TOKEN,):
        return grid.menu(state, player, path[1:])
    if not path:
        return [Choice(PLACEMENTS[p].code, PLACEMENTS[p].menu_label)
                for p in l_moves(state.ls[player], state.ls[1 - player], state.neutrals)]
    placement = PLACEMENT_BY_CODE.get(path[0])
    if placement not in l_moves(state.ls[player], state.ls[1 - player], state.neutrals):
        raise InvalidMove("error.not_in_menu", "That option is not on the menu.")
    assert placement is not None
    occupied = state._occupied_by_other(player) | PLACEMENTS[placement].mask
    steps = path[1:]
    if len(steps) > state.max_neutral_steps or "-" in steps[:-1]:
        raise InvalidMove("error.not_in_menu", "That option is not on the menu.")
    neutrals = state.neutrals
    moved: list[tuple[int, int]] = []
    for step in steps:
        if step == "-":
            break
        source, target = parse_cell(step[:2]), parse_cell(step[2:])
        if len(step) != 4 or source is None or target is None:
            raise InvalidMove("error.not_in_menu", "That option is not on the menu.")
        try:
            neutrals = state._apply_neutral_steps(placement, [*moved, (source, target)])
        except GameError:
            raise InvalidMove("error.not_in_menu", "That option is not on the menu.") from None
        moved.append((source, target))
    finished = bool(steps) and (steps[-1] == "-" or len(moved) == state.max_neutral_steps)
    if finished:
        return []
    keep = (Message("lgame.menu.keep", "Neutrals stay") if not moved
            else Message("lgame.menu.keep_other", "Other neutral stays"))
    options = [Choice("-", keep, state._encode(placement, neutrals))]
    movable = [c for c in cells_of(neutrals) if c not in {t for _, t in moved}]
    empty = FULL_BOARD & ~occupied & ~neutrals
    for source in movable:
        for target in cells_of(empty):
            after = neutrals & ~(1 << source) | 1 << target
            last_step = len(moved) + 1 == state.max_neutral_steps
            options.append(Choice(f"{cell_name(source)}{cell_name(target)}",
                                  Message("lgame.menu.neutral",
                                          "Neutral {source}→{target}",
                                          source=cell_name(source),
                                          target=cell_name(target)),
                                  state._encode(placement, after) if last_step else None))
    return options


def prompt(state: LGameRules, player: int, path: tuple[str, ...]) -> Message | None:
    """What to tap at ``path`` of the grid (``GameState.menu_prompt``)."""
    if path[:1] == (GRID_TOKEN,):
        return grid.prompt(state, player, path[1:])
    return None
