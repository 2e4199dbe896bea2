"""Puzzles, their validity, the candidate sets of deduction, and shareable puzzle codes.

Specification: ``shared/rules/turing.md``. Decisions the rules leave to the engine:

* A puzzle has verifiers ``A``… in order. ``verifiers[i]`` is the tuple of cards verifier
  ``i`` shows: one card, or two in extreme mode, where ``secret[i]`` lies on one of them. In
  nightmare mode ``verifiers[i]`` is the card really behind letter ``i``; players see only
  the sorted set of cards (``shown_cards``).
* A **candidate** is one criterion per verifier letter, as the players could imagine it: a
  test of letter ``i`` answers ``criteria[i].accepts(proposal)``. Classic, extreme and
  nightmare differ only in which candidates exist.
* Deduction has two levels. ``optimal`` candidates are valid assignments (one code, no
  verifier redundant); ``par`` candidates only need to leave exactly one code.
* Puzzle codes encode the puzzle's content, not a generator seed, so a code stays valid when
  the generator changes: ``TM-<mode><verifiers><difficulty>-<base32 payload><check>``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations, product

from engines.base import JSON, InvalidMove, StateError
from engines.turing.cards import (
    CARD_NUMBERS,
    CARDS,
    CRITERIA,
    Code,
    Criterion,
    codes_in,
    secret_options,
)

MODES = ("classic", "extreme", "nightmare")
DIFFICULTIES = ("easy", "standard", "hard")
LEVELS = ("optimal", "par")
SIZES = (4, 5, 6)
LETTERS = "ABCDEF"
MAX_TESTS_PER_ROUND = 3


def difficulty_of(cards: Sequence[int]) -> str:
    """The official band: easy all ≤ 17, standard highest 18–22, hard any ≥ 23."""
    highest = max(cards)
    if highest <= 17:
        return "easy"
    if highest <= 22:
        return "standard"
    return "hard"


def single_code(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0


def is_valid(masks: Sequence[int]) -> bool:
    """Exactly one code satisfies all, and without any one of them more than one would."""
    if not masks:
        return False
    common = -1
    for mask in masks:
        common &= mask
    if not single_code(common):
        return False
    for skipped in range(len(masks)):
        rest = -1
        for index, mask in enumerate(masks):
            if index != skipped:
                rest &= mask
        if single_code(rest):
            return False
    return True


def assignments(options: Sequence[Sequence[Criterion]], irredundant: bool = True
                ) -> Iterator[tuple[Criterion, ...]]:
    """Every choice of one criterion per entry of ``options`` that leaves exactly one code,
    and, when ``irredundant``, in which no criterion is redundant.

    Depth-first with pruning: ``private[i]`` holds the codes that only criterion ``i``
    rules out among the others so far; it can only shrink, so an empty one ends the branch.
    """
    count = len(options)
    chosen: list[Criterion] = []

    def extend(depth: int, common: int, private: tuple[int, ...]
               ) -> Iterator[tuple[Criterion, ...]]:
        if depth == count:
            if single_code(common):
                yield tuple(chosen)
            return
        for option in options[depth]:
            narrowed = common & option.mask
            if not narrowed:
                continue
            if irredundant:
                mine = common & ~option.mask
                if depth and not mine:
                    continue
                kept = tuple(p & option.mask for p in private)
                if not all(kept):
                    continue
                next_private = (*kept, mine)
            else:
                next_private = private
            chosen.append(option)
            yield from extend(depth + 1, narrowed, next_private)
            chosen.pop()

    yield from extend(0, -1, ())


@dataclass(frozen=True)
class Candidate:
    """One way the puzzle could be: a criterion per verifier letter, and its code."""

    criteria: tuple[Criterion, ...]
    code: Code

    @property
    def masks(self) -> tuple[int, ...]:
        return tuple(c.mask for c in self.criteria)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.criteria)


def code_of(criteria: Sequence[Criterion]) -> Code:
    common = -1
    for chosen in criteria:
        common &= chosen.mask
    return codes_in(common & ((1 << 125) - 1))[0]


@dataclass(frozen=True)
class Puzzle:
    mode: str
    verifiers: tuple[tuple[int, ...], ...]
    secret: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise StateError(f"unknown mode {self.mode!r}")
        if len(self.verifiers) != len(self.secret) or not 1 <= len(self.verifiers) <= 6:
            raise StateError("a puzzle needs 1 to 6 verifiers, each with a secret")
        shown = [card for cards in self.verifiers for card in cards]
        if len(set(shown)) != len(shown) or any(c not in CARD_NUMBERS for c in shown):
            raise StateError("puzzle cards must be distinct card numbers 1-48")
        per_verifier = 2 if self.mode == "extreme" else 1
        for cards, secret_id in zip(self.verifiers, self.secret, strict=True):
            chosen = CRITERIA.get(secret_id)
            if len(cards) != per_verifier or chosen is None or chosen.card not in cards \
                    or not chosen.secret_ok:
                raise StateError(f"secret {secret_id} does not fit verifier cards {cards}")

    @property
    def size(self) -> int:
        return len(self.verifiers)

    @property
    def letters(self) -> str:
        return LETTERS[:self.size]

    @property
    def all_cards(self) -> tuple[int, ...]:
        return tuple(sorted(card for cards in self.verifiers for card in cards))

    @property
    def shown_cards(self) -> tuple[int, ...]:
        """Nightmare shows the cards without their letters, so always sorted there."""
        return self.all_cards

    @property
    def difficulty(self) -> str:
        return difficulty_of(self.all_cards)

    @property
    def secret_criteria(self) -> tuple[Criterion, ...]:
        return tuple(CRITERIA[i] for i in self.secret)

    @property
    def code(self) -> Code:
        return code_of(self.secret_criteria)

    @property
    def is_valid(self) -> bool:
        return is_valid([c.mask for c in self.secret_criteria])

    def answer(self, letter_index: int, proposal: Code) -> bool:
        return self.secret_criteria[letter_index].accepts(proposal)

    def candidates(self, level: str = "optimal") -> list[Candidate]:
        """Every way the puzzle could be, as players who know only the shown cards see it."""
        irredundant = level == "optimal"
        found: list[Candidate] = []
        if self.mode == "classic":
            options = [secret_options(cards[0]) for cards in self.verifiers]
            for chosen in assignments(options, irredundant):
                found.append(Candidate(chosen, code_of(chosen)))
        elif self.mode == "extreme":
            for picks in product(*self.verifiers):
                options = [secret_options(card) for card in picks]
                for chosen in assignments(options, irredundant):
                    found.append(Candidate(chosen, code_of(chosen)))
        else:
            cards = self.all_cards
            options = [secret_options(card) for card in cards]
            for chosen in assignments(options, irredundant):
                code = code_of(chosen)
                for order in permutations(range(len(cards))):
                    found.append(Candidate(tuple(chosen[i] for i in order), code))
        return found

    def to_dict(self) -> JSON:
        return {"mode": self.mode, "verifiers": [list(v) for v in self.verifiers],
                "secret": list(self.secret)}

    @classmethod
    def from_dict(cls, data: JSON) -> Puzzle:
        try:
            return cls(str(data["mode"]), tuple(tuple(int(c) for c in v)
                                                for v in data["verifiers"]),
                       tuple(str(s) for s in data["secret"]))
        except (KeyError, TypeError, ValueError) as error:
            raise StateError(f"bad puzzle: {error}") from None

    # ------------------------------------------------------------ shareable codes
    def share_code(self) -> str:
        return encode_puzzle(self)


_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
_MODE_LETTER = {"classic": "C", "extreme": "X", "nightmare": "N"}
_DIFFICULTY_LETTER = {"easy": "E", "standard": "S", "hard": "H"}
_MAX_CRITERIA = max(len(card) for card in CARDS.values())


def _payload_number(puzzle: Puzzle) -> int:
    """Mixed radix: per verifier, its cards (48 each) and the secret's index on the
    verifier's cards; nightmare needs nothing more, because the letters are the order."""
    number = 0
    for cards, secret_id in zip(puzzle.verifiers, puzzle.secret, strict=True):
        chosen = CRITERIA[secret_id]
        for card in cards:
            number = number * 48 + (card - 1)
        slot = cards.index(chosen.card) * _MAX_CRITERIA + chosen.index
        number = number * (_MAX_CRITERIA * len(cards)) + slot
    return number


