"""A plain, brute-force list of Digitalo's legal actions, written apart from the engine.

It reads only the serialised state (``state.to_dict()``: options, bits, hands, pyramids keyed
by position, pending flip, phase, turn, outcome) and follows ``shared/rules/digitalo.md`` with
the decisions written in the engine's docstring. It numbers positions itself, tries every
card in the hand on every position and every bit card, and keeps what the rules allow. Truth
tables are written out; the flip is resolved the way the rules say it (judge every first-row
gate, then drop every gate left without inputs, until nothing changes), and nothing is
imported from the engine or from ``engines/cards/pyramid.py``.
"""

from __future__ import annotations

from typing import Any

TRUTH = {
    "AND": {(0, 0): 0, (0, 1): 0, (1, 0): 0, (1, 1): 1},
    "OR": {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 1},
    "XOR": {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 0},
    "NAND": {(0, 0): 1, (0, 1): 1, (1, 0): 1, (1, 1): 0},
}
INV = "INV"


def layout(n: int) -> dict[int, tuple[int, int]]:
    """Position number → (row, place in row), as the seed numbers them: row 1 first."""
    table = {}
    number = 0
    for row in range(1, n):
        for place in range(1, n - row + 1):
            number += 1
            table[number] = (row, place)
    return table


def number_of(n: int, row: int, place: int) -> int:
    for number, where in layout(n).items():
        if where == (row, place):
            return number
    raise KeyError((row, place))


def row_of(bits: list[int], seat: int) -> list[int]:
    """Seat 0 reads the bits as stored; seat 1 reads them backwards, each bit the other way."""
    if seat == 0:
        return list(bits)
    backwards = list(bits)
    backwards.reverse()
    return [0 if bit == 1 else 1 for bit in backwards]


def output(card: str) -> int:
    return 1 if card.endswith("1") else 0


def gate_name(card: str) -> str:
    return card[: len(card) - 1]


def feeders(n: int, number: int) -> list[int]:
    """The two positions under a position above row 1."""
    row, place = layout(n)[number]
    return [number_of(n, row - 1, place), number_of(n, row - 1, place + 1)]


def inputs(pyramid: dict[int, str], row: list[int], n: int, number: int) -> tuple[Any, Any]:
    r, place = layout(n)[number]
    if r == 1:
        return row[place - 1], row[place]
    left, right = feeders(n, number)
    return ((output(pyramid[left]) if left in pyramid else None),
            (output(pyramid[right]) if right in pyramid else None))


def fits(card: str, a: int, b: int) -> bool:
    return TRUTH[gate_name(card)][(a, b)] == output(card)


def inactive_set(pyramid: dict[int, str], n: int) -> set[int]:
    """Gates missing an input, and gates fed by them, until nothing more turns inactive."""
    found: set[int] = set()
    changed = True
    while changed:
        changed = False
        for number in pyramid:
            if layout(n)[number][0] == 1 or number in found:
                continue
            if any(f not in pyramid or f in found for f in feeders(n, number)):
                found.add(number)
                changed = True
    return found


def resolve(pyramid: dict[int, str], row: list[int], n: int) -> dict[int, str]:
    """A flip, as the rules put it: every invalid first-row gate goes; then every gate left
    with no input at all goes, over and over (one input left: it stays, inactive)."""
    result = {number: card for number, card in pyramid.items()
              if layout(n)[number][0] > 1 or fits(card, *inputs(pyramid, row, n, number))}
    changed = True
    while changed:
        changed = False
        for number in sorted(result):
            if layout(n)[number][0] > 1 and all(f not in result for f in feeders(n, number)):
                del result[number]
                changed = True
    return result


def own_number(n: int, seat: int, bit: int) -> int:
    """Seat 0's bit card ``bit`` as ``seat`` counts it from its own left."""
    return bit if seat == 0 else n + 1 - bit


def pyramids_of(data: dict[str, Any]) -> list[dict[int, str]]:
    return [{int(k): v for k, v in p.items()} for p in data["pyramids"]]


def resolved(data: dict[str, Any]) -> list[dict[int, str]]:
    """Both pyramids once the pending flip (if any) has resolved."""
    n = data["options"]["bits"]
    pyramids = pyramids_of(data)
    if data["pending"] is None:
        return pyramids
    return [resolve(pyramids[seat], row_of(data["bits"], seat), n) for seat in (0, 1)]


def legal_actions(state: Any, seat: int) -> list[str]:
    data = state.to_dict()
    if data["outcome"] is not None or seat != data["turn"]:
        return []
    options = data["options"]
    n = options["bits"]
    hand = list(data["hands"][seat])
    if data["phase"] == "answer":
        return (["counter"] if INV in hand else []) + ["accept"]
    mine = resolved(data)[seat]
    row = row_of(data["bits"], seat)
    dead = inactive_set(mine, n)
    kinds: list[str] = []
    for card in hand:
        if card not in kinds:
            kinds.append(card)
    actions: list[str] = []
    for card in kinds:
        if card == INV:
            continue
        for number in layout(n):
            if number in mine:
                continue
            if layout(n)[number][0] > 1 and any(f not in mine or f in dead
                                                for f in feeders(n, number)):
                continue
            a, b = inputs(mine, row, n, number)
            if fits(card, a, b):
                actions.append(f"{card} {number}")
    placed = bool(actions)
    if INV in hand:
        pending = data["pending"]
        for k in range(1, n + 1):
            if pending is not None and own_number(n, seat, pending["bit"]) == k:
                actions.append("counter")
            else:
                actions.append(f"INV {k}")
    if options["free_discard"] or not placed:
        for card in kinds:
            actions.append(f"discard {card}")
    return actions
