"""bOOleO renderer: readable pyramids, no private field in public text, every variant."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import booleo
from engines.base import GameModule
from renderers import booleo as render
from renderers.i18n import CATALOGUE
from tests.helpers.engine_checks import random_playout
from tests.helpers.hands import shows_hand

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
            assert shows_hand(seat_view["hand"], private)
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
    assert ("⚠️ A NOT on start card 2 (Bo reads it as card 5) is pending. Bo may cancel it "
            "with a NOT on that card; any other action, a challenge too, lets it stand "
            "first, and the gates it made invalid fall: Ann loses 1.1, 2.1; Bo loses 1.4"
            ) in text


def first_turn(wanted: Callable[[list[dict[str, Any]]], bool], options: dict[str, object],
               ) -> tuple[booleo.State, list[dict[str, Any]]]:
    """The first seeded random game with a turn whose events ``wanted`` accepts, stopped
    right after that turn."""
    for seed in range(300):
        state = booleo.new_game(options, 2, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.outcome() is not None:
                break
            seat = state.to_move()[0]
            events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            if wanted(events):
                return state, events
    raise AssertionError("no such turn in 300 random games")


def test_a_challenge_lets_a_pending_not_stand_first() -> None:
    """Rules, decided 2026-11-25: any action but a cancel, a challenge included, resolves
    a pending flip first; the board says so before the challenge."""
    state, events = first_turn(lambda events: [e["type"] for e in events][:2]
                               == ["flip_resolved", "challenge"], {"referee": False})
    challenger = NAMES[events[1]["seat"]]
    text = render.render(state.view(None), NAMES, "en", emoji=False)
    resolved = (f"{challenger} did not cancel the NOT, so it stands: the gates it made "
                f"invalid fall before {challenger}'s action.")
    assert resolved in text
    assert text.index(resolved) < text.index(f"{challenger} challenged")


def test_a_flip_drops_exactly_the_gates_it_made_invalid() -> None:
    """Rules, decided 2026-11-25: the resolved flip's line names the gates it removed,
    seat by seat, and nothing else."""
    state, events = first_turn(lambda events: any(
        e["type"] == "flip_resolved" and any(e["removed"]) for e in events), {})
    flip = next(e for e in events if e["type"] == "flip_resolved")
    line = render.event_line(flip, NAMES, "en")
    assert line is not None
    for seat, removed in enumerate(flip["removed"]):
        slots = ", ".join(g["slot"] for g in removed)
        assert (f"{NAMES[seat]} loses {slots}" in line) == bool(removed)
    text = render.render(state.view(None), NAMES, "en", emoji=True)
    assert line in text


def test_rules_say_how_a_not_stands() -> None:
    """The rules text says what the rules decided on 2026-11-25, in every language."""
    english = CATALOGUE["en"]["rules.booleo"]
    assert english == render.RULES
    assert "a challenge included" in english and "the flip made invalid" in english
    assert "ook een betwisting" in CATALOGUE["nl"]["rules.booleo"]
    assert "auch ein Anfechten" in CATALOGUE["de"]["rules.booleo"]


def test_rules_name_the_typed_notation() -> None:
    assert "'AND1 2.3'" in render.RULES and "'NOT 4'" in render.RULES
