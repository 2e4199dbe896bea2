"""Digitalo placement: the seed's placing examples and refusals with their lessons, the seed's
inverter example bit card by bit card, inactive gates and restoring an input, the counter,
and the discard rule.

The seed's bit row and its inverter example, with the outcome of each bit card, are in
``tests/helpers/digitalo_positions.py``.
"""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.digitalo.cards import sort_cards
from tests.helpers.digitalo_positions import (
    EXAMPLE_NORTH,
    EXAMPLE_SOUTH,
    INVERTER_CASES,
    NORTH,
    SEED_BITS,
    SOUTH,
    gates,
    inactive,
    inverter_example,
    position,
)
from tests.helpers.refusals import refusal

# --- placing: the seed's first examples -----------------------------------------------------

def test_the_seeds_placing_example() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "XOR1"], ["OR0"] * 4))
    legal = state.legal_actions(SOUTH)
    assert [a for a in legal if a.startswith("OR1")] == ["OR1 1", "OR1 2", "OR1 3"]
    assert [a for a in legal if a.startswith("NAND1")] == ["NAND1 2", "NAND1 3"]
    assert [a for a in legal if a.startswith("XOR1")] == ["XOR1 2", "XOR1 3"]
    assert not any(a.split()[1] in ("4", "5", "6") for a in legal if a[0] != "I")
    error = refusal(state, SOUTH, "XOR1 1")
    assert error.key == "digitalo.error.gate_invalid.xor1"
    assert str(error) == "XOR gives 1 only when its inputs differ; these inputs are 1 and 1."


def test_position_4_needs_1_and_2_and_position_5_needs_2_and_3() -> None:
    state = position(SEED_BITS, south={"1": "OR1", "2": "XOR1"},
                     hands=(["AND1", "OR1", "XOR0", "NAND0"], ["OR0"] * 4), moves=(2, 2))
    places = [a for a in state.legal_actions(SOUTH) if a.split()[0] != "INV"]
    assert {a.split()[1] for a in places} == {"3", "4"}
    error = refusal(state, SOUTH, "OR1 5")
    assert error.key == "digitalo.error.missing_input"
    assert str(error) == "Position 5 needs both inputs first: position 3 below it is still " \
                         "empty."
    state.apply(SOUTH, "AND1 4")  # 1 AND 1 = 1
    assert gates(state, SOUTH) == {1: "OR1", 2: "XOR1", 4: "AND1"}


def test_an_invalid_placement_is_refused_with_its_lesson() -> None:
    # The seed's player 2: AND with output 1 on 0 and 0 is wrong, "0 AND 0 = 0".
    state = position([0, 0, 1, 0], hands=(["AND1", "AND0", "OR1", "NAND0"], ["OR0"] * 4))
    error = refusal(state, SOUTH, "AND1 1")
    assert isinstance(error, IllegalMove)
    assert error.key == "digitalo.error.gate_invalid.and1"
    assert str(error) == "AND needs 1 and 1 to give 1; these inputs are 0 and 0."
    assert error.params == {"gate": "AND", "out": 1, "a": 0, "b": 0, "slot": "1"}
    state2 = position([1, 0, 1, 0], hands=(["AND1", "AND0", "OR1", "NAND0"], ["OR0"] * 4))
    assert str(refusal(state2, SOUTH, "AND1 1")) == \
        "AND needs 1 and 1 to give 1; these inputs are 1 and 0."
    assert str(refusal(state2, SOUTH, "NAND0 2")) == \
        "NAND needs 1 and 1 to give 0; these inputs are 0 and 1."
    assert refusal(state2, SOUTH, "AND1 9").key == "digitalo.error.no_such_position"
    assert refusal(state2, SOUTH, "XOR1 1").key == "digitalo.error.not_in_hand"
    assert refusal(state2, NORTH, "OR0 1").key == "error.not_your_turn"
    taken = position([1, 0, 1, 0], south={"1": "OR1"}, hands=(["OR1", "AND0", "OR1", "NAND0"],
                                                               ["OR0"] * 4), moves=(1, 1))
    assert refusal(taken, SOUTH, "OR1 1").key == "digitalo.error.position_taken"


