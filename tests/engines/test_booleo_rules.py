"""bOOleO rules: the deck, set-up, placing and replacing, NOTs and their cancels, the referee's
lessons, challenges and claims (referee=off), the inactive variant, winning with the slot bit,
the turn limit, reshuffles, menus, views, notation, the agents, and a count of legal actions
against the plain reference generator in ``tests/helpers/booleo_reference.py``.

Positions are built with ``position(...)``: a state dictionary written out by hand (the start
row as South reads it, both pyramids as ``{"row.slot": card}``, the hands), with every card not
mentioned put in the draw pile, loaded through ``BooleoState.from_dict``.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest

from engines import booleo, booleo_agents
from engines.base import GameError, IllegalMove, InvalidMove, NotYourTurn, StateError
from engines.booleo import BooleoState, deck_cards, new_game, replay, sort_cards
from tests.helpers import booleo_reference as reference

DEFAULTS: dict[str, Any] = {"bits": 6, "extended": False, "inactive": False, "referee": True,
                            "max_turns": 200}
SOUTH, NORTH = 0, 1


def position(start: list[int], south: dict[str, str] | None = None,
             north: dict[str, str] | None = None,
             hands: tuple[list[str], list[str]] = ([], []), turn: int = SOUTH,
             pending: tuple[int, int] | None = None, nots: list[int] | None = None,
             discard: list[str] | None = None, draw_size: int | None = None,
             draw_top: tuple[str, ...] = (), phase: str = "play", claimant: int | None = None,
             challenged: bool = False, turns: int = 0, **options: Any) -> BooleoState:
    """A position written out by hand. ``start`` is the row as South reads it; cards not
    placed anywhere go to the draw pile (``draw_top`` on top), or beyond ``draw_size`` cards
    to the discard pile."""
    opts = {**DEFAULTS, "bits": len(start), **options}
    south, north, discard = south or {}, north or {}, list(discard or [])
    nots = nots or [0] * len(start)
    used = (Counter(hands[0]) + Counter(hands[1]) + Counter(south.values())
            + Counter(north.values()) + Counter({"NOT": sum(nots)}) + Counter(discard)
            + Counter(draw_top))
    deck = Counter(deck_cards(opts["extended"]))
    assert not used - deck, f"more cards than the deck holds: {used - deck}"
    rest = sorted((deck - used).elements())
    if draw_size is not None:
        discard += rest[draw_size:]
        rest = rest[:draw_size]
    data = {
        "game": "booleo", "schema": 1, "options": opts, "seed": 7, "start": list(start),
        "nots": nots, "hands": [sort_cards(hands[0]), sort_cards(hands[1])],
        "draw": rest + list(draw_top), "discard": discard, "pyramids": [south, north],
        "first": SOUTH, "turn": turn, "turns": turns, "phase": phase, "challenged": challenged,
        "claimant": claimant,
        "pending": None if pending is None else {"card": pending[0], "by": pending[1]},
        "reshuffles": 0, "actions": [], "last_events": [], "outcome": None,
    }
    return BooleoState.from_dict(data)


def snapshot(state: BooleoState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def gates(state: BooleoState, seat: int) -> dict[str, str]:
    return {g["slot"]: g["card"] for g in state.view(None)["pyramids"][seat]}


def all_cards(state: BooleoState) -> Counter[str]:
    total = Counter(state.draw) + Counter(state.discard) + Counter(state.hands[0]) \
        + Counter(state.hands[1]) + Counter({"NOT": sum(state.nots)})
    for pyramid in state.pyramids:
        total += Counter(pyramid.values())
    return total


# South reads 1 0 0 1 1 0; North reads the complements backwards, which is the same pattern.
ROW = [1, 0, 0, 1, 1, 0]
# A South pyramid on ROW: XOR(1) at 1.1 with an XOR(1) on it at 2.1, and more above.
SOUTH_PYRAMID = {"1.1": "XOR1", "1.2": "OR0", "1.3": "OR1", "1.4": "AND1",
                 "2.1": "XOR1", "2.2": "XOR1", "2.3": "AND1", "3.1": "AND1", "3.2": "OR1"}


# --- deck and set-up ------------------------------------------------------------------------

def test_the_deck_has_62_cards_and_the_extended_deck_adds_48() -> None:
    cards = Counter(deck_cards(False))
    assert sum(cards.values()) + 6 == 62
    assert cards["NOT"] == 8
    for gate in ("AND", "OR", "XOR"):
        assert cards[f"{gate}0"] == cards[f"{gate}1"] == 8
    extended = Counter(deck_cards(True))
    assert sum(extended.values()) == 56 + 48
    assert all(extended[f"{g}{o}"] == 8 for g in ("NAND", "NOR", "XNOR") for o in (0, 1))


@pytest.mark.parametrize("bits", [4, 5, 6, 7, 8])
def test_set_up_deals_four_and_the_first_player_draws(bits: int) -> None:
    state = new_game({"bits": bits}, 2, 11)
    mover = state.turn
    assert mover == state.first
    assert len(state.hands[mover]) == 5 and len(state.hands[1 - mover]) == 4
    assert len(state.draw) == 56 - 9 and state.discard == []
    assert len(state.bits) == bits and set(state.bits) <= {0, 1}
    assert all_cards(state) == Counter(deck_cards(False))
    view = state.view(None)
    south, north = view["rows"]
    assert north == [1 - b for b in reversed(south)]
    assert view["slot_bits"] == [south[-1], 1 - south[0]]
    assert view["pyramids"] == [[], []] and view["pending"] is None


def test_the_seed_decides_the_row_the_deal_and_the_first_player() -> None:
    assert new_game({}, 2, 5).to_dict() == new_game({}, 2, 5).to_dict()
    firsts = {new_game({}, 2, seed).first for seed in range(20)}
    rows = {tuple(new_game({}, 2, seed).bits) for seed in range(20)}
    assert firsts == {0, 1} and len(rows) > 5


def test_only_two_players() -> None:
    with pytest.raises(InvalidMove):
        new_game({}, 3, 1)


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
    token = booleo.CARD_TOKENS[card]
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

NORTH_PYRAMID = {"1.3": "OR1", "1.4": "AND1", "1.5": "XOR1", "2.3": "OR1", "2.4": "AND1",
                 "3.3": "XOR0"}


def not_position(north_hand: list[str], south_hand: list[str] | None = None) -> BooleoState:
    return position(ROW, north=dict(NORTH_PYRAMID),
                    hands=(south_hand or ["NOT", "OR1", "AND0", "XOR0", "OR0"], north_hand))


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


def challenge_position(hands: tuple[list[str], list[str]] = (
        ["OR1", "AND0", "NOT", "XOR0", "OR0"], ["AND0", "OR1", "XOR1", "NOT"]),
        **extra: Any) -> BooleoState:
    # North (reading 1 0 0 1 1 0) has an invalid AND(1) on 1.1 (inputs 1 and 0), a valid
    # OR(0) on 1.2, and an XOR(1) on 2.1 built on the invalid gate.
    return position(ROW, north={"1.1": "AND1", "1.2": "OR0", "2.1": "XOR1"}, hands=hands,
                    referee=False, **extra)


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


CLAIMED = {"1.1": "AND0", "1.2": "OR1", "1.3": "AND0", "2.1": "OR1", "2.2": "OR1"}


def claim_position(top: str) -> BooleoState:
    # South reads 1 0 1 0, slot bit 0; the top sees 1 and 1.
    return position([1, 0, 1, 0], south=dict(CLAIMED),
                    hands=([top, "NOT", "XOR1", "OR0", "AND1"], ["NOT", "AND1", "XOR1",
                                                                "OR0"]),
                    referee=False)


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


# --- turn limit, empty piles, reshuffles ----------------------------------------------------

def test_max_turns_ends_the_game_as_a_draw() -> None:
    state = new_game({"max_turns": 10}, 2, 3)
    for _ in range(10):
        seat = state.turn
        state.apply(seat, f"discard {state.hands[seat][0]}")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.reason == "booleo_max_turns"
    assert state.turns == 10 and state.to_move() == []


def test_a_claim_answered_after_the_last_turn_ends_the_game_without_another_turn() -> None:
    # Regression: a successful challenge of a claim made on the last turn let the challenger
    # play a 41st turn of a 40-turn game.
    answered_at_the_limit = 0
    for seed in range(400):
        rng = random.Random(seed)
        options = {"bits": 4, "referee": False, "max_turns": 40,
                   "extended": rng.random() < 0.5}
        state = new_game(options, 2, seed)
        while state.outcome() is None:
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
            assert state.turns <= 40, (seed, state.actions[-4:])
        outcome = state.outcome()
        assert outcome is not None
        if outcome.reason == "booleo_max_turns" and state.actions[-1].startswith("challenge"):
            answered_at_the_limit += 1
            assert outcome.is_draw and state.to_move() == []
    assert answered_at_the_limit > 0, "the seeds must reach a claim answered at the limit"


def test_the_discard_pile_is_reshuffled_into_a_new_draw_pile() -> None:
    state = position(ROW, hands=(["NOT", "OR1", "AND0", "XOR0", "OR0"], ["NOT", "OR1", "AND0",
                                                                        "XOR0"]), draw_size=1)
    assert len(state.draw) == 1 and len(state.discard) == 56 - 9 - 1
    state.apply(SOUTH, "discard OR0")  # North draws the last card
    assert state.draw == []
    twin = BooleoState.from_dict(state.to_dict())
    events = state.apply(NORTH, "discard AND0")
    assert events[1] == {"type": "reshuffled", "cards": 56 - 9 - 1 + 2}
    assert len(state.draw) == 56 - 9 - 1 + 2 - 1 and state.discard == []
    assert state.reshuffles == 1
    assert all_cards(state) == Counter(deck_cards(False))
    # The new order follows from the seed and the reshuffle count: the same again, and
    # different under another seed.
    other = BooleoState.from_dict({**twin.to_dict(), "seed": 8})
    twin.apply(NORTH, "discard AND0")
    other.apply(NORTH, "discard AND0")
    assert twin.draw == state.draw and twin.hands == state.hands
    assert Counter(other.draw + other.hands[SOUTH]) == Counter(state.draw + state.hands[SOUTH])
    assert other.draw + other.hands[SOUTH] != state.draw + state.hands[SOUTH]


def test_with_both_piles_empty_nobody_draws_and_an_empty_hand_passes() -> None:
    # Eight start cards with a NOT under each; 47 gates in the pyramids (referee=off, so the
    # gates need not fit), the last gate in North's hand, South's hand empty, both piles empty.
    gates_left = [c for c in deck_cards(False) if c != "NOT"]
    south_slots = booleo.pyramid_slots(8)[:27]  # all but the top
    north_slots = booleo.pyramid_slots(8)[:20]  # rows 1-3, then 4.1 and 4.2
    south = {booleo.slot_name(s): gates_left.pop() for s in south_slots}
    north = {booleo.slot_name(s): gates_left.pop() for s in north_slots}
    assert len(gates_left) == 1
    state = position([1, 0, 1, 1, 0, 0, 1, 0], south=south, north=north,
                     hands=([], gates_left), nots=[1] * 8, referee=False)
    assert state.draw == [] and state.discard == []
    assert "pass" in state.legal_actions(SOUTH)
    assert ("P", "pass") in [(c.token, c.action) for c in state.menu(SOUTH, ())]
    with pytest.raises(IllegalMove, match="only with an empty hand"):
        BooleoState.from_dict({**state.to_dict(), "turn": NORTH}).apply(NORTH, "pass")
    events = state.apply(SOUTH, "pass")
    assert events == [{"type": "passed", "seat": SOUTH}, {"type": "no_draw", "seat": NORTH}]
    assert state.hands == [[], gates_left]
    state.apply(NORTH, f"{gates_left[0]} 4.3")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.reason == "booleo_no_cards"


# --- menus ----------------------------------------------------------------------------------

TOKEN_RE = re.compile(r"[A-Za-z0-9-]{1,4}")


def walk(state: BooleoState, seat: int, path: tuple[str, ...] = ()
         ) -> list[tuple[tuple[str, ...], list[Any]]]:
    choices = state.menu(seat, path)
    found = [(path, choices)]
    for choice in choices:
        if choice.action is None:
            found += walk(state, seat, (*path, choice.token))
    return found


def check_menus(state: BooleoState) -> None:
    seat = state.turn
    legal = set(state.legal_actions(seat))
    leaves: set[str] = set()
    for path, choices in walk(state, seat):
        assert len(path) <= 3 and len(choices) <= 25 and choices
        assert len({c.token for c in choices}) == len(choices)
        for choice in choices:
            assert TOKEN_RE.fullmatch(choice.token), choice.token
            if choice.action is not None:
                assert len((*path, choice.token)) <= 3
                assert choice.action.isascii() and len(choice.action) <= 20
                leaves.add(choice.action)
    assert legal <= leaves
    for action in leaves - legal:
        # Only the referee's refusals are offered without being legal.
        assert state.referee
        trial = BooleoState.from_dict(state.to_dict())
        with pytest.raises(IllegalMove) as refused:
            trial.apply(seat, action)
        assert refused.value.key.startswith(("booleo.error.gate_invalid",
                                             "booleo.error.top_slot_bit"))


@pytest.mark.parametrize("options", [
    {}, {"referee": False}, {"bits": 8, "inactive": True}, {"bits": 4, "extended": True},
    {"bits": 7, "referee": False, "inactive": True, "extended": True},
])
def test_menus_reach_every_legal_action_within_the_button_limits(options: dict[str, Any]
                                                                  ) -> None:
    for seed in range(3):
        state = new_game(options, 2, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.outcome() is not None:
                break
            check_menus(state)
            legal = state.legal_actions(state.turn)
            builds = [a for a in legal if a.split()[0] in booleo.GATE_CARDS]
            state.apply(state.turn, rng.choice(builds if builds and rng.random() < 0.8
                                               else legal))


def full_rows(start: list[int], rows: int) -> dict[str, str]:
    """A valid pyramid of the first ``rows`` rows: on each slot, of the cards that fit, the
    one used least so far (so that no kind runs out)."""
    n = len(start)
    values = {(0, i): bit for i, bit in enumerate(start, 1)}
    pyramid: dict[str, str] = {}
    for r in range(1, rows + 1):
        for i in range(1, n - r + 1):
            a, b = values[(r - 1, i)], values[(r - 1, i + 1)]
            fitting = [card for card in ("OR1", "AND0", "XOR1", "OR0", "AND1", "XOR0")
                       if reference.TRUTH[card[:-1]][(a, b)] == int(card[-1])]
            card = min(fitting, key=list(pyramid.values()).count)
            pyramid[f"{r}.{i}"] = card
            values[(r, i)] = int(card[-1])
    return pyramid


def test_a_long_menu_step_is_split_into_rows() -> None:
    start = [1, 0, 1, 1, 0, 0, 1, 0]
    south = full_rows(start, 6)  # 27 gates: everything but the top
    used = Counter(south.values())
    rare = min(("AND1", "OR0", "XOR0", "XOR1"), key=lambda c: used[c])
    assert 27 - used[rare] + 1 > 24  # more targets than one menu step holds
    hand = [rare, "NOT", "NOT", "NOT", "NOT"]
    state = position(start, south=south, hands=(hand, []))
    token = booleo.CARD_TOKENS[rare]
    rows = state.menu(SOUTH, (token,))
    assert rows[-1].token == "D" and all(c.token.startswith("R") for c in rows[:-1])
    assert len(rows) <= 25
    second = state.menu(SOUTH, (token, "R2"))
    assert second and all(c.action and c.action.split()[1].startswith("2.") for c in second)
    check_menus(state)
    with pytest.raises(InvalidMove):
        state.menu(SOUTH, (token, "R9"))
    with pytest.raises(InvalidMove):
        state.menu(SOUTH, (token, "R2", "21", "x"))


def test_menu_labels_group_identical_cards_and_number_start_cards_for_the_player() -> None:
    state = position(ROW, hands=(["OR1", "OR1", "NOT", "AND0", "XOR0"], ["OR0"]))
    top = {c.token: c.label for c in state.menu(SOUTH, ())}
    assert top == {"A0": "AND→0", "O1": "OR→1 ×2", "X0": "XOR→0", "N": "NOT"}
    nots = state.menu(SOUTH, ("N",))
    assert [c.action for c in nots] == [*(f"NOT {i}" for i in range(1, 7)), "discard NOT"]
    assert nots[0].label == "1: 1→0"
    slots = state.menu(SOUTH, ("O1",))
    assert [c.action for c in slots][:2] == ["OR1 1.1", "OR1 1.2"]
    assert slots[0].label == "1.1 (1 0)" and slots[-1].label == "Discard"
    with pytest.raises(InvalidMove):
        state.menu(SOUTH, ("Q",))
    with pytest.raises(InvalidMove):
        state.menu(SOUTH, ("O1", "99"))
    with pytest.raises(NotYourTurn):
        state.menu(NORTH, ())


# --- notation -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "action"), [
    ("AND1 1.1", "AND1 1.1"), ("and→1 on 1.1", "AND1 1.1"), ("And 1 1,1", "AND1 1.1"),
    ("place and1 1.1", "AND1 1.1"), ("AND->1 @ 1-1", "AND1 1.1"), ("and(1) 11", "AND1 1.1"),
    ("not 4", "NOT 4"), ("NOT on start card 2", "NOT 2"), ("discard XOR0", "discard XOR0"),
    ("d xor→0", "discard XOR0"), ("drop not", "discard NOT"), ("  OR1   1.2 ", "OR1 1.2"),
])
def test_typed_notation_becomes_canonical(text: str, action: str) -> None:
    state = position([1, 1, 0, 1, 0, 0], hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], []))
    assert state.parse_action(text, SOUTH) == action
    assert state.parse_action(state.action_text(action), SOUTH) == action


@pytest.mark.parametrize("text", ["", "hello", "AND2 1.1", "AND1", "not", "discard",
                                  "challenge", "1.1 AND1 please", "NOT card four"])
def test_garbage_is_refused_with_what_was_expected(text: str) -> None:
    state = position(ROW, hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], []))
    before = snapshot(state)
    with pytest.raises(InvalidMove) as refused:
        state.parse_action(text, SOUTH)
    assert "AND1 2.3" in str(refused.value) and "NOT 4" in str(refused.value)
    with pytest.raises(InvalidMove):
        state.apply(SOUTH, text)
    assert snapshot(state) == before


def test_other_refusals_say_what_was_expected() -> None:
    state = position(ROW, hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], []))
    cases = {"NOT 7": "numbered 1 to 6", "pass": "only with an empty hand",
             "accept": "no completed pyramid", "cancel": "nothing to cancel",
             "discard AND0": "You hold no AND→0 card"}
    for text, expected in cases.items():
        with pytest.raises(IllegalMove, match=expected):
            state.apply(SOUTH, text)
    state.resign(SOUTH)
    with pytest.raises(IllegalMove, match="game is over"):
        state.apply(SOUTH, "discard OR0")


# --- views ----------------------------------------------------------------------------------

def test_views_show_hands_only_to_their_owner() -> None:
    state = not_position(["OR1", "AND0", "XOR0", "AND1"])
    public = state.view(None)
    assert "hand" not in public and public["hand_sizes"] == [5, 4]
    assert public["draw_pile"] == len(state.draw)
    assert state.view(SOUTH)["hand"] == state.hands[SOUTH]
    assert state.view(NORTH)["hand"] == state.hands[NORTH]
    gate = public["pyramids"][NORTH][0]
    assert gate == {"slot": "1.3", "card": "OR1", "gate": "OR", "out": 1, "inputs": [0, 1]}
    state.apply(SOUTH, "NOT 1")
    after = state.view(None)
    drew = [e for e in after["last_events"] if e["type"] == "drew"]
    assert drew == [{"type": "drew", "seat": NORTH}] and "private" not in json.dumps(after)
    with pytest.raises(NotYourTurn):
        state.view(2)


def test_drawn_cards_travel_only_in_the_private_part_of_an_event() -> None:
    state = position(ROW, hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], ["OR0"]),
                     draw_top=("XOR1",))
    events = state.apply(SOUTH, "discard AND1")
    drew = [e for e in events if e["type"] == "drew"]
    assert drew == [{"type": "drew", "seat": NORTH, "private": {"seat": NORTH, "card": "XOR1"}}]
    assert {"type": "drew", "seat": NORTH} in state.view(None)["last_events"]


# --- serialisation --------------------------------------------------------------------------

def test_state_round_trips_and_replays() -> None:
    state = new_game({"referee": False, "bits": 5}, 2, 21)
    rng = random.Random(4)
    for _ in range(40):
        if state.outcome():
            break
        state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
    data = json.loads(json.dumps(state.to_dict()))
    assert BooleoState.from_dict(data).to_dict() == state.to_dict()
    assert replay(state.options, 21, state.actions).to_dict() == state.to_dict()


@pytest.mark.parametrize("corrupt", [
    lambda d: d.update(schema=99),
    lambda d: d.update(game="lgame"),
    lambda d: d["hands"][0].append("AND1"),
    lambda d: d["hands"][0].append("FOO1"),
    lambda d: d.update(start=[0, 1]),
    lambda d: d.update(start=[0, 1, 2, 0, 1, 0]),
    lambda d: d["pyramids"][0].update({"9.9": "AND1"}),
    lambda d: d["pyramids"][0].update({"2.1": d["draw"].pop()}),
    lambda d: d.update(phase="dance"),
    lambda d: d.update(turn=2),
    lambda d: d.update(turn=True),
    lambda d: d.update(pending={"card": 1, "by": 0}),
    lambda d: d.update(claimant=1),
    lambda d: d.update(outcome={"winners": [5], "reason": "x", "detail": {}}),
    lambda d: d.update(actions="abc"),
    lambda d: d["options"].update(bits=9),
    lambda d: d.pop("draw"),
    lambda d: d.update(hands=[[], [], []]),
])
def test_corrupt_states_are_refused(corrupt: Any) -> None:
    data = json.loads(json.dumps(new_game({}, 2, 9).to_dict()))
    corrupt(data)
    with pytest.raises(StateError):
        BooleoState.from_dict(data)


def test_an_invalid_gate_with_the_referee_on_is_a_corrupt_state() -> None:
    with pytest.raises(StateError, match="invalid"):
        position(ROW, south={"1.1": "AND1"})
    assert position(ROW, south={"1.1": "AND1"}, referee=False).pyramids[SOUTH]


# --- counting against the reference ---------------------------------------------------------

COUNT_OPTIONS: list[dict[str, Any]] = [
    {}, {"bits": 4}, {"bits": 5, "extended": True}, {"bits": 8},
    {"referee": False}, {"referee": False, "bits": 4}, {"inactive": True, "bits": 7},
    {"inactive": True, "referee": False, "extended": True},
    {"inactive": True, "referee": False, "bits": 4},
]
COUNT_SEEDS = [1, 2024, 77777]


def counting_walk(options: dict[str, Any], seed: int, turns: int = 24
                  ) -> tuple[list[tuple[int, int]], Counter[str]]:
    """A fixed, seeded sequence that mostly builds on empty slots: the engine's and the
    reference's number of legal actions at each step, and the situations it went through."""
    state = new_game(options, 2, seed)
    rng = random.Random(seed)
    counts: list[tuple[int, int]] = []
    seen: Counter[str] = Counter()
    for _ in range(turns):
        if state.outcome() is not None:
            seen["over"] += 1
            break
        seat = state.turn
        seen[state.phase] += 1
        seen["pending"] += state.pending is not None
        seen["challenged"] += state.challenged
        engine = state.legal_actions(seat)
        plain = reference.legal_actions(state, seat)
        assert sorted(engine) == sorted(plain), (options, seed, len(counts))
        assert len(set(engine)) == len(engine)
        assert state.legal_actions(1 - seat) == reference.legal_actions(state, 1 - seat) == []
        counts.append((len(engine), len(plain)))
        empty = [a for a in engine if a.split()[0] in booleo.GATE_CARDS
                 and booleo.parse_slot_name(a.split()[1]) not in state.pyramids[seat]]
        state.apply(seat, rng.choice(empty) if empty and rng.random() < 0.7
                    else rng.choice(engine))
    return counts, seen


