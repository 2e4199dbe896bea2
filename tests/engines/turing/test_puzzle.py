"""Puzzles: validity, candidate sets and shareable codes, on the known puzzles."""

from __future__ import annotations

import pytest

from engines.base import InvalidMove
from engines.turing.puzzle import Puzzle, decode_puzzle, puzzle_from_cards

KNOWN = [
    ((4, 9, 11, 14), (2, 4, 1), ("4.1", "9.0", "11.0", "14.2")),
    ((3, 7, 10, 14), (4, 3, 5), ("3.1", "7.1", "10.1", "14.1")),
    ((12, 16, 18, 19, 21), (3, 3, 4), ("12.0", "16.1", "18.0", "19.1", "21.1")),
    ((2, 5, 9, 15, 18, 22), (5, 1, 3), ("2.2", "5.1", "9.1", "15.0", "18.1", "22.2")),
]


@pytest.mark.parametrize(("cards", "code", "secret"), KNOWN)
def test_known_puzzles_are_valid(cards: tuple[int, ...], code: tuple[int, int, int],
                                 secret: tuple[str, ...]) -> None:
    puzzle = Puzzle("classic", tuple((card,) for card in cards), secret)
    assert puzzle.is_valid
    assert puzzle.code == code
    assert puzzle in puzzle_from_cards(cards, code=code)
    assert puzzle_from_cards(cards, criteria=secret) == [puzzle]


def test_challenge_one_has_exactly_two_candidate_codes_before_any_test() -> None:
    puzzle = Puzzle("classic", ((4,), (9,), (11,), (14,)), ("4.1", "9.0", "11.0", "14.2"))
    assert {c.code for c in puzzle.candidates("optimal")} == {(2, 2, 1), (2, 4, 1)}
    assert len({c.code for c in puzzle.candidates("par")}) > 2


def test_b63_yrw_4_needs_no_test() -> None:
    puzzle = Puzzle("classic", ((2,), (5,), (9,), (15,), (18,), (22,)),
                    ("2.2", "5.1", "9.1", "15.0", "18.1", "22.2"))
    assert {c.code for c in puzzle.candidates("optimal")} == {(5, 1, 3)}


@pytest.mark.parametrize("mode", ["classic", "extreme", "nightmare"])
def test_share_codes_round_trip(mode: str) -> None:
    verifiers = ((4, 30), (9, 1), (11, 40), (14, 20)) if mode == "extreme" \
        else ((4,), (9,), (11,), (14,))
    puzzle = Puzzle(mode, verifiers, ("4.1", "9.0", "11.0", "14.2"))
    code = puzzle.share_code()
    assert code.startswith("TM-")
    assert decode_puzzle(code) == puzzle
    assert decode_puzzle(code.lower().replace("0", "o")) == puzzle


@pytest.mark.parametrize("text", ["", "TM", "TM-C4E-", "TM-C4E-218SCG7H", "TM-Z4E-218SCG7G",
                                  "XX-C4E-218SCG7G", "TM-C9E-218SCG7G", "TM-C4E-2!8SCG7G"])
def test_codes_that_do_not_decode_are_refused(text: str) -> None:
    with pytest.raises(InvalidMove):
        decode_puzzle(text)


def test_a_typo_is_caught_by_the_check_character() -> None:
    good = Puzzle("classic", ((4,), (9,), (11,), (14,)),
                  ("4.1", "9.0", "11.0", "14.2")).share_code()
    head, body = good.rsplit("-", 1)
    for position in range(len(body) - 1):
        changed = "1" if body[position] != "1" else "2"
        typo = f"{head}-{body[:position]}{changed}{body[position + 1:]}"
        with pytest.raises(InvalidMove):
            decode_puzzle(typo)
