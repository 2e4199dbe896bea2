"""bOOleO renderer: readable pyramids, no private field in public text, every variant."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import booleo
from engines.base import GameModule
from renderers import booleo as render
from tests.helpers.engine_checks import random_playout

NAMES = ["Ann", "Bo"]
GATE_CELL = re.compile(r"([01?])([∧∨⊕⊼⊽⊙])([01?])([=~≠])([01])")
FUNCTIONS = {"∧": lambda a, b: a & b, "∨": lambda a, b: a | b, "⊕": lambda a, b: a ^ b,
             "⊼": lambda a, b: 1 - (a & b), "⊽": lambda a, b: 1 - (a | b),
             "⊙": lambda a, b: 1 - (a ^ b)}


def played(options: dict[str, object], seed: int, moves: int) -> booleo.State:
    module: GameModule = booleo  # type: ignore[assignment]
    state = random_playout(module, options, seed, moves)
    assert isinstance(state, booleo.State)
    return state


def check(state: booleo.State) -> None:
    public_view = state.view(None)
    over = state.outcome() is not None
    referee = bool(state.view(None)["options"]["referee"])
    for emoji in (True, False):
        public = render.render(public_view, NAMES, "en", emoji)
        assert len(public) < 2000
        for seat in (0, 1):
            seat_view = state.view(seat)
            # The public board reads only public fields, whatever view it is handed.
            assert render.render(seat_view, NAMES, "en", emoji) == public
            private = render.render_private(seat_view, NAMES, "en", emoji)
            assert render.hand_text(seat_view["hand"]) in private
        assert "Your hand" not in public
        if not over:
            # Before the end only gates a pending NOT would remove are marked wrong.
            falling = sum(map(len, (public_view["pending"] or {}).get("would_remove", [])))
            legend = 1 if falling else 0
            assert public.count("≠") == falling + legend
        for a, symbol, b, sign, out in GATE_CELL.findall(public):
            if sign == "=" and referee and "?" not in (a, b):
                # With the referee on every gate on the table is valid, and says so.
                assert FUNCTIONS[symbol](int(a), int(b)) == int(out)
    if over:
        invalid = sum(len(slots) for slots in public_view.get("invalid_gates", [[], []]))
        legend = 1 if invalid else 0  # "≠ invalid" explains the mark once
        assert render.render(public_view, NAMES, "en", False).count("≠") == invalid + legend


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 8), st.booleans(), st.booleans(), st.booleans(),
       st.integers(0, 10_000), st.integers(0, 120))
def test_random_positions_render_in_every_variant(bits: int, extended: bool, inactive: bool,
                                                  referee: bool, seed: int,
                                                  moves: int) -> None:
    state = played({"bits": bits, "extended": extended, "inactive": inactive,
                    "referee": referee}, seed, moves)
    check(state)


@pytest.mark.parametrize("bits", [4, 5, 6, 8])
def test_monospace_pyramid_stands_each_gate_between_its_inputs(bits: int) -> None:
    state = played({"bits": bits}, 11, 60)
    view = state.view(None)
    short = bits > 5  # from 6 bits on, cells are compact to fit a phone
    for seat in (0, 1):
        lines = render.pyramid_text(view, seat)
        bits_line = lines[bits - 1]
        columns = [i for i, ch in enumerate(bits_line) if i >= 2 and ch in "01"]
        assert len(columns) == bits
        assert max(len(line) for line in lines) <= 32
        for gate in view["pyramids"][seat]:
            row, index = (int(part) for part in gate["slot"].split("."))
            line = lines[bits - 1 - row]
            cell = render.gate_cell(gate, False, short)
            # Its inputs are the two positions below it: it stands midway between the
            # bits its leftmost and rightmost inputs stand on.
            start = (columns[index - 1] + columns[index + row - 1]) // 2 - len(cell) // 2
            assert line[start:start + len(cell)] == cell, (line, cell)


def test_cells_show_inputs_type_and_output() -> None:
    gate = {"slot": "1.1", "card": "AND0", "gate": "AND", "out": 0, "inputs": [1, 0]}
    assert render.gate_cell(gate, False) == "1∧0=0"
    assert render.gate_cell({**gate, "inactive": True, "inputs": [1, None]}, False) == "1∧?~0"
    assert render.gate_cell({**gate, "out": 1}, True) == "1∧0≠1"
    assert render.gate_cell(gate, False, short=True) == "∧=0"
    assert render.gate_cell({**gate, "out": 1}, True, short=True) == "∧≠1"
    assert render.card_label("XNOR1") == "XNOR→1"
    assert render.hand_text(["AND1", "AND1", "NOT", "XOR0"]) == "AND→1 ×2, NOT, XOR→0"


def test_pending_not_names_what_would_fall() -> None:
    view = played({}, 3, 0).view(None)
    view["pending"] = {"card": 2, "positions": [2, 5], "by": 0,
                       "would_remove": [["1.1", "2.1"], ["1.4"]]}
    text = render.render(view, NAMES, "en", emoji=True)
    assert ("⚠️ A NOT on start card 2 (Bo reads it as card 5) is pending. If Bo does not "
            "cancel it with a NOT on that card: Ann loses 1.1, 2.1; Bo loses 1.4") in text


def test_rules_name_the_typed_notation() -> None:
    assert "'AND1 2.3'" in render.RULES and "'NOT 4'" in render.RULES
