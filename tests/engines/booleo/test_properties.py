"""bOOleO property tests: random play in every variant (bits 4..8, extended, inactive,
referee on and off), checking at every step that

* every non-start card is in exactly one place (draw pile, discard pile, hands, pyramids,
  under the start cards);
* the pyramids obey the cascade rules: with the referee on every gate fits its inputs once
  flips have resolved (and fitted them before a pending flip); in ``inactive`` no gate has lost
  both inputs, a gate with both inputs fits them, and the view's inactive flags are right;
* the state survives to_dict → JSON → from_dict, and replays from (options, seed, actions);
* the public view carries no hidden information: swapping hidden cards between a hand and the
  draw pile, or reordering the draw pile, changes nothing in it; with referee=off it never
  marks a gate invalid before the end, and at the end it lists exactly the invalid gates;
* typed text is either refused without any change or names a legal action.

The rules are checked with the plain functions of ``tests/helpers/booleo_reference.py``, not the
engine's own.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.booleo import BooleoState, new_game, replay
from engines.booleo import agents as booleo_agents
from engines.booleo.cards import GATE_CARDS, deck_cards, parse_slot_name, sort_cards
from tests.helpers import booleo_reference as reference
from tests.helpers.engine_checks import check_hidden_cards, check_typed_text, round_trip

GATE_KEYS = {"slot", "card", "gate", "out", "inputs"}
move_like_text = st.one_of(
    st.text(max_size=20),
    st.text(alphabet="ANDORXNTandortx01234567. ,→-dischlgep", max_size=16),
    st.from_regex(r"\A(and|or|xor|nand|not|discard|challenge|d)? ?[0-2]? ?[0-9][.,]?[0-9]?\Z",
                  fullmatch=True),
)


def slots_of(pyramid: dict[str, str]) -> dict[tuple[int, int], str]:
    return {(int(k.split(".")[0]), int(k.split(".")[1])): v for k, v in pyramid.items()}


def check_cards(state: BooleoState) -> None:
    where = Counter(state.draw) + Counter(state.discard) + Counter(state.hands[0]) \
        + Counter(state.hands[1]) + Counter({"NOT": sum(state.nots)})
    for pyramid in state.pyramids:
        where += Counter(pyramid.values())
    assert where == Counter(deck_cards(state.options["extended"]))
    assert all(card != "NOT" for pyramid in state.pyramids for card in pyramid.values())


def check_pyramids(state: BooleoState) -> None:
    options = state.options
    n = options["bits"]
    bits = list(state.bits)
    if state.pending is not None:
        bits[state.pending[0] - 1] ^= 1  # the gates were laid before the flip
    view = state.view(None)
    for seat in (0, 1):
        pyramid = state.pyramids[seat]
        row = reference.row_of(bits, seat)
        for (r, pos), card in pyramid.items():
            a, b = reference.inputs(pyramid, row, (r, pos))
            if options["inactive"]:
                assert a is not None or b is not None, "a gate that lost both inputs stayed"
            else:
                assert a is not None and b is not None, "a gate without its inputs stayed"
            if options["referee"] and a is not None and b is not None:
                assert reference.fits(card, a, b, r == n - 1, row[-1]), (seat, r, pos, card)
        if options["inactive"]:
            flags = {g["slot"]: g["inactive"] for g in view["pyramids"][seat]}
            expected = reference.inactive_set(pyramid, n)
            assert {k for k, v in flags.items() if v} == {f"{r}.{p}" for r, p in expected}


def check_view(state: BooleoState) -> None:
    public = state.view(None)
    text = json.dumps(public)
    assert "hand" not in public and "private" not in text and "draw" not in public
    over = state.outcome() is not None
    for pyramid in public["pyramids"]:
        for gate in pyramid:
            assert set(gate) - {"inactive"} == GATE_KEYS
    if not over:
        assert "invalid_gates" not in public
    else:
        n = state.options["bits"]
        expected = []
        for seat in (0, 1):
            row = reference.row_of(state.bits, seat)
            pyramid = state.pyramids[seat]
            bad = []
            for (r, pos) in reference.every_slot(n):
                if (r, pos) in pyramid:
                    a, b = reference.inputs(pyramid, row, (r, pos))
                    if a is not None and b is not None and not reference.fits(
                            pyramid[(r, pos)], a, b, r == n - 1, row[-1]):
                        bad.append(f"{r}.{pos}")
            expected.append(bad)
        assert public["invalid_gates"] == expected
    for seat in (0, 1):
        own = state.view(seat)
        assert own["hand"] == state.hands[seat]
        # The hand's "no place now" marks: a card kind fits exactly when a legal move
        # places it (a NOT always may be played); none without the referee.
        fits = own.get("fits")
        assert (fits is None) == (not state.referee)
        if fits is not None and state.to_move() == [seat] and state.phase == "play":
            placed = {a.split()[0] for a in state.legal_actions(seat)
                      if a.split()[0] in state.hands[seat] and a.split()[0] != "NOT"}
            assert set(fits) - {"NOT"} == placed
            assert ("NOT" in fits) == ("NOT" in state.hands[seat])
        assert {k: v for k, v in own.items() if k not in ("hand", "fits", "seat", "viewer")} == {
            k: v for k, v in public.items() if k != "viewer"}


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bits=st.integers(4, 8), extended=st.booleans(),
       inactive=st.booleans(), referee=st.booleans(),
       max_turns=st.sampled_from([10, 40, 200]), data=st.data())
def test_random_play_keeps_every_invariant(seed: int, bits: int, extended: bool,
                                           inactive: bool, referee: bool, max_turns: int,
                                           data: st.DataObject) -> None:
    options = {"bits": bits, "extended": extended, "inactive": inactive, "referee": referee,
               "max_turns": max_turns}
    state = new_game(options, 2, seed)
    steps = data.draw(st.integers(0, 90), label="steps")
    build = data.draw(st.integers(0, 9), label="build bias")
    for _ in range(steps):
        check_cards(state)
        check_pyramids(state)
        check_view(state)
        assert round_trip(state).to_dict() == state.to_dict()
        assert (state.outcome() is None) == bool(state.to_move())
        if state.outcome() is not None:
            break
        seat = state.turn
        legal = state.legal_actions(seat)
        assert legal and len(legal) == len(set(legal))
        assert all(a.isascii() and len(a) <= 20 for a in legal)
        assert state.legal_actions(1 - seat) == []
        assert len(state.hands[seat]) <= 5 and len(state.hands[1 - seat]) <= 4
        if data.draw(st.integers(0, 9), label="probe") == 0:
            check_hidden_cards(state, data, sort_cards)
            check_typed_text(state, legal, data.draw(move_like_text, label="typed"))
        empty = [a for a in legal if a.split()[0] in GATE_CARDS
                 and parse_slot_name(a.split()[1]) not in state.pyramids[seat]]
        if empty and data.draw(st.integers(0, 9), label="build") < build:
            action = data.draw(st.sampled_from(empty), label="place")
        else:
            action = data.draw(st.sampled_from(legal), label="action")
        assert state.parse_action(state.action_text(action), seat) == action
        turns = state.turns
        state.apply(seat, action)
        assert state.actions[-1] == action
        assert state.turns in (turns, turns + 1)
        assert state.turns <= max_turns
    check_cards(state)
    check_pyramids(state)
    check_view(state)
    assert round_trip(state).to_dict() == state.to_dict()
    assert replay(options, seed, list(state.actions)).to_dict() == state.to_dict()
    if state.outcome() is not None:
        assert state.legal_actions(0) == state.legal_actions(1) == []


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bits=st.integers(4, 6), referee=st.booleans(),
       inactive=st.booleans())
def test_agent_games_end_and_replay(seed: int, bits: int, referee: bool,
                                    inactive: bool) -> None:
    """Strong against easy to the end: every move legal, the log replays the game."""
    import random
    options = {"bits": bits, "referee": referee, "inactive": inactive, "max_turns": 120}
    state = new_game(options, 2, seed)
    agents = [booleo_agents.make_agent("strong", random.Random(seed)),
              booleo_agents.make_agent("easy", random.Random(seed + 1))]
    while state.outcome() is None:
        seat = state.turn
        action = agents[seat].choose(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
        check_cards(state)
    check_pyramids(state)
    check_view(state)
    assert replay(options, seed, list(state.actions)).to_dict() == state.to_dict()
