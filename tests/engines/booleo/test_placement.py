"""bOOleO placement: placing and replacing gates (the seed's worked examples), the referee's
lessons and the slot bit, NOT cards and their cancels, challenges and claims (referee=off),
and the inactive variant. Set-up, the turn limit, menus, notation, views, serialisation, the
agents and the count against the reference are in ``test_rules.py``.

The hand-written positions, with the NOT, challenge and claim scenes, are in
``tests/helpers/booleo_positions.py``.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.base import IllegalMove, NotYourTurn
from engines.booleo import BooleoState
from engines.booleo.cards import CARD_TOKENS, deck_cards
from tests.helpers.booleo_positions import (
    NORTH,
    NORTH_PYRAMID,
    ROW,
    SOUTH,
    all_cards,
    challenge_position,
    claim_position,
    gates,
    not_position,
    position,
)
from tests.helpers.refusals import snapshot

# A South pyramid on ROW: XOR(1) at 1.1 with an XOR(1) on it at 2.1, and more above.
SOUTH_PYRAMID = {"1.1": "XOR1", "1.2": "OR0", "1.3": "OR1", "1.4": "AND1",
                 "2.1": "XOR1", "2.2": "XOR1", "2.3": "AND1", "3.1": "AND1", "3.2": "OR1"}


# --- placing and replacing (the seed's worked examples) -------------------------------------

def test_replacing_xor1_with_or1_keeps_the_pyramid() -> None:
    state = position(ROW, south=dict(SOUTH_PYRAMID), hands=(["OR1", "AND0", "NOT", "OR0",
                                                             "XOR0"], []))
    events = state.apply(SOUTH, "OR1 1.1")
    assert gates(state, SOUTH) == {**SOUTH_PYRAMID, "1.1": "OR1"}
    assert events[0]["type"] == "replaced" and events[0]["old"] == "XOR1"
    assert events[0]["removed"] == []
    assert state.discard == ["XOR1"]
    assert "OR1" not in state.hands[SOUTH]


def test_replacing_xor1_with_and0_removes_the_xor1_above_it() -> None:
    state = position(ROW, south=dict(SOUTH_PYRAMID), hands=(["OR1", "AND0", "NOT", "OR0",
                                                             "XOR0"], []))
    events = state.apply(SOUTH, "AND0 1.1")
    left = gates(state, SOUTH)
    assert left["1.1"] == "AND0"
    # 2.1 XOR(1) now sees 0 and 0; 3.1 lost its input 2.1 and goes with it (standard rules).
    assert "2.1" not in left and "3.1" not in left
    assert [r["slot"] for r in events[0]["removed"]] == ["2.1", "3.1"]
    assert Counter(state.discard) == Counter(["XOR1", "XOR1", "AND1"])
    assert all_cards(state) == Counter(deck_cards(False))


def test_a_gate_needs_both_inputs_and_the_slot_must_exist() -> None:
    state = position(ROW, south={"1.1": "XOR1"}, hands=(["XOR1", "OR1", "AND0", "NOT",
                                                         "OR0"], []))
    with pytest.raises(IllegalMove) as missing:
        state.apply(SOUTH, "XOR1 2.1")
    assert str(missing.value) == "Slot 2.1 needs both inputs first: slot 1.2 below it is " \
                                 "still empty."
    with pytest.raises(IllegalMove, match=r"no slot 6\.1"):
        state.apply(SOUTH, "OR1 6.1")
    with pytest.raises(IllegalMove, match=r"no slot 1\.6"):
        state.apply(SOUTH, "OR1 1.6")
    with pytest.raises(IllegalMove, match="You hold no AND→1 card"):
        state.apply(SOUTH, "AND1 1.4")
    with pytest.raises(IllegalMove, match="same card"):
        state.apply(SOUTH, "XOR1 1.1")
    with pytest.raises(IllegalMove, match="already holds XOR→1"):
        state.apply(SOUTH, state.parse_action("place OR1 1.1", SOUTH))
    with pytest.raises(IllegalMove, match="nothing to replace"):
        state.parse_action("replace 1.2 with OR0", SOUTH)
    with pytest.raises(IllegalMove, match="no NAND→1 card in this game"):
        state.apply(SOUTH, "NAND1 1.2")
    with pytest.raises(NotYourTurn):
        state.apply(NORTH, "discard OR1")


# --- the referee's lessons ------------------------------------------------------------------

LESSON_CASES = [
    ("AND1", 1, 0, "AND needs 1 and 1 to give 1; these inputs are 1 and 0."),
    ("AND0", 1, 1, "AND gives 0 only when an input is 0; these inputs are 1 and 1."),
    ("OR1", 0, 0, "OR gives 1 only when an input is 1; these inputs are 0 and 0."),
    ("OR0", 0, 1, "OR needs 0 and 0 to give 0; these inputs are 0 and 1."),
    ("XOR1", 1, 1, "XOR gives 1 only when its inputs differ; these inputs are 1 and 1."),
    ("XOR0", 1, 0, "XOR gives 0 only when its inputs are equal; these inputs are 1 and 0."),
    ("NAND0", 0, 1, "NAND needs 1 and 1 to give 0; these inputs are 0 and 1."),
    ("NAND1", 1, 1, "NAND gives 1 only when an input is 0; these inputs are 1 and 1."),
    ("NOR1", 1, 0, "NOR needs 0 and 0 to give 1; these inputs are 1 and 0."),
    ("NOR0", 0, 0, "NOR gives 0 only when an input is 1; these inputs are 0 and 0."),
    ("XNOR1", 0, 1, "XNOR gives 1 only when its inputs are equal; these inputs are 0 and 1."),
    ("XNOR0", 1, 1, "XNOR gives 0 only when its inputs differ; these inputs are 1 and 1."),
]


@pytest.mark.parametrize(("card", "a", "b", "lesson"), LESSON_CASES)
def test_the_referee_refuses_an_invalid_gate_and_teaches_why(card: str, a: int, b: int,
                                                             lesson: str) -> None:
    state = position([a, b, 0, 1], hands=([card, "NOT", "OR1", "AND0", "XOR1"], []),
                     extended=True)
    before = snapshot(state)
    with pytest.raises(IllegalMove) as refused:
        state.apply(SOUTH, f"{card} 1.1")
    assert str(refused.value) == lesson
    assert refused.value.key == f"booleo.error.gate_invalid.{card.lower()}"
    assert refused.value.params["a"] == a and refused.value.params["b"] == b
    assert snapshot(state) == before
    assert f"{card} 1.1" not in state.legal_actions(SOUTH)
    # The menu still offers the slot: picking it is how a learner meets the rule.
    token = CARD_TOKENS[card]
    assert f"{card} 1.1" in [c.action for c in state.menu(SOUTH, (token,))]


def test_the_top_gate_must_give_the_slot_bit_to_win() -> None:
    # South reads 1 1 0 0: slot bit 0. Rows 1 and 2 are done; the top sees 1 and 1.
    south = {"1.1": "AND1", "1.2": "OR1", "1.3": "AND0", "2.1": "AND1", "2.2": "OR1"}
    state = position([1, 1, 0, 0], south=south, hands=(["AND1", "XOR0", "OR1", "NOT",
                                                        "OR0"], []))
    with pytest.raises(IllegalMove) as refused:
        state.apply(SOUTH, "AND1 3.1")
    assert str(refused.value) == "The top gate must give your slot bit 0; this gate gives 1."
    assert refused.value.key == "booleo.error.top_slot_bit"
    with pytest.raises(IllegalMove, match="The top gate must give your slot bit 0"):
        state.apply(SOUTH, "OR1 3.1")
    events = state.apply(SOUTH, "XOR0 3.1")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (SOUTH,)
    assert outcome.reason == "booleo_pyramid"
    assert events[-1]["type"] == "game_over"
    assert state.to_move() == [] and state.legal_actions(SOUTH) == []


def test_a_flip_of_the_slot_bit_changes_which_top_gate_wins() -> None:
    # North flips South's card 4 (North's card 1): South's slot bit becomes 1. The AND(0) on
    # 1.3 survives (0 0 -> 0 1), so only the top's requirement changes.
    south = {"1.1": "AND1", "1.2": "OR1", "1.3": "AND0", "2.1": "AND1", "2.2": "OR1"}
    state = position([1, 1, 0, 0], south=south, hands=(["AND1", "XOR0", "OR1", "OR0"],
                                                       ["NOT", "AND0", "OR0", "OR1", "XOR1"]),
                     turn=NORTH)
    state.apply(NORTH, "NOT 1")
    assert state.view(None)["pending"]["would_remove"] == [[], []]
    assert state.view(None)["slot_bits"][SOUTH] == 1
    with pytest.raises(IllegalMove, match="slot bit 1; this gate gives 0"):
        state.apply(SOUTH, "XOR0 3.1")
    state.apply(SOUTH, "AND1 3.1")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (SOUTH,)


# --- NOT cards ------------------------------------------------------------------------------

def test_a_not_on_the_leftmost_card_removes_three_of_the_opponents_gates() -> None:
    state = not_position(["OR1", "AND0", "XOR0", "AND1"])
    events = state.apply(SOUTH, "NOT 1")
    assert events[0]["type"] == "not_played" and events[0]["card"] == 1
    # The flip is pending: nothing is removed yet, but the board says what would go.
    assert gates(state, NORTH) == NORTH_PYRAMID
    pending = state.view(None)["pending"]
    assert pending["by"] == SOUTH and pending["positions"] == [1, 6]
    assert pending["would_remove"] == [[], ["1.5", "2.4", "3.3"]]
    assert state.view(None)["not_counts"] == [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]]
    assert state.bits[0] == 0 and state.view(None)["slot_bits"][NORTH] == 1
    # North cannot cancel, so any action resolves the flip first.
    events = state.apply(NORTH, "discard AND0")
    assert events[0]["type"] == "flip_resolved"
    assert [r["slot"] for r in events[0]["removed"][NORTH]] == ["1.5", "2.4", "3.3"]
    assert gates(state, NORTH) == {"1.3": "OR1", "1.4": "AND1", "2.3": "OR1"}
    assert state.pending is None and state.nots == [1, 0, 0, 0, 0, 0]
    assert Counter(state.discard) == Counter(["XOR1", "AND1", "XOR0", "AND0"])
    assert all_cards(state) == Counter(deck_cards(False))


def test_a_not_cancelled_by_a_not_on_the_same_card_removes_nothing() -> None:
    state = not_position(["NOT", "AND0", "XOR0", "AND1"])
    state.apply(SOUTH, "NOT 1")
    # North numbers the same start card 6 (the row from North's seat).
    assert [c.label for c in state.menu(NORTH, ("N",))][5] == "6: cancel the flip"
    events = state.apply(NORTH, "NOT 6")
    assert events[0]["type"] == "flip_cancelled"
    assert state.bits == ROW and state.nots == [0] * 6 and state.pending is None
    assert gates(state, NORTH) == NORTH_PYRAMID
    assert state.discard == ["NOT", "NOT"]


def test_nots_can_follow_each_other_in_a_chain() -> None:
    state = not_position(["NOT", "NOT", "AND0", "XOR0"], ["NOT", "NOT", "OR1", "AND0", "OR0"])
    state.apply(SOUTH, "NOT 1")
    assert state.parse_action("cancel", NORTH) == "NOT 6"
    state.apply(NORTH, "NOT 6")
    assert state.pending is None and state.bits == ROW
    assert "NOT" in state.hands[SOUTH]
    state.apply(SOUTH, "NOT 1")
    assert state.pending == (1, SOUTH)
    state.apply(NORTH, "NOT 6")
    assert state.pending is None and state.bits == ROW and state.nots == [0] * 6
    assert gates(state, NORTH) == NORTH_PYRAMID
    assert Counter(state.discard)["NOT"] == 4


def test_a_not_on_another_card_resolves_the_pending_flip_first() -> None:
    state = not_position(["NOT", "AND0", "XOR0", "AND1"])
    state.apply(SOUTH, "NOT 1")
    events = state.apply(NORTH, "NOT 1")  # North's card 1 is South's card 6
    assert [e["type"] for e in events[:2]] == ["flip_resolved", "not_played"]
    assert "1.5" not in gates(state, NORTH)
    assert state.pending == (6, NORTH) and state.nots == [1, 0, 0, 0, 0, 1]


def test_a_placement_during_a_pending_flip_is_judged_after_it_resolves() -> None:
    state = not_position(["OR1", "XOR1", "XOR0", "AND1"])
    state.apply(SOUTH, "NOT 1")
    # The menu and the legal actions already show 1.5 gone; the new inputs are 1 and 1.
    assert "XOR0 1.5" in state.legal_actions(NORTH)
    assert "XOR1 1.5" not in state.legal_actions(NORTH)
    state.apply(NORTH, "XOR0 1.5")
    assert gates(state, NORTH)["1.5"] == "XOR0"


# --- referee=off: challenges and claims -----------------------------------------------------

def test_referee_off_allows_invalid_gates_and_does_not_mark_them() -> None:
    state = position(ROW, hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], []), referee=False)
    assert "AND1 1.1" in state.legal_actions(SOUTH)  # AND(1, 0) is 0, not 1
    state.apply(SOUTH, "AND1 1.1")
    public = state.view(None)
    gate = public["pyramids"][SOUTH][0]
    assert set(gate) == {"slot", "card", "gate", "out", "inputs"}
    assert "invalid" not in json.dumps(public)
    state.resign(NORTH)
    assert state.view(None)["invalid_gates"] == [["1.1"], []]


def test_a_successful_challenge_discards_the_gate_with_the_cascade() -> None:
    state = challenge_position()
    events = state.apply(SOUTH, "challenge 1.1")
    assert events[0]["result"] == "invalid"
    assert [r["slot"] for r in events[0]["removed"]] == ["2.1"]
    assert gates(state, NORTH) == {"1.2": "OR0"}
    # South goes on with an action, but cannot challenge again this turn.
    assert state.turn == SOUTH and state.phase == "play" and state.challenged
    assert not any(a.startswith("challenge") for a in state.legal_actions(SOUTH))
    with pytest.raises(IllegalMove, match="already challenged"):
        state.apply(SOUTH, "challenge 1.2")
    state.apply(SOUTH, "OR1 1.1")
    assert state.turn == NORTH and not state.challenged
    assert len(state.hands[SOUTH]) == 4


def test_a_failed_challenge_costs_the_action_and_ends_with_a_discard() -> None:
    state = challenge_position()
    events = state.apply(SOUTH, "challenge 1.2")
    assert events[0]["result"] == "valid"
    assert gates(state, NORTH) == {"1.1": "AND1", "1.2": "OR0", "2.1": "XOR1"}
    assert state.phase == "discard" and state.turn == SOUTH
    assert state.legal_actions(SOUTH) == [f"discard {c}" for c in
                                          dict.fromkeys(state.hands[SOUTH])]
    assert all(c.label.startswith("Discard") and c.action for c in state.menu(SOUTH, ()))
    with pytest.raises(IllegalMove) as refused:
        state.apply(SOUTH, "OR1 1.1")
    assert refused.value.key == "booleo.error.must_discard"
    state.apply(SOUTH, "discard XOR0")
    assert state.turn == NORTH and len(state.hands[SOUTH]) == 4 and state.phase == "play"


def test_challenges_are_only_for_referee_off() -> None:
    state = position(ROW, north={"1.2": "OR0"}, hands=(["OR1", "NOT", "AND0", "XOR0", "OR0"],
                                                       []))
    with pytest.raises(IllegalMove) as refused:
        state.apply(SOUTH, "challenge 1.2")
    assert refused.value.key == "booleo.error.referee_on"
    assert "C" not in [c.token for c in state.menu(SOUTH, ())]


def test_completing_a_pyramid_with_referee_off_is_a_claim_the_opponent_may_accept() -> None:
    state = claim_position("XOR0")
    events = state.apply(SOUTH, "XOR0 3.1")
    assert state.outcome() is None and state.phase == "claim" and state.claimant == SOUTH
    assert any(e["type"] == "claim" for e in events)
    assert state.turn == NORTH
    assert state.legal_actions(NORTH)[-1] == "accept"
    assert [c.token for c in state.menu(NORTH, ())] == ["C", "OK"]
    with pytest.raises(IllegalMove, match="challenge one of its gates, or accept"):
        state.apply(NORTH, "discard OR0")
    state.apply(NORTH, "accept")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (SOUTH,)
    assert state.view(None)["invalid_gates"] == [[], []]


def test_a_claim_with_an_invalid_top_is_voided_by_a_challenge() -> None:
    state = claim_position("AND1")  # AND(1, 1) is 1, but South's slot bit is 0
    state.apply(SOUTH, "AND1 3.1")
    assert state.phase == "claim" and state.outcome() is None
    events = state.apply(NORTH, "challenge 3.1")
    assert events[0]["result"] == "invalid"
    assert state.outcome() is None and state.claimant is None and state.phase == "play"
    assert "3.1" not in gates(state, SOUTH)
    assert state.turn == NORTH  # North goes on with an action
    state.apply(NORTH, "discard OR0")
    assert state.turn == SOUTH


def test_a_failed_challenge_of_a_claim_lets_the_claimant_win() -> None:
    state = claim_position("XOR0")
    state.apply(SOUTH, "XOR0 3.1")
    state.apply(NORTH, "challenge 1.2")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (SOUTH,)
    assert outcome.detail["challenge_failed"] == "1.2"


# --- the inactive variant -------------------------------------------------------------------

def test_inactive_a_gate_missing_one_input_stays_inactive() -> None:
    state = position(ROW, south=dict(SOUTH_PYRAMID), hands=(["AND0", "AND1", "NOT", "OR0",
                                                             "XOR0"], []), inactive=True)
    state.apply(SOUTH, "AND0 1.1")
    left = gates(state, SOUTH)
    assert "2.1" not in left  # both its inputs present, and they no longer give 1
    assert left["3.1"] == "AND1"  # one input missing: inactive, not removed
    flags = {g["slot"]: g["inactive"] for g in state.view(None)["pyramids"][SOUTH]}
    assert flags["3.1"] is True and flags["3.2"] is False and flags["1.1"] is False


# SOUTH_PYRAMID after AND(0) replaced 1.1: 2.1 is gone and 3.1 (AND 1) is inactive.
BROKEN = {**{k: v for k, v in SOUTH_PYRAMID.items() if k != "2.1"}, "1.1": "AND0"}


def test_inactive_no_gate_goes_on_an_inactive_input() -> None:
    state = position(ROW, south=dict(BROKEN), hands=(["AND1", "OR1", "NOT", "OR0", "XOR0"],
                                                     []), inactive=True)
    with pytest.raises(IllegalMove) as refused:
        state.apply(SOUTH, "AND1 4.1")  # 4.1 takes 3.1 and 3.2
    assert refused.value.key == "booleo.error.inactive_input"
    assert str(refused.value) == ("Slot 4.1 would take an input from the inactive gate on "
                                  "3.1; fill the missing slot beneath it first.")
    assert not [a for a in state.legal_actions(SOUTH) if a.endswith(" 4.1")]
    assert not [c for c in state.menu(SOUTH, ("A1",)) if c.action == "AND1 4.1"]
    with pytest.raises(IllegalMove, match=r"needs both inputs first: slot 2\.1"):
        state.apply(SOUTH, "OR1 3.1")  # an inactive gate is not replaced either


def test_inactive_a_gate_that_loses_both_inputs_is_removed() -> None:
    # NOR(1) on 1.2 (inputs 0 0) turns 2.1 and 2.2 invalid (both see 1 and 1); 3.1 then has
    # lost both inputs and goes, while 3.2 keeps 2.3 and turns inactive.
    state = position(ROW, south=dict(SOUTH_PYRAMID), hands=(["NOR1", "AND1", "NOT", "OR0",
                                                             "XOR0"], []),
                     inactive=True, extended=True)
    state.apply(SOUTH, "NOR1 1.2")
    left = gates(state, SOUTH)
    assert "2.1" not in left and "2.2" not in left and "3.1" not in left
    assert left["3.2"] == "OR1"
    assert {g["slot"]: g["inactive"] for g in state.view(None)["pyramids"][SOUTH]}["3.2"]


def inactive_after_replace(card: str) -> BooleoState:
    return position(ROW, south=dict(BROKEN), hands=([card, "NOT", "OR1", "XOR0", "AND0"], []),
                    inactive=True, extended=True)


def test_inactive_restoring_an_input_reactivates_the_gates_that_fit() -> None:
    state = inactive_after_replace("NOR1")
    assert {g["slot"]: g["inactive"] for g in state.view(None)["pyramids"][SOUTH]}["3.1"]
    state.apply(SOUTH, "NOR1 2.1")  # NOR(0, 0) = 1: 3.1's AND(1) sees 1 and 1 again
    assert gates(state, SOUTH)["3.1"] == "AND1"
    assert not any(g["inactive"] for g in state.view(None)["pyramids"][SOUTH])


def test_inactive_restoring_an_input_discards_the_gates_that_no_longer_fit() -> None:
    state = inactive_after_replace("OR0")
    state.apply(SOUTH, "OR0 2.1")  # OR(0, 0) = 0: 3.1's AND(1) sees 0 and 1
    left = gates(state, SOUTH)
    assert left["2.1"] == "OR0" and "3.1" not in left


def test_inactive_a_flip_of_the_slot_bit_judges_a_top_fed_by_inactive_gates() -> None:
    # South reads 1 1 0 0 (slot bit 0). 1.2 is gone, so 2.1 and 2.2 are inactive and the top
    # XOR(0), fed by them, is inactive too, but both its inputs are on the table.
    south = {"1.1": "AND1", "1.3": "AND0", "2.1": "OR1", "2.2": "OR1", "3.1": "XOR0"}
    state = position([1, 1, 0, 0], south=south, turn=NORTH, inactive=True,
                     hands=(["OR1", "AND0", "XOR1", "OR0"], ["NOT", "AND0", "OR0", "OR1",
                                                             "XOR1"]))
    assert all(g["inactive"] for g in state.view(None)["pyramids"][SOUTH] if g["slot"] != "1.1"
               and g["slot"] != "1.3")
    state.apply(NORTH, "NOT 1")  # South's card 4: the slot bit becomes 1
    # 1.3's AND(0) still fits 0 and 1; the top no longer gives the slot bit.
    assert state.view(None)["pending"]["would_remove"] == [["3.1"], []]
    state.apply(SOUTH, "discard OR0")
    assert gates(state, SOUTH) == {"1.1": "AND1", "1.3": "AND0", "2.1": "OR1", "2.2": "OR1"}


def test_referee_off_an_unnoticed_invalid_gate_stays_until_challenged() -> None:
    # North's invalid AND(1) on 1.1 is not touched by a flip of South's card 3 (North's 4):
    # the flip removes only what it broke, and the bluff waits for a challenge.
    state = challenge_position()
    state.apply(SOUTH, "NOT 3")
    state.apply(NORTH, "discard AND0")
    assert gates(state, NORTH) == {"1.1": "AND1", "1.2": "OR0", "2.1": "XOR1"}
    state.apply(SOUTH, "challenge 1.1")
    assert gates(state, NORTH) == {"1.2": "OR0"}


def test_referee_off_a_challenge_first_resolves_the_pending_flip() -> None:
    # North flips North's card 2 (South's 5): North's 1.2 OR(0) then sees 1 and 0 and goes,
    # taking 2.1 with it, while the bluff AND(1) on 1.1 now sees 1 and 1 and fits.
    state = challenge_position((["OR1", "AND0", "XOR0", "OR0"],
                                ["AND0", "OR1", "XOR1", "NOT", "OR0"]), turn=NORTH)
    state.apply(NORTH, "NOT 2")
    assert state.view(None)["pending"]["would_remove"] == [[], ["1.2", "2.1"]]
    assert [a for a in state.legal_actions(SOUTH) if a.startswith("challenge")] == [
        "challenge 1.1"]
    with pytest.raises(IllegalMove, match="discarded anyway when the pending flip resolves"):
        state.apply(SOUTH, "challenge 1.2")
    events = state.apply(SOUTH, "challenge 1.1")
    assert [e["type"] for e in events] == ["flip_resolved", "challenge"]
    assert events[1]["result"] == "valid" and state.phase == "discard"
    assert gates(state, NORTH) == {"1.1": "AND1"}
