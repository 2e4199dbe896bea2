from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import lgame
from renderers import lgame as render
from renderers.i18n import CATALOGUE, normalise_language, translate

NAMES = ["Ann", "Bo"]


def play_randomly(seed: int, plies: int, sudden_death: bool) -> list[lgame.LGameState]:
    rng = random.Random(seed)
    state = lgame.new_game({"sudden_death": sudden_death, "move_limit": 40}, 2, seed)
    states = [lgame.LGameState.from_dict(state.to_dict())]
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
        states.append(lgame.LGameState.from_dict(state.to_dict()))
    return states


def test_start_board_in_text_matches_the_rules_diagram() -> None:
    text = render.render_text(lgame.new_game({}, 2, 0).view(None))
    assert text.splitlines() == [
        "    a  b  c  d",
        " 4  N  X  X  .  4",
        " 3  .  O  X  .  3",
        " 2  .  O  X  .  2",
        " 1  .  O  O  N  1",
        "    a  b  c  d",
    ]


def test_last_move_is_marked_in_both_styles() -> None:
    state = lgame.new_game({}, 2, 0)
    state.apply(0, "d4SW a4a1")
    text = render.render_text(state.view(None)).splitlines()
    assert text[1] == " 4  n  x  X [X] 4"  # arrived on d4; left a4 (neutral) and b4
    assert text[4] == " 1 [N] O  O  N  1"
    emoji = render.render_emoji(state.view(None)).splitlines()
    assert emoji[1] == "4️⃣🔳🔳🟥🟥"
    assert emoji[4] == "1️⃣🔘🟦🟦⚫"
    status = render.render_status(state.view(None), NAMES, "en", emoji=False)
    assert status.splitlines() == ["Last move by Ann (X): d4 S W, a4>a1", "To move: Bo (O)."]


def test_file_letters_never_fuse_into_flags() -> None:
    header = render.render_emoji(lgame.new_game({}, 2, 0).view(None)).splitlines()[0]
    assert "🇨🇩" not in header and "🇨\u200b🇩" in header


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 40), st.booleans(), st.booleans())
def test_renderers_never_crash_and_show_every_piece(seed: int, plies: int, sudden_death: bool,
                                                   emoji: bool) -> None:
    for state in play_randomly(seed, plies, sudden_death):
        view = state.view(None)
        board = render.render_emoji(view) if emoji else render.render_text(view)
        lines = board.splitlines()
        assert len(lines) == (5 if emoji else 6)
        if emoji:
            counts = Counter(ch for line in lines[1:] for ch in line)
            assert counts["🟥"] == 4 and counts["🟦"] == 4
            assert counts["⚫"] + counts["🔘"] == 2
        else:
            cells = [line[3:15] for line in lines[1:5]]
            counts = Counter(ch for row in cells for ch in row)
            assert counts["X"] == 4 and counts["O"] == 4 and counts["N"] == 2
        full = render.render(view, NAMES, "en", emoji)
        assert ("Game over" in full) == (state.outcome() is not None)
        assert "{" not in full and "Traceback" not in full


def test_translation_falls_back_and_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(CATALOGUE["nl"], "error.no_game")  # as if not yet translated
    assert normalise_language("nl-BE") == "nl"
    assert normalise_language("pt-BR") == "en"
    assert normalise_language(None) == "en"
    assert translate("nl", "error.no_game").startswith("There is no game")
    assert translate("en", "missing.key", "Default {x}", x=1) == "Default 1"
    assert translate("en", "game.to_move") == "To move: {name} ({mark})."  # missing params
