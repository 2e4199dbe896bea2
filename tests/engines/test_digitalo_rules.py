"""Digitalo rules: the deck and the deal, the seat readings, the seed's position numbering and
placing examples, the seed's inverter example bit card by bit card, the counter, restoring an
input, the equal-moves ending (last move, answer, counter, accept), scoring, drawn rounds,
rounds and the match to 1000₂, the discard rule, refusals with their lessons, menus and
notation, corrupt states, the agents, and a count of legal actions against the plain
reference generator in ``tests/helpers/digitalo_reference.py``.

Positions are built with ``position(...)``: a state dictionary written out by hand (the bit
row as South reads it, both pyramids as ``{"position": card}``, the hands), with every card
not mentioned put in the draw pile, loaded through ``DigitaloState.from_dict``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engines import digitalo, digitalo_agents
from engines.base import GameError, IllegalMove, InvalidMove, NotYourTurn, StateError
from engines.digitalo import (
    DigitaloState,
    binary,
    deck_cards,
    match_winners,
    new_game,
    position_at,
    replay,
    slot_at,
    sort_cards,
)
from tests.helpers import digitalo_reference as reference

DEFAULTS: dict[str, Any] = {"bits": 4, "inverters": True, "free_discard": False,
                            "gates_each": 6, "inverter_cards": 6, "max_moves": 500,
                            "max_rounds": 20}
SOUTH, NORTH = 0, 1


def position(bits: list[int], south: dict[str, str] | None = None,
             north: dict[str, str] | None = None,
             hands: tuple[list[str], list[str]] = (["AND0", "AND0", "AND0", "AND0"],
                                                   ["OR0", "OR0", "OR0", "OR0"]),
             turn: int = SOUTH, starter: int | None = None, moves: tuple[int, int] = (0, 0),
             pending: tuple[int, int] | None = None, phase: str = "play",
             completer: int | None = None, scores: tuple[int, int] = (0, 0), round: int = 1,
             discard: list[str] | None = None, draw_size: int | None = None,
             draw_top: tuple[str, ...] = (), **options: Any) -> DigitaloState:
    """A position written out by hand. ``bits`` is the row as South reads it; cards not
    placed anywhere go to the draw pile (``draw_top`` on top), or beyond ``draw_size`` cards
    to the discard pile. ``starter`` (the round's first player) defaults to whoever is to
    move when the move counts are equal, and to the other seat otherwise."""
    opts = {**DEFAULTS, "bits": len(bits), **options}
    south, north, discard = south or {}, north or {}, list(discard or [])
    used = (Counter(hands[0]) + Counter(hands[1]) + Counter(south.values())
            + Counter(north.values()) + Counter(discard) + Counter(draw_top))
    deck = Counter(deck_cards(opts))
    assert not used - deck, f"more cards than the deck holds: {used - deck}"
    rest = sorted((deck - used).elements())
    if draw_size is not None:
        discard += rest[draw_size:]
        rest = rest[:draw_size]
    if starter is None:
        starter = turn if moves[0] == moves[1] else 1 - turn
        if phase == "answer":
            starter = turn
    first = starter if round % 2 == 1 else 1 - starter
    data = {
        "game": "digitalo", "schema": 1, "options": opts, "seed": 7, "round": round,
        "first": first, "starter": starter, "bits": list(bits),
        "hands": [sort_cards(hands[0]), sort_cards(hands[1])],
        "draw": rest + list(draw_top), "discard": discard, "pyramids": [south, north],
        "turn": turn, "moves": list(moves), "phase": phase, "completer": completer,
        "pending": None if pending is None else {"bit": pending[0], "by": pending[1]},
        "scores": list(scores),
        "round_results": [{"round": r, "reason": "complete", "winner": None, "points": 0}
                          for r in range(1, round)],
        "reshuffles": 0, "actions": [], "last_events": [], "outcome": None,
    }
    return DigitaloState.from_dict(data)


def snapshot(state: DigitaloState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def gates(state: DigitaloState, seat: int) -> dict[int, str]:
    return {g["position"]: g["card"] for g in state.view(None)["pyramids"][seat]}


def inactive(state: DigitaloState, seat: int) -> list[int]:
    return [g["position"] for g in state.view(None)["pyramids"][seat] if g["inactive"]]


def all_cards(state: DigitaloState) -> Counter[str]:
    total = Counter(state.draw) + Counter(state.discard) + Counter(state.hands[0]) \
        + Counter(state.hands[1])
    for pyramid in state.pyramids:
        total += Counter(pyramid.values())
    return total


def refusal(state: DigitaloState, seat: int, action: str) -> GameError:
    before = snapshot(state)
    with pytest.raises(GameError) as caught:
        state.apply(seat, action)
    assert snapshot(state) == before
    return caught.value


# --- deck, deal, readings -------------------------------------------------------------------

def test_the_default_deck_has_48_gate_cards_and_6_inverters() -> None:
    cards = Counter(deck_cards(dict(DEFAULTS)))
    assert sum(cards.values()) == 54 and cards["INV"] == 6
    assert all(cards[f"{g}{o}"] == 6 for g in ("AND", "OR", "XOR", "NAND") for o in (0, 1))
    assert "INV" not in deck_cards({**DEFAULTS, "inverters": False})
    bigger = Counter(deck_cards({**DEFAULTS, "gates_each": 9, "inverter_cards": 2}))
    assert bigger["XOR1"] == 9 and bigger["INV"] == 2 and sum(bigger.values()) == 74


def test_the_deck_grows_to_what_the_pyramids_need() -> None:
    # Both pyramids and both hands: 2 × 28 + 8 = 64 gate cards for 8 bits, 8 of each.
    assert [digitalo.least_gates_each(bits) for bits in range(4, 9)] == [3, 4, 5, 7, 8]
    for bits, given, copies in [(4, 3, 3), (6, 6, 6), (7, 6, 7), (8, 6, 8), (8, 3, 8),
                                (8, 10, 10)]:
        state = new_game({"bits": bits, "gates_each": given}, 2, 1)
        assert all_cards(state)["XOR0"] == copies, (bits, given)
        assert state.view(None)["gate_copies"] == copies
        assert state.options["gates_each"] == given


@pytest.mark.parametrize("bits", [4, 5, 6, 7, 8])
def test_set_up_deals_four_each_and_lays_the_bit_row(bits: int) -> None:
    options = {"bits": bits}
    state = new_game(options, 2, 11)
    assert state.turn == state.starter == state.first and state.round == 1
    assert [len(hand) for hand in state.hands] == [4, 4]
    assert all_cards(state) == Counter(deck_cards(state.options))
    assert len(state.draw) == len(deck_cards(state.options)) - 8 and state.discard == []
    view = state.view(None)
    south, north = view["rows"]
    assert north == [1 - b for b in reversed(south)] and south == view["bit_row"]
    assert view["pyramids"] == [[], []] and view["pending"] is None
    assert view["pyramid_size"] == bits * (bits - 1) // 2
    assert view["open"] == [list(range(1, bits)), list(range(1, bits))]


def test_the_seed_decides_the_row_the_deal_and_the_first_player() -> None:
    assert snapshot(new_game({}, 2, 5)) == snapshot(new_game({}, 2, 5))
    firsts = {new_game({}, 2, seed).first for seed in range(20)}
    rows = {tuple(new_game({}, 2, seed).bits) for seed in range(20)}
    assert firsts == {0, 1} and len(rows) > 5


def test_options_and_players_are_checked() -> None:
    with pytest.raises(InvalidMove):
        new_game({}, 3, 1)
    with pytest.raises(InvalidMove):
        new_game({"bits": 9}, 2, 1)
    with pytest.raises(InvalidMove):
        new_game({"gates_each": 2}, 2, 1)
    assert {o.name for o in digitalo.OPTIONS} == {"bits", "inverters", "free_discard",
                                                  "gates_each", "inverter_cards",
                                                  "max_moves", "max_rounds", "danger"}
    assert digitalo.NAME == "digitalo" and digitalo.TITLE == "Digitalo"
    assert digitalo.INFO.hidden_information is True
    assert digitalo.LEVELS == ("easy", "medium", "strong", "expert")


def test_positions_are_numbered_as_in_the_seed() -> None:
    # 1-3 on the bits, 4 on 1 and 2, 5 on 2 and 3, 6 on top.
    assert [slot_at(4, p) for p in range(1, 7)] == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2),
                                                    (3, 1)]
    assert [position_at(5, slot_at(5, p)) for p in range(1, 11)] == list(range(1, 11))
    assert slot_at(5, 5) == (2, 1) and slot_at(5, 8) == (3, 1) and slot_at(5, 10) == (4, 1)
    assert position_at(8, (7, 1)) == 28 and position_at(8, (2, 1)) == 8


# --- placing: the seed's first examples -----------------------------------------------------

# Player 1 (South) reads 1 1 0 1: position 1 sees 1 and 1, position 2 sees 1 and 0,
# position 3 sees 0 and 1.
SEED_BITS = [1, 1, 0, 1]


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

# Player 1 (South) has five gates on 1 1 0 1 and wants position 6 next. Player 2 (North)
# reads 0 1 0 0 and has XOR1 on 2, AND0 on 3 and NAND1 on 5 (on XOR1 and AND0).
EXAMPLE_SOUTH = {"1": "OR1", "2": "XOR1", "3": "NAND1", "4": "AND1", "5": "OR1"}
EXAMPLE_NORTH = {"2": "XOR1", "3": "AND0", "5": "NAND1"}
SOUTH_HAND = ["AND0", "AND1", "OR1", "XOR0"]


def inverter_example(north_hand: list[str] | None = None, south_hand: list[str] | None = None,
                     **options: Any) -> DigitaloState:
    return position(SEED_BITS, south=dict(EXAMPLE_SOUTH), north=dict(EXAMPLE_NORTH),
                    hands=(south_hand or SOUTH_HAND, north_hand or ["INV", "OR0", "OR0",
                                                                    "AND1"]),
                    turn=NORTH, moves=(6, 5), **{"free_discard": True, **options})


# The four bit cards from the top of the seed's figure: South's bit 1 is the top one, and
# North, sitting opposite, numbers the same card 4.
INVERTER_CASES = [
    # (North's bit, South's bit, South removed, North removed, newly inactive S, N)
    (4, 1, [], [], [], []),            # 1: 0 OR 1 = 1 and 1 AND 0 = 0, no effect
    (3, 2, [2], [2], [4, 5], [5]),     # 2: both XORs go; 4, 5 and North's NAND turn inactive
    (2, 3, [2, 3, 5], [2], [4], [5]),  # 3: both XORs and South's NAND go; the OR on 2, 3 too
    (1, 4, [], [], [], []),            # 4: nothing happens
]


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


# --- the equal-moves ending, scoring and rounds ---------------------------------------------

FIVE = {"1": "OR1", "2": "XOR1", "3": "NAND1", "4": "AND1", "5": "OR1"}  # 6 sees 1 and 1
NORTH_PART = {"1": "AND0", "3": "AND0", "4": "XOR0"}  # North reads 0 1 0 0; 4 lacks 2


def ending(moves: tuple[int, int] = (5, 5), north: dict[str, str] | None = None,
           north_hand: list[str] | None = None, south_hand: list[str] | None = None,
           **options: Any) -> DigitaloState:
    """South to move, one gate from a complete pyramid (AND1 on 6). South started the
    round unless ``starter=NORTH`` (then North has made one move more)."""
    if options.get("starter") == NORTH:
        moves = (moves[0], moves[0] + 1)
    return position(SEED_BITS, south=dict(FIVE), north=dict(north or NORTH_PART),
                    hands=(south_hand or ["AND1", "OR0", "OR0", "XOR1"],
                           north_hand or ["AND0", "OR1", "OR1", "XOR0"]),
                    moves=moves, **options)


def test_the_starter_completes_and_the_other_gets_one_last_move() -> None:
    state = ending()
    assert state.starter == SOUTH
    events = state.apply(SOUTH, "AND1 6")
    assert {"type": "last_move", "seat": NORTH, "completer": SOUTH} in events
    assert state.phase == "last move" and state.completer == SOUTH and state.turn == NORTH
    assert state.moves == [6, 5] and len(state.hands[SOUTH]) == 4
    view = state.view(None)
    assert view["phase"] == "last move" and view["completer"] == SOUTH
    state.apply(NORTH, "AND0 2")  # 1 AND 0 = 0: North's XOR0 on 4 is active again
    result = state.round_results[0]
    assert result["reason"] == "complete" and result["winner"] == SOUTH
    assert result["moves"] == [6, 6]
    assert result["empty"] == 2 and result["inactive"] == 0 and result["points"] == 2
    assert state.scores == [2, 0] and state.view(None)["scores_binary"] == ["0010", "0000"]
    assert state.view(None)["last_round"]["pyramids"][SOUTH]["6"] == "AND1"


def test_scoring_counts_empty_and_inactive_positions() -> None:
    # North's 4 lacks its input 2, so it is inactive: 3 empty (2, 5, 6) + 1 inactive.
    state = ending(moves=(5, 5), starter=NORTH)
    assert inactive(state, NORTH) == [4] and state.moves == [5, 6]
    events = state.apply(SOUTH, "AND1 6")  # moves now equal: the round ends at once
    over = next(e for e in events if e["type"] == "round_over")
    assert over["points"] == 4 and over["empty"] == 3 and over["inactive"] == 1
    assert over["inactive_positions"] == [[], [4]]
    assert over["scores_binary"] == ["0100", "0000"] and binary(4) == "0100"


def test_the_last_round_view_draws_the_final_pyramids_as_they_stood() -> None:
    """Issue 23.5: the board after a round's end shows its final pyramids, so the view
    hands them over like the live ones: each seat's reading and its gates with inputs."""
    state = ending(starter=NORTH)
    north_before = state.view(None)["pyramids"][NORTH]
    state.apply(SOUTH, "AND1 6")  # the round ends at once; the next one is dealt
    last = state.view(None)["last_round"]
    assert state.round == 2 and state.pyramids == [{}, {}]
    assert last["rows"] == [SEED_BITS, [0, 1, 0, 0]]
    assert last["gates"][NORTH] == north_before  # 4 lacks its input 2: inactive
    south = {g["position"]: g for g in last["gates"][SOUTH]}
    assert sorted(south) == [1, 2, 3, 4, 5, 6] and not any(g["inactive"] for g in south.values())
    assert south[1]["inputs"] == [1, 1] and south[6] == {
        "position": 6, "card": "AND1", "gate": "AND", "out": 1, "inputs": [1, 1],
        "inactive": False}
    assert last["unfit"] == [[], []]
    assert state.view(SOUTH)["last_round"] == last  # public: the same for every viewer


def test_the_last_round_view_names_gates_a_pending_flip_left_unfit() -> None:
    """The move limit ends the round on South's inverter, which stays pending: the final
    bit row is flipped, South's XOR1 on 2 and NAND1 on 3 (now on 1 1) still stand."""
    state = position(SEED_BITS, south=dict(FIVE), north=dict(NORTH_PART),
                     hands=(["INV", "AND0", "AND0", "AND0"], ["OR0", "OR0", "OR0", "OR0"]),
                     moves=(9, 10), max_moves=20)
    state.apply(SOUTH, "INV 3")
    last = state.view(None)["last_round"]
    assert last["reason"] == "max_moves" and last["bit_row"] == [1, 1, 1, 1]
    assert last["unfit"] == [[2, 3], []]  # North reads 0 0 0 0: its AND0s still fit
    assert {g["position"]: g["inputs"] for g in last["gates"][SOUTH]}[3] == [1, 1]


def test_a_stored_result_without_its_pyramids_is_shown_as_it_is() -> None:
    state = position(SEED_BITS, round=2)  # its result for round 1 has no bit row
    last = state.view(None)["last_round"]
    assert last == {"round": 1, "reason": "complete", "winner": None, "points": 0}
    state.round_results[-1].update(bit_row=[1, 0, 1, 1], pyramids=[{"9": "AND1"}, {}])
    assert "gates" not in state.view(None)["last_round"]  # no position 9 with 4 bits


def test_the_second_player_completing_ends_the_round_at_once() -> None:
    state = ending(starter=NORTH)
    state.apply(SOUTH, "AND1 6")
    assert state.round == 2 and state.scores == [4, 0]
    assert state.round_results[0]["moves"] == [6, 6]  # as often as the first player


def test_a_last_move_that_completes_the_other_pyramid_draws_the_round() -> None:
    north = {"1": "AND0", "2": "OR1", "3": "AND0", "4": "XOR1", "5": "OR1"}  # needs 6
    state = ending(north=north, north_hand=["AND0", "OR0", "XOR0", "XOR0"])
    state.apply(SOUTH, "AND1 6")
    assert "XOR0 6" in state.legal_actions(NORTH)
    state.apply(NORTH, "XOR0 6")
    result = state.round_results[0]
    assert result["reason"] == "both_complete" and result["winner"] is None
    assert result["points"] == 0 and state.scores == [0, 0] and state.round == 2


def test_a_new_round_deals_again_and_the_other_player_starts() -> None:
    state = ending()
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "AND0 2")
    assert state.round == 2 and state.starter == NORTH and state.turn == NORTH
    assert state.moves == [0, 0] and state.phase == "play" and state.completer is None
    assert state.pyramids == [{}, {}] and [len(h) for h in state.hands] == [4, 4]
    assert all_cards(state) == Counter(deck_cards(state.options)) and state.discard == []
    events = state.last_events
    assert [e["type"] for e in events][-4:] == ["round_over", "new_round", "dealt", "dealt"]
    assert all("private" not in e and "cards" not in e for e in events)
    view = state.view(None)
    assert view["round"] == 2 and view["round_starter"] == NORTH and view["first_player"] == \
        SOUTH
    assert view["rounds"] == [{"round": 1, "reason": "complete", "winner": SOUTH, "points": 2}]


