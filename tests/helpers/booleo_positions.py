"""bOOleO positions written out by hand, for the rules tests in tests/engines/booleo/
(``test_rules.py`` and ``test_placement.py``).

``position(...)`` builds a state dictionary (the start row as South reads it, both pyramids
as ``{"row.slot": card}``, the hands), with every card not mentioned put in the draw pile, and
loads it through ``BooleoState.from_dict``. The named positions below are the ones both test
files play from: the NOT scene, the referee=off challenge scene and the claim scene.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.booleo import BooleoState
from engines.booleo.cards import deck_cards, sort_cards

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


NORTH_PYRAMID = {"1.3": "OR1", "1.4": "AND1", "1.5": "XOR1", "2.3": "OR1", "2.4": "AND1",
                 "3.3": "XOR0"}


def not_position(north_hand: list[str], south_hand: list[str] | None = None) -> BooleoState:
    return position(ROW, north=dict(NORTH_PYRAMID),
                    hands=(south_hand or ["NOT", "OR1", "AND0", "XOR0", "OR0"], north_hand))


def challenge_position(hands: tuple[list[str], list[str]] = (
        ["OR1", "AND0", "NOT", "XOR0", "OR0"], ["AND0", "OR1", "XOR1", "NOT"]),
        **extra: Any) -> BooleoState:
    # North (reading 1 0 0 1 1 0) has an invalid AND(1) on 1.1 (inputs 1 and 0), a valid
    # OR(0) on 1.2, and an XOR(1) on 2.1 built on the invalid gate.
    return position(ROW, north={"1.1": "AND1", "1.2": "OR0", "2.1": "XOR1"}, hands=hands,
                    referee=False, **extra)


CLAIMED = {"1.1": "AND0", "1.2": "OR1", "1.3": "AND0", "2.1": "OR1", "2.2": "OR1"}


def claim_position(top: str) -> BooleoState:
    # South reads 1 0 1 0, slot bit 0; the top sees 1 and 1.
    return position([1, 0, 1, 0], south=dict(CLAIMED),
                    hands=([top, "NOT", "XOR1", "OR0", "AND1"], ["NOT", "AND1", "XOR1",
                                                                "OR0"]),
                    referee=False)
