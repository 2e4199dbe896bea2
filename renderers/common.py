"""Rendering shared by every game: names of seats, how a game ended, and code blocks.

A renderer's text is prose with fenced code blocks in it: a line that is exactly
:data:`FENCE` opens a block, the next such line closes it. Only grids whose columns must
line up go in a block (and there only glyphs monospace fonts carry); legends, warnings and
sentences stay prose, which a phone wraps. Adapters turn the blocks into their platform's
monospace (Discord's fences, Telegram's ``<pre>``) with :func:`split_blocks`; the console
prints :func:`without_fences`. A code block must fit :data:`PHONE_COLUMNS` columns as
:func:`display_width` counts them, or a phone wraps it and the grid falls apart.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from renderers.i18n import translate


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def render_outcome(outcome: dict[str, Any], names: Sequence[str], language: str) -> str:
    """One sentence: who won and why, or why it was drawn or abandoned."""
    detail = dict(outcome.get("detail") or {})
    if "loser" in detail:
        detail["loser"] = seat_name(names, int(detail["loser"]))
    reason_key = f"reason.{outcome['reason']}"
    reason = translate(language, reason_key, outcome["reason"], **detail)
    if outcome["reason"] == "abandoned":
        return translate(language, "game.over.abandoned")
    winners = outcome.get("winners") or []
    if not winners:
        return translate(language, "game.over.draw", reason=reason)
    winner_names = ", ".join(seat_name(names, int(w)) for w in winners)
    return translate(language, "game.over.win", name=winner_names, reason=reason)


FENCE = "```"
# About what a phone shows of a code block in portrait without wrapping or scrolling
# (Discord and Telegram on a 360-pixel-wide screen).
PHONE_COLUMNS = 32
# Codepoints that take no column of their own: variation selectors, zero-width joiners and
# spaces, combining keycaps. A preceding U+FE0F makes its base an emoji (two columns).
_ZERO_WIDTH = {"\u200b", "\u200c", "\u200d", "\u2060", "\ufe0e", "\ufe0f", "\u20e3"}
EMOJI_PRESENTATION = "\ufe0f"
# Pictographs and symbols phones draw as colour emoji, two columns wide, whatever their
# East Asian width says (Unicode's emoji blocks, 1F000-1FAFF).
_EMOJI_BLOCKS = ((0x1F000, 0x1FAFF),)


def _codepoint_width(char: str) -> int:
    if char in _ZERO_WIDTH or unicodedata.combining(char) \
            or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    code = ord(char)
    if any(low <= code <= high for low, high in _EMOJI_BLOCKS):
        return 2
    return 1


def display_width(line: str) -> int:
    """Columns ``line`` takes in a monospace font: wide (East Asian W/F) characters and
    emoji count two, joiners and selectors none, and a character an emoji-presentation
    selector follows (``1️⃣``, ``⚠️``) two."""
    width = 0
    previous = 0
    for char in line:
        if char == EMOJI_PRESENTATION and previous == 1:
            width += 1  # the base was counted as one column, its emoji takes two
            previous = 2
            continue
        previous = _codepoint_width(char)
        width += previous
    return width


def code_block(lines: Iterable[str]) -> str:
    """``lines`` as one fenced code block (trailing spaces dropped, which phones ignore)."""
    return "\n".join([FENCE, *(line.rstrip() for line in lines), FENCE])


@dataclass(frozen=True)
class TextBlock:
    text: str
    code: bool


def split_blocks(text: str) -> list[TextBlock]:
    """A renderer's text as prose and code parts in order, without the fences and without
    empty parts. An unclosed fence runs to the end of the text."""
    blocks: list[TextBlock] = []
    lines: list[str] = []
    code = False
    for line in text.split("\n"):
        if line.strip() == FENCE:
            part = "\n".join(lines).strip("\n")
            if part.strip():
                blocks.append(TextBlock(part, code))
            lines, code = [], not code
            continue
        lines.append(line)
    part = "\n".join(lines).strip("\n")
    if part.strip():
        blocks.append(TextBlock(part, code))
    return blocks


def without_fences(text: str) -> str:
    """The text as a terminal shows it: the blocks in place, the fence lines gone."""
    return "\n".join(block.text for block in split_blocks(text))


def code_widths(text: str) -> list[int]:
    """The widest line of each code block in ``text``."""
    return [max(display_width(line) for line in block.text.split("\n"))
            for block in split_blocks(text) if block.code]