def test_a_last_move_inverter_can_be_countered_and_the_last_move_is_taken_again() -> None:
    # North's last move flips bit 3 of its reading (South's 2): South's XOR1 on 2 would go.
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"],
                   south_hand=["AND1", "INV", "OR0", "XOR1"])
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "INV 3")
    assert state.phase == "answer" and state.turn == SOUTH
    assert state.view(None)["pending"]["would_remove"][SOUTH] == [2]
    assert state.legal_actions(SOUTH) == ["counter", "accept"]
    assert [c.token for c in state.menu(SOUTH, ())] == ["C", "OK"]
    assert refusal(state, SOUTH, "discard OR0").key == "digitalo.error.answer"
    state.apply(SOUTH, "counter")
    assert state.phase == "last move" and state.turn == NORTH and state.moves == [7, 6]
    assert state.bits == SEED_BITS and len(gates(state, SOUTH)) == 6
    state.apply(NORTH, "OR1 2")
    assert state.round == 2 and state.round_results[0]["moves"] == [7, 7]


def test_an_accepted_last_move_flip_that_leaves_the_pyramid_complete_ends_the_round() -> None:
    # North flips its bit 4 (South's bit 1): South's OR1 on 1 still sees 0 OR 1 = 1; North's
    # AND0 on 3 still sees 0 AND 1 = 0.
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"])
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "INV 4")
    assert state.legal_actions(SOUTH) == ["accept"]
    events = state.apply(SOUTH, "accept")
    assert [e["type"] for e in events[:3]] == ["accepted", "flip_resolved", "round_over"]
    assert state.round_results[0]["winner"] == SOUTH and state.round_results[0]["points"] == 4
    assert "accept" in state.actions


