"""Digitalo's danger marks (issue 27): the gates of the player to move that an inverter on
one bit card would discard or make inactive, checked over random games against the rule
itself (the opponent really plays the inverter and the flip resolves), and how the board
tells them."""

from __future__ import annotations

import random

import pytest

from engines import digitalo
from engines.analysis import dangers
from engines.base import StateError, parse_option_text
from engines.cards.pyramid import position_of
from engines.digitalo import DigitaloState
from engines.digitalo.cards import INVERTER, sort_cards
from renderers import digitalo as render

NAMES = ["Ann", "Bo"]


def playout_positions(seed: int, bits: int, plies: int = 60) -> list[DigitaloState]:
    """Positions of a random legal game (copies) in the play phase with nothing pending."""
    rng = random.Random(seed)
    state = digitalo.new_game({"bits": bits}, 2, seed)
    positions = []
    for _ in range(plies):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        if state.pending is None and state.phase == "play":
            positions.append(DigitaloState.from_dict(state.to_dict()))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return positions


def flip_played(state: DigitaloState, seat: int, bit: int) -> tuple[list[int], list[int]]:
    """What an inverter on ``bit`` (South's numbering) does to ``seat``'s pyramid when the
    opponent plays it next turn and ``seat`` lets it stand: the positions discarded and
    newly made inactive, as the flip's resolution reports them."""
    game = DigitaloState.from_dict(state.to_dict())
    opponent = 1 - seat
    game.turn = opponent  # as if seat had moved without changing anything
    game.hands[opponent] = sort_cards([INVERTER, *game.hands[opponent][1:]])
    game.apply(opponent, f"{INVERTER} {position_of(game.n, opponent, bit)}")
    action = next(action for action in game.legal_actions(seat) if action != "counter")
    resolved = next(event for event in game.apply(seat, action)
                    if event["type"] == "flip_resolved")
    return ([entry["position"] for entry in resolved["removed"][seat]],
            list(resolved["inactive"][seat]))


@pytest.mark.parametrize("seed", range(10))
def test_a_bit_is_marked_exactly_when_its_flip_breaks_a_gate(seed: int) -> None:
    marked = 0
    for state in playout_positions(seed, bits=4 + seed % 3):
        seat = state.to_move()[0]
        threats = {threat["bit"]: threat for threat in state.flip_threats(seat)}
        marked += bool(threats)
        if state.discard.count(INVERTER) == state.options["inverter_cards"]:
            assert not threats, "no inverter is left to play"
            continue
        for bit in range(1, state.n + 1):
            removed, inactive = flip_played(state, seat, bit)
            if threat := threats.get(bit):
                assert sorted(threat["removed"]) == sorted(removed), (bit, threat, removed)
                assert sorted(threat["inactive"]) == sorted(inactive), (bit, threat, inactive)
                assert removed or inactive
                assert threat["position"] == position_of(state.n, seat, bit)
            else:
                assert not removed and not inactive, (bit, removed, inactive)
        assert dangers("digitalo", state.to_dict(), seat) == state.flip_threats(seat)
    assert marked or seed % 2, "most games have some gate a flip would break"


def test_no_marks_while_a_flip_is_pending_or_no_inverter_can_come() -> None:
    state = next(s for seed in range(40) for s in playout_positions(seed, 4)
                 if s.flip_threats(s.to_move()[0]))
    seat = state.to_move()[0]
    pending = DigitaloState.from_dict(state.to_dict())
    pending.pending = (1, 1 - seat)
    assert pending.flip_threats(seat) == []
    spent = DigitaloState.from_dict(state.to_dict())
    away = [card for card in spent.draw if card == INVERTER]
    spent.draw = [card for card in spent.draw if card != INVERTER]
    for hand in spent.hands:
        away += [card for card in hand if card == INVERTER]
        hand[:] = [card for card in hand if card != INVERTER]
    spent.discard += away
    assert spent.discard.count(INVERTER) == spent.options["inverter_cards"]
    assert spent.flip_threats(seat) == [], "every inverter is on the discard pile"
    assert digitalo.new_game({"inverters": False}, 2, 3).flip_threats(0) == []


def test_the_board_tells_the_player_to_move_what_an_inverter_would_break() -> None:
    state = next(s for seed in range(40) for s in playout_positions(seed, 4)
                 if s.flip_threats(s.to_move()[0]))
    seat = state.to_move()[0]
    view = {**state.view(None), "threats": state.flip_threats(seat)}
    for language in ("en", "nl", "de"):
        text = render.render(view, NAMES, language, emoji=True)
        assert "⚠ " + NAMES[seat] in text
    english = render.render(view, NAMES, "en", emoji=False)
    first = view["threats"][0]
    assert f"on bit card {first['position']}: " in english
    if first["removed"]:
        assert "you lose " + ", ".join(map(str, first["removed"])) in english
    else:
        assert ", ".join(map(str, first["inactive"])) + " turn inactive" in english
    assert "⚠ " + NAMES[seat] not in render.render(state.view(None), NAMES, "en", emoji=True)


def test_the_easiest_computer_plays_with_the_marks_on() -> None:
    assert digitalo.INFO.beginner_options == "danger=on"
    assert parse_option_text(digitalo.OPTIONS, digitalo.INFO.beginner_options)["danger"] is True


def test_a_game_stored_before_the_danger_option_still_loads() -> None:
    state = digitalo.new_game({}, 2, 5)
    data = state.to_dict()
    del data["options"]["danger"]
    loaded = DigitaloState.from_dict(data)
    assert loaded.options["danger"] is False and loaded.to_dict()["bits"] == data["bits"]
    data["options"]["colour"] = "red"  # an option the game does not have
    with pytest.raises(StateError):
        DigitaloState.from_dict(data)
    data = state.to_dict()
    data["options"]["bits"] = 5  # a stored option that differs from the checked one
    with pytest.raises(StateError):
        DigitaloState.from_dict(data)
