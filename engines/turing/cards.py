"""The 48 criteria cards of Turing Machine, as sets of codes.

Specification: ``shared/rules/turing_cards.md``. A code is three digits 1–5: the blue
triangle ``t``, the yellow square ``s`` and the purple circle ``c``. Code ``(t, s, c)`` has
index ``(t-1)*25 + (s-1)*5 + (c-1)``, and a set of codes is a 125-bit integer with bit
``index`` set for each member, so that deduction is ``&`` and ``bit_count``.

Labels use ``{t}``, ``{s}`` and ``{c}`` for the three colours, so that renderers choose the
symbols; the rest of a label is notation, not words, so it reads the same in any language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import product

DIGITS = range(1, 6)
CODE_COUNT = 125
ALL_CODES = (1 << CODE_COUNT) - 1
Code = tuple[int, int, int]
CODES: tuple[Code, ...] = tuple(product(DIGITS, DIGITS, DIGITS))
CODE_INDEX: dict[Code, int] = {code: index for index, code in enumerate(CODES)}
CARD_NUMBERS = range(1, 49)


def code_text(code: Code) -> str:
    return "".join(str(digit) for digit in code)


def code_bit(code: Code) -> int:
    return 1 << CODE_INDEX[code]


def codes_in(mask: int) -> list[Code]:
    """The codes of a mask, in ascending order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(CODES[low.bit_length() - 1])
        mask ^= low
    return found


@dataclass(frozen=True)
class Criterion:
    """One criterion printed on a card; ``secret_ok`` is False for the four that no
    verification card carries, which are never a verifier's secret."""

    card: int
    index: int
    label: str
    mask: int
    secret_ok: bool = True

    @property
    def id(self) -> str:
        return f"{self.card}.{self.index}"

    def accepts(self, code: Code) -> bool:
        return bool(self.mask >> CODE_INDEX[code] & 1)


Predicate = Callable[[int, int, int], bool]


def _count(digit: int) -> Callable[[int, int, int], int]:
    return lambda t, s, c: (t, s, c).count(digit)


def _evens(t: int, s: int, c: int) -> int:
    return sum(1 for d in (t, s, c) if d % 2 == 0)


def _ascending_steps(t: int, s: int, c: int) -> int:
    return (s == t + 1) + (c == s + 1)


def _descending_steps(t: int, s: int, c: int) -> int:
    return (s == t - 1) + (c == s - 1)


_COLOUR = {"t": 0, "s": 1, "c": 2}


def _digit(colour: str) -> Callable[[int, int, int], int]:
    position = _COLOUR[colour]
    return lambda t, s, c: (t, s, c)[position]


def _compare(colour: str, op: str, value: int) -> tuple[str, Predicate]:
    read = _digit(colour)
    tests: dict[str, Predicate] = {
        "<": lambda t, s, c: read(t, s, c) < value,
        "=": lambda t, s, c: read(t, s, c) == value,
        ">": lambda t, s, c: read(t, s, c) > value,
    }
    return f"{{{colour}}} {op} {value}", tests[op]


def _pair(left: str, op: str, right: str) -> tuple[str, Predicate]:
    a, b = _digit(left), _digit(right)
    tests: dict[str, Predicate] = {
        "<": lambda t, s, c: a(t, s, c) < b(t, s, c),
        "=": lambda t, s, c: a(t, s, c) == b(t, s, c),
        ">": lambda t, s, c: a(t, s, c) > b(t, s, c),
    }
    return f"{{{left}}} {op} {{{right}}}", tests[op]


def _parity(colour: str, even: bool) -> tuple[str, Predicate]:
    read = _digit(colour)
    word = "even" if even else "odd"
    return f"{{{colour}}} {word}", lambda t, s, c: (read(t, s, c) % 2 == 0) == even


def _how_many(digit: int, value: int) -> tuple[str, Predicate]:
    count = _count(digit)
    return f"#{digit} = {value}", lambda t, s, c: count(t, s, c) == value


def _extreme(colour: str, smallest: bool, strict: bool) -> tuple[str, Predicate]:
    read = _digit(colour)
    others = [_digit(o) for o in "tsc" if o != colour]
    if smallest:
        sign = "<" if strict else "≤"

        def test(t: int, s: int, c: int) -> bool:
            mine = read(t, s, c)
            return all((mine < o(t, s, c)) if strict else (mine <= o(t, s, c)) for o in others)
    else:
        sign = ">" if strict else "≥"

        def test(t: int, s: int, c: int) -> bool:
            mine = read(t, s, c)
            return all((mine > o(t, s, c)) if strict else (mine >= o(t, s, c)) for o in others)
    rest = ", ".join(f"{{{o}}}" for o in "tsc" if o != colour)
    return f"{{{colour}}} {sign} {rest}", test