def test_an_accepted_last_move_flip_that_breaks_the_pyramid_lets_the_round_go_on() -> None:
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"])
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "INV 3")
    events = state.apply(SOUTH, "accept")
    assert events[-1] == {"type": "round_goes_on", "seat": SOUTH}
    assert state.phase == "play" and state.completer is None and state.turn == SOUTH
    assert state.round == 1 and state.moves == [6, 6]
    assert 2 not in gates(state, SOUTH) and inactive(state, SOUTH) == [4, 5, 6]


# --- the match ------------------------------------------------------------------------------

def test_the_match_ends_when_someone_reaches_8_points() -> None:
    state = ending(starter=NORTH, scores=(4, 3))  # South scores 4: 8 exactly
    events = state.apply(SOUTH, "AND1 6")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (SOUTH,)
    assert outcome.reason == "digitalo_points"
    assert outcome.detail == {"scores": [8, 3], "scores_binary": ["1000", "0011"], "rounds": 1}
    assert events[-1]["type"] == "game_over" and state.to_move() == []
    assert state.legal_actions(SOUTH) == state.legal_actions(NORTH) == []
    assert state.view(None)["to_move"] is None
    with pytest.raises(IllegalMove):
        state.apply(SOUTH, "OR0 1")


def test_seven_points_do_not_end_the_match() -> None:
    state = ending(starter=NORTH, scores=(3, 7))
    state.apply(SOUTH, "AND1 6")
    assert state.outcome() is None and state.scores == [7, 7] and state.round == 2


