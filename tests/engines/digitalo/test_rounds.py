"""Digitalo rounds: the equal-moves ending (last move, answer, counter, accept), scoring, the
last round's view, drawn rounds, new rounds, and the match to 1000₂ with resigning, the move
limit and reshuffles.

``ending(...)``, South one gate before a complete pyramid, is in
``tests/helpers/digitalo_positions.py`` (the agents' tests play from it too).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.digitalo import new_game
from engines.digitalo.cards import binary, deck_cards, match_winners
from tests.helpers.digitalo_positions import (
    FIVE,
    NORTH,
    NORTH_PART,
    SEED_BITS,
    SOUTH,
    all_cards,
    ending,
    gates,
    inactive,
    position,
)
from tests.helpers.refusals import refusal

# --- the equal-moves ending, scoring and rounds ---------------------------------------------

def test_the_starter_completes_and_the_other_gets_one_last_move() -> None:
    state = ending()
    assert state.starter == SOUTH
    events = state.apply(SOUTH, "AND1 6")
    assert {"type": "last_move", "seat": NORTH, "completer": SOUTH} in events
    assert state.phase == "last move" and state.completer == SOUTH and state.turn == NORTH
    assert state.moves == [6, 5] and len(state.hands[SOUTH]) == 4
    view = state.view(None)
    assert view["phase"] == "last move" and view["completer"] == SOUTH
    state.apply(NORTH, "AND0 2")  # 1 AND 0 = 0: North's XOR0 on 4 is active again
    result = state.round_results[0]
    assert result["reason"] == "complete" and result["winner"] == SOUTH
    assert result["moves"] == [6, 6]
    assert result["empty"] == 2 and result["inactive"] == 0 and result["points"] == 2
    assert state.scores == [2, 0] and state.view(None)["scores_binary"] == ["0010", "0000"]
    assert state.view(None)["last_round"]["pyramids"][SOUTH]["6"] == "AND1"


def test_scoring_counts_empty_and_inactive_positions() -> None:
    # North's 4 lacks its input 2, so it is inactive: 3 empty (2, 5, 6) + 1 inactive.
    state = ending(moves=(5, 5), starter=NORTH)
    assert inactive(state, NORTH) == [4] and state.moves == [5, 6]
    events = state.apply(SOUTH, "AND1 6")  # moves now equal: the round ends at once
    over = next(e for e in events if e["type"] == "round_over")
    assert over["points"] == 4 and over["empty"] == 3 and over["inactive"] == 1
    assert over["inactive_positions"] == [[], [4]]
    assert over["scores_binary"] == ["0100", "0000"] and binary(4) == "0100"


def test_the_last_round_view_draws_the_final_pyramids_as_they_stood() -> None:
    """Issue 23.5: the board after a round's end shows its final pyramids, so the view
    hands them over like the live ones: each seat's reading and its gates with inputs."""
    state = ending(starter=NORTH)
    north_before = state.view(None)["pyramids"][NORTH]
    state.apply(SOUTH, "AND1 6")  # the round ends at once; the next one is dealt
    last = state.view(None)["last_round"]
    assert state.round == 2 and state.pyramids == [{}, {}]
    assert last["rows"] == [SEED_BITS, [0, 1, 0, 0]]
    assert last["gates"][NORTH] == north_before  # 4 lacks its input 2: inactive
    south = {g["position"]: g for g in last["gates"][SOUTH]}
    assert sorted(south) == [1, 2, 3, 4, 5, 6] and not any(g["inactive"] for g in south.values())
    assert south[1]["inputs"] == [1, 1] and south[6] == {
        "position": 6, "card": "AND1", "gate": "AND", "out": 1, "inputs": [1, 1],
        "inactive": False}
    assert last["unfit"] == [[], []]
    assert state.view(SOUTH)["last_round"] == last  # public: the same for every viewer


