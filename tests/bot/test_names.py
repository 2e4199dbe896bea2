"""Display names cannot pretend: cleaned once where a person enters the bot."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from bot.names import NAME_LIMIT, clean_display_name


def test_a_name_cannot_start_a_line_of_its_own() -> None:
    assert clean_display_name("X\nTo move: Y", "1") == "X To move: Y"
    assert clean_display_name("Al\r\nice\u2028\u2029!", "1") == "Al ice!"


def test_right_to_left_overrides_and_isolates_are_removed() -> None:
    assert clean_display_name("\u202eecilA\u202c", "1") == "ecilA"
    assert clean_display_name("Bob\u2066\u2067\u2068\u2069\u200e\u200f\u061c", "1") == "Bob"


def test_zero_width_characters_are_removed() -> None:
    assert clean_display_name("A\u200bl\u200ci\u200dc\u2060e\ufeff", "1") == "Alice"


def test_a_name_that_looks_empty_becomes_player_and_digits() -> None:
    assert clean_display_name("\u3164", "123456789") == "Player 6789"
    assert clean_display_name("\u115f\u1160 \u2800\u200b", "42") == "Player 42"
    assert clean_display_name("", "") == "Player"


def test_code_fences_cannot_break_a_board_block() -> None:
    assert "`" not in clean_display_name("```Eve```", "1")


@given(st.text(max_size=200), st.text(alphabet="0123456789", max_size=20))
def test_any_name_is_one_visible_bounded_line(name: str, user_id: str) -> None:
    cleaned = clean_display_name(name, user_id)
    assert cleaned and cleaned == cleaned.strip()
    assert len(cleaned) <= NAME_LIMIT
    assert "\n" not in cleaned and "`" not in cleaned
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in cleaned)