def test_the_higher_score_wins_and_equal_scores_draw() -> None:
    assert match_winners([8, 3]) == (0,) and match_winners([9, 12]) == (1,)
    assert match_winners([8, 8]) == ()
    # Only the completer scores in a round, so both cannot pass 8 together; the same rule
    # decides a match cut short by max_rounds.
    state = ending(starter=NORTH, scores=(0, 4), max_rounds=1)
    state.apply(SOUTH, "AND1 6")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.reason == "digitalo_max_rounds"
    assert outcome.detail["scores"] == [4, 4]


def test_resigning_and_abandoning() -> None:
    state = new_game({}, 2, 3)
    events = state.resign(NORTH)
    assert events[0]["winners"] == [SOUTH] and state.outcome() is not None
    with pytest.raises(IllegalMove):
        state.resign(SOUTH)
    other = new_game({}, 2, 3)
    other.abandon()
    assert other.outcome() is not None and other.outcome().is_draw  # type: ignore[union-attr]


def test_a_round_is_drawn_at_the_move_limit() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "XOR1"], ["OR0"] * 4),
                     moves=(10, 9), turn=NORTH, max_moves=20, free_discard=True)
    state.apply(NORTH, "discard OR0")
    result = state.round_results[0]
    assert result["reason"] == "max_moves" and result["points"] == 0
    assert state.round == 2 and state.scores == [0, 0]


