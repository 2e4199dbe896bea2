"""Digitalo positions written out by hand, for the rules tests in tests/engines/digitalo/
(``test_rules.py``, ``test_placement.py`` and ``test_rounds.py``).

``position(...)`` builds a state dictionary (the bit row as South reads it, both pyramids as
``{"position": card}``, the hands), with every card not mentioned put in the draw pile, and
loads it through ``DigitaloState.from_dict``. Below it: what the tests read off a state, the
seed's bit row, the seed's inverter example with the outcome of each bit card, and the
position one gate before the equal-moves ending.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.digitalo import DigitaloState
from engines.digitalo.cards import deck_cards, sort_cards

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


# Player 1 (South) reads 1 1 0 1: position 1 sees 1 and 1, position 2 sees 1 and 0,
# position 3 sees 0 and 1.
SEED_BITS = [1, 1, 0, 1]


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