def test_the_last_round_view_names_gates_a_pending_flip_left_unfit() -> None:
    """The move limit ends the round on South's inverter, which stays pending: the final
    bit row is flipped, South's XOR1 on 2 and NAND1 on 3 (now on 1 1) still stand."""
    state = position(SEED_BITS, south=dict(FIVE), north=dict(NORTH_PART),
                     hands=(["INV", "AND0", "AND0", "AND0"], ["OR0", "OR0", "OR0", "OR0"]),
                     moves=(9, 10), max_moves=20)
    state.apply(SOUTH, "INV 3")
    last = state.view(None)["last_round"]
    assert last["reason"] == "max_moves" and last["bit_row"] == [1, 1, 1, 1]
    assert last["unfit"] == [[2, 3], []]  # North reads 0 0 0 0: its AND0s still fit
    assert {g["position"]: g["inputs"] for g in last["gates"][SOUTH]}[3] == [1, 1]


def test_a_stored_result_without_its_pyramids_is_shown_as_it_is() -> None:
    state = position(SEED_BITS, round=2)  # its result for round 1 has no bit row
    last = state.view(None)["last_round"]
    assert last == {"round": 1, "reason": "complete", "winner": None, "points": 0}
    state.round_results[-1].update(bit_row=[1, 0, 1, 1], pyramids=[{"9": "AND1"}, {}])
    assert "gates" not in state.view(None)["last_round"]  # no position 9 with 4 bits


def test_the_second_player_completing_ends_the_round_at_once() -> None:
    state = ending(starter=NORTH)
    state.apply(SOUTH, "AND1 6")
    assert state.round == 2 and state.scores == [4, 0]
    assert state.round_results[0]["moves"] == [6, 6]  # as often as the first player


def test_a_last_move_that_completes_the_other_pyramid_draws_the_round() -> None:
    north = {"1": "AND0", "2": "OR1", "3": "AND0", "4": "XOR1", "5": "OR1"}  # needs 6
    state = ending(north=north, north_hand=["AND0", "OR0", "XOR0", "XOR0"])
    state.apply(SOUTH, "AND1 6")
    assert "XOR0 6" in state.legal_actions(NORTH)
    state.apply(NORTH, "XOR0 6")
    result = state.round_results[0]
    assert result["reason"] == "both_complete" and result["winner"] is None
    assert result["points"] == 0 and state.scores == [0, 0] and state.round == 2


def test_a_new_round_deals_again_and_the_other_player_starts() -> None:
    state = ending()
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "AND0 2")
    assert state.round == 2 and state.starter == NORTH and state.turn == NORTH
    assert state.moves == [0, 0] and state.phase == "play" and state.completer is None
    assert state.pyramids == [{}, {}] and [len(h) for h in state.hands] == [4, 4]
    assert all_cards(state) == Counter(deck_cards(state.options)) and state.discard == []
    events = state.last_events
    assert [e["type"] for e in events][-4:] == ["round_over", "new_round", "dealt", "dealt"]
    assert all("private" not in e and "cards" not in e for e in events)
    view = state.view(None)
    assert view["round"] == 2 and view["round_starter"] == NORTH and view["first_player"] == \
        SOUTH
    assert view["rounds"] == [{"round": 1, "reason": "complete", "winner": SOUTH, "points": 2}]


def test_a_last_move_inverter_can_be_countered_and_the_last_move_is_taken_again() -> None:
    # North's last move flips bit 3 of its reading (South's 2): South's XOR1 on 2 would go.
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"],
                   south_hand=["AND1", "INV", "OR0", "XOR1"])
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "INV 3")
    assert state.phase == "answer" and state.turn == SOUTH
    assert state.view(None)["pending"]["would_remove"][SOUTH] == [2]
    assert state.legal_actions(SOUTH) == ["counter", "accept"]
    assert [c.token for c in state.menu(SOUTH, ())] == ["C", "OK"]
    assert refusal(state, SOUTH, "discard OR0").key == "digitalo.error.answer"
    state.apply(SOUTH, "counter")
    assert state.phase == "last move" and state.turn == NORTH and state.moves == [7, 6]
    assert state.bits == SEED_BITS and len(gates(state, SOUTH)) == 6
    state.apply(NORTH, "OR1 2")
    assert state.round == 2 and state.round_results[0]["moves"] == [7, 7]