def test_the_discard_pile_is_reshuffled_by_the_seed() -> None:
    def run() -> tuple[list[dict[str, Any]], list[str]]:
        state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "XOR1"], ["OR0"] * 4),
                         draw_size=0)
        events = state.apply(SOUTH, "OR1 1")
        return events, list(state.draw)
    events, draw = run()
    assert events[1]["type"] == "reshuffled" and events[1]["cards"] > 30
    assert run() == (events, draw)


# --- menus and notation ---------------------------------------------------------------------

def test_the_first_menu_step_groups_the_hand() -> None:
    state = position(SEED_BITS, hands=(["AND1", "AND1", "NAND0", "INV"], ["OR0"] * 4))
    top = state.menu(SOUTH, ())
    assert [(c.token, c.label, c.action) for c in top] == [
        ("A1", "AND→1 ×2", None), ("NA0", "NAND→0", None), ("I", "INV", None)]
    with pytest.raises(NotYourTurn):
        state.menu(NORTH, ())


def test_the_second_step_offers_every_physical_position_wrong_ones_included() -> None:
    state = position(SEED_BITS, hands=(["AND1", "AND1", "NAND0", "INV"], ["OR0"] * 4))
    step = state.menu(SOUTH, ("A1",))
    assert [(c.token, c.label, c.action) for c in step] == [
        ("1", "1 (1 1)", "AND1 1"), ("2", "2 (1 0)", "AND1 2"), ("3", "3 (0 1)", "AND1 3")]
    wrong = refusal(state, SOUTH, step[1].action or "")
    assert str(wrong) == "AND needs 1 and 1 to give 1; these inputs are 1 and 0."
    inverter = state.menu(SOUTH, ("I",))
    assert [(c.token, c.label, c.action) for c in inverter] == [
        ("1", "1: 1→0", "INV 1"), ("2", "2: 1→0", "INV 2"), ("3", "3: 0→1", "INV 3"),
        ("4", "4: 1→0", "INV 4")]
    for path in [("X1",), ("A1", "1"), ("A1", "9"), ("A1", "1", "2", "3")]:
        with pytest.raises(InvalidMove):
            state.menu(SOUTH, path)


