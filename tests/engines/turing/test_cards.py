"""The card table against the specification, evaluated independently."""

from __future__ import annotations

from itertools import product

from engines.turing.cards import CARDS, CRITERIA, NEVER_SECRET, codes_in, secret_options
from tests.helpers.turing_card_table import CARD_TABLE, spec_holds


def test_every_criterion_of_the_specification_has_its_codes() -> None:
    assert len(CARD_TABLE) == len(CRITERIA) == 183
    assert set(CARDS) == set(range(1, 49))
    for criterion_id, formula, count in CARD_TABLE:
        mine = CRITERIA[criterion_id]
        expected = {code for code in product(range(1, 6), repeat=3)
                    if spec_holds(formula, *code)}
        assert len(expected) == count, criterion_id
        assert set(codes_in(mine.mask)) == expected, criterion_id
        assert mine.mask.bit_count() == count


def test_criteria_without_a_verification_card_are_never_secret() -> None:
    assert {"8.3", "9.3", "10.3", "24.0"} == NEVER_SECRET
    for card, criteria in CARDS.items():
        secret = {c.id for c in secret_options(card)}
        assert secret == {c.id for c in criteria} - NEVER_SECRET
    assert all(criterion.label for criterion in CRITERIA.values())
