"""Digitalo renderer: numbered positions, inactive gates, binary scores, and no private
field in public text, over random matches in every variant."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import digitalo
from engines.base import GameModule
from renderers import digitalo as render
from renderers.common import PHONE_COLUMNS, code_widths, split_blocks
from renderers.i18n import CATALOGUE
from tests.helpers.digitalo_positions import NORTH, SOUTH, ending
from tests.helpers.engine_checks import random_playout
from tests.helpers.hands import shows_hand

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
            assert shows_hand(seat_view["hand"], render.render_private(
                seat_view, NAMES, "en", emoji))
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
    for emoji in (True, False):
        # In both styles the pyramid is an aligned code block: a one-column "~", never an
        # emoji, marks the inactive gate.
        text = render.render(view, NAMES, "en", emoji=emoji)
        assert "1∧?~0" in text and "~ inactive" in text and "💤" not in text
        assert "Ann 0011 · Bo 0101 (the match is to 1000)" in text


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


# -- issue 23.5: the first board after a round ended shows its final pyramids ---------------

LANGUAGES = ("en", "nl", "de")
LABELS = {"en": ("Round 1 — Ann (South) completed this pyramid:",
                 "Bo's pyramid (North) at the end of round 1:"),
          "nl": ("Ronde 1 — Ann (Zuid) heeft deze piramide af:",
                 "De piramide van Bo (Noord) aan het eind van ronde 1:"),
          "de": ("Runde 1 — Ann (Süd) hat diese Pyramide fertig:",
                 "Die Pyramide von Bo (Nord) am Ende von Runde 1:")}


def won_round() -> digitalo.State:
    """South (Ann) completes with AND1 on 6 and the round ends at once (North started);
    North's pyramid holds 1, 3 and an inactive 4 (the rules tests' hand-made ending)."""
    state = ending(starter=NORTH)
    state.apply(SOUTH, "AND1 6")
    assert state.round == 2 and state.outcome() is None
    return state


def texts_of(state: digitalo.State, language: str = "en") -> dict[bool, str]:
    """The public board in both styles, checked to be what either player sees too."""
    boards = {emoji: render.render(state.view(None), NAMES, language, emoji)
              for emoji in (True, False)}
    for seat in (0, 1):
        for emoji in (True, False):
            assert render.render(state.view(seat), NAMES, language, emoji) == boards[emoji]
    return boards


def test_the_board_after_a_round_end_shows_the_completed_pyramid() -> None:
    state = won_round()
    boards = texts_of(state)
    completed, other = LABELS["en"]
    for text in boards.values():
        score = text.index("Round 2 · Ann 0100 · Bo 0000")
        result = text.index("Round 1: Ann completed the pyramid and scores 4")
        start, end = text.index(completed), text.index("Bo (North) · 0/6 gates")
        assert score < result < start < text.index(other) < end
        # Nothing fits on the ended round's pyramids any more, so no position shows ○.
        assert "○" not in text[start:end]
        # The round's result is told once, above its pyramids, not again under the board.
        assert text.count("Round 1: Ann completed the pyramid") == 1
        assert text.rstrip().endswith("Round 2: new bit cards and a new deal; Ann starts.\n"
                                      "Ann to play.")
        assert "⊼ NAND" in text  # the legend names the gates of the final pyramids
    # South's final pyramid on SEED_BITS 1 1 0 1, every gate with its inputs as it stood;
    # North's 4 lacks its input 2, so it is inactive, as it was on the live board.
    # Both styles draw the pyramids as the same aligned code blocks.
    blocks = {style: [block.text for block in split_blocks(text) if block.code]
              for style, text in boards.items()}
    assert blocks[True] == blocks[False]
    mono = [block.splitlines() for block in blocks[True]]
    assert len(mono) == 4  # the two final pyramids, then the new round's two
    assert [line.split() for line in mono[0]] == [
        ["3", "1∧1=1"], ["2", "1∧1=1", "1∨1=1"], ["1", "1∨1=1", "1⊕0=1", "0⊼1=1"],
        ["1", "1", "0", "1"]]
    assert [line.split() for line in mono[1]] == [
        ["3", "·6"], ["2", "0⊕?~0", "·5"], ["1", "0∧1=0", "·2", "0∧0=0"], ["0", "1", "0", "0"]]


def test_the_next_board_no_longer_shows_it() -> None:
    state = won_round()
    seat = state.to_move()[0]
    state.apply(seat, random.Random(1).choice(state.legal_actions(seat)))
    for text in texts_of(state).values():
        assert "completed this pyramid" not in text and "at the end of round" not in text
        assert "1∧1=1" not in text and "Round 1:" not in text


def test_the_final_pyramids_are_labelled_in_every_language() -> None:
    state = won_round()
    for language in LANGUAGES:
        for text in texts_of(state, language).values():
            completed, other = LABELS[language]
            assert completed in text and other in text
            assert text.index(completed) < text.index(other)


def test_both_completed_pyramids_are_shown_as_completed() -> None:
    north = {"1": "AND0", "2": "OR1", "3": "AND0", "4": "XOR1", "5": "OR1"}  # needs 6
    state = ending(north=north, north_hand=["AND0", "OR0", "XOR0", "XOR0"])
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "XOR0 6")
    assert state.round_results[-1]["reason"] == "both_complete"
    for text in texts_of(state).values():
        assert "Round 1: both pyramids are complete, no points." in text
        # North's over South's, as on the board, both completed.
        assert text.index("Round 1 — Bo (North) completed this pyramid:") < text.index(
            "Round 1 — Ann (South) completed this pyramid:")
        assert "1⊕1=0" in text and "at the end of round" not in text


def test_a_round_the_move_limit_ends_shows_both_pyramids_at_its_end() -> None:
    state, event = first_event("round_over", lambda e: e["reason"] == "max_moves",
                               {"max_moves": 20})
    assert state.outcome() is None
    ended = event["round"]
    # This limit struck on an inverter still pending: the gates it would fell are ≠.
    assert state.view(None)["last_events"][0]["type"] == "inverted"
    assert any(state.view(None)["last_round"]["unfit"])
    for text in texts_of(state).values():
        assert f"Round {ended}: the move limit ends it without points." in text
        north = text.index(f"Bo's pyramid (North) at the end of round {ended}:")
        assert north < text.index(f"Ann's pyramid (South) at the end of round {ended}:")
        assert "completed this pyramid" not in text
        assert "≠" in text and "≠ falls if the inverter stands" in text
        for a, symbol, b, sign, out in GATE_CELL.findall(text):
            if "?" not in (a, b):
                assert (FUNCTIONS[symbol](int(a), int(b)) == int(out)) is (sign != "≠")


def test_a_round_ended_after_an_accepted_inverter_shows_the_pyramid_it_left() -> None:
    # North's last move flips its bit 4 (South's 1); South's pyramid still stands.
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"])
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "INV 4")
    state.apply(SOUTH, "accept")
    for text in texts_of(state).values():
        completed = text.index("Round 1 — Ann (South) completed this pyramid:")
        assert text.index("The inverter stands.") < completed
        assert "0∨1=1" in text[completed:]  # South's OR1 on 1 now reads 0 and 1


def test_no_final_pyramid_without_a_new_deal() -> None:
    # The round goes on after an accepted inverter broke the completed pyramid.
    state, _ = first_event("round_goes_on")
    for text in texts_of(state).values():
        assert "completed this pyramid" not in text
    # A resignation mid-round, and one right after a round's end: the match is over.
    state = ending()
    state.resign(NORTH)
    state = won_round()
    state.resign(NORTH)
    for text in texts_of(state).values():
        assert "completed this pyramid" not in text and "at the end of round" not in text
    # The round that ends the match: its pyramids still stand on the board, once.
    state = ending(starter=NORTH, scores=(7, 0))
    state.apply(SOUTH, "AND1 6")
    assert state.outcome() is not None
    for text in texts_of(state).values():
        assert "completed this pyramid" not in text and text.count("1∧1=1") == 2


@pytest.mark.parametrize("bits", range(4, 9))
def test_the_final_pyramids_fit_a_phone(bits: int) -> None:
    """Widths (issue 23.2) after a round's end, every width of pyramid: each code block
    ≤ 32 columns in both styles and every language, with long names."""
    state, _ = first_event("round_over", lambda e: max(e["scores"]) < 8, {"bits": bits})
    long_names = ["Maximiliane Gräfin von Oberstein", "Bartholomew Fitzgerald-Smythe"]
    view = state.view(None)
    assert render.ended_round(view) is not None
    for language in LANGUAGES:
        for emoji in (True, False):
            text = render.render(view, long_names, language, emoji)
            assert max(code_widths(text), default=0) <= PHONE_COLUMNS, text
            assert len(text) < 2000
            assert len([block for block in split_blocks(text) if block.code]) == 4
