"""bOOleO's danger marks (issue 27): the gates of the player to move that a NOT on one
start card would break, checked against the rule itself over random games, and how the
board tells them."""

from __future__ import annotations

import random

import pytest

from engines import booleo
from engines.analysis import dangers
from engines.base import StateError, parse_option_text
from engines.booleo import BooleoState
from engines.booleo.cards import is_invalid, slot_name
from engines.cards.pyramid import position_of
from renderers import booleo as render

NAMES = ["Ann", "Bo"]


def playout_positions(seed: int, plies: int = 60) -> list[BooleoState]:
    """Positions of a random legal game, each a copy, while nothing is pending."""
    rng = random.Random(seed)
    state = booleo.new_game({}, 2, seed)
    positions = []
    for _ in range(plies):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        if state.pending is None:
            positions.append(BooleoState.from_dict(state.to_dict()))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return positions


@pytest.mark.parametrize("seed", range(12))
def test_a_card_is_marked_exactly_when_its_flip_makes_a_gate_wrong(seed: int) -> None:
    marked_somewhere = False
    for state in playout_positions(seed):
        seat = state.to_move()[0]
        threats = {threat["card"]: threat for threat in state.flip_threats(seat)}
        marked_somewhere |= bool(threats)
        for card in range(1, state.n + 1):
            flipped = BooleoState.from_dict(state.to_dict())
            flipped.bits[card - 1] ^= 1
            pyramid = flipped.pyramids[seat]
            wrong = {slot_name(slot) for slot in pyramid
                     if is_invalid(pyramid, flipped.row(seat), flipped.n, slot)}
            if card in threats:
                gates = set(threats[card]["gates"])
                assert wrong and wrong <= gates, (card, wrong, gates)
                assert gates <= {slot_name(slot) for slot in pyramid}
                assert threats[card]["position"] == position_of(state.n, seat, card)
            else:
                assert not wrong, (card, wrong)
        assert dangers("booleo", state.to_dict(), seat) == state.flip_threats(seat)
    assert marked_somewhere or seed % 2, "most games have some gate a flip would break"


def test_the_board_tells_the_player_to_move_what_a_not_would_break() -> None:
    state = next(s for seed in range(40) for s in playout_positions(seed)
                 if s.flip_threats(s.to_move()[0]))
    seat = state.to_move()[0]
    view = {**state.view(None), "threats": state.flip_threats(seat)}
    for language in ("en", "nl", "de"):
        text = render.render(view, NAMES, language, emoji=True)
        assert "⚠" in text and NAMES[seat] in text.split("⚠", 1)[1]
    english = render.render(view, NAMES, "en", emoji=False)
    first = view["threats"][0]
    assert (f"on card {first['position']}: " + ", ".join(first["gates"])) in english
    assert "⚠" not in render.render(state.view(None), NAMES, "en", emoji=True), \
        "no marks without the option's threats"


def test_the_easiest_computer_plays_with_the_marks_on() -> None:
    assert booleo.INFO.beginner_options == "danger=on"
    assert parse_option_text(booleo.OPTIONS, booleo.INFO.beginner_options)["danger"] is True


def test_a_game_stored_before_the_danger_option_still_loads() -> None:
    """Games saved before the option existed lack it; they load with its default, and a
    stored option the game does not have is still refused."""
    state = booleo.new_game({}, 2, 5)
    data = state.to_dict()
    del data["options"]["danger"]
    loaded = BooleoState.from_dict(data)
    assert loaded.options["danger"] is False and loaded.to_dict()["start"] == data["start"]
    data["options"]["colour"] = "red"  # an option the game does not have
    with pytest.raises(StateError):
        BooleoState.from_dict(data)
