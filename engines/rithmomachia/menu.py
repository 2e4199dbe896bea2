"""Boolean Rithmomachia's menus: the pieces that can move, their destinations and a push's
cell (or the grid of ``grid.py``), and the placements. Functions of the rules' state;
``RithmomachiaState.menu``, ``offers_grid`` and ``menu_prompt`` call ``choices``,
``offers_grid`` and ``prompt``."""

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


def choices(state: RithmomachiaRules, player: int, path: tuple[str, ...]) -> list[Choice]:
    """The options after ``path`` (``GameState.menu``)."""
    state._check_turn(player)
    if state.phase == "placement":
        return _placement_menu(state, player, path)
    if path[:1] == (GRID_TOKEN,):
        return rithmomachia_grid.menu(state, player, path[1:])
    by_source = state._moves_by_source()
    if not path:
        return [*(Choice(CELL_NAMES[s], piece_label(value_of(state.board[s]), s, player))
                  for s in by_source), *_push_pairs(state, by_source)]
    if len(path[0]) == 2 * len(CELL_NAMES[0]):  # a push chosen on the first step
        source, dest = (CELL_BY_NAME.get(path[0][:3], -1),
                        CELL_BY_NAME.get(path[0][3:], -1))
        if source not in by_source or len(path) > 1:
            raise not_in_menu()
        return _push_choices(state, by_source[source], dest)
    source = CELL_BY_NAME.get(path[0], -1)
    if source not in by_source or len(path) > 3:
        raise not_in_menu()
    mine = by_source[source]
    if len(path) == 1:
        options = []
        masks = occupancy(state.board)
        for dest in dict.fromkeys((m >> 6) & 63 for m in mine):
            occupant = state.board[dest]
            if occupant:
                options.append(Choice(CELL_NAMES[dest], Message(
                    "rithmomachia.menu.push", "→ {cell} push {piece}",
                    cell=CELL_NAMES[dest], piece=code_label(occupant))))
            else:
                move = encode_move(source, dest)
                options.append(Choice(CELL_NAMES[dest], _move_label(state, move, dest, masks),
                                      move_text(move)))
        return options
    if len(path) > 2:
        raise not_in_menu()
    return _push_choices(state, mine, CELL_BY_NAME.get(path[1], -1))


def offers_grid(state: RithmomachiaRules) -> bool:
    return state.phase != "placement"  # a level's cells as buttons (``grid.py``)


def prompt(state: RithmomachiaRules, player: int, path: tuple[str, ...]) -> Message | None:
    if path[:1] == (GRID_TOKEN,) and offers_grid(state):
        return rithmomachia_grid.prompt(state, player, path[1:])
    return None


def _push_pairs(state: RithmomachiaRules, by_source: dict[int, list[int]]) -> list[Choice]:
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


def _push_choices(state: RithmomachiaRules, moves: list[int], dest: int) -> list[Choice]:
    """Where the piece pushed off ``dest`` may go, one option per cell."""
    pushes = [m for m in moves if (m >> 6) & 63 == dest and m >> 12]
    if not pushes:
        raise not_in_menu()
    masks = occupancy(state.board)
    return [Choice(CELL_NAMES[(m >> 12) - 1],
                   _move_label(state, m, (m >> 12) - 1, masks, push=True), move_text(m))
            for m in pushes]


def _move_label(state: RithmomachiaRules, move: int, cell: int, masks: tuple[int, int],
                push: bool = False) -> str:
    """``→ 2d1``, or ``push → 2d1`` for where a pushed piece goes, with how many pieces
    the move takes; ``masks`` is ``occupancy(state.board)``."""
    taken = bin(move_captures(state.board, move, state.turn, state.rules, masks)).count("1")
    where = (Message("rithmomachia.menu.push_to", "push → {cell}", cell=CELL_NAMES[cell])
             if push else f"→ {CELL_NAMES[cell]}")
    if not taken:
        return where
    return Message("rithmomachia.menu.takes", "{move} · takes {count}", move=where,
                   count=taken)


def _placement_menu(state: RithmomachiaRules, player: int, path: tuple[str, ...]) -> list[Choice]:
    options = state.placements(player)
    values = list(dict.fromkeys(v for v, _ in options))
    if not path:
        return [Choice(bits(v), piece_label(v, owner=player)) for v in values]
    if len(path) > 1 or path[0] not in {bits(v) for v in values}:
        raise not_in_menu()
    value = int(path[0], 2)
    return [Choice(CELL_NAMES[c], CELL_NAMES[c], placement_text(v, c))
            for v, c in options if v == value]