def test_the_inverter_menu_offers_the_counter_on_the_pending_bit() -> None:
    state = inverter_example(south_hand=["INV", "AND1", "OR1", "XOR0"], free_discard=False)
    state.apply(NORTH, "INV 3")
    choices = state.menu(SOUTH, ("I",))
    assert (choices[1].label, choices[1].action) == ("2: undo the flip", "counter")
    # Position 2 fell with the flip; the menus already show the resolved pyramid.
    assert [c.token for c in state.menu(SOUTH, ("X0",))] == ["2"]


def test_typed_notation() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "INV"], ["OR0"] * 4))
    for text, action in [("OR1 1", "OR1 1"), ("or→1 on 2", "OR1 2"), ("or 1 3", "OR1 3"),
                         ("place NAND1 2", "NAND1 2"), ("nand=1 at position 3", "NAND1 3"),
                         ("inv 2", "INV 2"), ("Inverter 4", "INV 4"), ("flip 1", "INV 1"),
                         ("AND0 3", "AND0 3")]:
        assert state.parse_action(text, SOUTH) == action, text
    for text in ["", "and", "xyzzy", "discard", "or1 on 77"]:
        with pytest.raises(GameError):
            state.parse_action(text, SOUTH)
    assert state.action_text("OR1 2") == "OR→1 on position 2"
    assert state.action_text("INV 2") == "inverter on bit card 2"
    assert state.action_text("discard XOR0") == "discard XOR→0"
    assert state.action_text("counter") == "counter the inverter"
    assert state.action_text("accept") == "accept the flip"
    free = position([1, 1, 1, 1], hands=(["AND0", "OR0", "XOR1", "INV"], ["OR0"] * 4))
    assert free.parse_action("d xor1", SOUTH) == "discard XOR1"
    assert free.parse_action("discard inverter", SOUTH) == "discard INV"


def test_every_menu_path_is_short_and_every_action_fits_a_button() -> None:
    for seed in range(12):
        state = new_game({"bits": 4 + seed % 5}, 2, seed)
        rng = random.Random(seed)
        for _ in range(40):
            if state.outcome() is not None:
                break
            seat = state.turn
            offered: set[str] = set()
            for choice in state.menu(seat, ()):
                assert len(choice.token) <= 4
                if choice.action is not None:
                    offered.add(choice.action)
                    continue
                step = state.menu(seat, (choice.token,))
                assert len(step) <= 25
                for sub in step:
                    assert len(sub.token) <= 4 and sub.action is not None
                    assert sub.action.isascii() and len(sub.action) <= 20
                    offered.add(sub.action)
            legal = state.legal_actions(seat)
            assert set(legal) <= offered
            for action in offered - set(legal):  # wrong but physical: refused, with a reason
                with pytest.raises(IllegalMove):
                    state.parse_action(action, seat)
            state.apply(seat, rng.choice(legal))


# --- corrupt states -------------------------------------------------------------------------

def corrupt(change: Any) -> None:
    data = inverter_example().to_dict()
    change(data)
    with pytest.raises(StateError):
        DigitaloState.from_dict(data)


def test_a_sound_state_loads() -> None:
    state = inverter_example()
    assert snapshot(DigitaloState.from_dict(json.loads(snapshot(state)))) == snapshot(state)


