"""How many valid puzzles exist with a given number of cards.

Specification: ``shared/rules/turing.md`` (validity) and ``shared/rules/turing_cards.md``
(the facts to reproduce: 1,033,950 four-card puzzles over 108,839 card sets). A puzzle here
is a set of distinct cards with one secret criterion each, so card order does not count.

Why the search looks the way it does (pure Python, so every big-int operation counts):

* **Cards in increasing order, grouped by card prefix.** Each card set is then met once,
  and all criterion choices of one prefix of cards travel together as a list of states.
  That costs nothing over a plain depth-first search, and it turns counting card sets into
  a per-prefix question ("which last cards complete at least one of these states?")
  instead of a set of every card tuple seen.
* **Pruning by private sets.** A criterion is non-redundant exactly when some code fails it
  and passes all the others: its private set. Adding criteria can only shrink a private
  set, and the newcomer's starts as the codes of the running intersection it rules out, so
  an empty one ends the branch for good. Each criterion still to come needs private codes
  of its own inside the running intersection, apart from the answer, so an intersection
  with no more codes than criteria still to come ends the branch too.
* **The last card is not looped over.** Almost all the work is at the last level: trying
  every criterion of every remaining card against each state. Instead, for each code a
  bitset over criterion indices says which criteria accept it. Folding those over the few
  codes of the running intersection with the once/twice trick (``twice |= once & h;
  once |= h``) yields every criterion that leaves exactly one code, at a cost that depends
  on the size of the intersection (about eight codes for four cards) and not on the ~150
  criteria still available. Only those candidates (about six per state) are checked
  against the private sets, and the survivors stay a bitset: ``bit_count`` counts the
  puzzles, and ``|`` over a prefix's states collects the last cards that complete it.
* Bits are looked up in dicts keyed by the isolated low bit (``mask & -mask``), which in
  CPython is a little cheaper than turning the bit into a list index with ``bit_length``.

With four cards about 340,000 states reach the last level; with five, about 3.7 million.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engines.turing.cards import ALL_CODES, CARD_NUMBERS, CODE_COUNT, secret_options

MAX_CARDS = 6

State = tuple[int, tuple[int, ...]]
"""A running intersection of codes and the private set of each criterion chosen so far."""


@dataclass(frozen=True)
class CountResult:
    """Valid puzzles with ``cards`` distinct cards, and the card sets that have any."""

    cards: int
    puzzles: int
    card_sets: int

    def to_dict(self) -> dict[str, int]:
        return {"cards": self.cards, "puzzles": self.puzzles, "card_sets": self.card_sets}


@dataclass(frozen=True)
class _Tables:
    masks: tuple[tuple[int, ...], ...]
    """``masks[card]``: the code masks of the card's secret criteria (index 0 unused)."""
    later: tuple[int, ...]
    """``later[card]``: bitset of the criterion indices on cards ``card`` and above."""
    card_bits: tuple[int, ...]
    """``card_bits[card]``: bitset of that card's criterion indices."""
    holders: dict[int, int]
    """Code bit -> bitset of the criterion indices whose criteria accept that code."""
    mask_of: dict[int, int]
    """Criterion bit (``1 << index``) -> that criterion's code mask."""


def _build_tables() -> _Tables:
    masks: list[tuple[int, ...]] = [()]
    card_bits = [0]
    mask_of: dict[int, int] = {}
    holders = dict.fromkeys((1 << code for code in range(CODE_COUNT)), 0)
    index = 0
    for card in CARD_NUMBERS:
        card_masks = tuple(criterion.mask for criterion in secret_options(card))
        masks.append(card_masks)
        bits = 0
        for mask in card_masks:
            bit = 1 << index
            bits |= bit
            mask_of[bit] = mask
            for code_bit in holders:
                if mask & code_bit:
                    holders[code_bit] |= bit
            index += 1
        card_bits.append(bits)
    later = [0] * (len(masks) + 1)
    for card in range(len(masks) - 1, 0, -1):
        later[card] = later[card + 1] | card_bits[card]
    return _Tables(tuple(masks), tuple(later), tuple(card_bits), holders, mask_of)


@cache
def _tables() -> _Tables:
    return _build_tables()


def count_puzzles(cards: int) -> CountResult:
    """The number of valid puzzles with ``cards`` distinct cards (1 to 6), and of distinct
    card sets with at least one valid puzzle."""
    if not 1 <= cards <= MAX_CARDS:
        raise ValueError(f"cards must be 1 to {MAX_CARDS}, not {cards}")
    tables = _tables()
    last_card = len(tables.masks) - 1
    puzzles = 0
    card_sets = 0

    def finish(first: int, states: list[State]) -> None:
        """Counts the completions of one card prefix by a single card ``first`` or later."""
        nonlocal puzzles, card_sets
        holders = tables.holders
        mask_of = tables.mask_of
        allowed = tables.later[first]
        completing = 0
        for common, privates in states:
            once = twice = 0
            rest = common
            while rest:
                low = rest & -rest
                holding = holders[low]
                twice |= once & holding
                once |= holding
                rest ^= low
            # Exactly one code left; the newcomer's own private set is the rest of
            # ``common``, never empty because ``extend`` keeps two codes or more.
            candidates = once & ~twice & allowed
            valid = 0
            while candidates:
                low = candidates & -candidates
                mask = mask_of[low]
                for private in privates:
                    if not private & mask:
                        break
                else:
                    valid |= low
                candidates ^= low
            if valid:
                puzzles += valid.bit_count()
                completing |= valid
        if completing:
            card_bits = tables.card_bits
            card_sets += sum(1 for card in range(first, last_card + 1)
                             if completing & card_bits[card])

    def extend(depth: int, first: int, states: list[State]) -> None:
        """Grows the card prefix of ``depth`` cards by each card from ``first`` on."""
        if depth == cards - 1:
            finish(first, states)
            return
        still_to_come = cards - depth - 1
        masks = tables.masks
        for card in range(first, last_card + 1 - still_to_come):
            grown: list[State] = []
            for common, privates in states:
                for mask in masks[card]:
                    narrowed = common & mask
                    if narrowed.bit_count() <= still_to_come:
                        continue
                    mine = common & ~mask
                    if not mine:
                        continue
                    kept = tuple(private & mask for private in privates)
                    if all(kept):
                        grown.append((narrowed, (*kept, mine)))
            if grown:
                extend(depth + 1, card + 1, grown)

    extend(0, CARD_NUMBERS[0], [(ALL_CODES, ())])
    return CountResult(cards, puzzles, card_sets)