@pytest.mark.parametrize("options", COUNT_OPTIONS)
@pytest.mark.parametrize("seed", COUNT_SEEDS)
def test_legal_action_counts_match_the_reference(options: dict[str, Any], seed: int) -> None:
    counts, seen = counting_walk(options, seed)
    assert all(engine == plain for engine, plain in counts)
    assert len(counts) == 24 or seen["over"]


def test_the_counted_sequences_visit_flips_challenges_and_claims() -> None:
    total: Counter[str] = Counter()
    for options in COUNT_OPTIONS:
        for seed in COUNT_SEEDS:
            total += counting_walk(options, seed)[1]
    for situation in ("play", "pending", "discard", "claim", "challenged", "over"):
        assert total[situation] > 0, situation


# --- agents ---------------------------------------------------------------------------------

def test_agents_choose_legal_actions_and_refuse_out_of_turn() -> None:
    state = new_game({"referee": False}, 2, 5)
    for level in booleo.LEVELS:
        agent = booleo_agents.make_agent(level, random.Random(1))
        assert agent.choose(state, state.turn) in state.legal_actions(state.turn)
        with pytest.raises(NotYourTurn):
            agent.choose(state, 1 - state.turn)
    with pytest.raises(InvalidMove):
        booleo_agents.make_agent("godlike", random.Random(1))


