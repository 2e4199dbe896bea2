"""Every board and hand the service can produce fits Discord's message limits.

Discord rejects a whole message when one limit is broken, which would leave a game
without its board; so the limits are checked over many positions and every menu step.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.adapters.discord.components import BUTTON_TEMPLATE, SELECT_TEMPLATE, build_view
from bot.adapters.discord.hands import hand_layout
from bot.adapters.discord.layout import V2_COMPONENTS, Layout, board_layout
from bot.adapters.discord.menus import select_payload
from bot.service import Button, Place, Service
from engines import rithmomachia
from engines.base import GRID_TOKEN, GameError
from engines.rithmomachia import grid as rithmomachia_grid
from tests.helpers import hidden_game
from tests.helpers.discord_text import walk
from tests.helpers.lgame_positions import random_states
from tests.helpers.menus import record_for, walk_menus

EMOJI = Place("discord", "1", emoji=True)
TEXT = Place("discord", "1", emoji=False)
def check_limits(layout: Layout, menu: list[Button]) -> None:
    """Discord's limits for ``layout``: a classic message's 2000 characters and five rows,
    or a Components V2 message's 40 components (nested ones counted) and 4000 characters
    of text; five buttons or one select in a row, ids and labels within theirs."""
    view = build_view(layout)
    components: list[dict[str, Any]] = view.to_components() if view is not None else []
    if layout.v2:
        every = list(walk(components))
        assert len(every) <= V2_COMPONENTS == 40
        assert layout.component_count() == len(every)
        assert sum(len(c["content"]) for c in every if c["type"] == 10) <= 4000
        rows = [c for c in every if c["type"] == 1]
    else:
        assert len(layout.content) <= 2000
        assert len(components) <= 5
        rows = components
    custom_ids = []
    for row in rows:
        children = row["components"]
        assert len(children) <= 5
        for child in children:
            custom_ids.append(child["custom_id"])
            assert len(child["custom_id"]) <= 100
            if child["type"] == 2:
                assert 1 <= len(child["label"]) <= 80
                assert re.fullmatch(BUTTON_TEMPLATE, child["custom_id"])
            else:
                assert len(child) and len(child["options"]) <= 25
                assert re.fullmatch(SELECT_TEMPLATE, child["custom_id"])
                assert all(1 <= len(o["label"]) <= 100 for o in child["options"])
    assert len(custom_ids) == len(set(custom_ids)), "custom ids are unique in a message"
    # Each menu option is reachable, by button or select, under its own payload.
    reachable = {b.custom_id[3:] for b in layout.buttons}
    for select in layout.selects:
        prefix = select.custom_id[4:].rsplit(":", 1)[0]
        reachable |= {select_payload(prefix, value) for _, value in select.options}
    expected = {b.payload for b in menu}
    if not layout.overflow:
        assert expected <= reachable


@pytest.mark.parametrize("sudden_death", [False, True])
def test_every_lgame_menu_step_fits(sudden_death: bool) -> None:
    service = Service(store=None)  # type: ignore[arg-type]  # rendering needs no store
    steps = 0
    for state in random_states(sudden_death, 40, seed=17 if sudden_death else 23):
        record = record_for("lgame", state)
        for place in (EMOJI, TEXT):
            for path, menu in walk_menus(service, EMOJI, record, state, state.turn):
                board = service.render_board(place, record, state, path)
                check_limits(board_layout(board, place.language, ["x" * 200]), menu)
                steps += 1
    assert steps > 40 * 2 * 2, "placement and neutral steps were both checked"


def test_hidden_hand_menus_fit_and_board_has_no_menu() -> None:
    service = Service(store=None)  # type: ignore[arg-type]
    from engines.registry import register_game, unregister_game
    from renderers import register_renderer
    register_game("secrets", "tests.helpers.hidden_game")
    register_renderer("secrets", "tests.helpers.hidden_game_renderer")
    try:
        for seed in range(20):
            state = hidden_game.new_game({}, 2, seed)
            record = record_for("secrets", state)
            board = service.render_board(EMOJI, record, state)
            layout = board_layout(board, "en", [])
            assert layout.selects == [] and all(not b.primary for b in layout.buttons)
            hand = service.render_hand(EMOJI, record, state, state.to_move()[0])
            check_limits(hand_layout(hand, "en", "notice"), hand.buttons)
    finally:
        unregister_game("secrets")
        register_renderer("secrets", None)


def test_long_menus_become_selects_and_overflow_is_reported() -> None:
    menu = [Button(f"option {n}", f"m:1:2:a{n}") for n in range(130)]
    from bot.service import Board
    board = Board(1, 2, "board", False, menu, [Button("back", "m:1:2:")], "pick", [])
    layout = board_layout(board, "en", [])
    assert len(layout.selects) == 4 and layout.overflow
    assert "/move" in layout.content
    check_limits(layout, menu)
    short = board_layout(Board(1, 2, "b", False, menu[:30], [], "p", []), "en", [])
    assert [len(s.options) for s in short.selects] == [25, 5] and not short.overflow
    check_limits(short, menu[:30])


def test_a_renderers_code_blocks_are_fenced_and_its_prose_is_not() -> None:
    """Renderers mark the grids whose columns must line up with fence lines; Discord shows
    those as code blocks and the prose around them as escaped text, never a fence twice
    or an escaped one."""
    from bot.adapters.discord.markdown import rendered
    text = "Level *1*\n```\nA . B\n. C .\n```\nLegend: ○ circle"
    shown = rendered(text)
    assert shown == "Level \\*1\\*\n```\nA . B\n. C .\n```\nLegend: ○ circle"
    assert "\\`" not in shown


def test_a_group_of_options_gets_a_select_of_its_own() -> None:
    """A long menu with a group (``Choice.group``) keeps its ordinary options as buttons
    and gives the group a select named for what it holds: the Turing code pad beside
    End round and Guess, Rithmomachia's pushes beside the pieces. Every option stays
    reachable, within Discord's limits."""
    from bot.service import Board
    pad = [Button(f"▲{a}■{b}", f"m:1:2:p{a}{b}", "pad") for a in range(1, 6)
           for b in range(1, 6)]
    ends = [Button("End round", "m:1:2:n"), Button("Guess the code", "m:1:2:g")]
    layout = board_layout(Board(1, 2, "b", False, pad + ends, [], "p", []), "en", [])
    assert [(s.placeholder, len(s.options)) for s in layout.selects] == [
        ("▲■ The code's first two digits…", 25)]
    assert [b.label for b in layout.buttons] == ["End round", "Guess the code"]
    check_limits(layout, pad + ends)

    cells = [f"{level}{file}{rank}" for level in "1234" for file in "abcd" for rank in "1234"]
    pieces = [Button(f"△0001 {cell}", f"m:1:2:{cell}") for cell in cells[:15]]
    pushes = [Button(f"1a1⇒{cell}", f"m:1:2:1a1{cell}", "push") for cell in cells[20:29]]
    layout = board_layout(Board(1, 2, "b", False, pieces + pushes, [], "p", []), "en", [])
    assert [s.placeholder for s in layout.selects] == ["⇒ Push with a Pyramid…"]
    assert len(layout.buttons) == 15
    check_limits(layout, pieces + pushes)
    # Too many pieces for the rows left: they take a select of their own as well.
    more = [Button(f"△0001 {cell}", f"m:1:2:{cell}") for cell in cells[30:47]]
    layout = board_layout(Board(1, 2, "b", False, more + pushes, [], "p", []), "en", [])
    assert [len(s.options) for s in layout.selects] == [17, 9] and not layout.buttons
    check_limits(layout, more + pushes)