@pytest.mark.parametrize("change", [
    lambda d: d.update(game="booleo"),
    lambda d: d.update(schema=2),
    lambda d: d.pop("moves"),
    lambda d: d["options"].pop("bits"),
    lambda d: d["options"].update(bits=9),
    lambda d: d.update(bits=[1, 1, 0]),
    lambda d: d.update(bits=[1, 1, 0, 2]),
    lambda d: d["hands"][0].append("AND0"),
    lambda d: d["hands"][0].reverse(),
    lambda d: d["hands"].__setitem__(0, ["AND0", "AND1", "OR1", "ZAP"]),
    lambda d: d["draw"].append("XOR1"),
    lambda d: d["draw"].pop(),
    lambda d: d["pyramids"][0].update({"7": d["draw"].pop()}),
    lambda d: d["pyramids"][0].update({"6": "AND0"}),           # an extra card
    lambda d: d["pyramids"][1].update({"1": d["draw"].pop(d["draw"].index("AND1"))}),
    lambda d: d["pyramids"][0].update({"1": d["pyramids"][0].pop("2")}),  # 2 -> 1 (taken)
    lambda d: d["pyramids"][0].pop("1") and d["pyramids"][0].pop("2") and d["draw"].extend(
        ["OR1", "XOR1"]),                                       # 4 has lost both inputs
    lambda d: d.update(turn=SOUTH),
    lambda d: d.update(moves=[7, 5]),
    lambda d: d.update(phase="claim"),
    lambda d: d.update(phase="last move"),
    lambda d: d.update(completer=SOUTH),
    lambda d: d.update(pending={"bit": 2, "by": NORTH}),
    lambda d: d.update(pending={"bit": 5, "by": SOUTH}),
    lambda d: d.update(round=2),
    lambda d: d.update(starter=NORTH),
    lambda d: d.update(scores=[-1, 0]),
    lambda d: d.update(actions="INV 3"),
    lambda d: d.update(outcome={"winners": [3], "reason": "x", "detail": {}}),
    lambda d: d.update(round_results=[1]),
])
def test_corrupt_states_are_refused(change: Any) -> None:
    corrupt(change)


def test_a_state_must_be_an_object() -> None:
    with pytest.raises(StateError):
        DigitaloState.from_dict([])  # type: ignore[arg-type]


# --- the reference generator ----------------------------------------------------------------

COUNT_OPTIONS: list[dict[str, Any]] = [
    {}, {"bits": 5}, {"bits": 6, "free_discard": True}, {"bits": 7},
    {"inverters": False}, {"inverter_cards": 16, "gates_each": 3},
    {"bits": 8, "gates_each": 9, "inverter_cards": 12},
]
COUNT_SEEDS = [1, 2024, 77777]


def counting_walk(options: dict[str, Any], seed: int, turns: int = 40
                  ) -> tuple[list[tuple[int, int]], Counter[str]]:
    """A fixed, seeded sequence that mostly builds: the engine's and the reference's number of
    legal actions at each step, and the situations it went through."""
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
        engine = state.legal_actions(seat)
        plain = reference.legal_actions(state, seat)
        assert sorted(engine) == sorted(plain), (options, seed, len(counts))
        assert len(set(engine)) == len(engine)
        assert state.legal_actions(1 - seat) == reference.legal_actions(state, 1 - seat) == []
        counts.append((len(engine), len(plain)))
        seen["discard allowed"] += any(a.startswith("discard") for a in engine)
        builds = [a for a in engine if a.split()[0] in digitalo.GATE_CARDS]
        flips = [a for a in engine if a.startswith("INV")]
        if state.phase == "last move" and flips:  # try the answer phase too
            state.apply(seat, rng.choice(flips))
        else:
            state.apply(seat, rng.choice(builds) if builds and rng.random() < 0.75
                        else rng.choice(engine))
        seen["rounds"] = state.round
    return counts, seen


@pytest.mark.parametrize("options", COUNT_OPTIONS)
@pytest.mark.parametrize("seed", COUNT_SEEDS)
def test_legal_action_counts_match_the_reference(options: dict[str, Any], seed: int) -> None:
    counts, seen = counting_walk(options, seed)
    assert all(engine == plain for engine, plain in counts)
    assert len(counts) == 40 or seen["over"]


def test_the_counted_sequences_visit_flips_endings_and_new_rounds() -> None:
    total: Counter[str] = Counter()
    for options in COUNT_OPTIONS:
        for seed in COUNT_SEEDS:
            total += counting_walk(options, seed, turns=60)[1]
    for situation in ("play", "pending", "last move", "answer", "discard allowed"):
        assert total[situation] > 0, situation
    assert total["rounds"] > len(COUNT_OPTIONS) * len(COUNT_SEEDS)


