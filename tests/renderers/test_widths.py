"""Phone-safe boards (issue 23.2): every code block a renderer writes fits a phone.

Boards, hands and notes sheets of seeded random playouts of every registered game, in both
styles and every language: each code block is at most ``PHONE_COLUMNS`` monospace columns
wide, counting emoji and East Asian wide characters as two, and its fences pair up.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engines.base import GameState
from engines.registry import game_names, get_game
from renderers import renderer_for
from renderers.common import (
    FENCE,
    PHONE_COLUMNS,
    code_block,
    code_widths,
    display_width,
    split_blocks,
    without_fences,
)
from renderers.i18n import LANGUAGES

# Long names, as the adapters allow (32 characters), in case a name reaches a code block.
NAMES = ["Maximiliane Gräfin von Oberstein", "Bartholomew Fitzgerald-Smythe"]
# Each game's variants that change what a board shows; unlisted games play their defaults.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "lgame": [{}, {"sudden_death": True}],
    "booleo": [{"bits": bits, "inactive": bits % 2 == 0, "extended": bits > 6,
                "referee": bits != 5} for bits in range(4, 9)],
    "digitalo": [{"bits": bits, "free_discard": bits == 5} for bits in range(4, 9)],
    "rithmomachia": [{}, {"setup": "placement"}, {"push": False, "ops": "not,xor"}],
    "turing": [{}, {"mode": "nightmare"}, {"mode": "extreme"}],
}
CHECKPOINTS = (0, 3, 12, 40, 150)


def snapshots(game: str, options: dict[str, Any], seed: int) -> Iterator[GameState]:
    """The game at each checkpoint of one seeded random playout (two players)."""
    module = get_game(game)
    state = module.new_game(options, 2, seed)
    rng = random.Random(seed)
    played = 0
    for checkpoint in CHECKPOINTS:
        while played < checkpoint and state.outcome() is None:
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            played += 1
        yield state
        if state.outcome() is not None:
            return


def texts(game: str, state: GameState, language: str, emoji: bool) -> Iterator[str]:
    """Everything the renderer writes about ``state``: the public board, each seat's board
    and hand (or notes sheet), and the results when the game has them."""
    renderer: Any = renderer_for(game)
    yield renderer.render(state.view(None), NAMES, language, emoji)
    for seat in (0, 1):
        view = state.view(seat)
        yield renderer.render(view, NAMES, language, emoji)
        if hasattr(renderer, "render_private"):
            yield renderer.render_private(view, NAMES, language, emoji)
        if hasattr(renderer, "render_results") and state.outcome() is not None:
            yield renderer.render_results(view, NAMES, language, emoji)


def cases() -> list[tuple[str, dict[str, Any]]]:
    return [(game, options) for game in game_names() for options in VARIANTS.get(game, [{}])]


def test_every_registered_game_is_covered() -> None:
    assert set(VARIANTS) == set(game_names())


@pytest.mark.parametrize(("game", "options"), cases(),
                         ids=[f"{game}-{i}" for game, options in cases()
                              for i in [VARIANTS.get(game, [{}]).index(options)]])
def test_every_code_block_fits_a_phone(game: str, options: dict[str, Any]) -> None:
    blocks = 0
    for seed in (1, 2):
        for state in snapshots(game, options, seed):
            for language in LANGUAGES:
                for emoji in (True, False):
                    for text in texts(game, state, language, emoji):
                        fences = [line for line in text.split("\n") if line.strip() == FENCE]
                        assert len(fences) % 2 == 0, f"an unclosed code block:\n{text}"
                        for block in split_blocks(text):
                            if block.code:  # warnings are prose, which a phone wraps
                                assert "⚠️" not in block.text and "\n! " not in \
                                    "\n" + block.text, block.text
                        widths = code_widths(text)
                        blocks += len(widths)
                        assert max(widths, default=0) <= PHONE_COLUMNS, (
                            f"{game} {options} {language} emoji={emoji}: a code block of "
                            f"{max(widths)} columns:\n{text}")
    if game in ("lgame", "booleo", "digitalo", "rithmomachia"):
        assert blocks > 0, "a board with a grid draws it in a code block"


@pytest.mark.parametrize("options", [{}, {"setup": "placement"}])
def test_the_rithmomachia_console_board_fits_80_columns(options: dict[str, Any]) -> None:
    """Issue 24 B9: the console prints the text style without fences; every line of it,
    the field, the legend, the counts and what happened, fits a terminal's 80 columns (the
    field was 110 and the legend 118)."""
    console_names = ["Player 1", "Computer · strong"]
    for seed in (4, 5):
        for state in snapshots("rithmomachia", options, seed):
            for language in LANGUAGES:
                text = renderer_for("rithmomachia").render(state.view(None), console_names,
                                                           language, False)
                printed = without_fences(text).split("\n")
                widest = max(printed, key=display_width)
                assert display_width(widest) <= 80, widest
                field = [block.text for block in split_blocks(text) if block.code]
                assert len(field) == 1 and field[0] in without_fences(text)


def test_display_width_counts_emoji_and_wide_characters_as_two() -> None:
    assert display_width("a1∧0=0") == 6
    assert display_width("○0001 ●1111") == 11
    assert display_width("🟥⬜") == 4
    assert display_width("1️⃣🟥") == 4, "a keycap is one emoji"
    assert display_width("⚠️ x") == 4, "an emoji-presentation selector widens its base"
    assert display_width("🇨\u200b🇩") == 4, "a zero-width space takes no column"
    assert display_width("中文") == 4


def test_blocks_split_back_into_prose_and_code() -> None:
    text = "\n".join(["Ann to move", code_block(["1 ab  ", "2 cd"]), "legend"])
    blocks = split_blocks(text)
    assert [(b.text, b.code) for b in blocks] == [("Ann to move", False),
                                                 ("1 ab\n2 cd", True), ("legend", False)]
    assert without_fences(text) == "Ann to move\n1 ab\n2 cd\nlegend"
    assert code_widths(text) == [4]
    assert split_blocks("no grid here") == [split_blocks("no grid here")[0]]
    assert not split_blocks("no grid here")[0].code