def _sum_of(colours: str, op: str, value: int) -> tuple[str, Predicate]:
    reads = [_digit(colour) for colour in colours]
    tests: dict[str, Predicate] = {
        "<": lambda t, s, c: sum(r(t, s, c) for r in reads) < value,
        "=": lambda t, s, c: sum(r(t, s, c) for r in reads) == value,
        ">": lambda t, s, c: sum(r(t, s, c) for r in reads) > value,
    }
    text = " + ".join(f"{{{colour}}}" for colour in colours)
    return f"{text} {op} {value}", tests[op]


def _even_count(value: int) -> tuple[str, Predicate]:
    return f"#even = {value}", lambda t, s, c: _evens(t, s, c) == value


def _sum_multiple(divisor: int) -> tuple[str, Predicate]:
    return (f"{{t}} + {{s}} + {{c}} multiple of {divisor}",
            lambda t, s, c: (t + s + c) % divisor == 0)


def _label(text: str, test: Predicate) -> tuple[str, Predicate]:
    return text, test


Entry = tuple[str, Predicate]

# Criteria in the id order of turing_cards.md (index = position in each list).
_TABLE: dict[int, list[Entry]] = {
    1: [_compare("t", "=", 1), _compare("t", ">", 1)],
    2: [_compare("t", "<", 3), _compare("t", "=", 3), _compare("t", ">", 3)],
    3: [_compare("s", "<", 3), _compare("s", "=", 3), _compare("s", ">", 3)],
    4: [_compare("s", "<", 4), _compare("s", "=", 4), _compare("s", ">", 4)],
    5: [_parity("t", True), _parity("t", False)],
    6: [_parity("s", True), _parity("s", False)],
    7: [_parity("c", True), _parity("c", False)],
    8: [_how_many(1, n) for n in range(4)],
    9: [_how_many(3, n) for n in range(4)],
    10: [_how_many(4, n) for n in range(4)],
    11: [_pair("t", "<", "s"), _pair("t", "=", "s"), _pair("t", ">", "s")],
    12: [_pair("t", "<", "c"), _pair("t", "=", "c"), _pair("t", ">", "c")],
    13: [_pair("s", "<", "c"), _pair("s", "=", "c"), _pair("s", ">", "c")],
    14: [_extreme(colour, True, True) for colour in "tsc"],
    15: [_extreme(colour, False, True) for colour in "tsc"],
    16: [_label("#even ≥ 2", lambda t, s, c: _evens(t, s, c) >= 2),
         _label("#even ≤ 1", lambda t, s, c: _evens(t, s, c) <= 1)],
    17: [_even_count(n) for n in range(4)],
    18: [_label("{t} + {s} + {c} even", lambda t, s, c: (t + s + c) % 2 == 0),
         _label("{t} + {s} + {c} odd", lambda t, s, c: (t + s + c) % 2 == 1)],
    19: [_sum_of("ts", "<", 6), _sum_of("ts", "=", 6), _sum_of("ts", ">", 6)],
    20: [_label("triple", lambda t, s, c: t == s == c),
         _label("one pair", lambda t, s, c: len({t, s, c}) == 2),
         _label("all different", lambda t, s, c: len({t, s, c}) == 3)],
    21: [_label("no pair", lambda t, s, c: len({t, s, c}) != 2),
         _label("one pair", lambda t, s, c: len({t, s, c}) == 2)],
    22: [_label("{t} < {s} < {c}", lambda t, s, c: t < s < c),
         _label("{t} > {s} > {c}", lambda t, s, c: t > s > c),
         _label("neither ascending nor descending",
                lambda t, s, c: not t < s < c and not t > s > c)],
    23: [_sum_of("tsc", "<", 6), _sum_of("tsc", "=", 6), _sum_of("tsc", ">", 6)],
    24: [_label("+1 steps: 2 (run of 3)", lambda t, s, c: _ascending_steps(t, s, c) == 2),
         _label("+1 steps: 1 (run of 2)", lambda t, s, c: _ascending_steps(t, s, c) == 1),
         _label("+1 steps: 0", lambda t, s, c: _ascending_steps(t, s, c) == 0)],
    25: [_label("±1 runs: none",
                lambda t, s, c: _ascending_steps(t, s, c) == 0
                and _descending_steps(t, s, c) == 0),
         _label("±1 runs: 2 in a row",
                lambda t, s, c: _ascending_steps(t, s, c) == 1
                or _descending_steps(t, s, c) == 1),
         _label("±1 runs: 3 in a row",
                lambda t, s, c: _ascending_steps(t, s, c) == 2
                or _descending_steps(t, s, c) == 2)],
    26: [_compare(colour, "<", 3) for colour in "tsc"],
    27: [_compare(colour, "<", 4) for colour in "tsc"],
    28: [_compare(colour, "=", 1) for colour in "tsc"],
    29: [_compare(colour, "=", 3) for colour in "tsc"],
    30: [_compare(colour, "=", 4) for colour in "tsc"],
    31: [_compare(colour, ">", 1) for colour in "tsc"],
    32: [_compare(colour, ">", 3) for colour in "tsc"],
    33: [entry for colour in "tsc" for entry in (_parity(colour, True), _parity(colour, False))],
    34: [_extreme(colour, True, False) for colour in "tsc"],
    35: [_extreme(colour, False, False) for colour in "tsc"],
    36: [_sum_multiple(n) for n in (3, 4, 5)],
    37: [_sum_of(pair, "=", 4) for pair in ("ts", "tc", "sc")],
    38: [_sum_of(pair, "=", 6) for pair in ("ts", "tc", "sc")],
    39: [entry for colour in "tsc" for entry in (_compare(colour, "=", 1),
                                                _compare(colour, ">", 1))],
    40: [_compare(colour, op, 3) for colour in "tsc" for op in "<=>"],
    41: [_compare(colour, op, 4) for colour in "tsc" for op in "<=>"],
    42: [_extreme(colour, smallest, True) for colour in "tsc" for smallest in (True, False)],
    43: [_pair("t", "<", "s"), _pair("t", "<", "c"), _pair("t", "=", "s"),
         _pair("t", "=", "c"), _pair("t", ">", "s"), _pair("t", ">", "c")],
    44: [_pair("s", "<", "t"), _pair("s", "<", "c"), _pair("s", "=", "t"),
         _pair("s", "=", "c"), _pair("s", ">", "t"), _pair("s", ">", "c")],
    45: [_how_many(digit, n) for n in range(3) for digit in (1, 3)],
    46: [_how_many(digit, n) for n in range(3) for digit in (3, 4)],
    47: [_how_many(digit, n) for n in range(3) for digit in (1, 4)],
    48: [_pair("t", op, "s") for op in "<=>"] + [_pair("t", op, "c") for op in "<=>"]
        + [_pair("s", op, "c") for op in "<=>"],
}