def _checksum(text: str) -> str:
    total = 0
    for position, char in enumerate(text):
        total = (total * 31 + (position + 1) * ord(char)) % 1021
    return _ALPHABET[total % 32]


def encode_puzzle(puzzle: Puzzle) -> str:
    number = _payload_number(puzzle)
    digits = ""
    while True:
        number, rest = divmod(number, 32)
        digits = _ALPHABET[rest] + digits
        if not number:
            break
    head = (f"{_MODE_LETTER[puzzle.mode]}{puzzle.size}"
            f"{_DIFFICULTY_LETTER[puzzle.difficulty]}")
    return f"TM-{head}-{digits}{_checksum(head + digits)}"


# A real code (the README's example, tested to decode), shown to whoever mistypes one.
EXAMPLE_PUZZLE_CODE = "TM-C4E-218SCG7G"


def _bad_code(text: str) -> InvalidMove:
    # The typed text is not repeated: it may be anything, up to a whole pasted message.
    return InvalidMove("turing.error.bad_puzzle_code",
                       "That is not a valid puzzle code; codes look like {example}.",
                       example=EXAMPLE_PUZZLE_CODE)


def decode_puzzle(text: str) -> Puzzle:
    """The puzzle of a shareable code; ``InvalidMove`` when it does not decode."""
    cleaned = text.strip().upper().replace("O", "0").replace("I", "1").replace("L", "1")
    parts = cleaned.split("-")
    if len(parts) != 3 or parts[0] != "TM" or len(parts[1]) != 3 or len(parts[2]) < 2:
        raise _bad_code(text)
    head, body = parts[1], parts[2]
    digits, check = body[:-1], body[-1]
    modes = {v: k for k, v in _MODE_LETTER.items()}
    difficulties = {v: k for k, v in _DIFFICULTY_LETTER.items()}
    if (head[0] not in modes or not head[1].isdigit() or head[2] not in difficulties
            or any(ch not in _ALPHABET for ch in body) or _checksum(head + digits) != check):
        raise _bad_code(text)
    mode, size = modes[head[0]], int(head[1])
    if size not in SIZES:
        raise _bad_code(text)
    number = 0
    for char in digits:
        number = number * 32 + _ALPHABET.index(char)
    per_verifier = 2 if mode == "extreme" else 1
    verifiers: list[tuple[int, ...]] = []
    secrets: list[str] = []
    for _ in range(size):
        number, slot = divmod(number, _MAX_CRITERIA * per_verifier)
        cards: list[int] = []
        for _ in range(per_verifier):
            number, card = divmod(number, 48)
            cards.insert(0, card + 1)
        card_position, index = divmod(slot, _MAX_CRITERIA)
        verifiers.insert(0, tuple(cards))
        secrets.insert(0, f"{cards[card_position]}.{index}")
    if number:
        raise _bad_code(text)
    try:
        puzzle = Puzzle(mode, tuple(verifiers), tuple(secrets))
    except StateError:
        raise _bad_code(text) from None
    if not puzzle.is_valid or difficulties[head[2]] != puzzle.difficulty:
        raise _bad_code(text)
    return puzzle


def puzzle_from_cards(cards: Sequence[int], code: Code | None = None,
                      criteria: Sequence[str] | None = None,
                      mode: str = "classic") -> list[Puzzle]:
    """Every valid puzzle a booklet or app entry can be: the verifiers' cards in letter
    order, optionally narrowed by the printed solution code or the secret criteria.

    Returns the puzzles in a fixed order; an empty list means no valid puzzle fits.
    """
    if mode == "extreme":
        raise InvalidMove("turing.error.extreme_by_cards",
                          "Extreme puzzles cannot be entered by card numbers; use a puzzle "
                          "code.")
    if not 1 <= len(cards) <= 6 or len(set(cards)) != len(cards) \
            or any(card not in CARD_NUMBERS for card in cards):
        raise InvalidMove("turing.error.bad_cards",
                          "Give 1 to 6 different card numbers from 1 to 48, such as 4,9,11,14.")
    verifiers = tuple((card,) for card in cards)
    found = []
    for chosen in assignments([secret_options(card) for card in cards]):
        ids = tuple(c.id for c in chosen)
        if criteria is not None and tuple(criteria) != ids:
            continue
        if code is not None and code_of(chosen) != code:
            continue
        found.append(Puzzle(mode, verifiers, ids))
    return found
