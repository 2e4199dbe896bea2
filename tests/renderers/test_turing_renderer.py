"""The Turing Machine renderer: random legal play in every mode, and the end screens.

States are built from a generated puzzle with a fixed machine score: computing the real
machine takes seconds (minutes in nightmare), and the renderer only prints what it is given.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import validate_options
from engines.turing.cards import CARDS, CODES, code_text
from engines.turing.generator import generate
from engines.turing.rules import OPTIONS
from engines.turing.state import TuringState
from renderers import turing as render

MACHINE: dict[str, Any] = {"par": {"score": [2, 5], "worst": [3, 7]},
                           "optimal": {"score": [1, 3], "worst": [2, 4]}}
NAMES = ["Ann", "Bo", "Cy"]
PUBLIC_FORBIDDEN = ("✅", "❌", "=yes", "=no")
PLAIN_RESULT = re.compile(r"\b[A-F]=(?:yes|no)\b")
# A verifier letter tied to a card: in nightmare that is the secret, until the game ends.
LETTER_CARD = re.compile(r"^[A-F] · ", re.MULTILINE)


def make_state(mode: str, players: int, seed: int, *, verifiers: int = 5,
               difficulty: str = "standard", assist: bool = True, handicap: int = 0,
               machine: dict[str, Any] | None = MACHINE) -> TuringState:
    options = validate_options(OPTIONS, {"difficulty": difficulty, "verifiers": verifiers,
                                         "mode": mode, "assist": assist,
                                         "handicap": handicap})
    puzzle = generate(difficulty, verifiers, mode, seed)
    return TuringState(options, players, seed, puzzle, machine)


def check_renders(state: TuringState, names: list[str]) -> None:
    over = state.outcome() is not None
    code = code_text(state.puzzle.code)
    public_view = state.view(None)
    seat_views = [state.view(seat) for seat in range(state.players)]
    for emoji in (True, False):
        public = render.render(public_view, names, "en", emoji)
        assert len(public) < 4000
        assert not any(mark in public for mark in PUBLIC_FORBIDDEN), public
        assert ("Solution:" in public) == over
        if over:
            assert code in public
        elif state.puzzle.mode == "nightmare":
            assert not LETTER_CARD.search(public), public
        for view in seat_views:
            # The public board reads only public fields, whatever view it is handed.
            assert render.render(view, names, "en", emoji) == public
            check_private(view, state.puzzle.mode, names, emoji, over, code)


def check_private(view: dict[str, Any], mode: str, names: list[str], emoji: bool, over: bool,
                  code: str) -> None:
    text = render.render_private(view, names, "en", emoji)
    assert len(text) < 4000
    assert ("Solution:" in text) == over
    if over:
        assert code in text
    elif mode == "nightmare":
        assert not LETTER_CARD.search(text), text
    lines = text.splitlines()
    own_tests = 0
    for number, entry in enumerate(view["sheet"], start=1):
        if not entry["proposal"]:
            continue
        line = next(line for line in lines
                    if line.startswith(f"Round {number} · {entry['proposal']}"))
        for letter, result in entry["tests"]:
            own_tests += 1
            if emoji:
                assert f"{letter} {'✅' if result else '❌'}" in line, (line, letter, result)
            else:
                assert f"{letter}={'yes' if result else 'no'}" in line, (line, letter, result)
    # Exactly the seat's own answers, so nobody else's.
    if emoji:
        assert text.count("✅") + text.count("❌") == own_tests
    else:
        assert len(PLAIN_RESULT.findall(text)) == own_tests


def play(state: TuringState, rng: random.Random, steps: int, names: list[str]) -> None:
    """Random legal play, checking every rendering after every step."""
    check_renders(state, names)
    for _ in range(steps):
        seats = state.to_move()
        if not seats:
            break
        seat = rng.choice(seats)
        roll = rng.random()
        if roll < 0.02:
            state.resign(seat)
        elif roll < 0.03:
            state.abandon()
        else:
            actions = state.legal_actions(seat)
            plain = [a for a in actions if not a.startswith("guess")]
            if roll < 0.07 or not plain:
                guess = code_text(state.puzzle.code if rng.random() < 0.5
                                  else rng.choice(CODES))
                state.apply(seat, f"guess {guess}")
            else:
                state.apply(seat, rng.choice(plain))
        check_renders(state, names)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       mode=st.sampled_from(["classic", "extreme", "nightmare"]),
       players=st.integers(1, 3), verifiers=st.integers(4, 6),
       difficulty=st.sampled_from(["easy", "standard", "hard"]),
       assist=st.booleans(), handicap=st.integers(0, 2), with_machine=st.booleans())
def test_random_play_never_leaks_and_always_shows_own_results(
        seed: int, mode: str, players: int, verifiers: int, difficulty: str, assist: bool,
        handicap: int, with_machine: bool) -> None:
    # The engine's assist view costs tens of milliseconds with thousands of nightmare
    # candidates (6 verifiers); test_nightmare_assist_sheet_fits covers that case.
    assist = assist and not (mode == "nightmare" and verifiers == 6)
    state = make_state(mode, players, seed, verifiers=verifiers, difficulty=difficulty,
                       assist=assist, handicap=handicap,
                       machine=MACHINE if with_machine else None)
    play(state, random.Random(seed), 60, NAMES[:players])


def test_criterion_text_fills_in_the_colours() -> None:
    assert render.criterion_text("4.0", emoji=True) == "🟨 < 4"
    assert render.criterion_text("4.0", emoji=False) == "■ < 4"
    assert render.criterion_text("12.2", emoji=False) == "▲ > ●"
    assert render.criterion_text("14.0", emoji=True) == "🔷 < 🟨, 🟣"
    assert render.criterion_text("20.1", emoji=True) == "one pair"
    for card in CARDS.values():
        for criterion in card:
            text = render.criterion_text(criterion.id, emoji=True)
            assert "{" not in text and "}" not in text


def test_board_lists_every_verifier_and_public_progress() -> None:
    state = make_state("classic", 2, 3)
    state.apply(0, "propose 241")
    state.apply(0, "test A")
    state.apply(0, "test C")
    state.apply(1, "propose 111")
    state.apply(1, "test B")
    state.apply(1, "next")
    text = render.render(state.view(None), ["Ann", "Bo"], "en", emoji=False)
    lines = text.replace(render.NO_BREAK, " ").splitlines()
    # The share code names the secret: never on the board of a running game.
    assert lines[0] == "Turing Machine · classic · standard · round 1"
    assert state.puzzle.share_code() not in text
    for letter, cards in zip(state.puzzle.letters, state.puzzle.verifiers, strict=True):
        assert f"{letter} · card {cards[0]}: {render.card_text(cards[0], False)}" in lines
    assert "Ann: 241 · tested A C · 2 tests in all" in lines
    assert "Bo: 111 · tested B · round ended · 1 test in all" in lines


def test_extreme_shows_two_cards_and_nightmare_hides_the_letters() -> None:
    extreme = make_state("extreme", 1, 5, verifiers=6)
    view = extreme.view(None)
    text = render.render(view, ["Ann"], "en", emoji=True).replace(render.NO_BREAK, " ")
    for letter, cards in zip(view["letters"], view["verifiers"], strict=True):
        assert len(cards) == 2
        assert f"{letter} · card {cards[0]}: " in text
        assert f" · card {cards[1]}: " in text
    nightmare = make_state("nightmare", 1, 5)
    text = render.render(nightmare.view(None), ["Ann"], "en", emoji=True)
    assert "which one checks which card is hidden" in text
    for card in nightmare.view(None)["shown_cards"]:
        assert f"• {card}: " in text


@pytest.mark.parametrize("emoji", [True, False])
@pytest.mark.parametrize("language", ["en", "nl", "de"])
def test_a_narrow_screen_wraps_a_verifier_between_criteria_never_inside_one(
        emoji: bool, language: str) -> None:
    """A phone wraps "B · card 9: #3 = 0 | … | #3 = 3" where it finds a space; it left a
    lone "3" on a line (issue 23). Every space a line may break at is beside a separator
    (or after a card's number), and every criterion is whole once its no-break spaces are
    read as spaces."""
    state = make_state("extreme", 1, 5, verifiers=6)
    text = render.render(state.view(None), ["Ann"], language, emoji=emoji)
    verifier_lines = [line for line in text.splitlines()
                      if line[:1] in state.view(None)["letters"] and line[1:4] == " · "]
    assert len(verifier_lines) == 6
    for line in verifier_lines:
        # Breaks are allowed between criteria, between cards and after "card 17:".
        pieces = re.split(r" \| | · |(?<=\d): ", line)
        assert all(" " not in piece for piece in pieces), pieces
        for card in (int(c) for c in
                     re.findall(r"(\d+):", line.replace(render.NO_BREAK, " "))):
            assert render.card_text(card, emoji, language) in line.replace(render.NO_BREAK,
                                                                           " ")


def test_private_sheet_shows_answers_tests_left_guess_and_assist() -> None:
    state = make_state("classic", 2, 3)
    state.apply(0, "propose 241")
    state.apply(0, "test A")
    view = state.view(0)
    text = render.render_private(view, NAMES, "en", emoji=True)
    answer = view["sheet"][0]["tests"][0][1]
    assert f"Round 1 · 241 · A {'✅' if answer else '❌'}" in text
    assert "Tests left this round: 2." in text
    assert "Still possible:" in text
    for letter, ids in view["possible"].items():
        assert any(line.startswith(f"{letter}: ") for line in text.splitlines())
        if len(ids) == 1:
            assert f"{letter}: {render.criterion_text(ids[0], True)}" in text
    state.apply(0, "guess 123")
    text = render.render_private(state.view(0), NAMES, "en", emoji=False)
    assert "Your guess: 123." in text
    assert "Still possible:" in text
    # Without the assist option, no possible criteria.
    plain = make_state("classic", 1, 3, assist=False)
    assert "Still possible" not in render.render_private(plain.view(0), NAMES, "en", True)


def test_worst_case_extreme_board_fits_a_chat_message() -> None:
    longest = sorted(CARDS, key=lambda card: len(render.card_text(card, True)), reverse=True)
    view: dict[str, Any] = {
        "game": "turing", "mode": "extreme", "letters": "ABCDEF",
        "verifiers": [longest[i:i + 2] for i in range(0, 12, 2)],
        "shown_cards": sorted(longest[:12]), "difficulty": "standard",
        "share_code": "TM-X6H-1A4ZCVYQF135SMP7XXKA", "daily": "", "round": 12,
        "assist": False, "outcome": None,
        "players": [{"history": [{"proposal": "555", "tested": ["A", "B", "C"]}],
                     "ended": seat % 2 == 0, "ready": False, "eliminated": False,
                     "tests": 33, "handicap": 0} for seat in range(6)],
    }
    names = [f"Player with a long name {seat}" for seat in range(6)]
    for emoji in (True, False):
        assert len(render.render(view, names, "en", emoji)) < 1800


def test_nightmare_assist_sheet_fits() -> None:
    state = make_state("nightmare", 1, 3, verifiers=6, difficulty="hard")
    check_renders(state, ["Ann"])
    state.apply(0, "propose 241")
    state.apply(0, "test A")
    check_renders(state, ["Ann"])
    text = render.render_private(state.view(0), ["Ann"], "en", emoji=True)
    assert "Still possible:" in text and len(text) < 2000


def solved_solo(rounds: int) -> TuringState:
    state = make_state("classic", 1, 3)
    for _ in range(rounds - 1):
        state.apply(0, "propose 111")
        state.apply(0, "test A")
        state.apply(0, "test B")
        state.apply(0, "next")
    state.apply(0, "propose 222")
    state.apply(0, "test A")
    state.apply(0, f"guess {code_text(state.puzzle.code)}")
    return state


def test_solo_result_against_the_machine() -> None:
    code = code_text(make_state("classic", 1, 3).puzzle.code)
    won = solved_solo(2)  # 2 rounds and 3 tests against a par of 2 rounds and 5 tests
    text = render.render(won.view(None), ["Ann"], "en", emoji=False)
    assert f"Ann cracked the code {code} in 2 rounds and 3 tests." in text
    assert f"Solution: {code}" in text
    assert f"* Ann: {code} (right) · 2 rounds, 3 tests" in text
    assert ("The machine's par was 2 rounds, 5 tests; with its best possible plan it took "
            "1 round, 3 tests.") in text
    assert text.endswith("You beat the machine!")
    results = render.render_results(won.view(None), ["Ann"], "en", emoji=True)
    assert results.startswith(f"🏆 Ann: {code} 🎯 · 2 rounds, 3 tests")
    assert results.endswith("🎉 You beat the machine!")
    lost = solved_solo(3)
    assert render.render(lost.view(None), ["Ann"], "en", True).endswith(
        "The machine wins this one.")
    assert render.render_results(make_state("classic", 1, 3).view(None), ["Ann"], "en",
                                 True) == ""


def test_a_score_from_the_machines_heuristic_says_so() -> None:
    guessed = {"par": {**MACHINE["par"], "proven": False},
               "optimal": {**MACHINE["optimal"], "proven": True}}
    state = make_state("classic", 1, 3, machine=guessed)
    state.apply(0, f"guess {code_text(state.puzzle.code)}")
    text = render.render(state.view(None), ["Ann"], "en", emoji=True)
    assert ("(The machine's par comes from the best plan it found: at its level the puzzle "
            "was too large to search completely.)") in text
    assert "a better plan may exist" not in text
    proven = make_state("classic", 1, 3, machine={
        level: {**score, "proven": True} for level, score in MACHINE.items()})
    proven.apply(0, f"guess {code_text(proven.puzzle.code)}")
    assert "too large" not in render.render(proven.view(None), ["Ann"], "en", True)


def test_every_way_a_game_ends_has_a_sentence() -> None:
    wrong = make_state("extreme", 2, 4)
    code = code_text(wrong.puzzle.code)
    bad = "111" if code != "111" else "222"
    wrong.apply(0, f"guess {bad}")
    wrong.apply(1, f"guess {bad}")
    text = render.render(wrong.view(None), ["Ann", "Bo"], "en", emoji=False)
    assert f"Every guess was wrong: nobody cracked the code {code}." in text
    assert f"Ann: {bad} (wrong) · 0 rounds, 0 tests" in text
    assert "decoy" in text  # extreme: the card that did not count is named

    standing = make_state("nightmare", 2, 4)
    standing.resign(1)
    text = render.render(standing.view(None), ["Ann", "Bo"], "en", emoji=True)
    assert "Ann wins as the last player still in the game" in text
    assert "Bo: gave up" in text
    # Nightmare's secret letters are revealed at the end.
    for letter, cards in zip(standing.puzzle.letters, standing.puzzle.verifiers, strict=True):
        assert f"{letter} · card {cards[0]}: " in text

    gave_up = make_state("classic", 1, 4, machine=None)
    gave_up.resign(0)
    text = render.render(gave_up.view(None), ["Ann"], "en", emoji=False)
    assert "Nobody is left in the game" in text
    assert "machine's par" not in text

    abandoned = make_state("classic", 2, 4)
    abandoned.abandon()
    text = render.render(abandoned.view(None), ["Ann", "Bo"], "en", emoji=False)
    assert "The game was abandoned" in text
    assert "Ann: no guess" in text


def test_shared_win_and_daily_title() -> None:
    state = make_state("classic", 2, 6)
    code = code_text(state.puzzle.code)
    state.apply(0, f"guess {code}")
    state.apply(1, f"guess {code}")
    text = render.render(state.view(None), ["Ann", "Bo"], "en", emoji=True)
    assert f"Ann and Bo cracked the code {code} and share the win with 0 tests each." in text
    view = make_state("classic", 1, 6).view(None)
    view["daily"], view["share_code"] = "2025-03-14", ""
    assert "Daily challenge 2025-03-14" in render.render(view, ["Ann"], "en", emoji=False)


def test_rules_name_the_typed_notation() -> None:
    for notation in ("propose 241", "test B", "next", "guess 241", "buttons"):
        assert notation in render.RULES


def test_rule_the_share_code_appears_only_in_the_end_message() -> None:
    """turing.md, "Puzzle identity" (decided 2026-11-25)."""
    started = make_state("classic", 1, 3)
    code = started.puzzle.share_code()
    from_code = TuringState(validate_options(OPTIONS, {"puzzle": code}), 1, 4,
                            started.puzzle, MACHINE)
    for state in (started, from_code):
        for seat in (None, 0):
            board = render.render(state.view(seat), ["Ann"], "en", emoji=False)
            assert code not in board
            assert code not in render.render_private(state.view(0), ["Ann"], "en", False)
    assert "from a shared code" in render.render(from_code.view(None), ["Ann"], "en", False)
    assert "from a shared code" not in render.render(started.view(None), ["Ann"], "en", False)
    from_code.abandon()
    assert code in render.render(from_code.view(None), ["Ann"], "en", emoji=False)


def test_a_score_the_machine_did_not_prove_is_never_called_the_best_possible() -> None:
    """Issue 40, defect 9: a player beat 'the best possible' score of a puzzle too large to
    search completely. Only a proven plan is the best possible."""
    unproven = {"par": {"score": [3, 6], "worst": [3, 7], "proven": False},
                "optimal": {"score": [2, 5], "worst": [2, 6], "proven": False}}
    state = make_state("classic", 1, 3, machine=unproven)
    for action in ("propose 222", "test A", "test B", "next", "propose 111", "test C",
                   "test D"):
        state.apply(0, action)
    state.apply(0, f"guess {code_text(state.puzzle.code)}")
    assert state.score(0) == (2, 4)
    texts = {language: render.render(state.view(None), ["Ann"], language, emoji=False)
             for language in ("en", "nl", "de")}
    assert "best possible" not in texts["en"]
    assert ("The machine's par was 3 rounds, 6 tests; with the best plan it found it took "
            "2 rounds, 5 tests.") in texts["en"]
    proven = make_state("classic", 1, 3, machine={
        level: {**score, "proven": True} for level, score in unproven.items()})
    proven.apply(0, f"guess {code_text(proven.puzzle.code)}")
    for language, text in texts.items():
        proven_text = render.render(proven.view(None), ["Ann"], language, emoji=False)
        machine_line = next(line for line in text.splitlines() if "3" in line and "6" in line)
        assert machine_line not in proven_text, (language, machine_line)


def test_a_solo_board_shows_the_machines_par_from_the_start() -> None:
    """Issue 40, defect 9: the player plays against the machine's par, so the board says
    what it is before the first move, on every platform (it is the service's board text)."""
    solo = make_state("classic", 1, 3)
    for language, par in (("en", "2 rounds, 5 tests"), ("nl", "2 rondes, 5 tests"),
                          ("de", "2 Runden, 5 Tests")):
        board = render.render(solo.view(None), ["Ann"], language, emoji=True)
        assert par in board, (language, board)
    assert "par" in render.render(solo.view(None), ["Ann"], "en", emoji=False)
    group = make_state("classic", 2, 3)
    assert "2 rounds, 5 tests" not in render.render(group.view(None), NAMES, "en", True)