def test_strong_takes_a_win() -> None:
    south = {"1.1": "AND1", "1.2": "OR1", "1.3": "AND0", "2.1": "AND1", "2.2": "OR1"}
    state = position([1, 1, 0, 0], south=south, hands=(["AND1", "XOR0", "OR1", "NOT",
                                                        "OR0"], []))
    assert booleo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH) == "XOR0 3.1"


def test_strong_cancels_a_harmful_flip() -> None:
    state = not_position(["NOT", "AND0", "XOR0", "AND1"])
    state.apply(SOUTH, "NOT 1")
    assert booleo_agents.make_agent("strong", random.Random(3)).choose(state, NORTH) == "NOT 6"


def test_strong_wrecks_a_pyramid_with_a_not_when_it_pays() -> None:
    state = not_position(["OR1", "AND0", "XOR0", "AND1"])
    action = booleo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH)
    assert action.startswith("NOT ")
    state.apply(SOUTH, action)
    assert len(state.view(None)["pending"]["would_remove"][NORTH]) >= 3


def test_strong_flips_its_own_slot_bit_out_of_a_dead_end() -> None:
    # South reads 0 0 0 1: the top must give 1, but it will see 0 and 0, from which no AND,
    # OR or XOR gives 1. Flipping card 4 makes the slot bit 0 and keeps every gate.
    south = {"1.1": "AND0", "1.2": "OR0", "1.3": "AND0", "2.1": "XOR0", "2.2": "OR0"}
    state = position([0, 0, 0, 1], south=south, hands=(["NOT", "OR1", "XOR1", "AND1", "OR0"],
                                                       []))
    assert booleo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH) == "NOT 4"