# Printed as options but carried by no verification card (turing_cards.md, "Never secret").
NEVER_SECRET = frozenset({"8.3", "9.3", "10.3", "24.0"})

# What each card asks, in English; renderers may translate it by card number.
CARD_TOPICS: dict[int, str] = {
    1: "{t} compared to 1", 2: "{t} compared to 3", 3: "{s} compared to 3",
    4: "{s} compared to 4", 5: "{t} even or odd", 6: "{s} even or odd",
    7: "{c} even or odd", 8: "how many 1s", 9: "how many 3s", 10: "how many 4s",
    11: "{t} compared to {s}", 12: "{t} compared to {c}", 13: "{s} compared to {c}",
    14: "which colour is strictly smallest", 15: "which colour is strictly largest",
    16: "more even or more odd digits", 17: "how many even digits",
    18: "sum even or odd", 19: "{t} + {s} compared to 6",
    20: "a triple, a pair or all different", 21: "a pair or not",
    22: "ascending, descending or neither", 23: "sum compared to 6",
    24: "ascending run (+1 steps)", 25: "runs of consecutive digits (+1 or −1)",
    26: "one colour < 3", 27: "one colour < 4", 28: "one colour = 1", 29: "one colour = 3",
    30: "one colour = 4", 31: "one colour > 1", 32: "one colour > 3",
    33: "one colour even or odd", 34: "a colour is smallest (or tied)",
    35: "a colour is largest (or tied)", 36: "sum a multiple of 3, 4 or 5",
    37: "two colours sum to 4", 38: "two colours sum to 6", 39: "one colour compared to 1",
    40: "one colour compared to 3", 41: "one colour compared to 4",
    42: "one colour strictly smallest or largest", 43: "{t} compared to {s} or {c}",
    44: "{s} compared to {t} or {c}", 45: "how many 1s or how many 3s",
    46: "how many 3s or how many 4s", 47: "how many 1s or how many 4s",
    48: "one colour compared to another",
}


def _mask_of(test: Predicate) -> int:
    mask = 0
    for index, (t, s, c) in enumerate(CODES):
        if test(t, s, c):
            mask |= 1 << index
    return mask


def _build() -> dict[int, tuple[Criterion, ...]]:
    cards = {}
    for number, entries in _TABLE.items():
        cards[number] = tuple(
            Criterion(number, index, label, _mask_of(test),
                      f"{number}.{index}" not in NEVER_SECRET)
            for index, (label, test) in enumerate(entries))
    return cards


CARDS: dict[int, tuple[Criterion, ...]] = _build()
CRITERIA: dict[str, Criterion] = {c.id: c for card in CARDS.values() for c in card}


def secret_options(card: int) -> tuple[Criterion, ...]:
    """The criteria of ``card`` that can be a verifier's secret."""
    return tuple(c for c in CARDS[card] if c.secret_ok)


def criterion(criterion_id: str) -> Criterion:
    """The criterion with id ``card.index``; ``KeyError`` when there is none."""
    return CRITERIA[criterion_id]
