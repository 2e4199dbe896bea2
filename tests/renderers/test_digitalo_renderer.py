"""Digitalo renderer: numbered positions, inactive gates, binary scores, and no private
field in public text, over random matches in every variant."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import digitalo
from engines.base import GameModule
from renderers import digitalo as render
from renderers.common import split_blocks
from renderers.i18n import CATALOGUE
from tests.helpers.engine_checks import random_playout

NAMES = ["Ann", "Bo"]
FUNCTIONS = {"∧": lambda a, b: a & b, "∨": lambda a, b: a | b, "⊕": lambda a, b: a ^ b,
             "⊼": lambda a, b: 1 - (a & b)}
GATE_CELL = re.compile(r"([01?])([∧∨⊕⊼])([01?])([=~≠])([01])")


def played(options: dict[str, object], seed: int, moves: int) -> digitalo.State:
    module: GameModule = digitalo  # type: ignore[assignment]
    state = random_playout(module, options, seed, moves)
    assert isinstance(state, digitalo.State)
    return state


def check(state: digitalo.State) -> None:
    public_view = state.view(None)
    n = int(public_view["bits"])
    for emoji in (True, False):
        public = render.render(public_view, NAMES, "en", emoji)
        assert len(public) < 2000
        for seat in (0, 1):
            seat_view = state.view(seat)
            assert render.render(seat_view, NAMES, "en", emoji) == public
            assert render.hand_text(seat_view["hand"]) in render.render_private(
                seat_view, NAMES, "en", emoji)
        assert "Your hand" not in public
        scores = public_view["scores_binary"]
        assert f"Ann {scores[0]}" in public and f"Bo {scores[1]}" in public
        for seat in (0, 1):
            cells = render.position_cells(public_view, seat, emoji)
            shown = [cell for row in cells.values() for cell in row]
            assert len(shown) == n * (n - 1) // 2
            filled = {int(g["position"]) for g in public_view["pyramids"][seat]}
            numbers = {int(cell[1:]) for cell in shown if cell[:1] in "○·"}
            assert numbers == set(range(1, n * (n - 1) // 2 + 1)) - filled
            falling = set((public_view["pending"] or {}).get("would_remove", [[], []])[seat])
            inactive = sum(1 for g in public_view["pyramids"][seat]
                           if g["inactive"] and g["position"] not in falling)
            assert sum("~" in c for c in shown) == inactive
            assert sum("≠" in c for c in shown) == len(falling)
        for a, symbol, b, sign, out in GATE_CELL.findall(public):
            if sign == "=":
                # Every active gate on the table computes: placements are judged.
                assert FUNCTIONS[symbol](int(a), int(b)) == int(out)


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 7), st.booleans(), st.booleans(), st.integers(0, 10_000),
       st.integers(0, 150))
def test_random_matches_render(bits: int, inverters: bool, free_discard: bool, seed: int,
                               moves: int) -> None:
    check(played({"bits": bits, "inverters": inverters, "free_discard": free_discard},
                 seed, moves))


def test_positions_are_numbered_as_in_the_seed() -> None:
    view = digitalo.new_game({}, 2, 1).view(None)
    view["pyramids"] = [[], []]
    view["open"] = [[1, 2, 3], [1, 2, 3]]
    text = render.render(view, NAMES, "en", emoji=False)
    north = next(block.text for block in split_blocks(text) if block.code).splitlines()
    # North's pyramid first: the top (6), then 4 and 5, then 1 to 3 on the bits.
    assert [line.split() for line in north[:3]] == [["3", "·6"], ["2", "·4", "·5"],
                                                   ["1", "○1", "○2", "○3"]]


def test_inactive_gates_are_marked_and_scores_are_binary() -> None:
    view = digitalo.new_game({}, 2, 1).view(None)
    view["pyramids"] = [[{"position": 1, "card": "AND0", "gate": "AND", "out": 0,
                          "inputs": [1, None], "inactive": True}], []]
    view["scores"], view["scores_binary"] = [3, 5], ["0011", "0101"]
    text = render.render(view, NAMES, "en", emoji=True)
    assert "💤1∧?~0" in text and "~ inactive" in text
    assert "Ann 0011 · Bo 0101 (the match is to 1000)" in text
    mono = render.render(view, NAMES, "en", emoji=False)
    assert "1∧?~0" in mono and "💤" not in mono


def test_a_round_result_explains_the_points() -> None:
    line = render.round_result({"round": 2, "reason": "complete", "winner": 1, "points": 3,
                                "empty": 2, "inactive": 1}, NAMES, "en")
    assert line == ("Round 2: Bo completed the pyramid and scores 3 (11 in binary: 2 empty, "
                    "1 inactive).")
    assert "no points" in render.round_result({"round": 3, "reason": "both_complete",
                                               "winner": None}, NAMES, "en")


def test_rules_name_the_typed_notation() -> None:
    assert "'AND1 4'" in render.RULES and "'INV 2'" in render.RULES


def first_event(kind: str, wanted: Callable[[dict[str, Any]], bool] = lambda e: True,
                options: dict[str, object] | None = None,
                ) -> tuple[digitalo.State, dict[str, Any]]:
    """The first seeded random match with an event of ``kind`` that ``wanted`` accepts,
    stopped right after it."""
    for seed in range(200):
        state = digitalo.new_game(options or {}, 2, seed)
        rng = random.Random(seed)
        for _ in range(600):
            if state.outcome() is not None:
                break
            seat = state.to_move()[0]
            events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            for event in events:
                if event.get("type") == kind and wanted(event):
                    return state, event
    raise AssertionError(f"no {kind} event in 200 random matches")


def test_what_falls_after_a_placement_is_blamed_on_the_mover() -> None:
    """Issue 24 B4: North placed, North's own gates fell, and the board said they fell
    from South's ("You's") pyramid."""
    state, event = first_event("placed", lambda e: e["seat"] == 1 and bool(e["removed"]))
    text = render.render(state.view(None), NAMES, "en", emoji=False)
    positions = ", ".join(str(g["position"]) for g in event["removed"])
    assert f"Fell from Bo's pyramid: {positions}." in text
    assert "Fell from Ann's pyramid" not in text


def test_an_accepted_last_move_inverter_that_breaks_the_pyramid_goes_on() -> None:
    """Rules, decided 2026-11-25: the completer accepts the last move's inverter, it breaks
    their pyramid, so the round is not over and the completer moves."""
    state, event = first_event("round_goes_on")
    view = state.view(None)
    name = NAMES[event["seat"]]
    for language in ("en", "nl", "de"):
        text = render.render(view, NAMES, language, emoji=True)
        line = render.event_lines(event, NAMES, language)[0]
        assert line in text and name in line
    assert (f"{name} accepted the inverter of the last move, and it broke {name}'s pyramid: "
            f"the round is not over. Play goes on, {name} to move.") in render.render(
                view, NAMES, "en", emoji=False)
    assert view["to_move"] == event["seat"] and view["outcome"] is None
    types = [e["type"] for e in view["last_events"]]
    assert types[:3] == ["accepted", "flip_resolved", "round_goes_on"]


def test_rules_say_an_accepted_last_inverter_can_let_the_round_go_on() -> None:
    assert CATALOGUE["en"]["rules.digitalo"] == render.RULES
    assert "if they accept it and it breaks their pyramid, the round goes on" in render.RULES
    assert "dan gaat de ronde door" in CATALOGUE["nl"]["rules.digitalo"]
    assert "geht die Runde weiter" in CATALOGUE["de"]["rules.digitalo"]
