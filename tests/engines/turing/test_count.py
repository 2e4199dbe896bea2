"""Counting valid puzzles: the fast search against a plain brute force, and the published
totals of shared/rules/turing_cards.md.

The brute force reads the criteria from the specification's table
(tests/helpers/turing_card_table.py) as sets of code tuples, so it shares nothing with
engines/turing beyond the rules."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, product

import pytest

from engines.turing.count import CountResult, count_puzzles
from engines.turing.puzzle import puzzle_from_cards
from tests.helpers.turing_card_table import ALL_CODES, NO_VERIFICATION_CARD, spec_codes

Code = tuple[int, int, int]
Codes = frozenset[Code]
CODES: Codes = ALL_CODES
NEVER_SECRET = NO_VERIFICATION_CARD
CRITERIA = spec_codes()


def _secret_options() -> dict[int, list[Codes]]:
    options: dict[int, list[Codes]] = {}
    for criterion_id, codes in CRITERIA.items():
        if criterion_id not in NEVER_SECRET:
            options.setdefault(int(criterion_id.split(".")[0]), []).append(codes)
    return options


OPTIONS = _secret_options()


def _codes_left(criteria: Sequence[Codes]) -> Codes:
    return CODES.intersection(*criteria)


def _valid(criteria: Sequence[Codes]) -> bool:
    if len(_codes_left(criteria)) != 1:
        return False
    return all(len(_codes_left([*criteria[:i], *criteria[i + 1:]])) > 1
               for i in range(len(criteria)))


def _brute_force(size: int, cards: Iterable[int] = range(1, 49)) -> tuple[int, int]:
    """(valid puzzles, card sets with one or more) over every ``size`` cards of ``cards``."""
    puzzles = card_sets = 0
    for chosen_cards in combinations(cards, size):
        found = sum(1 for criteria in product(*(OPTIONS[card] for card in chosen_cards))
                    if _valid(criteria))
        puzzles += found
        card_sets += found > 0
    return puzzles, card_sets


def test_the_brute_force_checker_on_the_rulebook_puzzles() -> None:
    assert len(CRITERIA) == 183 and len(OPTIONS) == 48
    first = [CRITERIA[i] for i in ("4.1", "9.0", "11.0", "14.2")]
    assert _valid(first) and _codes_left(first) == {(2, 4, 1)}
    assert not _valid([*first, CRITERIA["1.1"]])  # t > 1 adds nothing: redundant
    assert not _valid(first[:3])  # more than one code remains
    assert _valid([CRITERIA[i] for i in ("3.1", "7.1", "10.1", "14.1")])
    assert _brute_force(2, (1, 2)) == (0, 0)  # t alone never pins a code


@pytest.mark.parametrize("cards", [(4, 9, 11, 14), (3, 7, 10, 14), (12, 16, 18, 19, 21),
                                   (2, 5, 9, 15, 18, 22)])
def test_the_brute_force_agrees_with_the_engine_on_known_card_sets(
        cards: tuple[int, ...]) -> None:
    found = _brute_force(len(cards), cards)
    assert found[0] == len(puzzle_from_cards(cards)) >= 1
    assert found[1] == 1


@pytest.mark.parametrize("size", [1, 2, 3])
def test_small_sizes_match_the_brute_force(size: int) -> None:
    result = count_puzzles(size)
    assert (result.puzzles, result.card_sets) == _brute_force(size)


def test_four_cards_match_the_published_count() -> None:
    assert count_puzzles(4) == CountResult(cards=4, puzzles=1_033_950, card_sets=108_839)


def test_result_as_a_dict() -> None:
    assert count_puzzles(2).to_dict() == {"cards": 2, "puzzles": 379, "card_sets": 139}


@pytest.mark.parametrize("size", [0, 7, -1])
def test_sizes_out_of_range_are_refused(size: int) -> None:
    with pytest.raises(ValueError):
        count_puzzles(size)


@pytest.mark.slow
def test_two_to_six_cards_match_the_published_total() -> None:
    assert sum(count_puzzles(size).puzzles for size in range(2, 7)) == 20_881_150
