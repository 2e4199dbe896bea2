"""What bOOleO and Digitalo share: gate cards, the pyramid of gates on a row of bits, and the
rules both games judge it by.

Both games build the same pyramid: N bits in a row, N−1 gates on them, then one gate fewer per
row up to a single top gate. A slot is ``(row, i)``: row 1 stands on the bits and slot ``i`` of
row 1 takes bits ``i`` and ``i+1``; slot ``i`` of row ``r`` takes the outputs of slots ``i``
and ``i+1`` of row ``r−1``. Each game names slots its own way (bOOleO ``2.3``, Digitalo the
seed's numbers 1..N(N−1)/2), and adds its own rules on top; this module holds only what is
the same in both:

* **gate cards** ``AND0`` … ``XNOR1``: a gate and its printed output, their truth tables,
  labels (``AND→1``), menu tokens (``A1``) and the referee's lessons for a card that does not
  fit its inputs;
* **geometry**: slots, the slots a slot feeds, the inputs of a slot, each player's reading
  of the bit row (the opposite seat reads it reversed and complemented);
* **activity**: a gate missing an input, or fed by such a gate, is *inactive*, and nothing is
  placed on an inactive gate;
* **the cascade** (``settle``): the gates a change reached are judged lowest row first; a
  broken gate is discarded, and its removal reaches the gates it feeds.

What differs stays in the games: bOOleO's top gate must also give the slot bit (its
``judge``), Digitalo has no slot bit and always keeps half-fed gates as inactive.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from engines.base import IllegalMove

Slot = tuple[int, int]
Pyramid = dict[Slot, str]
# judge(slot, card, a, b): does ``card`` stand on ``slot`` with inputs ``a`` and ``b``?
Judge = Callable[[Slot, str, int, int], bool]

# --- gate cards -----------------------------------------------------------------------------

GATE_FUNCTIONS: dict[str, Callable[[int, int], int]] = {
    "AND": lambda a, b: a & b,
    "OR": lambda a, b: a | b,
    "XOR": lambda a, b: a ^ b,
    "NAND": lambda a, b: 1 - (a & b),
    "NOR": lambda a, b: 1 - (a | b),
    "XNOR": lambda a, b: 1 - (a ^ b),
}
GATE_TOKENS = {"AND": "A", "OR": "O", "XOR": "X", "NAND": "NA", "NOR": "NO", "XNOR": "XN"}

# The referee's lessons: why a gate card does not fit its inputs, for every gate and output.
LESSONS = {
    "AND1": "AND needs 1 and 1 to give 1; these inputs are {a} and {b}.",
    "AND0": "AND gives 0 only when an input is 0; these inputs are {a} and {b}.",
    "OR1": "OR gives 1 only when an input is 1; these inputs are {a} and {b}.",
    "OR0": "OR needs 0 and 0 to give 0; these inputs are {a} and {b}.",
    "XOR1": "XOR gives 1 only when its inputs differ; these inputs are {a} and {b}.",
    "XOR0": "XOR gives 0 only when its inputs are equal; these inputs are {a} and {b}.",
    "NAND0": "NAND needs 1 and 1 to give 0; these inputs are {a} and {b}.",
    "NAND1": "NAND gives 1 only when an input is 0; these inputs are {a} and {b}.",
    "NOR1": "NOR needs 0 and 0 to give 1; these inputs are {a} and {b}.",
    "NOR0": "NOR gives 0 only when an input is 1; these inputs are {a} and {b}.",
    "XNOR1": "XNOR gives 1 only when its inputs are equal; these inputs are {a} and {b}.",
    "XNOR0": "XNOR gives 0 only when its inputs differ; these inputs are {a} and {b}.",
}


def gate_cards(gates: Iterable[str]) -> tuple[str, ...]:
    """The gate cards of these gates, each with output 0 and 1: ``AND0``, ``AND1``, …"""
    return tuple(f"{gate}{out}" for gate in gates for out in (0, 1))


def gate_of(card: str) -> str:
    return card[:-1]


def output_of(card: str) -> int:
    return int(card[-1])


def is_gate_card(card: str) -> bool:
    return card[-1:] in ("0", "1") and card[:-1] in GATE_FUNCTIONS


def card_label(card: str) -> str:
    """``AND1`` as ``AND→1``; any other card (NOT, INV) as itself."""
    return f"{card[:-1]}→{card[-1]}" if is_gate_card(card) else card


def gate_token(card: str) -> str:
    """A gate card's menu token: ``A1``, ``NA0``, …"""
    return GATE_TOKENS[gate_of(card)] + card[-1]


# Every card's answer on every pair of input bits, worked out once: menus ask it for each
# card of a hand on each open slot.
_GIVES: dict[tuple[str, int, int], bool] = {
    (f"{gate}{out}", a, b): function(a, b) == out
    for gate, function in GATE_FUNCTIONS.items() for out in (0, 1) for a in (0, 1) for b in (0, 1)
}


def gate_gives(card: str, a: int, b: int) -> bool:
    gives = _GIVES.get((card, a, b))
    if gives is None:  # not a card and bits of the table: worked out (or refused) as ever
        return GATE_FUNCTIONS[gate_of(card)](a, b) == output_of(card)
    return gives


def fits_inputs(slot: Slot, card: str, a: int, b: int) -> bool:
    """The plain rule of both games: the gate of the inputs gives the printed output."""
    return gate_gives(card, a, b)