def test_a_placement_draws_a_card_and_passes_the_turn() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "XOR1"], ["OR0"] * 4),
                     draw_top=("XOR0",))
    events = state.apply(SOUTH, "OR1 1")
    assert events[0] == {"type": "placed", "seat": SOUTH, "card": "OR1", "position": 1,
                         "removed": [], "reactivated": []}
    assert events[1] == {"type": "drew", "seat": SOUTH,
                         "private": {"seat": SOUTH, "card": "XOR0"}}
    assert state.hands[SOUTH] == sort_cards(["AND0", "NAND1", "XOR1", "XOR0"])
    assert state.turn == NORTH and state.moves == [1, 0]
    assert state.view(None)["last_events"][1] == {"type": "drew", "seat": SOUTH}


# --- the seed's inverter example ------------------------------------------------------------

@pytest.mark.parametrize(("north_bit", "south_bit", "south_removed", "north_removed",
                          "south_inactive", "north_inactive"), INVERTER_CASES)
def test_the_seeds_inverter_example(north_bit: int, south_bit: int, south_removed: list[int],
                                    north_removed: list[int], south_inactive: list[int],
                                    north_inactive: list[int]) -> None:
    state = inverter_example()
    events = state.apply(NORTH, f"INV {north_bit}")
    assert events[0]["type"] == "inverted" and events[0]["bit"] == south_bit
    pending = state.view(None)["pending"]
    assert pending["bit"] == south_bit and pending["positions"] == [south_bit, north_bit]
    assert pending["by"] == NORTH
    assert pending["would_remove"] == [south_removed, north_removed]
    assert pending["would_deactivate"] == [south_inactive, north_inactive]
    # Nothing has gone yet: the flip waits for South's answer.
    assert gates(state, SOUTH) == {int(k): v for k, v in EXAMPLE_SOUTH.items()}
    assert state.bits[south_bit - 1] == 1 - SEED_BITS[south_bit - 1]
    events = state.apply(SOUTH, "discard XOR0")
    resolved = events[0]
    assert resolved["type"] == "flip_resolved"
    assert [[g["position"] for g in seat] for seat in resolved["removed"]] == \
        [south_removed, north_removed]
    assert resolved["inactive"] == [south_inactive, north_inactive]
    expected_south = {int(k): v for k, v in EXAMPLE_SOUTH.items() if int(k) not in
                      south_removed}
    expected_north = {int(k): v for k, v in EXAMPLE_NORTH.items() if int(k) not in
                      north_removed}
    assert gates(state, SOUTH) == expected_south and gates(state, NORTH) == expected_north
    assert inactive(state, SOUTH) == south_inactive and inactive(state, NORTH) == \
        north_inactive
    assert state.discard.count("INV") == 1
    assert all(card in state.discard for seat, removed in enumerate(resolved["removed"])
               for card in [g["card"] for g in removed])


def test_an_inactive_gate_blocks_the_top() -> None:
    # Case 2: "position 6 may not be used, because both gates are inactive".
    state = inverter_example(south_hand=["AND1", "OR1", "NAND1", "XOR0"])
    state.apply(NORTH, "INV 3")
    state.apply(SOUTH, "discard XOR0")
    state.apply(NORTH, "discard OR0")
    assert inactive(state, SOUTH) == [4, 5]
    error = refusal(state, SOUTH, "AND1 6")
    assert error.key == "digitalo.error.inactive_input"
    assert str(error) == "Position 6 would take an input from the inactive gate on 4; restore " \
                         "its missing input first."
    assert state.view(None)["open"][SOUTH] == [2]
    assert [c.token for c in state.menu(SOUTH, ("A1",))] == ["2", "D"]


def test_restoring_an_input_reactivates_the_gates_above() -> None:
    state = inverter_example(south_hand=["AND1", "OR1", "NAND1", "XOR0"])
    state.apply(NORTH, "INV 3")   # South now reads 1 0 0 1
    state.apply(SOUTH, "discard XOR0")
    state.apply(NORTH, "discard OR0")
    events = state.apply(SOUTH, "NAND1 2")  # 0 NAND 0 = 1: the same output as the XOR1 had
    assert events[0]["removed"] == [] and events[0]["reactivated"] == [4, 5]
    assert inactive(state, SOUTH) == []
    assert state.view(None)["open"][SOUTH] == [6]


