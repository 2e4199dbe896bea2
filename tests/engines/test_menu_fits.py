"""The quick paths the menus take agree with the rules they shortcut, over positions reached
by random legal play: bOOleO's and Digitalo's "fits somewhere" marks and legal gate actions
against what the referee accepts when the same move is typed (``parse_action``), and
Rithmomachia's capture counts in labels (``move_captures``) against making the move."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import booleo, digitalo, rithmomachia
from engines.base import GameError, GameState
from engines.booleo.cards import NOT_CARD, slot_name
from engines.cards.pyramid import pyramid_slots
from engines.digitalo.cards import INVERTER
from engines.rithmomachia.equations import occupancy
from engines.rithmomachia.moves import generate_moves, make_move, move_captures

MOVES = 60


def positions(state: GameState, seed: int) -> Iterator[int]:
    """The seat to move at each position of a random legal game from ``state``."""
    rng = random.Random(seed)
    for _ in range(MOVES):
        seats = state.to_move()
        if not seats:
            return
        yield seats[0]
        state.apply(seats[0], rng.choice(state.legal_actions(seats[0])))


def accepted(state: GameState, seat: int, action: str) -> bool:
    try:
        state.parse_action(action, seat)
    except GameError:
        return False
    return True


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bits=st.integers(4, 8), extended=st.booleans(),
       inactive=st.booleans(), referee=st.booleans())
def test_booleo_fitting_cards_are_the_cards_some_legal_action_plays(
        seed: int, bits: int, extended: bool, inactive: bool, referee: bool) -> None:
    state = booleo.new_game({"bits": bits, "extended": extended, "inactive": inactive,
                             "referee": referee}, 2, seed)
    for seat in positions(state, seed):
        fitting = state.fitting_cards(seat)
        if not referee:
            assert fitting is None
            continue
        if state.phase != "play":
            continue  # a claim or a lost action: legal_actions plays no card
        legal = set(state.legal_actions(seat))
        hand = list(dict.fromkeys(state.hands[seat]))
        played = [card for card in hand
                  if card == NOT_CARD or any(action.split()[0] == card for action in legal
                                             if not action.startswith(("discard", "challenge")))]
        assert fitting == played
        # ... and a gate action is legal exactly when the referee accepts it typed.
        for card in hand:
            if card != NOT_CARD:
                for slot in pyramid_slots(bits):
                    action = f"{card} {slot_name(slot)}"
                    assert (action in legal) == accepted(state, seat, action), action


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bits=st.integers(4, 8),
       free_discard=st.booleans())
def test_digitalo_fits_and_discards_agree_with_the_referee(seed: int, bits: int,
                                                           free_discard: bool) -> None:
    state = digitalo.new_game({"bits": bits, "free_discard": free_discard}, 2, seed)
    for seat in positions(state, seed):
        if state.phase != "play":
            continue
        legal = set(state.legal_actions(seat))
        hand = list(dict.fromkeys(state.hands[seat]))
        gates = {action.split()[0] for action in legal
                 if action.split()[0] in hand and action.split()[-1].isdigit()
                 and action.split()[0] != INVERTER}
        assert state.fitting_cards(seat) == [card for card in hand
                                             if card == INVERTER or card in gates]
        assert state.may_discard(seat) == any(a.startswith("discard") for a in legal)
        for card in hand:
            if card != INVERTER:
                for position in range(1, state.size + 1):
                    action = f"{card} {position}"
                    assert (action in legal) == accepted(state, seat, action), action


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), push=st.booleans())
def test_rithmomachia_label_captures_are_the_moves_captures(seed: int, push: bool) -> None:
    state = rithmomachia.new_game({"push": push}, 2, seed)
    for seat in positions(state, seed):
        if state.phase == "placement":
            continue
        masks = occupancy(state.board)
        for move in generate_moves(state.board, seat, push):
            assert (move_captures(state.board, move, seat, state.rules, masks)
                    == make_move(state.board, move, seat, state.rules)[1])
