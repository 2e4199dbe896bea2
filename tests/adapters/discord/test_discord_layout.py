"""Every board and hand the service can produce fits Discord's message limits.

Discord rejects a whole message when one limit is broken, which would leave a game
without its board; so the limits are checked over many positions and every menu step.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.adapters.discord.layout import (
    BUTTON_TEMPLATE,
    SELECT_TEMPLATE,
    Layout,
    board_layout,
    build_view,
    hand_layout,
    select_payload,
)
from bot.service import Button, Place, Service
from tests.helpers import hidden_game
from tests.helpers.lgame_positions import random_states
from tests.helpers.menus import record_for, walk_menus

EMOJI = Place("discord", "1", emoji=True)
TEXT = Place("discord", "1", emoji=False)
def check_limits(layout: Layout, menu: list[Button]) -> None:
    assert len(layout.content) <= 2000
    view = build_view(layout)
    components: list[dict[str, Any]] = view.to_components() if view is not None else []
    assert len(components) <= 5
    custom_ids = []
    for row in components:
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
    from bot.adapters.discord.layout import rendered
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