def test_restoring_an_input_with_another_output_discards_what_no_longer_fits() -> None:
    state = inverter_example(south_hand=["AND0", "OR1", "NAND1", "XOR0"])
    state.apply(NORTH, "INV 3")   # South now reads 1 0 0 1
    state.apply(SOUTH, "discard XOR0")
    state.apply(NORTH, "discard OR0")
    events = state.apply(SOUTH, "AND0 2")  # 0 AND 0 = 0
    # Position 4 (AND1) now sees 1 and 0 and goes; position 5 (OR1) sees 0 and 1 and stays.
    assert events[0]["removed"] == [{"position": 4, "card": "AND1"}]
    assert events[0]["reactivated"] == [5]
    assert gates(state, SOUTH) == {1: "OR1", 2: "AND0", 3: "NAND1", 5: "OR1"}
    assert inactive(state, SOUTH) == [] and "AND1" in state.discard


def test_a_gate_that_loses_one_input_stays_inactive_and_its_followers_too() -> None:
    # Five bits; South's 1 2 3 on the bits, 5 and 6 above, 8 on top of them. Flipping bit
    # 1 breaks position 1 only: 5 loses an input, 8 is fed by an inactive gate.
    south = {"1": "AND1", "2": "AND1", "3": "AND1", "5": "AND1", "6": "AND1", "8": "AND1"}
    state = position([1, 1, 1, 1, 0], south=south, hands=(["INV", "XOR0", "XOR0", "XOR0"],
                                                          ["OR0"] * 4), moves=(6, 6),
                     free_discard=True)
    state.apply(SOUTH, "INV 1")
    assert state.view(None)["pending"]["would_remove"] == [[1], []]
    assert state.view(None)["pending"]["would_deactivate"] == [[5, 8], []]
    state.apply(NORTH, "discard OR0")
    assert gates(state, SOUTH) == {2: "AND1", 3: "AND1", 5: "AND1", 6: "AND1", 8: "AND1"}
    assert inactive(state, SOUTH) == [5, 8]


# --- the counter ----------------------------------------------------------------------------

def test_a_counter_undoes_the_flip_and_both_players_draw() -> None:
    state = inverter_example(south_hand=["INV", "AND1", "OR1", "XOR0"],
                             draw_top=("OR0", "XOR1"))  # North draws XOR1, South OR0
    before_south, before_north = gates(state, SOUTH), gates(state, NORTH)
    state.apply(NORTH, "INV 3")
    assert state.hands[NORTH] == sort_cards(["OR0", "OR0", "AND1", "XOR1"])
    assert "counter" in state.legal_actions(SOUTH) and "INV 2" not in state.legal_actions(SOUTH)
    events = state.apply(SOUTH, "counter")
    assert events[0] == {"type": "countered", "seat": SOUTH, "bit": 2, "position": 2}
    assert events[1]["private"] == {"seat": SOUTH, "card": "OR0"}
    assert state.bits == SEED_BITS and state.pending is None
    assert gates(state, SOUTH) == before_south and gates(state, NORTH) == before_north
    assert state.discard.count("INV") == 2
    assert state.hands[SOUTH] == sort_cards(["AND1", "OR1", "XOR0", "OR0"])
    assert [len(h) for h in state.hands] == [4, 4]
    assert state.turn == NORTH and state.moves == [7, 6]  # the original player again
    assert state.actions == ["INV 3", "counter"]
    assert state.view(None)["last_events"][0]["type"] == "countered"


def test_an_inverter_on_the_pending_bit_is_the_counter() -> None:
    state = inverter_example(south_hand=["INV", "AND1", "OR1", "XOR0"])
    state.apply(NORTH, "INV 3")
    assert state.parse_action("inv 2", SOUTH) == "counter"
    assert state.parse_action("cancel", SOUTH) == "counter"
    state.apply(SOUTH, "INV 2")
    assert state.actions[-1] == "counter" and state.bits == SEED_BITS


