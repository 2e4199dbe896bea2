"""Turing Machine game flow: rounds, tests, guesses, elimination, winners, bad input."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import GameError, IllegalMove, InvalidMove, NotYourTurn
from engines.turing import make_agent, new_game
from engines.turing.puzzle import Puzzle
from engines.turing.rules import OPTIONS
from engines.turing.state import TuringState, replay

CHALLENGE_ONE = Puzzle("classic", ((4,), (9,), (11,), (14,)), ("4.1", "9.0", "11.0", "14.2"))
DEFAULTS = {spec.name: spec.default for spec in OPTIONS}
PAR = {"par": {"score": [1, 3], "worst": [1, 3]}, "optimal": {"score": [1, 1], "worst": [1, 1]}}


def challenge(players: int = 1, **options: object) -> TuringState:
    return TuringState({**DEFAULTS, **options}, players, 7, CHALLENGE_ONE, PAR)


def test_a_solo_round_then_a_correct_guess_beats_the_machine() -> None:
    state = challenge()
    assert state.to_move() == [0]
    state.apply(0, state.parse_action("propose 241", 0))
    state.apply(0, state.parse_action("b", 0))  # a bare letter tests it
    assert state.view(0)["sheet"] == [{"proposal": "241", "tests": [["B", True]]}]
    state.apply(0, "guess 241")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.detail["rounds"] == 1 and outcome.detail["tests"] == 1
    assert outcome.detail["beat_machine"] is True
    assert state.to_move() == []


def test_a_wrong_solo_guess_loses_and_reveals_the_code() -> None:
    state = challenge()
    state.apply(0, "guess 221")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == () and outcome.reason == "turing_all_wrong"
    assert state.view(None)["solution"]["code"] == "241"


def test_more_rounds_than_par_does_not_beat_the_machine() -> None:
    state = challenge()
    state.apply(0, "propose 111")
    state.apply(0, "test A")
    state.apply(0, "next")
    assert state.round == 2 and state.to_move() == [0]
    state.apply(0, "propose 241")
    state.apply(0, "test A")
    state.apply(0, "guess 241")
    outcome = state.outcome()
    assert outcome is not None and outcome.detail["rounds"] == 2
    assert outcome.detail["beat_machine"] is False


def test_fewest_tests_wins_and_equal_counts_share() -> None:
    state = challenge(3)
    for seat, tests in ((0, "AB"), (1, "A"), (2, "C")):
        state.apply(seat, "propose 241")
        for letter in tests:
            state.apply(seat, f"test {letter}")
        state.apply(seat, "guess 241")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1, 2)


def test_wrong_guessers_are_eliminated_and_the_last_player_left_wins() -> None:
    state = challenge(3)
    state.apply(0, "guess 221")
    state.apply(1, "guess 111")
    assert state.outcome() is None  # player 2 has not ended the round yet
    state.apply(2, "propose 241")
    state.apply(2, "test A")
    state.apply(2, "next")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (2,)
    assert outcome.reason == "turing_last_standing"


def test_the_others_play_on_after_eliminations() -> None:
    state = challenge(3)
    state.apply(0, "guess 221")
    for seat in (1, 2):
        state.apply(seat, "propose 241")
        state.apply(seat, "test A")
        state.apply(seat, "next")
    assert state.outcome() is None and state.round == 2
    assert state.to_move() == [1, 2]
    with pytest.raises(NotYourTurn):
        state.apply(0, "propose 241")


def test_simultaneous_players_wait_for_each_other_at_the_end_of_a_round() -> None:
    state = challenge(2)
    state.apply(0, "propose 241")
    state.apply(0, "test A")
    state.apply(0, "next")
    assert state.to_move() == [1]
    with pytest.raises(NotYourTurn):
        state.apply(0, "propose 111")
    state.apply(1, "guess 111")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)  # seat 1 eliminated, seat 0 left


@pytest.mark.parametrize(("text", "error"), [
    ("propose 206", InvalidMove), ("propose 61", InvalidMove), ("guess 0", InvalidMove),
    ("test G", InvalidMove), ("test", InvalidMove), ("fly away", InvalidMove), ("", InvalidMove),
    ("test A", IllegalMove),
])
def test_bad_input_is_refused_and_changes_nothing(text: str, error: type[GameError]) -> None:
    state = challenge()
    before = json.dumps(state.to_dict(), sort_keys=True)
    with pytest.raises(error):
        state.apply(0, state.parse_action(text, 0))
    assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_a_fourth_test_and_a_second_proposal_are_refused() -> None:
    state = challenge()
    state.apply(0, "propose 241")
    for letter in "ABC":
        state.apply(0, f"test {letter}")
    before = json.dumps(state.to_dict(), sort_keys=True)
    with pytest.raises(IllegalMove, match="all 3 tests"):
        state.apply(0, "test D")
    with pytest.raises(IllegalMove, match="stays fixed"):
        state.apply(0, "propose 111")
    assert json.dumps(state.to_dict(), sort_keys=True) == before
    state.apply(0, "next")
    state.apply(0, "propose 111")
    state.apply(0, "test D")  # a new round brings three new tests


def test_testing_the_same_verifier_twice_in_a_round_is_refused() -> None:
    state = challenge()
    state.apply(0, "propose 241")
    state.apply(0, "test A")
    with pytest.raises(IllegalMove, match="already tested"):
        state.apply(0, "test A")


def test_a_handicap_takes_tests_from_the_first_round_only_and_counts() -> None:
    state = challenge(2, handicap=2)
    state.apply(0, "propose 241")
    state.apply(0, "test A")
    with pytest.raises(IllegalMove):
        state.apply(0, "test B")
    assert state.sheets[0].tests_total == 3
    assert state.sheets[1].tests_total == 0
    state.apply(0, "next")
    state.apply(1, "propose 241")
    state.apply(1, "test A")
    state.apply(1, "next")
    state.apply(0, "propose 241")
    for letter in "BCD":
        state.apply(0, f"test {letter}")


def test_the_menu_offers_digit_pickers_then_verifiers() -> None:
    state = challenge()
    root = state.menu(0, ())
    # A code pad: the first two digits in one tap, so a proposal takes two (issue 23.4).
    assert [c.token for c in root] == [f"p{a}{b}" for a in "12345" for b in "12345"] + [
        "n", "g"]
    assert root[0].label == "▲1■1" and root[24].label == "▲5■5"
    pad = state.menu(0, ("p24",))
    assert [(c.label, c.action) for c in pad] == [(f"24{d}", f"propose 24{d}")
                                                  for d in range(1, 6)]
    # One digit at a time stays understood (older buttons, typed paths).
    assert [c.label for c in state.menu(0, ("p",))] == ["▲1", "▲2", "▲3", "▲4", "▲5"]
    # A guess uses the same pad after its verb, and the one-digit path too.
    guess_pad = state.menu(0, ("g",))
    assert len(guess_pad) == 25 and guess_pad[6].label == "▲2■2"
    assert [c.action for c in state.menu(0, ("g", "22"))][:1] == ["guess 221"]
    assert [c.action for c in state.menu(0, ("g", "2", "2"))][:1] == ["guess 221"]
    assert next(c.label for c in state.menu(0, ("p", "2"))) == "■1"
    last = state.menu(0, ("p", "2", "4"))
    assert [c.action for c in last] == [f"propose 24{d}" for d in range(1, 6)]
    state.apply(0, "propose 241")
    assert [c.action for c in state.menu(0, ())] == [
        "test A", "test B", "test C", "test D", "next", None]
    assert state.seat_version(0) == 1
    state.apply(0, "test A")
    assert state.seat_version(0) == 2
    assert "next" in [c.action for c in state.menu(0, ())]
    with pytest.raises(InvalidMove):
        state.menu(0, ("p",))  # the proposal is fixed for the round
    with pytest.raises(InvalidMove):
        state.menu(0, ("p24",))
    with pytest.raises(InvalidMove):
        state.menu(0, ("g", "7"))


def test_public_views_hold_no_results_until_the_end() -> None:
    state = challenge(2)
    state.apply(0, "propose 241")
    state.apply(0, "test A")
    state.apply(1, "guess 241")
    public = json.dumps(state.view(None))
    assert '["A", true]' not in public and '["A", false]' not in public
    assert '["A", true]' in json.dumps(state.view(0))
    assert "solution" not in public and "my_guess" not in public
    assert state.view(None)["players"][1]["ready"] is False
    assert state.view(1)["my_guess"] == "241"
    assert "sheet" not in state.view(None)


def test_assist_lists_the_criteria_still_possible() -> None:
    state = challenge(assist=True)
    possible = state.view(0)["possible"]
    assert possible["A"] == ["4.0", "4.1"]
    state.apply(0, "propose 241")
    state.apply(0, "test A")  # 241 passes 4.1 (square = 4), fails 4.0
    assert state.view(0)["possible"]["A"] == ["4.1"]


def test_resigning_ends_a_solo_game_and_reveals_the_code() -> None:
    state = challenge()
    state.resign(0)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "turing_gave_up"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 3),
       mode=st.sampled_from(["classic", "extreme", "nightmare"]))
def test_random_play_round_trips_and_replays(seed: int, players: int, mode: str) -> None:
    options = {"difficulty": "easy", "verifiers": 4, "mode": mode}
    state = TuringState({**DEFAULTS, **options}, players, seed,
                        new_game(options, players, seed).puzzle, None)
    rng = random.Random(seed)
    for _ in range(60):
        movers = state.to_move()
        if not movers:
            break
        seat = rng.choice(movers)
        legal = state.legal_actions(seat)
        action = rng.choice([a for a in legal if not a.startswith("guess")] or legal) \
            if rng.random() < 0.9 else rng.choice(legal)
        state.apply(seat, action)
        copy = TuringState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert copy.to_dict() == state.to_dict()
        assert copy.view(seat) == state.view(seat)
        assert all(len(r["tests"]) <= 3 for sheet in state.sheets for r in sheet.rounds)


def test_replay_from_seed_and_actions_gives_the_same_game() -> None:
    state = new_game({"difficulty": "easy", "verifiers": 4}, 2, 11)
    agent = make_agent("easy", random.Random(3))
    while state.outcome() is None:
        seat = state.to_move()[0]
        state.apply(seat, agent.choose(state, seat))
    again = replay(state.options, 2, 11, state.actions)
    assert again.to_dict() == state.to_dict()


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_agents_always_finish_with_the_right_code(level: str) -> None:
    for seed in range(5):
        state = new_game({"difficulty": "standard", "verifiers": 5}, 1, seed)
        agent = make_agent(level, random.Random(seed))
        for _ in range(100):
            if state.outcome() is not None:
                break
            state.apply(0, agent.choose(state, 0))
        outcome = state.outcome()
        assert outcome is not None and outcome.winners == (0,)
        if level == "strong":
            assert outcome.detail["rounds"] <= outcome.detail["par_rounds"]


def test_puzzle_codes_booklet_cards_and_dates_choose_the_puzzle() -> None:
    by_cards = new_game({"cards": "4,9,11,14", "code": "241"}, 1, 0)
    assert by_cards.puzzle == CHALLENGE_ONE
    by_code = new_game({"puzzle": CHALLENGE_ONE.share_code()}, 1, 5)
    assert by_code.puzzle == CHALLENGE_ONE
    daily = new_game({"daily": "2026-11-21"}, 1, 99)
    assert daily.puzzle == new_game({"daily": "2026-11-21"}, 1, 1).puzzle
    for bad in ({"puzzle": "TM-C4E-XXXX"}, {"cards": "4,9,x"}, {"cards": "1,2"},
                {"daily": "yesterday"}, {"daily": "2026-11-21", "assist": True}):
        with pytest.raises(InvalidMove):
            new_game(bad, 1, 0)


def test_rule_a_round_may_end_with_zero_tests() -> None:
    """turing.md, "A round" (decided 2026-11-25): fewer than three tests, none included."""
    state = challenge(2)
    assert "next" in state.legal_actions(0)
    state.apply(0, "next")  # seat 0 waits without proposing or testing
    state.apply(1, "propose 241")
    assert "next" in state.legal_actions(1)
    state.apply(1, "next")  # a proposal but no test
    assert state.round == 2
    assert [state.score(seat) for seat in (0, 1)] == [(0, 0), (0, 0)]
    state.apply(0, "propose 241")
    state.apply(0, "test B")
    state.apply(0, "guess 241")
    state.apply(1, "guess 241")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)  # no test beats one test


def test_rule_the_share_code_is_shown_only_when_the_game_is_over() -> None:
    """turing.md, "Puzzle identity" (decided 2026-11-25): the code names the secret."""
    for options in ({"cards": "4,9,11,14", "code": "241"}, {"daily": "2026-11-21"}):
        state = new_game(options, 1, 3)
        assert state.view(None)["share_code"] == state.view(0)["share_code"] == ""
        assert state.view(0)["from_code"] is False
        state.apply(0, "propose 241")
        state.apply(0, "test A")
        assert state.view(0)["share_code"] == ""
        state.abandon()
        assert state.view(None)["share_code"] == state.puzzle.share_code()


def test_rule_a_game_started_from_a_code_says_so_but_hides_the_code() -> None:
    code = CHALLENGE_ONE.share_code()
    state = new_game({"puzzle": code}, 1, 5)
    view = state.view(0)
    assert view["from_code"] is True and view["share_code"] == ""
    assert code not in json.dumps(state.view(None)) and code not in json.dumps(view)
    state.apply(0, "guess 241")
    assert state.view(0)["share_code"] == code
