"""A plain, brute-force list of bOOleO's legal actions, written apart from the engine.

It reads only the state's fields (``options``, ``bits``, ``hands``, ``pyramids``, ``pending``,
``phase``, ``challenged``, ``turn`` and the outcome) and follows ``shared/rules/booleo.md``
with the decisions written in the engine's docstring. It tries every card in the hand on
every slot, every start card and every opponent gate, and keeps what the rules allow. Truth
tables are written out, and nothing is imported from the engine's move generator or its
cascade.
"""

from __future__ import annotations

from typing import Any

TRUTH = {
    "AND": {(0, 0): 0, (0, 1): 0, (1, 0): 0, (1, 1): 1},
    "OR": {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 1},
    "XOR": {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 0},
    "NAND": {(0, 0): 1, (0, 1): 1, (1, 0): 1, (1, 1): 0},
    "NOR": {(0, 0): 1, (0, 1): 0, (1, 0): 0, (1, 1): 0},
    "XNOR": {(0, 0): 1, (0, 1): 0, (1, 0): 0, (1, 1): 1},
}

Slot = tuple[int, int]


def row_of(bits: list[int], seat: int) -> list[int]:
    """South reads the bits as they are; North reads them backwards and complemented."""
    if seat == 0:
        return list(bits)
    backwards = list(bits)
    backwards.reverse()
    return [0 if bit == 1 else 1 for bit in backwards]


def every_slot(n: int) -> list[Slot]:
    slots = []
    for row in range(1, n):
        for pos in range(1, n - row + 1):
            slots.append((row, pos))
    return slots


def output(card: str) -> int:
    return 1 if card.endswith("1") else 0


def gate_name(card: str) -> str:
    return card[: len(card) - 1]


def inputs(pyramid: dict[Slot, str], row: list[int], slot: Slot) -> tuple[Any, Any]:
    r, pos = slot
    if r == 1:
        return row[pos - 1], row[pos]
    left = pyramid.get((r - 1, pos))
    right = pyramid.get((r - 1, pos + 1))
    return (output(left) if left else None), (output(right) if right else None)


def fits(card: str, a: int, b: int, top: bool, slot_bit: int) -> bool:
    if TRUTH[gate_name(card)][(a, b)] != output(card):
        return False
    return not (top and output(card) != slot_bit)


def resolve(pyramid: dict[Slot, str], row: list[int], n: int, touched: set[Slot],
            inactive_rule: bool) -> dict[Slot, str]:
    """The pyramid after the cascade, judging only touched gates, row by row upwards."""
    result = dict(pyramid)
    touched = set(touched)
    for r in range(1, n):
        for pos in range(1, n - r + 1):
            slot = (r, pos)
            if slot not in result or slot not in touched:
                continue
            a, b = inputs(result, row, slot)
            if a is None and b is None:
                goes = True
            elif a is None or b is None:
                goes = not inactive_rule
            else:
                goes = not fits(result[slot], a, b, r == n - 1, row[-1])
            if goes:
                del result[slot]
                touched.add((r + 1, pos - 1))
                touched.add((r + 1, pos))
    return result


def touched_by_flip(n: int, seat: int, south_card: int) -> set[Slot]:
    position = south_card if seat == 0 else n + 1 - south_card
    touched = set()
    if position > 1:
        touched.add((1, position - 1))  # the bit is that slot's right input
    if position < n:
        touched.add((1, position))  # ... and this slot's left input
    if position == n:
        touched.add((n - 1, 1))  # the slot bit changed
    return touched


def inactive_set(pyramid: dict[Slot, str], n: int) -> set[Slot]:
    found: set[Slot] = set()
    for r in range(2, n):
        for pos in range(1, n - r + 1):
            if (r, pos) not in pyramid:
                continue
            below = [(r - 1, pos), (r - 1, pos + 1)]
            if any(s not in pyramid or s in found for s in below):
                found.add((r, pos))
    return found


def legal_actions(state: Any, seat: int) -> list[str]:
    if state.outcome() is not None or seat != state.turn:
        return []
    options = state.options
    n = options["bits"]
    opponent = 1 - seat
    hand = list(state.hands[seat])
    pyramids = [dict(state.pyramids[0]), dict(state.pyramids[1])]
    if state.pending is not None:
        for s in (0, 1):
            pyramids[s] = resolve(pyramids[s], row_of(state.bits, s), n,
                                  touched_by_flip(n, s, state.pending[0]), options["inactive"])

    if state.phase == "claim":
        claimed = state.pyramids[opponent]
        return [f"challenge {r}.{p}" for (r, p) in every_slot(n) if (r, p) in claimed] + [
            "accept"]

    actions: list[str] = []
    kinds: list[str] = []
    for card in hand:
        if card not in kinds:
            kinds.append(card)
    if not hand:
        actions.append("pass")
    elif state.phase == "discard":
        return [f"discard {card}" for card in kinds]
    else:
        mine = pyramids[seat]
        row = row_of(state.bits, seat)
        dead = inactive_set(mine, n)
        for card in kinds:
            if card == "NOT":
                continue
            for slot in every_slot(n):
                if mine.get(slot) == card:
                    continue
                r, pos = slot
                if r > 1:
                    below = [(r - 1, pos), (r - 1, pos + 1)]
                    if any(s not in mine for s in below) or any(s in dead for s in below):
                        continue
                if options["referee"]:
                    a, b = inputs(mine, row, slot)
                    if not fits(card, a, b, r == n - 1, row[-1]):
                        continue
                actions.append(f"{card} {r}.{pos}")
        if "NOT" in hand:
            for position in range(1, n + 1):
                actions.append(f"NOT {position}")
        for card in kinds:
            actions.append(f"discard {card}")
    if not options["referee"] and not state.challenged and state.phase == "play":
        for slot in every_slot(n):
            if slot in pyramids[opponent]:
                actions.append(f"challenge {slot[0]}.{slot[1]}")
    return actions