def test_another_inverter_resolves_the_pending_flip_first() -> None:
    state = inverter_example(south_hand=["INV", "AND1", "OR1", "XOR0"])
    state.apply(NORTH, "INV 3")
    events = state.apply(SOUTH, "INV 4")  # South's bit 4, a different card
    assert [e["type"] for e in events[:2]] == ["flip_resolved", "inverted"]
    assert 2 not in gates(state, SOUTH) and state.pending == (4, SOUTH)


def test_nothing_to_counter_without_a_pending_flip() -> None:
    state = inverter_example(north_hand=["INV", "OR0", "OR0", "AND1"])
    assert refusal(state, NORTH, "counter").key == "digitalo.error.nothing_to_counter"
    state.apply(NORTH, "INV 3")
    assert refusal(state, SOUTH, "counter").key == "digitalo.error.not_in_hand"
    assert refusal(state, SOUTH, "accept").key == "digitalo.error.nothing_to_accept"


def test_without_inverters_there_is_no_inverter() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "XOR1"], ["OR0"] * 4),
                     inverters=False)
    assert refusal(state, SOUTH, "INV 1").key == "digitalo.error.no_such_card"
    assert not any(a.startswith("INV") for a in state.legal_actions(SOUTH))


# --- discarding -----------------------------------------------------------------------------

def test_discarding_is_refused_while_a_card_can_be_placed() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "INV"], ["OR0"] * 4))
    error = refusal(state, SOUTH, "discard AND0")
    assert error.key == "digitalo.error.must_place"
    assert str(error) == "You may discard only when none of your cards can be placed: AND→0 " \
                         "fits on position 2."
    assert not any(a.startswith("discard") for a in state.legal_actions(SOUTH))
    assert "D" not in [c.token for c in state.menu(SOUTH, ("O1",))]


def test_discarding_is_allowed_when_nothing_fits_and_an_inverter_does_not_count() -> None:
    # South reads 1 1 1 1: AND0, OR0, XOR1 and NAND1 fit nowhere.
    state = position([1, 1, 1, 1], hands=(["AND0", "OR0", "XOR1", "INV"], ["OR0"] * 4))
    legal = state.legal_actions(SOUTH)
    assert [a for a in legal if a.startswith("discard")] == [
        "discard AND0", "discard OR0", "discard XOR1", "discard INV"]
    assert [a for a in legal if a.startswith("INV")] == ["INV 1", "INV 2", "INV 3", "INV 4"]
    assert len(legal) == 8
    assert [c.token for c in state.menu(SOUTH, ("A0",))] == ["1", "2", "3", "D"]
    events = state.apply(SOUTH, "discard INV")
    assert events[0] == {"type": "discarded", "seat": SOUTH, "card": "INV"}
    assert state.discard == ["INV"] and state.moves == [1, 0]


def test_free_discard_allows_discarding_at_any_time() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "INV"], ["OR0"] * 4),
                     free_discard=True)
    assert {a for a in state.legal_actions(SOUTH) if a.startswith("discard")} == {
        "discard OR1", "discard AND0", "discard NAND1", "discard INV"}
    state.apply(SOUTH, "discard OR1")
    assert state.discard == ["OR1"]


def test_the_discard_rule_is_judged_after_the_pending_flip() -> None:
    # South reads 1 1 1 1, where none of its cards fits; North's flip of South's bit 1 makes
    # it 0 1 1 1, where AND0 and XOR1 fit position 1.
    state = position([1, 1, 1, 1], hands=(["OR0", "OR0", "XOR1", "AND0"],
                                          ["INV", "OR0", "OR0", "OR0"]), turn=NORTH,
                     moves=(1, 0))
    assert state.may_discard(SOUTH)
    state.apply(NORTH, "INV 4")
    assert state.legal_actions(SOUTH) == ["AND0 1", "XOR1 1"] and not state.may_discard(SOUTH)
    assert refusal(state, SOUTH, "discard OR0").key == "digitalo.error.must_place"
