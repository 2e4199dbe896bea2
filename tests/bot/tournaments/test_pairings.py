"""Tournament pairing and standings (``bot.tournaments.pairings``): hand-checked examples, and
properties over random fields and results (hypothesis)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.pairings import (
    DRAW,
    FIRST_WINS,
    NO_RESULT,
    ROUND_ROBIN,
    SECOND_WINS,
    SWISS,
    Bracket,
    BracketError,
    round_robin_round,
    swiss_pairs,
)

RESULTS = (FIRST_WINS, SECOND_WINS, DRAW, NO_RESULT)


def players(count: int) -> list[dict[str, Any]]:
    return [{"kind": "human", "platform": "test", "id": str(i), "name": f"P{i}"}
            for i in range(count)]


def play_round(bracket: Bracket, results: list[str]) -> None:
    for board, pairing in enumerate(bracket.current_round):
        if pairing.result is None:
            bracket.record(len(bracket.rounds) - 1, board, results[board % len(results)])


def no_one_twice(round_: list[Any], count: int) -> None:
    seen = [p.first for p in round_] + [p.second for p in round_ if p.second is not None]
    assert len(seen) == len(set(seen)) == count


# ----------------------------------------------------------------- examples
def test_round_robin_of_four_is_three_rounds_of_every_pair_once() -> None:
    bracket = Bracket.start(ROUND_ROBIN, players(4))
    assert bracket.rounds_planned == 3
    for _ in range(3):
        bracket.pair_next_round()
        play_round(bracket, [FIRST_WINS])
    assert bracket.finished()
    assert bracket.met() == {frozenset(pair) for pair in itertools.combinations(range(4), 2)}


def test_swiss_of_four_pairs_winners_then_avoids_the_rematch() -> None:
    bracket = Bracket.start(SWISS, players(4))
    assert bracket.rounds_planned == 2
    first = bracket.pair_next_round()
    assert {frozenset((p.first, p.second)) for p in first} == {frozenset((0, 1)),
                                                                frozenset((2, 3))}
    bracket.record(0, 0, FIRST_WINS)
    bracket.record(0, 1, FIRST_WINS)
    winners = {p.first for p in first}
    second = bracket.pair_next_round()
    # The two winners meet on board 1, the two losers on board 2, nobody again.
    assert {second[0].first, second[0].second} == winners
    assert not ({frozenset((p.first, p.second)) for p in second}
                & {frozenset((p.first, p.second)) for p in first})
    # Both winners moved first in round 1: one of them must move second now, and so the
    # first move of round 2 goes by rank (board 1) and to the other loser (board 2).
    assert sorted(bracket.first_moves()) == [0, 1, 1, 2]


def test_the_bye_goes_to_the_lowest_ranked_and_scores_a_point() -> None:
    bracket = Bracket.start(SWISS, players(5))
    first = bracket.pair_next_round()
    assert first[-1].second is None and first[-1].first == 4
    assert bracket.scores()[4] == 1.0
    play_round(bracket, [FIRST_WINS])
    second = bracket.pair_next_round()
    bye = second[-1]
    assert bye.second is None and bye.first != 4


def test_buchholz_and_sonneborn_berger_by_hand() -> None:
    # Round-robin of three: P0 beats P1, P1 beats P2, P2 draws P0.
    bracket = Bracket.start(ROUND_ROBIN, players(3))
    for _ in range(3):
        bracket.pair_next_round()
        for board, pairing in enumerate(bracket.current_round):
            if pairing.second is None:
                continue
            pair = {pairing.first, pairing.second}
            winner = 0 if pair == {0, 1} else 1 if pair == {1, 2} else None
            result = (DRAW if winner is None
                      else FIRST_WINS if pairing.first == winner else SECOND_WINS)
            bracket.record(len(bracket.rounds) - 1, board, result)
    # Scores: P0 1 + 0.5 + bye 1 = 2.5; P1 1 + 1 = 2; P2 0.5 + 1 = 1.5.
    assert bracket.scores() == [2.5, 2.0, 1.5]
    # Sonneborn-Berger: P0 = 2 (P1) * 1 + 1.5 (P2) * 0.5 = 2.75; P1 = 1.5 * 1 = 1.5;
    # P2 = 2.5 * 0.5 = 1.25.
    assert bracket.tiebreaks() == [2.75, 1.5, 1.25]
    swiss = Bracket(SWISS, 3, bracket.players, bracket.rounds)
    # Buchholz: the opponents' scores summed: P0 2 + 1.5, P1 2.5 + 1.5, P2 2.5 + 2.
    assert swiss.tiebreaks() == [3.5, 4.0, 4.5]


def test_standings_share_a_rank_only_when_score_and_tiebreak_are_equal() -> None:
    bracket = Bracket.start(SWISS, players(4))
    bracket.pair_next_round()
    play_round(bracket, [DRAW])
    ranks = [s.rank for s in bracket.standings()]
    assert ranks == [1, 1, 1, 1]


def test_a_result_is_final_and_rounds_wait_for_each_other() -> None:
    bracket = Bracket.start(SWISS, players(4))
    bracket.pair_next_round()
    with pytest.raises(BracketError):
        bracket.pair_next_round()
    assert bracket.record(0, 0, FIRST_WINS)
    assert not bracket.record(0, 0, SECOND_WINS)
    assert bracket.current_round[0].result == FIRST_WINS


def test_json_round_trip_and_refusals() -> None:
    bracket = Bracket.start(SWISS, players(5), rounds=3)
    bracket.pair_next_round()
    bracket.record(0, 0, FIRST_WINS)
    again = Bracket.from_dict(bracket.to_dict())
    assert again.to_dict() == bracket.to_dict()
    broken = bracket.to_dict()
    broken["rounds"][0][0]["second"] = 99
    with pytest.raises(BracketError):
        Bracket.from_dict(broken)
    with pytest.raises(BracketError):
        Bracket.from_dict({"format": "knockout"})
    with pytest.raises(BracketError):
        Bracket.start(SWISS, players(1))


# ----------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 12))
def test_round_robin_plays_every_pair_exactly_once(count: int) -> None:
    pairs = sorted(tuple(sorted((a, b))) for index in range(count - 1 if count % 2 == 0
                                                            else count)
                   for a, b in round_robin_round(count, index) if b is not None)
    assert pairs == list(itertools.combinations(range(count), 2))
    for index in range(count):
        seen = [p for pair in round_robin_round(count, index) for p in pair if p is not None]
        assert len(seen) == len(set(seen)) == count


@settings(max_examples=80, deadline=None)
@given(count=st.integers(2, 11), seed=st.integers(0, 10**6),
       format=st.sampled_from((SWISS, ROUND_ROBIN)))
def test_whole_tournaments(count: int, seed: int, format: str) -> None:
    rng = random.Random(seed)
    rounds = rng.randint(1, count) if format == SWISS else None
    bracket = Bracket.start(format, players(count), rounds)
    byes_seen: list[int] = []
    while not bracket.finished():
        met_before = bracket.met()
        round_ = bracket.pair_next_round()
        no_one_twice(round_, count)
        byes = [p.first for p in round_ if p.second is None]
        assert len(byes) == count % 2
        for bye in byes:
            # Fair byes: a second one only once everyone has had one.
            if set(byes_seen) != set(range(count)):
                assert bye not in byes_seen
            byes_seen.append(bye)
        if format == SWISS and rematch_free_round_exists(count, met_before, byes_seen[:-1]
                                                         if byes else byes_seen):
            assert not ({frozenset((p.first, p.second)) for p in round_
                         if p.second is not None} & met_before)
        for board, pairing in enumerate(round_):
            if pairing.result is None:
                bracket.record(len(bracket.rounds) - 1, board, rng.choice(RESULTS))
    standings = bracket.standings()
    assert sorted(s.player for s in standings) == list(range(count))
    assert [s.score for s in standings] == sorted((s.score for s in standings), reverse=True)
    assert sum(bracket.scores()) <= len(list(bracket.pairings()))
    assert Bracket.from_dict(bracket.to_dict()).standings() == standings


def rematch_free_round_exists(count: int, met: set[frozenset[int]], byes: list[int]) -> bool:
    """Brute force: a pairing of everyone with no pair in ``met``, whose bye (odd count)
    goes to someone without one while anyone is."""
    people = list(range(count))
    fresh = [p for p in people if p not in byes] or people
    sitters: list[int | None] = list(fresh) if count % 2 else [None]

    def matchable(left: list[int]) -> bool:
        if not left:
            return True
        top, rest = left[0], left[1:]
        return any(frozenset((top, other)) not in met
                   and matchable(rest[:i] + rest[i + 1:]) for i, other in enumerate(rest))

    return any(matchable([p for p in people if p != sitter]) for sitter in sitters)


@settings(max_examples=100, deadline=None)
@given(count=st.integers(2, 10), data=st.data())
def test_swiss_pairs_avoid_rematches_whenever_possible(count: int, data: st.DataObject) -> None:
    all_pairs = [frozenset(p) for p in itertools.combinations(range(count), 2)]
    met = set(data.draw(st.lists(st.sampled_from(all_pairs), max_size=len(all_pairs))))
    byes = data.draw(st.lists(st.integers(0, count - 1), unique=True, max_size=count))
    ranking = data.draw(st.permutations(range(count)))
    pairs = swiss_pairs(list(ranking), met, byes)
    seen = [p for pair in pairs for p in pair if p is not None]
    assert sorted(seen) == list(range(count))
    sitters = [a for a, b in pairs if b is None]
    if sitters and set(byes) != set(range(count)):
        assert sitters[0] not in byes
    if rematch_free_round_exists(count, met, byes):
        assert not any(frozenset(pair) in met for pair in pairs if pair[1] is not None)