def grid_steps(service: Service, place: Place, record: Any, state: Any, seat: int,
               path: tuple[str, ...] = (GRID_TOKEN,)) -> list[tuple[tuple[str, ...],
                                                                     list[Button]]]:
    """Every step of the board's grid reachable from ``path`` by taps the grid takes (a
    refused tap leads nowhere); a level switch is a step of its own, not walked on."""
    try:
        buttons, _, _ = service.presenter.menu(place, record, state, seat, path)
    except GameError:
        return []
    found = [(path, buttons)]
    for choice in state.menu(seat, path):
        if choice.action is not None:
            continue
        if choice.token.startswith(rithmomachia_grid.SWITCH_PREFIX):
            switched = (*path, choice.token)
            found.append((switched,
                          service.presenter.menu(place, record, state, seat, switched)[0]))
        else:
            found += grid_steps(service, place, record, state, seat, (*path, choice.token))
    return found


def check_grid_board(service: Service, place: Place, record: Any, state: Any,
                     path: tuple[str, ...], menu: list[Button], width: int) -> None:
    """A grid step's board: Components V2 within its limits, the grid's rows each a row of
    ``width`` buttons, the options beside the grid and the navigation rows of their own."""
    board = service.render_board(place, record, state, path)
    layout = board_layout(board, place.language, ["x" * 200])
    assert layout.v2 and not layout.selects
    check_limits(layout, menu)
    rows: dict[int, list[str]] = {}
    for button in layout.buttons:
        rows.setdefault(button.row, []).append(button.custom_id)
    cells = [b.payload for b in menu if b.group]
    spare = [b.payload for b in menu if not b.group]
    grid_rows = [rows[row] for row in sorted(rows)[:len(cells) // width]]
    assert [len(row) for row in grid_rows] == [width] * (len(cells) // width)
    assert [i[len("lb:"):] for row in grid_rows for i in row] == cells
    rest = [i[len("lb:"):] for row in sorted(rows)[len(grid_rows):] for i in rows[row]]
    assert rest[:len(spare)] == spare and len(rest) > len(spare), "navigation follows"
    if spare:
        assert max(rows) == len(grid_rows) + 1, "the options and the navigation apart"


@pytest.mark.parametrize("sudden_death", [False, True])
def test_every_lgame_grid_step_is_a_v2_board_within_its_limits(sudden_death: bool) -> None:
    """Seeded random playouts, every step of the grid each position offers (every L tapped
    square by square, every neutral step): 16 squares in four rows of four, "Neutrals
    stay" on a row of its own above back, at most 40 components."""
    service = Service(store=None)  # type: ignore[arg-type]
    steps = with_spare = 0
    # Sudden death's second neutral step multiplies the paths: fewer positions suffice.
    for state in random_states(sudden_death, 2 if sudden_death else 6,
                               seed=5 if sudden_death else 11):
        record = record_for("lgame", state)
        for path, menu in grid_steps(service, EMOJI, record, state, state.turn):
            check_grid_board(service, EMOJI, record, state, path, menu, 4)
            steps += 1
            with_spare += any(not b.group for b in menu)
    assert steps > 2000 and with_spare > 1000, (steps, with_spare)


def test_every_rithmomachia_grid_step_is_a_v2_board_within_its_limits() -> None:
    """Seeded random playouts of Rithmomachia (standard and placed setups), every step of
    the grid (each piece, each push, each level on view): four rows of a level's four
    cells and its key, then the navigation, at most 40 components; the board before the
    grid and during placement is V2 as well, for its message can never change kind."""
    service = Service(store=None)  # type: ignore[arg-type]
    rng = random.Random(3)
    steps = 0
    for setup in ("standard", "placement"):
        for _ in range(3):
            state = rithmomachia.new_game({"setup": setup}, 2, rng.getrandbits(32))
            for _ in range(rng.randrange(0, 60)):
                if state.outcome() is not None:
                    break
                seat = state.to_move()[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            if state.outcome() is not None:
                continue
            record = record_for("rithmomachia", state)
            seat = state.to_move()[0]
            first = service.render_board(EMOJI, record, state)
            assert board_layout(first, "en").v2
            for path, menu in walk_menus(service, EMOJI, record, state, seat)[:30]:
                check_limits(board_layout(service.render_board(EMOJI, record, state, path),
                                          "en", ["x" * 200]), menu)
            if not state.offers_grid():
                continue
            for path, menu in grid_steps(service, EMOJI, record, state, seat):
                check_grid_board(service, EMOJI, record, state, path, menu, 5)
                steps += 1
    assert steps > 100, steps


def test_a_forged_select_value_that_cannot_be_encoded_is_refused_not_raised() -> None:
    """A lone surrogate (JSON allows "\\udc80") in a forged select's value: no payload,
    which the service refuses, rather than a UnicodeEncodeError in the select's callback
    (found by test_fuzz_discord)."""
    assert select_payload("m:1:2:", "\udc80") == ""
    assert select_payload("m:1:2:", "c2NE") == "m:1:2:c2NE"


def test_a_grid_past_forty_components_falls_back_to_the_classic_rows() -> None:
    """A board with a grid is V2 whatever its menu; a grid whose own rows would pass V2's
    40 components (five rows of five, six other options, back and hint: 43) is laid out
    as Discord's classic five rows would hold it, still V2, every option reachable."""
    from bot.service import Board
    cells = [Button(f"c{n}", f"m:1:2:G.c{n}", "grid5") for n in range(25)]
    spare = [Button(f"s{n}", f"m:1:2:G.s{n}") for n in range(6)]
    navigation = [Button("back", "m:1:2:"), Button("hint", "i:1:2:")]
    board = Board(1, 2, "b", False, cells + spare, navigation, "p", [], grid=True)
    layout = board_layout(board, "en", ["started"])
    assert layout.v2 and layout.component_count() <= 40
    assert layout.selects, "the classic rows could not hold the grid: selects"
    check_limits(layout, cells + spare)
    small = Board(1, 2, "b", False, cells[:20] + spare[:1], navigation, "p", [], grid=True)
    layout = board_layout(small, "en", ["started"])
    assert layout.v2 and not layout.selects
    assert sorted({b.row for b in layout.buttons}) == [0, 1, 2, 3, 4, 5]
    check_limits(layout, cells[:20] + spare[:1])