def test_an_accepted_last_move_flip_that_leaves_the_pyramid_complete_ends_the_round() -> None:
    # North flips its bit 4 (South's bit 1): South's OR1 on 1 still sees 0 OR 1 = 1; North's
    # AND0 on 3 still sees 0 AND 1 = 0.
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"])
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "INV 4")
    assert state.legal_actions(SOUTH) == ["accept"]
    events = state.apply(SOUTH, "accept")
    assert [e["type"] for e in events[:3]] == ["accepted", "flip_resolved", "round_over"]
    assert state.round_results[0]["winner"] == SOUTH and state.round_results[0]["points"] == 4
    assert "accept" in state.actions


def test_an_accepted_last_move_flip_that_breaks_the_pyramid_lets_the_round_go_on() -> None:
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"])
    state.apply(SOUTH, "AND1 6")
    state.apply(NORTH, "INV 3")
    events = state.apply(SOUTH, "accept")
    assert events[-1] == {"type": "round_goes_on", "seat": SOUTH}
    assert state.phase == "play" and state.completer is None and state.turn == SOUTH
    assert state.round == 1 and state.moves == [6, 6]
    assert 2 not in gates(state, SOUTH) and inactive(state, SOUTH) == [4, 5, 6]


# --- the match ------------------------------------------------------------------------------

def test_the_match_ends_when_someone_reaches_8_points() -> None:
    state = ending(starter=NORTH, scores=(4, 3))  # South scores 4: 8 exactly
    events = state.apply(SOUTH, "AND1 6")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (SOUTH,)
    assert outcome.reason == "digitalo_points"
    assert outcome.detail == {"scores": [8, 3], "scores_binary": ["1000", "0011"], "rounds": 1}
    assert events[-1]["type"] == "game_over" and state.to_move() == []
    assert state.legal_actions(SOUTH) == state.legal_actions(NORTH) == []
    assert state.view(None)["to_move"] is None
    with pytest.raises(IllegalMove):
        state.apply(SOUTH, "OR0 1")


def test_seven_points_do_not_end_the_match() -> None:
    state = ending(starter=NORTH, scores=(3, 7))
    state.apply(SOUTH, "AND1 6")
    assert state.outcome() is None and state.scores == [7, 7] and state.round == 2


def test_the_higher_score_wins_and_equal_scores_draw() -> None:
    assert match_winners([8, 3]) == (0,) and match_winners([9, 12]) == (1,)
    assert match_winners([8, 8]) == ()
    # Only the completer scores in a round, so both cannot pass 8 together; the same rule
    # decides a match cut short by max_rounds.
    state = ending(starter=NORTH, scores=(0, 4), max_rounds=1)
    state.apply(SOUTH, "AND1 6")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.reason == "digitalo_max_rounds"
    assert outcome.detail["scores"] == [4, 4]


def test_resigning_and_abandoning() -> None:
    state = new_game({}, 2, 3)
    events = state.resign(NORTH)
    assert events[0]["winners"] == [SOUTH] and state.outcome() is not None
    with pytest.raises(IllegalMove):
        state.resign(SOUTH)
    other = new_game({}, 2, 3)
    other.abandon()
    assert other.outcome() is not None and other.outcome().is_draw  # type: ignore[union-attr]


def test_a_round_is_drawn_at_the_move_limit() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "XOR1"], ["OR0"] * 4),
                     moves=(10, 9), turn=NORTH, max_moves=20, free_discard=True)
    state.apply(NORTH, "discard OR0")
    result = state.round_results[0]
    assert result["reason"] == "max_moves" and result["points"] == 0
    assert state.round == 2 and state.scores == [0, 0]


def test_the_discard_pile_is_reshuffled_by_the_seed() -> None:
    def run() -> tuple[list[dict[str, Any]], list[str]]:
        state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "XOR1"], ["OR0"] * 4),
                         draw_size=0)
        events = state.apply(SOUTH, "OR1 1")
        return events, list(state.draw)
    events, draw = run()
    assert events[1]["type"] == "reshuffled" and events[1]["cards"] > 30
    assert run() == (events, draw)
