"""Every board and hand the service can produce fits Telegram's limits, and every text is
escaped: Telegram rejects a whole message when one limit is broken."""

from __future__ import annotations

import html

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.adapters.telegram.layout import (
    CALLBACK_DATA_LIMIT,
    KEYBOARD_LIMIT,
    TEXT_LIMIT,
    Block,
    Key,
    Message,
    board_message,
    fit,
    hand_message,
    keyboard,
    neutral,
    split_text,
)
from bot.names import clean_display_name as clean_name
from bot.service import Board, Button, Place, Service
from tests.helpers import hidden_game
from tests.helpers.lgame_positions import random_states
from tests.helpers.menus import WORST_NAME, record_for, walk_menus
from tests.helpers.telegram_fake import ApiError, plain_text

EMOJI = Place("telegram", "-1", emoji=True)
TEXT = Place("telegram", "-1", emoji=False)


def check_limits(message: Message, menu: list[Button]) -> None:
    """What the fake Bot API (and Telegram) would refuse, plus reachability."""
    text = plain_text(message.html)  # raises on HTML Telegram could not parse
    assert 1 <= len(text) <= TEXT_LIMIT and len(message.html) <= TEXT_LIMIT
    keys = message.keys
    assert len(keys) <= KEYBOARD_LIMIT
    assert all(len(row) <= 8 for row in message.rows)
    assert all(1 <= len(key.data.encode()) <= CALLBACK_DATA_LIMIT for key in keys)
    assert all(key.label for key in keys)
    if not message.overflow:
        assert {button.payload for button in menu} <= {key.data for key in keys}, \
            "every menu option has its button"
    markup = message.markup()
    assert markup is None or markup.to_dict()["inline_keyboard"]


def test_callback_data_over_64_bytes_is_refused_before_telegram_sees_it() -> None:
    Key("ok", "m:" + "9" * 62)
    with pytest.raises(ValueError, match="64 bytes"):
        Key("too long", "m:" + "9" * 63)
    with pytest.raises(ValueError, match="64 bytes"):
        Key("multi-byte", "é" * 33)
    with pytest.raises(ValueError):
        Key("neither")


@pytest.mark.parametrize("sudden_death", [False, True])
def test_every_lgame_menu_step_fits(sudden_death: bool) -> None:
    service = Service(store=None)  # type: ignore[arg-type]  # rendering needs no store
    steps = 0
    for state in random_states(sudden_death, 40, seed=31 if sudden_death else 37):
        record = record_for("lgame", state, platform="telegram")
        for place in (EMOJI, TEXT):
            for path, menu in walk_menus(service, place, record, state, state.turn):
                board = service.render_board(place, record, state, path)
                message = board_message(board, place.language, header=["x" * 300],
                                        ai_thinking=True)
                check_limits(message, menu)
                assert WORST_NAME in plain_text(message.html)
                steps += 1
    assert steps > 40 * 2 * 2, "placement and neutral steps were both checked"



def test_hidden_hands_fit_and_the_group_board_shows_no_card(secret_cards: None) -> None:
    service = Service(store=None)  # type: ignore[arg-type]
    for seed in range(20):
        state = hidden_game.new_game({}, 2, seed)
        record = record_for("secrets", state, platform="telegram")
        seat = state.to_move()[0]
        board = service.render_board(EMOJI, record, state)
        public = board_message(board, "en")
        assert [key.data[:2] for key in public.keys] == ["h:"], "only the hand button"
        hand = service.render_hand(EMOJI, record, state, seat)
        cards = ", ".join(map(str, state.hands[seat]))
        assert cards not in plain_text(public.html)
        check_limits(hand_message(hand, "en", title="Class 3B", notice="n"), hand.buttons)
        merged = board_message(board, "en", hand=hand)
        check_limits(merged, hand.buttons)
        assert cards in plain_text(merged.html), "a private chat shows the hand in the board"


def test_long_texts_are_shortened_or_split_and_stay_valid_html() -> None:
    huge = "<&> " * 3000
    fitted = fit([Block("status", "bold"), Block(huge, "pre"), Block("turn", "bold")])
    assert len(fitted) <= TEXT_LIMIT
    text = plain_text(fitted)
    assert text.startswith("status") and text.endswith("turn"), "status lines survive"
    pieces = split_text("line <b>\n" * 1500 + "x" * 9000)
    assert len(pieces) > 3 and all(len(piece) <= TEXT_LIMIT for piece in pieces)
    assert "".join(plain_text(piece) for piece in pieces).count("line <b>") == 1500
    for piece in pieces:
        plain_text(piece)
    assert html.unescape(pieces[0]).startswith("line <b>")


