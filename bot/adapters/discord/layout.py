"""Service boards as Discord messages: the ``Layout`` every message is drawn from, the
public board, and the small layouts (a plain text, a question with its one button).

Discord's limits shape everything here: 2000 characters of content, and a board's menu in
at most five rows (``menus.py``).

The public board of a game whose menu can turn into the board's grid (``Board.grid``: the
L-game, Rithmomachia) is Components V2 from its first message to its end panel, since a
message can never go back to classic: text displays for the header, the board and the
prompt, then action rows. With V2's budget the grid keeps its rows (one a board row),
and the options beside it and the navigation each get rows of their own. A card hand
(``hands.py``) is V2 too; such a message has no content, at most 40 components counting
nested ones and 4000 characters of text.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.adapters.common import turn_line
from bot.adapters.discord import limits
from bot.adapters.discord.markdown import fit_content, inert, rendered, shorten
from bot.adapters.discord.menus import MenuButton, MenuSelect, menu_button, menu_layout
from bot.service import Board, Button
from renderers.i18n import translate

# Discord's own numbers, from the one place that names their documentation.
V2_TEXT_LIMIT = limits.V2_TEXT  # all text displays of a Components V2 message together
V2_COMPONENTS = limits.V2_COMPONENTS  # components of a V2 message, nested ones counted
# The bot pings nobody but through a turn cue, which names its one person itself.
NO_MENTIONS = discord.AllowedMentions.none()


@dataclass(frozen=True)
class CardSection:
    """One card of a V2 hand: its line (Markdown, ready to show) and its button."""

    text: str
    button: MenuButton


@dataclass(frozen=True)
class Layout:
    content: str
    buttons: list[MenuButton]
    selects: list[MenuSelect]
    overflow: bool = False  # more menu options than Discord can show at once
    # Components V2 (a card hand): the message is ``parts`` in order, each a text display
    # (a str) or a card's section, then the buttons and selects in action rows by their
    # row; ``content`` is then only the text shown, for logs, and is never sent.
    v2: bool = False
    parts: tuple[str | CardSection, ...] = ()

    @property
    def has_components(self) -> bool:
        return self.v2 or bool(self.buttons or self.selects)

    def component_count(self) -> int:
        """Components as Discord counts them in a V2 message: every text display, section,
        accessory, action row, button and select."""
        rows = {b.row for b in self.buttons} | {s.row for s in self.selects}
        texts = sum(1 if isinstance(part, str) else 3 for part in self.parts)
        return texts + len(rows) + len(self.buttons) + len(self.selects)

    def text_length(self) -> int:
        return sum(len(part if isinstance(part, str) else part.text) for part in self.parts)


def board_text(board: Board) -> str:
    return rendered(board.text)


def board_layout(board: Board, language: str, header: list[str] | None = None) -> Layout:
    """The public board message: classic content and rows, or for a board with a grid
    (``Board.grid``) Components V2 (``grid_board_layout``)."""
    if board.grid:
        return grid_board_layout(board, language, header)
    navigation = list(board.navigation)
    if board.hand_button is not None:
        navigation.append(board.hand_button)
    buttons, selects, overflow = menu_layout(board.buttons, navigation, language)
    prompt = turn_line(board, language)
    if overflow:
        prompt += "\n" + translate(language, "menu.more")
    return Layout(fit_content([*map(inert, header or []), board_text(board), inert(prompt)]),
                  buttons, selects, overflow)


def grid_board_layout(board: Board, language: str, header: list[str] | None = None
                      ) -> Layout:
    """The public board of a game that can be tapped, as Components V2 at every step (a
    V2 message cannot become classic again): a text display for the header lines (if
    any), one for the board, one for the turn line or prompt, then the menu and the
    navigation in action rows. The grid takes its natural rows, its other options and
    the navigation rows of their own; should that pass V2's 40 components, the menu is
    laid out in Discord's five classic rows instead, which always fit."""
    navigation = list(board.navigation)
    if board.hand_button is not None:
        navigation.append(board.hand_button)
    head = shorten("\n".join(inert(line) for line in header or [] if line),
                   V2_TEXT_LIMIT // 4)
    prompt = turn_line(board, language)
    for v2_rows in (True, False):
        buttons, selects, overflow = menu_layout(board.buttons, navigation, language,
                                                  v2=v2_rows)
        shown = prompt + ("\n" + translate(language, "menu.more") if overflow else "")
        tail = inert(shown)
        room = V2_TEXT_LIMIT - len(head) - len(tail)
        parts = tuple(part for part in (head, shorten(board_text(board), max(room, 1)), tail)
                      if part)
        layout = Layout("\n".join(parts), buttons, selects, overflow, v2=True, parts=parts)
        if layout.component_count() <= V2_COMPONENTS:
            break
    return layout


def with_line(layout: Layout, line: str) -> Layout:
    """``layout`` with a line of text (ready to show) under its text: in a V2 message at
    the end of its last text display."""
    if not layout.v2:
        return Layout(fit_content([layout.content, line]), layout.buttons, layout.selects,
                      layout.overflow)
    parts = list(layout.parts)
    if parts and isinstance(parts[-1], str):
        parts[-1] = shorten(f"{parts[-1]}\n{line}",
                            len(parts[-1]) + V2_TEXT_LIMIT - layout.text_length())
    else:
        parts.append(line)
    return Layout("\n".join(p if isinstance(p, str) else p.text for p in parts),
                  layout.buttons, layout.selects, layout.overflow, v2=True, parts=tuple(parts))


def as_v2(layout: Layout) -> Layout:
    """A classic layout as a Components V2 message, for an edit of a message that is V2
    already (a card hand answered with a refusal): its content as one text display."""
    if layout.v2:
        return layout
    text = shorten(layout.content, V2_TEXT_LIMIT) or "…"
    return Layout(text, layout.buttons, layout.selects, layout.overflow, v2=True, parts=(text,))


def plain_layout(text: str) -> Layout:
    return Layout(fit_content([inert(text)]), [], [])


def question_layout(text: str, yes: Button) -> Layout:
    """A question before something that voids a result (``Reply.confirm``: a hint that
    leaves the game uncounted), always sent ephemerally: why it asks, and the one button
    that says yes."""
    return Layout(fit_content([inert(text)]), [menu_button(yes, 0)], [])
