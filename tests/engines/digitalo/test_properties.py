"""Digitalo property tests: random play over many seeds and option sets (bits 4..8, inverters
on and off, free discard, deck sizes, move and round limits), checking at every step that

* every card of the deck is in exactly one place (draw pile, discard pile, hands, pyramids),
  the deck never has fewer gate cards than both pyramids and hands need, and both hands hold
  4 cards between actions;
* the pyramids obey the rules: no gate without any input, every gate with both inputs fits
  them (before a pending flip, as it was laid), the view's inactive flags are the plain
  reference's, and every resolution (announced with the flip, and done) removes exactly what
  the reference's resolution removes and deactivates exactly what it deactivates;
* a round that ends with a completed pyramid ends with equal move counts; the match ends
  exactly when a score reaches 8 (or at the round limit), with the higher score winning;
* the state survives to_dict → JSON → from_dict, and replays from (options, seed, actions);
* the public view carries no hand card identity: swapping cards between a hand and the draw
  pile, or reordering the draw pile, changes nothing in it nor in the other seat's view;
* typed text is either refused without any change or names a legal action.

The rules are checked with the plain functions of ``tests/helpers/digitalo_reference.py``, not the
engine's own.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.digitalo import DigitaloState, new_game, replay
from engines.digitalo import agents as digitalo_agents
from engines.digitalo.cards import GATE_CARDS, TARGET, deck_cards, match_winners, sort_cards
from tests.helpers import digitalo_reference as reference
from tests.helpers.engine_checks import check_hidden_cards, check_typed_text, round_trip

GATE_KEYS = {"position", "card", "gate", "out", "inputs", "inactive"}
move_like_text = st.one_of(
    st.text(max_size=20),
    st.text(alphabet="ANDORXINVandorxinv01234567 →-dscuntep", max_size=16),
    st.from_regex(r"\A(and|or|xor|nand|inv|discard|counter|accept|d)? ?[0-1]? ?[0-9]{0,2}\Z",
                  fullmatch=True),
)


@st.composite
def option_sets(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "bits": draw(st.integers(4, 8), label="bits"),
        "inverters": draw(st.booleans(), label="inverters"),
        "free_discard": draw(st.booleans(), label="free_discard"),
        "gates_each": draw(st.integers(3, 12), label="gates_each"),
        "inverter_cards": draw(st.integers(1, 16), label="inverter_cards"),
        "max_moves": draw(st.sampled_from([20, 60, 300]), label="max_moves"),
        "max_rounds": draw(st.integers(1, 4), label="max_rounds"),
    }


def check_cards(state: DigitaloState) -> None:
    where = Counter(state.draw) + Counter(state.discard) + Counter(state.hands[0]) \
        + Counter(state.hands[1])
    for pyramid in state.pyramids:
        where += Counter(pyramid.values())
    assert where == Counter(deck_cards(state.options))
    n = state.options["bits"]
    assert sum(where[card] for card in GATE_CARDS) >= n * (n - 1) + 8
    assert all(card != "INV" for pyramid in state.pyramids for card in pyramid.values())
    if state.outcome() is None:
        assert [len(hand) for hand in state.hands] == [4, 4]


def check_pyramids(state: DigitaloState) -> None:
    data = state.to_dict()
    n = state.options["bits"]
    bits = list(data["bits"])
    if data["pending"] is not None:
        bits[data["pending"]["bit"] - 1] ^= 1  # the gates were laid before the flip
    view = state.view(None)
    for seat, pyramid in enumerate(reference.pyramids_of(data)):
        row = reference.row_of(bits, seat)
        for number, card in pyramid.items():
            a, b = reference.inputs(pyramid, row, n, number)
            assert a is not None or b is not None, "a gate that lost both inputs stayed"
            if a is not None and b is not None:
                assert reference.fits(card, a, b), (seat, number, card)
        flags = {g["position"]: g["inactive"] for g in view["pyramids"][seat]}
        assert {k for k, v in flags.items() if v} == reference.inactive_set(pyramid, n)
        assert len(view["open"][seat]) <= n - 1
        assert all(set(g) == GATE_KEYS for g in view["pyramids"][seat])


def expected_resolution(state: DigitaloState) -> tuple[list[list[int]], list[list[int]]]:
    """What the pending flip removes and newly deactivates, per seat, by the reference."""
    data = state.to_dict()
    n = state.options["bits"]
    before = reference.pyramids_of(data)
    after = reference.resolved(data)
    removed = [sorted(set(b) - set(a)) for b, a in zip(before, after, strict=True)]
    newly = [sorted(reference.inactive_set(a, n) - reference.inactive_set(b, n))
             for b, a in zip(before, after, strict=True)]
    return removed, newly


def check_view(state: DigitaloState) -> None:
    public = state.view(None)
    text = json.dumps(public)
    assert "hand" not in public and "private" not in text and "draw" not in public
    assert all("cards" not in e and "card" not in e for e in public["last_events"]
               if e["type"] in ("dealt", "drew"))
    for seat in (0, 1):
        own = state.view(seat)
        assert own["hand"] == state.hands[seat]
        # The hand's "no place now" marks: a card kind fits exactly when a legal move
        # places it (an inverter always may be played).
        if state.to_move() == [seat] and state.phase == "play":
            placed = {a.split()[0] for a in state.legal_actions(seat)
                      if a.split()[0] in state.hands[seat] and a.split()[0] != "INV"}
            assert set(own["fits"]) - {"INV"} == placed
        assert {k: v for k, v in own.items() if k not in ("hand", "fits", "seat", "viewer")} == {
            k: v for k, v in public.items() if k != "viewer"}
    if state.pending is not None:
        removed, newly = expected_resolution(state)
        assert public["pending"]["would_remove"] == removed
        assert public["pending"]["would_deactivate"] == newly


def check_events(state: DigitaloState, events: list[dict[str, Any]],
                 expected: tuple[list[list[int]], list[list[int]]] | None) -> None:
    for event in events:
        if event["type"] == "flip_resolved":
            assert expected is not None
            removed, newly = expected
            assert [[g["position"] for g in seat] for seat in event["removed"]] == removed
            assert event["inactive"] == newly
        if event["type"] == "round_over":
            if event["reason"] in ("complete", "both_complete"):
                assert event["moves"][0] == event["moves"][1], event
            if event["reason"] == "complete":
                assert event["points"] == event["empty"] + event["inactive"] > 0
            else:
                assert event["points"] == 0 and event["winner"] is None
    assert (state.outcome() is None) == bool(state.to_move())
    outcome = state.outcome()
    if outcome is None:
        assert max(state.scores) < TARGET
        assert state.round <= state.options["max_rounds"]
    elif outcome.reason == "digitalo_points":
        assert max(state.scores) >= TARGET
        assert outcome.winners == match_winners(state.scores)
    elif outcome.reason == "digitalo_max_rounds":
        assert state.round == state.options["max_rounds"]
        assert outcome.winners == match_winners(state.scores)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=option_sets(), data=st.data())
def test_random_play_keeps_every_invariant(seed: int, options: dict[str, Any],
                                           data: st.DataObject) -> None:
    state = new_game(options, 2, seed)
    steps = data.draw(st.integers(0, 120), label="steps")
    build = data.draw(st.integers(0, 9), label="build bias")
    for _ in range(steps):
        check_cards(state)
        check_pyramids(state)
        check_view(state)
        assert round_trip(state).to_dict() == state.to_dict()
        if state.outcome() is not None:
            break
        seat = state.turn
        legal = state.legal_actions(seat)
        assert legal and len(legal) == len(set(legal))
        assert all(a.isascii() and len(a) <= 20 for a in legal)
        assert state.legal_actions(1 - seat) == []
        if data.draw(st.integers(0, 9), label="probe") == 0:
            check_hidden_cards(state, data, sort_cards)
            check_typed_text(state, legal, data.draw(move_like_text, label="typed"))
        builds = [a for a in legal if a.split()[0] in GATE_CARDS]
        if builds and data.draw(st.integers(0, 9), label="build") < build:
            action = data.draw(st.sampled_from(builds), label="place")
        else:
            action = data.draw(st.sampled_from(legal), label="action")
        assert state.parse_action(state.action_text(action), seat) == action
        expected = expected_resolution(state) if state.pending is not None else None
        events = state.apply(seat, action)
        assert state.actions[-1] == action
        check_events(state, events, expected)
    check_cards(state)
    check_pyramids(state)
    check_view(state)
    assert round_trip(state).to_dict() == state.to_dict()
    assert replay(options, seed, list(state.actions)).to_dict() == state.to_dict()
    if state.outcome() is not None:
        assert state.legal_actions(0) == state.legal_actions(1) == []


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bits=st.integers(4, 6), inverters=st.booleans(),
       free_discard=st.booleans())
def test_agent_matches_end_and_replay(seed: int, bits: int, inverters: bool,
                                      free_discard: bool) -> None:
    """Strong against easy to the end of a match: every move legal, the log replays it."""
    options = {"bits": bits, "inverters": inverters, "free_discard": free_discard,
               "max_rounds": 6}
    state = new_game(options, 2, seed)
    agents = [digitalo_agents.make_agent("strong", random.Random(seed)),
              digitalo_agents.make_agent("easy", random.Random(seed + 1))]
    while state.outcome() is None:
        seat = state.turn
        action = agents[seat].choose(state, seat)
        assert action in state.legal_actions(seat)
        expected = expected_resolution(state) if state.pending is not None else None
        check_events(state, state.apply(seat, action), expected)
        check_cards(state)
    check_pyramids(state)
    check_view(state)
    assert replay(options, seed, list(state.actions)).to_dict() == state.to_dict()