def test_huge_menus_keep_navigation_and_say_so() -> None:
    menu = [Button(f"o{n}", f"m:1:2:a{n}") for n in range(140)]
    board = Board(1, 2, "board", False, menu, [Button("↩ back", "m:1:2:")], "pick",
                  [{"kind": "human", "name": "Ann"}])
    message = board_message(board, "en")
    assert message.overflow and "/move" in plain_text(message.html)
    assert message.rows[-1][0].label == "↩ back"
    check_limits(message, menu)


def test_the_fake_refuses_what_telegram_refuses() -> None:
    """The fake's HTML check is what makes the escaping tests meaningful."""
    for bad in ("<b>unclosed", "a < b & c", "<script>x</script>", "</b>"):
        with pytest.raises(ApiError):
            plain_text(bad)
    assert plain_text("<b>a &lt;b&gt; &amp;</b>") == "a <b> &"


@settings(max_examples=200, deadline=None)
@given(names=st.lists(st.text(min_size=1, max_size=40), min_size=2, max_size=2),
       body=st.text(max_size=6000), monospace=st.booleans(),
       header=st.lists(st.text(max_size=300), max_size=3))
def test_any_names_and_text_make_a_valid_message(names: list[str], body: str,
                                                 monospace: bool, header: list[str]) -> None:
    cleaned = [clean_name(name) for name in names]
    board = Board(1, 2, body, monospace, [Button(cleaned[0], "m:1:2:a")], [], "go",
                  [{"kind": "human", "name": cleaned[0]}, {"kind": "ai", "name": cleaned[1]}])
    message = board_message(board, "en", header=header, ai_thinking=True)
    text = plain_text(message.html)  # Telegram could parse it
    assert len(message.html) <= TEXT_LIMIT
    # Names show as typed, but for a word joiner after "@" (no mention can ping).
    assert neutral(cleaned[0]) in text and neutral(cleaned[1]) in text, \
        "the turn and thinking lines survive: the long board is cut first"


def test_a_renderers_code_blocks_become_pre_and_its_prose_stays_plain() -> None:
    """Renderers mark the grids whose columns must line up with fence lines; Telegram sets
    those in <pre> and never shows a fence."""
    from bot.adapters.telegram.layout import text_blocks
    blocks = text_blocks("Level 1\n```\nA . B\n. C .\n```\nLegend <x>")
    assert [(b.text, b.style) for b in blocks] == [
        ("Level 1", "plain"), ("A . B\n. C .", "pre"), ("Legend <x>", "plain")]
    assert "```" not in "".join(b.html() for b in blocks)


def test_a_group_of_options_keeps_rows_of_its_own() -> None:
    """The Turing code pad stays a 5×5 pad above the long "End round" and "Guess the
    code", instead of all keys sharing the long labels' two columns."""
    pad = [Button(f"▲{a}■{b}", f"m:1:2:p{a}{b}", "pad") for a in range(1, 6)
           for b in range(1, 6)]
    ends = [Button("End round", "m:1:2:n"), Button("Guess the code", "m:1:2:g")]
    rows, cut = keyboard(pad + ends, [])
    assert [len(row) for row in rows] == [5, 5, 5, 5, 5, 2] and not cut
    assert rows[0][0].label == "▲1■1" and rows[-1][1].label == "Guess the code"


@pytest.mark.parametrize(("labels", "rows"), [
    # The puzzle trainer's buttons after an answer, in German: one row of four showed
    # "Zeig …" and "Thema …" on a 360-pixel phone.
    (["Weiter ▶", "Nochmal ↺", "Zeig es mir 👁", "Thema 🎯"], [2, 2]),
    (["Next ▶", "Retry ↺", "Show me 👁", "Theme 🎯"], [2, 2]),
    (["↩ Back", "💡 Hint"], [2]),
    (["▦ Tap the board", "💡 Hint", "↩ Back"], [2, 1]),
    (["a", "b", "c", "d", "e", "f", "g"], [4, 3]),
])
def test_navigation_rows_are_as_wide_as_their_labels_allow(labels: list[str],
                                                           rows: list[int]) -> None:
    navigation = [Button(label, f"m:1:2:n{index}") for index, label in enumerate(labels)]
    keys, cut = keyboard([Button("Play", "m:1:2:p")], navigation)
    assert [len(row) for row in keys[1:]] == rows and not cut
    assert [key.label for row in keys[1:] for key in row] == labels