def gate_refusal(game: str, card: str, a: int, b: int, slot: str) -> IllegalMove:
    """The referee's refusal of ``card`` on inputs ``a`` and ``b``, with its lesson. The
    catalogue key is ``<game>.error.gate_invalid.<card>``; ``slot`` is the game's name for
    the slot, for translations that mention it."""
    return IllegalMove(f"{game}.error.gate_invalid.{card.lower()}", LESSONS[card],
                       gate=gate_of(card), out=output_of(card), a=a, b=b, slot=slot)


# --- geometry -------------------------------------------------------------------------------


def pyramid_size(n: int) -> int:
    return n * (n - 1) // 2


@cache  # asked for in every view, menu and cascade step; a tuple, so it cannot be changed
def pyramid_slots(n: int) -> tuple[Slot, ...]:
    """Every slot, bottom row first, left to right: the order in which cascades settle."""
    return tuple((row, i) for row in range(1, n) for i in range(1, n - row + 1))


def slot_exists(n: int, slot: Slot) -> bool:
    return 1 <= slot[0] <= n - 1 and 1 <= slot[1] <= n - slot[0]


def inputs_below(slot: Slot) -> tuple[Slot, Slot]:
    row, i = slot
    return (row - 1, i), (row - 1, i + 1)


def fed_slots(n: int, slot: Slot) -> list[Slot]:
    """The slots that take this slot's output as an input."""
    row, i = slot
    return [s for s in ((row + 1, i - 1), (row + 1, i)) if slot_exists(n, s)]


def bit_slots(n: int, pos: int) -> set[Slot]:
    """The row-1 slots that take bit ``pos`` (1..n, in the reading they stand on)."""
    slots: set[Slot] = set()
    if pos >= 2:
        slots.add((1, pos - 1))  # the bit is that slot's right input
    if pos <= n - 1:
        slots.add((1, pos))  # ... and this slot's left input
    return slots


def reading(bits: list[int], seat: int) -> list[int]:
    """The bit row as ``seat`` reads it, left to right; ``bits`` is seat 0's reading. The
    opposite seat reads the same cards reversed, each showing it the other face."""
    return list(bits) if seat == 0 else [1 - b for b in reversed(bits)]


def position_of(n: int, seat: int, card: int) -> int:
    """Seat 0's bit ``card`` as ``seat`` numbers it (and back: the map is its own inverse)."""
    return card if seat == 0 else n + 1 - card


def input_values(pyramid: Pyramid, row: list[int], slot: Slot) -> tuple[int | None, int | None]:
    """The two input bits of a slot (a gate's printed output above row 1), None if missing."""
    r, i = slot
    if r == 1:
        return row[i - 1], row[i]
    left, right = pyramid.get((r - 1, i)), pyramid.get((r - 1, i + 1))
    return (None if left is None else output_of(left),
            None if right is None else output_of(right))


# --- activity and the cascade ---------------------------------------------------------------


def inactive_gates(pyramid: Pyramid, n: int) -> set[Slot]:
    """Gates with exactly one input missing, and every gate fed by an inactive gate."""
    result: set[Slot] = set()
    for slot in pyramid_slots(n):
        if slot[0] == 1 or slot not in pyramid:
            continue
        left, right = inputs_below(slot)
        if left not in pyramid or right not in pyramid or left in result or right in result:
            result.add(slot)
    return result


def blocked_input(pyramid: Pyramid, slot: Slot, inactive: set[Slot]) -> tuple[str, Slot] | None:
    """Why no gate can go on ``slot`` now: ("missing", below) or ("inactive", below)."""
    if slot[0] == 1:
        return None
    for below in inputs_below(slot):
        if below not in pyramid:
            return "missing", below
    for below in inputs_below(slot):
        if below in inactive:
            return "inactive", below
    return None


def open_slots(pyramid: Pyramid, n: int) -> list[Slot]:
    """The empty slots a gate physically fits now: both inputs present and active."""
    inactive = inactive_gates(pyramid, n)
    return [slot for slot in pyramid_slots(n)
            if slot not in pyramid and blocked_input(pyramid, slot, inactive) is None]


def is_invalid(pyramid: Pyramid, row: list[int], slot: Slot, judge: Judge) -> bool:
    """A gate is provably invalid when both inputs are there and it does not stand on them.
    A gate with a missing input cannot be judged."""
    a, b = input_values(pyramid, row, slot)
    if a is None or b is None:
        return False
    return not judge(slot, pyramid[slot], a, b)


def settle(pyramid: Pyramid, row: list[int], n: int, dirty: Iterable[Slot], *,
           inactive: bool, judge: Judge) -> list[tuple[Slot, str]]:
    """The cascade: judge the affected gates bottom-up, discarding the broken ones, whose
    removal affects the gates they feed. A gate with both inputs is broken when ``judge``
    refuses it; one that lost both inputs always is; one that lost a single input is kept
    (inactive) when ``inactive`` is set, and broken otherwise. Returns the discarded
    (slot, card) pairs, in the order they fell."""
    affected = set(dirty)
    removed: list[tuple[Slot, str]] = []
    for slot in pyramid_slots(n):
        if slot not in affected or slot not in pyramid:
            continue
        a, b = input_values(pyramid, row, slot)
        if a is None or b is None:
            broken = not inactive or (a is None and b is None)
        else:
            broken = not judge(slot, pyramid[slot], a, b)
        if broken:
            removed.append((slot, pyramid.pop(slot)))
            affected.update(fed_slots(n, slot))
    return removed