def test_strong_challenges_an_invalid_gate_and_never_a_valid_one() -> None:
    state = challenge_position()
    agent = booleo_agents.make_agent("strong", random.Random(3))
    assert agent.choose(state, SOUTH) == "challenge 1.1"
    state.apply(SOUTH, "challenge 1.1")
    assert not agent.choose(state, SOUTH).startswith("challenge")


def test_strong_accepts_a_valid_claim_and_challenges_an_invalid_one() -> None:
    agent = booleo_agents.make_agent("strong", random.Random(3))
    valid = claim_position("XOR0")
    valid.apply(SOUTH, "XOR0 3.1")
    assert agent.choose(valid, NORTH) == "accept"
    invalid = claim_position("AND1")
    invalid.apply(SOUTH, "AND1 3.1")
    assert agent.choose(invalid, NORTH) == "challenge 3.1"


def test_strong_beats_easy_in_a_short_seeded_match() -> None:
    wins = 0
    for game in range(8):
        state = new_game({"bits": 5}, 2, 500 + game)
        strong = game % 2
        agents = {strong: booleo_agents.make_agent("strong", random.Random(game)),
                  1 - strong: booleo_agents.make_agent("easy", random.Random(game))}
        while state.outcome() is None:
            seat = state.turn
            state.apply(seat, agents[seat].choose(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        wins += strong in outcome.winners
    assert wins >= 7


def test_a_game_error_is_a_game_error() -> None:
    assert issubclass(IllegalMove, GameError)
    assert booleo.INFO.hidden_information is True and booleo.NAME == "booleo"
    assert {o.name for o in booleo.OPTIONS} == {"bits", "extended", "inactive", "referee",
                                                "max_turns", "danger"}
