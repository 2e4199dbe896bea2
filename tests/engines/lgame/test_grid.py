"""The L-game's board as buttons (``engines.lgame.grid``): every move the grid makes is
legal, every legal move can be made on it, in the normal game and in sudden death, and it
draws the board as the renderer does."""

from __future__ import annotations

import itertools
import random

import pytest

from engines import lgame
from engines.base import GRID_TOKEN, GameError, grid_width
from engines.lgame import LGameState
from engines.lgame import board as lgame_board
from engines.lgame import grid as lgame_grid
from engines.lgame.board import PLACEMENT_BY_CODE, PLACEMENTS
from renderers import lgame as render


def positions(seed: int, options: dict[str, object], plies: int = 12) -> list[LGameState]:
    rng = random.Random(seed)
    state = lgame.new_game(options, 2, seed)
    found = []
    for _ in range(plies):
        if state.outcome() is not None:
            break
        found.append(LGameState.from_dict(state.to_dict()))
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def grid_moves(state: LGameState, seat: int) -> tuple[set[str], int]:
    """Every action some grid path completes (walking as the service does: a choice
    without an action opens the next step, which may refuse), and the longest path.
    The squares of an L are tapped in board order only: the taps are a set, and which L
    they fix does not depend on their order."""
    actions: set[str] = set()
    longest = 0
    waiting: list[tuple[tuple[str, ...], int]] = [((GRID_TOKEN,), -1)]
    while waiting:
        path, last_tap = waiting.pop()
        longest = max(longest, len(path))
        try:
            choices = state.menu(seat, path)
        except GameError:
            continue  # a tap the grid refuses, with its reason
        drawing_the_l = not any(choice.token == "-" for choice in choices)
        for choice in choices:
            if choice.action is not None:
                actions.add(choice.action)
                longest = max(longest, len(path) + 1)
            elif not drawing_the_l:
                waiting.append(((*path, choice.token), last_tap))
            elif (cell := lgame_board.CELL_BY_NAME[choice.token]) > last_tap:
                waiting.append(((*path, choice.token), cell))
    return actions, longest


@pytest.mark.parametrize(("seed", "options"), [(1, {}), (2, {}), (3, {"sudden_death": True})])
def test_the_grid_makes_exactly_the_legal_moves(seed: int, options: dict[str, object]) -> None:
    for state in positions(seed, options, plies=6 if options else 12):
        seat = state.to_move()[0]
        made, longest = grid_moves(state, seat)
        legal = set(state.legal_actions(seat))
        assert made == legal, (sorted(made - legal)[:3], sorted(legal - made)[:3])
        assert longest <= 10, "a grid path fits a button's payload"


def test_each_step_is_the_board_in_its_shape() -> None:
    state = lgame.new_game({}, 2, 4)  # no last move, whose marks only the picture has
    seat = state.to_move()[0]
    cells = state.menu(seat, (GRID_TOKEN,))
    assert len(cells) == 16 and {grid_width(c.group) for c in cells} == {4}
    # The grid reads as the emoji board does: top rank first, the same squares.
    board_rows = render.render_emoji(state.view(None)).split("\n")[1:]
    drawn = ["".join(str(c.label) for c in cells[row * 4:row * 4 + 4]) for row in range(4)]
    for row, text in zip(board_rows, drawn, strict=True):
        assert row.endswith(text), (row, text)
    drawn_glyphs = [render.EMOJI_SYMBOLS[piece] for piece in ("X", "O", "neutral", None)]
    assert drawn_glyphs == [*lgame_grid.PIECE_GLYPHS, lgame_grid.NEUTRAL, lgame_grid.EMPTY]


def test_taps_narrow_the_l_and_refusals_say_why() -> None:
    state = lgame.new_game({}, 2, 1)
    seat = state.to_move()[0]
    first = state.menu(seat, (GRID_TOKEN,))
    # A tap on a square no new L can cover (the other L) is refused with the reason.
    other = set(state.view(None)["pieces"]["XO"[1 - seat]])
    with pytest.raises(GameError) as refused:
        state.menu(seat, (GRID_TOKEN, sorted(other)[0]))
    assert "No move of your L covers" in str(refused.value)
    # One tap on an empty square: it turns 🟩 and the squares still possible 🟨.
    empty = next(c for c in first if c.label == lgame_grid.EMPTY)
    after = state.menu(seat, (GRID_TOKEN, empty.token))
    labels = {c.token: c.label for c in after}
    assert labels[empty.token] == lgame_grid.TAPPED
    assert lgame_grid.POSSIBLE in labels.values()
    assert "another square" in str(state.menu_prompt(seat, (GRID_TOKEN, empty.token)))
    with pytest.raises(GameError) as again:
        state.menu(seat, (GRID_TOKEN, empty.token, empty.token))
    assert "tapped already" in str(again.value)


def test_an_l_fixed_by_two_taps_is_previewed_then_the_neutral_moves() -> None:
    state = lgame.new_game({}, 2, 1)
    seat = state.to_move()[0]
    legal = set(state.legal_actions(seat))
    fixed = 0
    for code in sorted({action.split()[0] for action in legal}):
        cells = PLACEMENTS[PLACEMENT_BY_CODE[code]].cell_names
        for first, second in itertools.permutations(cells, 2):
            path = (GRID_TOKEN, first, second)
            try:
                step = state.menu(seat, path)
            except GameError:
                continue
            if not any(c.token == "-" for c in step):
                continue  # still open after these two taps
            fixed += 1
            # The preview: the new L stands 🟩 where it will go.
            assert sorted(c.token for c in step if c.label == lgame_grid.TAPPED) == sorted(cells)
            assert "Your new L is 🟩" in str(state.menu_prompt(seat, path))
            assert next(c for c in step if c.token == "-").action == code
            neutral = next(c for c in step if c.label == lgame_grid.NEUTRAL)
            targets = state.menu(seat, (*path, neutral.token))
            assert [c.label for c in targets if c.token == neutral.token] == [lgame_grid.PICKED]
            moves = {c.action for c in targets if c.action is not None and c.token != "-"}
            assert moves and moves <= legal
            assert all(move.startswith(f"{code} {neutral.token}") for move in moves)
            break
    assert fixed >= 4, "most Ls are fixed by two of their squares"
