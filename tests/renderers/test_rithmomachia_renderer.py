"""Rithmomachia boards: both styles show exactly the pieces of the view where they stand,
captures are told as equations, and random play never breaks the renderer."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engines import rithmomachia
from engines.base import GameModule
from renderers import rithmomachia as render
from renderers.common import code_widths, split_blocks
from tests.helpers.engine_checks import random_playout
from tests.helpers.rithmomachia_positions import BLACK, WHITE, position

NAMES = ["Ann", "Bo"]
PIECE = re.compile(r"([○△□◇●▲■◆])([01]{4})")
SHAPE_OF_GLYPH = {glyph: key for key, glyph in render.GLYPHS.items()}


def played(seed: int, moves: int, **options: Any) -> rithmomachia.RithmomachiaState:
    module: GameModule = rithmomachia  # type: ignore[assignment]
    state = random_playout(module, options, seed, moves)
    assert isinstance(state, rithmomachia.RithmomachiaState)
    return state


def expected_pieces(view: dict[str, Any]) -> dict[str, tuple[str, int, str]]:
    return {p["cell"]: (p["shape"], p["owner"], p["bits"]) for p in view["board"]}


def pieces_stacked(text: str) -> dict[str, tuple[str, int, str]]:
    """Read the board back from its code block by column: after the 2-column rank label,
    each cell is 6 columns wide (a 5-column piece or ``.``, then the last-move mark)."""
    blocks = [block.text for block in split_blocks(text) if block.code]
    assert len(blocks) == 1, "the field is one code block"
    found: dict[str, tuple[str, int, str]] = {}
    level = 0
    for line in blocks[0].splitlines():
        heading = re.match(r"Level (\d)", line)
        if heading:
            level = int(heading.group(1))
            continue
        row = re.match(r"([1-4]) ", line)
        if not row or not level:
            continue
        for file_index, file in enumerate("abcd"):
            cell = line[2 + 6 * file_index:7 + 6 * file_index]
            match = PIECE.fullmatch(cell)
            if match is None:
                assert cell.strip() in ("", "."), cell
                continue
            shape, owner = SHAPE_OF_GLYPH[match.group(1)]
            found[f"{level}{file}{row.group(1)}"] = (shape, owner, match.group(2))
    return found


def test_the_start_shows_every_piece_in_both_layouts() -> None:
    view = rithmomachia.new_game({}, 2, 1).view(None)
    text = render.render(view, NAMES, "en", emoji=False)
    assert pieces_stacked(text) == expected_pieces(view)
    assert len(expected_pieces(view)) == 32
    phone = render.render(view, NAMES, "en", emoji=True)
    assert pieces_stacked(phone) == expected_pieces(view)
    assert "Level 3: empty" in phone and "Level 2: empty" in phone
    assert max(code_widths(phone) + code_widths(text)) <= 26, "fits a phone"
    assert "Ann (White) to move" in phone


def test_white_is_hollow_and_black_is_filled() -> None:
    view = rithmomachia.new_game({}, 2, 1).view(None)
    text = render.render(view, NAMES, "en", emoji=False)
    assert "◇1111" in text and "◆1111" in text and "○0001" in text and "●0001" in text


def test_a_capture_is_told_as_its_equation() -> None:
    # White's Pyramid 1111 takes Black's Pyramid 0000 by NOT; with Y = 0101 reaching 1c1,
    # 1111 XOR 0101 = 1010 flips Black's 1010 there.
    state = position({"3d1": (WHITE, 0b1111), "2c2": (WHITE, 0b0101), "2c1": (BLACK, 0b0000),
                      "1c1": (BLACK, 0b1010), "4a4": (BLACK, 0b1111)}, guards=False)
    state.apply(WHITE, "3d1-2d1")
    text = render.render(state.view(None), NAMES, "en", emoji=True)
    assert "NOT 1111 = 0000 → the Pyramid on 2c1 is captured and leaves the field" in text
    assert "1111 XOR 0101 = 1010 → 1c1 captured: it is Ann's now" in text
    assert "Ann moved ◇1111 3d1 → 2d1." in text
    level_two = text[text.index("Level 2"):text.index("Level 1")]
    assert "1   .     .     .   ◇1111*" in level_two, "the moved Pyramid is marked on 2d1"
    assert text.count("*") - text.count("* moved last") == 1
    assert pieces_stacked(text) == expected_pieces(state.view(None))


def test_a_push_is_told_and_both_cells_are_marked() -> None:
    state = rithmomachia.new_game({}, 2, 3)
    push = next(a for a in state.legal_actions(WHITE) if a.count("-") == 2)
    state.apply(WHITE, push)
    text = render.render(state.view(None), NAMES, "en", emoji=False)
    _, to_cell, pushed_to = push.split("-")
    assert f"→ {to_cell}. It pushed" in text and f"to {pushed_to}." in text
    assert text.count("*") - text.count("* moved last") == 2, "the Pyramid and the pushed piece"


def test_placement_lists_the_values_still_to_place() -> None:
    state = rithmomachia.new_game({"setup": "placement"}, 2, 1)
    text = render.render(state.view(None), NAMES, "en", emoji=True)
    assert "Ann (White) to place a piece." in text
    assert "Ann still places: 0000 0001" in text


@pytest.mark.parametrize("seed", range(12))
def test_random_play_renders_every_board_exactly(seed: int) -> None:
    rng = random.Random(seed)
    options = {"push": rng.random() < 0.7, "setup": rng.choice(["standard", "placement"]),
               "ops": rng.choice(["not,and,or,xor,nand,nor", "not,nand", "xor"])}
    for moves in (5, 20, 60, 400):
        state = played(seed, moves, **options)
        view = state.view(None)
        wide = render.render(view, NAMES, "en", emoji=False)
        phone = render.render(view, NAMES, "en", emoji=True)
        assert pieces_stacked(wide) == expected_pieces(view)
        assert pieces_stacked(phone) == expected_pieces(view)
        assert len(phone) < 2000, "one Discord message"
        if state.outcome() is not None:
            assert "Game over" in phone


def test_rule_a3_the_rules_say_a_push_may_swap_the_two_pieces_and_every_ending_scores() -> None:
    """Issue 24 A3 (rithmomachia.md: "the two pieces may swap places"; "At every one of
    these endings, repetition and the move limit included, three victories are scored")."""
    from renderers.i18n import translate
    for language, swap in (("en", "swap places"), ("nl", "van plaats wisselen"),
                           ("de", "Plätze tauschen")):
        text = translate(language, "rules.rithmomachia")
        assert swap in text, language
    english = translate("en", "rules.rithmomachia")
    assert "third time, or at the move limit. Then" in english


def test_danger_marks_flag_the_threatened_pieces_in_the_field_and_say_how() -> None:
    """A view with ``threats`` (``bot.service.dangers``) marks each threatened piece with ``!`` in
    place of the moved-last ``*`` and names the capture under the field, in every
    language, within a phone's code-block width."""
    from engines import rithmomachia
    from renderers.common import display_width
    state = rithmomachia.new_game({}, 2, 1)
    view = state.view(None)
    target = next(str(p["cell"]) for p in view["board"] if p["owner"] == 0)
    threat = {"target": target, "piece": "0001", "move": "4a4-3a3",
              "equation": "NOT 1110 = 0001"}
    for language in ("en", "nl", "de"):
        text = render.render({**view, "threats": [threat]}, ["Ann", "Bo"], language, True)
        field = text.split("```")[1] if "```" in text else text
        row = next(line for line in field.splitlines()
                   if line.startswith(target[2]) and render.DANGER_MARK in line)
        assert row.count(render.DANGER_MARK) == 1
        assert all(display_width(line) <= 32 for line in field.splitlines())
        assert "4a4-3a3" in text and "NOT 1110 = 0001" in text and "Ann" in text
        plain = render.render(view, ["Ann", "Bo"], language, True)
        assert "⚠" not in plain and render.DANGER_MARK not in plain, "no threats, no marks"