def test_the_reference_resolves_the_seeds_example_alike() -> None:
    for north_bit, south_bit, south_removed, north_removed, _, _ in INVERTER_CASES:
        state = inverter_example()
        state.apply(NORTH, f"INV {north_bit}")
        data = state.to_dict()
        plain = reference.resolved(data)
        assert sorted(set(map(int, EXAMPLE_SOUTH)) - set(plain[SOUTH])) == south_removed
        assert sorted(set(map(int, EXAMPLE_NORTH)) - set(plain[NORTH])) == north_removed
        assert south_bit == reference.own_number(4, NORTH, north_bit)


# --- agents ---------------------------------------------------------------------------------

def test_agents_choose_legal_actions_and_refuse_out_of_turn() -> None:
    state = new_game({}, 2, 5)
    for level in digitalo.LEVELS:
        agent = digitalo_agents.make_agent(level, random.Random(1))
        assert agent.choose(state, state.turn) in state.legal_actions(state.turn)
        with pytest.raises(NotYourTurn):
            agent.choose(state, 1 - state.turn)
    with pytest.raises(InvalidMove):
        digitalo_agents.make_agent("godlike", random.Random(1))


def test_strong_completes_its_pyramid() -> None:
    state = ending()
    assert digitalo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH) == "AND1 6"


def test_strong_counters_a_flip_that_wrecks_its_pyramid() -> None:
    state = inverter_example(south_hand=["INV", "AND1", "OR1", "XOR0"], free_discard=False)
    state.apply(NORTH, "INV 2")  # South would lose 2, 3 and 5
    assert digitalo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH) == "counter"


def test_strong_flips_a_bit_that_wrecks_the_opponent() -> None:
    # North to move, with South one gate from the top: the seed's case 2 or 3 stops South.
    state = inverter_example(north_hand=["INV", "OR0", "OR0", "AND1"], free_discard=False)
    action = digitalo_agents.make_agent("strong", random.Random(3)).choose(state, NORTH)
    assert action in ("INV 2", "INV 3")


def test_strong_breaks_a_completed_pyramid_with_its_last_move() -> None:
    # All six inverters are seen (five on the discard pile, one in North's hand), so South
    # cannot counter: breaking South's pyramid beats conceding points.
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"],
                   discard=["INV"] * 5)
    state.apply(SOUTH, "AND1 6")
    action = digitalo_agents.make_agent("strong", random.Random(3)).choose(state, NORTH)
    assert action in ("INV 2", "INV 3")


def test_strong_answers_a_last_move_flip() -> None:
    agent = digitalo_agents.make_agent("strong", random.Random(3))
    breaking = ending(north_hand=["INV", "OR1", "OR1", "XOR0"],
                      south_hand=["AND1", "INV", "OR0", "XOR1"])
    harmless = DigitaloState.from_dict(breaking.to_dict())
    breaking.apply(SOUTH, "AND1 6")
    breaking.apply(NORTH, "INV 3")
    assert agent.choose(breaking, SOUTH) == "counter"
    harmless.apply(SOUTH, "AND1 6")
    harmless.apply(NORTH, "INV 4")
    assert agent.choose(harmless, SOUTH) == "accept"


def test_strong_never_reads_the_hidden_cards() -> None:
    """Swapping the opponent's hand with draw-pile cards does not change strong's choice."""
    for seed in range(6):
        state = new_game({}, 2, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 12)):
            if state.outcome() is not None:
                break
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
        if state.outcome() is not None:
            continue
        seat = state.turn
        data = state.to_dict()
        other = data["hands"][1 - seat]
        data["hands"][1 - seat], data["draw"][:4] = sort_cards(data["draw"][:4]), other
        data["draw"].reverse()
        shuffled = DigitaloState.from_dict(data)
        picks = [digitalo_agents.make_agent("strong", random.Random(9)).choose(s, seat)
                 for s in (state, shuffled)]
        assert picks[0] == picks[1]


def test_strong_beats_easy_in_short_seeded_matches() -> None:
    wins = 0
    for game in range(8):
        state = new_game({}, 2, 500 + game)
        strong = game % 2
        agents = {strong: digitalo_agents.make_agent("strong", random.Random(game)),
                  1 - strong: digitalo_agents.make_agent("easy", random.Random(game))}
        while state.outcome() is None:
            seat = state.turn
            state.apply(seat, agents[seat].choose(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        wins += strong in outcome.winners
    assert wins >= 7


def test_a_whole_match_replays_from_its_actions() -> None:
    state = new_game({"bits": 5}, 2, 42)
    agents = [digitalo_agents.make_agent("strong", random.Random(1)),
              digitalo_agents.make_agent("easy", random.Random(2))]
    while state.outcome() is None:
        state.apply(state.turn, agents[state.turn].choose(state, state.turn))
    assert state.round >= 1 and max(state.scores) >= 8
    assert snapshot(replay({"bits": 5}, 42, list(state.actions))) == snapshot(state)
