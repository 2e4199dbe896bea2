"""Digitalo's cards, positions and scoring: the deck (gate cards and inverters), the seed's
position numbers, what a flip breaks (``resolve_flip``), a gate as views show it, a
complete pyramid and the match's winner by points. The pyramid itself is bOOleO's too
(``engines/cards/pyramid.py``); the rules of play are in ``engines/digitalo/rules.py``."""

from collections.abc import Iterable

from engines.base import (
    JSON,
)
from engines.cards.pyramid import (
    Pyramid,
    Slot,
    bit_slots,
    fits_inputs,
    gate_cards,
    gate_of,
    gate_token,
    inactive_gates,
    input_values,
    output_of,
    position_of,
    pyramid_size,
    pyramid_slots,
    reading,
    settle,
)

SEATS = 2
SEAT_NAMES = ("South", "North")
HAND_SIZE = 4
TARGET = 8  # 1000 in binary
PHASES = ("play", "last move", "answer")

GATES = ("AND", "OR", "XOR", "NAND")
GATE_CARDS = gate_cards(GATES)
INVERTER = "INV"
NO_PLACE_MARK = "✖"  # on a menu's card that fits nowhere on its player's pyramid now
ALL_CARDS = (*GATE_CARDS, INVERTER)
CARD_RANK = {card: rank for rank, card in enumerate(ALL_CARDS)}
CARD_TOKENS = {**{card: gate_token(card) for card in GATE_CARDS}, INVERTER: "I"}
CARD_BY_TOKEN = {token: card for card, token in CARD_TOKENS.items()}


# --- cards, positions and the flip ----------------------------------------------------------


def deck_cards(options: JSON) -> list[str]:
    """The gate and inverter cards of a deck, in a fixed order (shuffled by the caller)."""
    cards = [card for card in GATE_CARDS for _ in range(gate_copies(options))]
    if options["inverters"]:
        cards += [INVERTER] * int(options["inverter_cards"])
    return cards


def least_gates_each(n: int) -> int:
    """The fewest copies of each gate card that fill both pyramids and both hands."""
    return -(-(2 * pyramid_size(n) + 2 * HAND_SIZE) // len(GATE_CARDS))


def gate_copies(options: JSON) -> int:
    """Copies of each gate card in the deck: ``gates_each``, or more when the bits need it."""
    return max(int(options["gates_each"]), least_gates_each(int(options["bits"])))


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=CARD_RANK.__getitem__)


def binary(points: int) -> str:
    """Points as the seed writes them: binary, at least four digits (8 is ``1000``)."""
    return format(points, "04b")


def slot_at(n: int, position: int) -> Slot:
    """The slot of the seed's position number (1..N(N−1)/2)."""
    if not 1 <= position <= pyramid_size(n):
        raise ValueError(f"no position {position} with {n} bits")
    return pyramid_slots(n)[position - 1]


def position_at(n: int, slot: Slot) -> int:
    """The seed's position number of a slot: row by row from the bits up, left to right."""
    row, i = slot
    return (row - 1) * n - (row - 1) * row // 2 + i


def resolve_flip(pyramids: list[Pyramid], bits: list[int], n: int,
                 bit: int) -> list[list[tuple[Slot, str]]]:
    """Discard what a flip of seat 0's bit ``bit`` broke in both pyramids; ``bits`` already
    show it. Only the first-row gates on that bit are judged; what falls takes the gates
    above with it (one input lost: inactive; both: discarded)."""
    return [settle(pyramids[seat], reading(bits, seat), n, bit_slots(n, position_of(n, seat, bit)),
                   inactive=True, judge=fits_inputs)
            for seat in range(SEATS)]


def gate_view(pyramid: Pyramid, row: list[int], n: int, slot: Slot,
              inactive: set[Slot]) -> JSON:
    """A placed gate as views show it, its inputs read from ``row`` (a seat's reading)."""
    card = pyramid[slot]
    a, b = input_values(pyramid, row, slot)
    return {"position": position_at(n, slot), "card": card, "gate": gate_of(card),
            "out": output_of(card), "inputs": [a, b], "inactive": slot in inactive}


def complete(pyramid: Pyramid, n: int) -> bool:
    """Every position filled and every gate active (a full pyramid has no inactive gate)."""
    return len(pyramid) == pyramid_size(n) and not inactive_gates(pyramid, n)


def match_winners(scores: list[int]) -> tuple[int, ...]:
    """The match's winner by points: the higher score; equal scores make a draw."""
    if scores[0] == scores[1]:
        return ()
    return (0,) if scores[0] > scores[1] else (1,)
