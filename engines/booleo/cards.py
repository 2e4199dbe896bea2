"""bOOleO's cards and their rules on a pyramid: the deck (gate cards and NOTs), slot names,
a gate judged with the top's slot bit (``top_rule``), the settling cascade, what a flip of
a start card breaks (``resolve_flip``) and a complete, valid pyramid. The pyramid itself
is shared with Digitalo (``engines/cards/pyramid.py``); the rules of play are in
``engines/booleo/rules.py``."""

from __future__ import annotations

from collections.abc import Iterable

from engines.cards.pyramid import (
    Judge,
    Pyramid,
    Slot,
    bit_slots,
    gate_cards,
    gate_gives,
    gate_token,
    output_of,
    position_of,
    pyramid_size,
    reading,
)
from engines.cards.pyramid import is_invalid as judged_invalid
from engines.cards.pyramid import settle as settle_gates

SEATS = 2
SEAT_NAMES = ("South", "North")
HAND_SIZE = 4
COPIES = 8
MENU_LIMIT = 25
PHASES = ("play", "discard", "claim")

BASIC_GATES = ("AND", "OR", "XOR")
EXTENDED_GATES = ("NAND", "NOR", "XNOR")
NOT_CARD = "NOT"
NO_PLACE_MARK = "✖"  # on a menu's card that fits nowhere on its player's pyramid now
GATE_CARDS = gate_cards(BASIC_GATES + EXTENDED_GATES)
ALL_CARDS = (*GATE_CARDS, NOT_CARD)
CARD_RANK = {card: rank for rank, card in enumerate(ALL_CARDS)}
CARD_TOKENS = {**{card: gate_token(card) for card in GATE_CARDS}, NOT_CARD: "N"}
CARD_BY_TOKEN = {token: card for card, token in CARD_TOKENS.items()}
TOP_LESSON = "The top gate must give your slot bit {slot_bit}; this gate gives {out}."


# --- cards and geometry (the shared pyramid is in engines/cards/pyramid.py) -----------------------


def deck_cards(extended: bool) -> list[str]:
    """The non-start cards of the deck, in a fixed order (shuffled by the caller)."""
    gates = BASIC_GATES + (EXTENDED_GATES if extended else ())
    return [NOT_CARD] * COPIES + [f"{gate}{out}" for gate in gates for out in (0, 1)
                                  for _ in range(COPIES)]


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=CARD_RANK.__getitem__)


def slot_name(slot: Slot) -> str:
    return f"{slot[0]}.{slot[1]}"


def parse_slot_name(text: str) -> Slot:
    row, _, pos = text.partition(".")
    if not (row.isdigit() and pos.isdigit()):
        raise ValueError(f"bad slot {text!r}")
    return int(row), int(pos)


def gate_fits(card: str, a: int, b: int, top: bool, slot_bit: int) -> bool:
    return gate_gives(card, a, b) and (not top or output_of(card) == slot_bit)


def top_rule(n: int, row: list[int]) -> Judge:
    """bOOleO's judge: a gate fits its inputs, and the top gate gives the slot bit."""
    top = (n - 1, 1)
    return lambda slot, card, a, b: gate_fits(card, a, b, slot == top, row[-1])


def is_invalid(pyramid: Pyramid, row: list[int], n: int, slot: Slot) -> bool:
    """A gate is provably invalid when both inputs are there and it does not fit them (the top
    gate must also give the slot bit). A gate with a missing input cannot be judged."""
    return judged_invalid(pyramid, row, slot, top_rule(n, row))


def settle(pyramid: Pyramid, row: list[int], n: int, dirty: Iterable[Slot],
           inactive: bool) -> list[tuple[Slot, str]]:
    """The cascade (``engines.cards.pyramid.settle``) with bOOleO's top rule. Returns the discarded
    (slot, card) pairs."""
    return settle_gates(pyramid, row, n, dirty, inactive=inactive, judge=top_rule(n, row))


def flip_dirty(n: int, seat: int, card: int) -> set[Slot]:
    """Slots of ``seat``'s pyramid affected by flipping South's start card ``card``."""
    pos = position_of(n, seat, card)
    dirty = bit_slots(n, pos)
    if pos == n:
        dirty.add((n - 1, 1))
    return dirty


def resolve_flip(pyramids: list[Pyramid], bits: list[int], n: int, card: int,
                 inactive: bool) -> list[list[tuple[Slot, str]]]:
    """Discard what a flip of ``card`` broke in both pyramids; ``bits`` already show it."""
    return [settle(pyramids[seat], reading(bits, seat), n, flip_dirty(n, seat, card), inactive)
            for seat in range(SEATS)]


def complete_and_valid(pyramid: Pyramid, row: list[int], n: int) -> bool:
    if len(pyramid) != pyramid_size(n):
        return False
    return all(not is_invalid(pyramid, row, n, slot) for slot in pyramid)
