"""Service boards and hands as Discord message content and components.

Discord's limits shape everything here: 2000 characters of content, 5 rows of at most 5
buttons, 25 options per select menu, 80-character button labels, 100-character select
labels and custom ids of at most 100 characters. A board's move menu becomes buttons when
it fits in four rows, otherwise select menus of 25; the fifth row holds navigation.

A card hand (``Hand.cards``: bOOleO, Digitalo) is a Components V2 message instead: text
displays, one section per card (its line beside the button that plays it), then the
other options in action rows. Such a message has no content, at most 40 components
counting nested ones and 4000 characters of text; a hand that would not fit shows its
cards as text above all of its buttons, still V2 (a V2 message stays V2 when edited).

The public board of a game whose menu can turn into the board's grid (``Board.grid``: the
L-game, Rithmomachia) is Components V2 from its first message to its end panel, since a
message can never go back to classic: text displays for the header, the board and the
prompt, then action rows. With V2's budget the grid keeps its rows (one a board row),
and the options beside it and the navigation each get rows of their own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.adapters.common import grid_width, runs_of, turn_line, valid_unicode
from bot.adapters.discord import limits
from bot.learn.replays import ReplayStep
from bot.payloads import PAYLOAD_LIMIT, Payload, PayloadTooLong
from bot.service import Board, Button, Hand
from renderers.common import split_blocks
from renderers.i18n import translate

# Discord's own numbers, from the one place that names their documentation.
CONTENT_LIMIT = limits.CONTENT
V2_TEXT_LIMIT = limits.V2_TEXT  # all text displays of a Components V2 message together
V2_COMPONENTS = limits.V2_COMPONENTS  # components of a V2 message, nested ones counted
BUTTON_LABEL_LIMIT = limits.BUTTON_LABEL
SELECT_LABEL_LIMIT = limits.SELECT_OPTION_TEXT
SELECT_OPTIONS = limits.SELECT_OPTIONS[1]
ROW_WIDTH = limits.ROW_BUTTONS
MENU_ROWS = 4  # the fifth row is kept for back, join and hand buttons
MAX_MENU_BUTTONS = ROW_WIDTH * MENU_ROWS
# The bot pings nobody but through a turn cue, which names its one person itself.
NO_MENTIONS = discord.AllowedMentions.none()
BUTTON_PREFIX = "lb:"
SELECT_PREFIX = "lbs:"
# Escaping for Discord's Markdown (after simple-markdown, where a backslash escapes any
# punctuation): the inline markers everywhere, quote, header and subtext markers at the
# start of a line, nothing inside URLs (the same pattern discord.py uses to find them).
_MARKDOWN = re.compile(r"[\\*_~|`\[\]]")
_LINE_MARKDOWN = re.compile(r"^(\s*)(>|#|-#)", re.MULTILINE)
_URL = re.compile(r"<[^: >]+:/[^ >]+>|(?:https?|steam)://[^\s<]+[^<.,:;\"'\]\s]")
BUTTON_TEMPLATE = rf"lb:(?P<payload>[!-~]{{1,{PAYLOAD_LIMIT}}})"
REPLAY_TEMPLATE = r"lr:(?P<game>[0-9]{1,12}):(?P<index>[0-9]{1,6}):(?P<slot>[0-3])"
SIGNUP_TEMPLATE = r"lt:(?P<tournament>[0-9]{1,12})"  # a tournament's sign-up button
SELECT_TEMPLATE = rf"lbs:(?P<payload>[!-~]{{1,{PAYLOAD_LIMIT}}}?):(?P<chunk>[0-9])"


@dataclass(frozen=True)
class MenuButton:
    label: str
    custom_id: str
    row: int
    primary: bool = False
    disabled: bool = False


@dataclass(frozen=True)
class MenuSelect:
    placeholder: str
    custom_id: str
    options: list[tuple[str, str]]  # (label, value)
    row: int


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


def shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, and sendable (see ``valid_unicode``)."""
    text = valid_unicode(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def inert(text: str) -> str:
    """Text from the service as Discord shows it literally: Markdown characters escaped
    (a player named ``*bold*`` or ``[a](http://x)`` stays as typed, and a board's ``*``
    marks do not turn into italics) and ``@everyone``/``@here`` broken, as a second guard
    beside ``allowed_mentions``. URLs stay as they are. The service's texts carry no
    Markdown of their own; the only Markdown is what this module adds around them."""
    # Not discord.utils.escape_markdown: it takes a masked link as one greedy match up to
    # the line's last ")" and escapes nothing inside, so "[a](x) … *bold* … (y)" kept
    # its bold and a second link live.
    text = valid_unicode(text)
    pieces: list[str] = []
    start = 0
    for url in _URL.finditer(text):
        pieces += [_MARKDOWN.sub(r"\\\g<0>", text[start:url.start()]), url[0]]
        start = url.end()
    pieces.append(_MARKDOWN.sub(r"\\\g<0>", text[start:]))
    escaped = _LINE_MARKDOWN.sub(r"\1\\\2", "".join(pieces))
    return discord.utils.escape_mentions(escaped)


def fit_content(parts: list[str]) -> str:
    """Join non-empty parts; cut from the end so that the board itself survives."""
    text = "\n".join(part for part in parts if part)
    return shorten(text, CONTENT_LIMIT)


def rendered(text: str) -> str:
    """A renderer's text for Discord: its code blocks (the grids whose columns must line
    up, at most 32 columns for a phone) fenced, and the prose around them inert."""
    return "\n".join(f"```\n{block.text}\n```" if block.code else inert(block.text)
                     for block in split_blocks(text))


def board_text(board: Board) -> str:
    return rendered(board.text)


def _grouped_layout(buttons: list[Button], language: str
                    ) -> tuple[list[MenuButton], list[MenuSelect]] | None:
    """A long menu with groups, each run where it reads best: a group as a select of its
    own named for what it holds (the Turing code pad, Rithmomachia's pushes), ordinary
    options as buttons while the rows allow, else as a select too. None when even that
    does not fit Discord's rows."""
    runs = runs_of(buttons)
    if len(runs) < 2 or not any(run[0].group for run in runs):
        return None

    def rows(run: list[Button], as_buttons: bool) -> int:
        return -(-len(run) // (ROW_WIDTH if as_buttons else SELECT_OPTIONS))

    as_buttons = [not run[0].group for run in runs]
    for index in sorted(range(len(runs)), key=lambda i: -len(runs[i])):
        if sum(rows(run, flag) for run, flag in zip(runs, as_buttons, strict=True)) <= MENU_ROWS:
            break
        as_buttons[index] = False
    if sum(rows(run, flag) for run, flag in zip(runs, as_buttons, strict=True)) > MENU_ROWS:
        return None
    menu_buttons: list[MenuButton] = []
    selects: list[MenuSelect] = []
    row = 0
    for run, flag in zip(runs, as_buttons, strict=True):
        if flag:
            for index, button in enumerate(run):
                menu_buttons.append(_menu_button(button, row + index // ROW_WIDTH))
            row += rows(run, True)
            continue
        for chunk in range(0, len(run), SELECT_OPTIONS):
            group = run[chunk:chunk + SELECT_OPTIONS]
            placeholder = (translate(language, f"menu.group.{run[0].group}") if run[0].group
                           else translate(language, "menu.pick", first=1, last=len(group)))
            selects.append(MenuSelect(
                placeholder,
                f"{SELECT_PREFIX}{_option_payload(group[0]).parent().encode()}:{len(selects)}",
                [(shorten(b.label, SELECT_LABEL_LIMIT), _option_payload(b).last_token)
                 for b in group],
                row))
            row += 1
    return menu_buttons, selects


def _menu_button(button: Button, row: int, primary: bool = True) -> MenuButton:
    """A menu option's button: primary (what the player may do now) unless the option is
    unavailable, which Discord shows disabled."""
    return MenuButton(shorten(button.label, BUTTON_LABEL_LIMIT), BUTTON_PREFIX + button.payload,
                      row, primary=primary and not button.disabled, disabled=button.disabled)


def _grid_layout(buttons: list[Button], navigation: list[Button], v2: bool = False
                 ) -> tuple[list[MenuButton], list[Button]] | None:
    """A menu holding a board's grid (``Choice.group`` ``grid4``): the grid's rows as grey
    buttons in the board's shape, then its other options; in a classic message those that
    find no row of their own join the navigation row, in a V2 one (``v2``: no limit of
    five rows) each gets rows of its own, and the navigation follows them. None when there
    is no grid, or it does not fit."""
    runs = runs_of(buttons)
    if not any(grid_width(run[0].group) for run in runs):
        return None
    menu_buttons: list[MenuButton] = []
    row = 0
    spare: list[Button] = []
    for run in runs:
        width = grid_width(run[0].group)
        if width is None:
            spare += run
            continue
        if width > ROW_WIDTH:
            return None
        # Discord sizes a button to its label. Padding the labels to one length would even
        # the columns but wrap a row of five on a phone (seen in ux_screens), so not.
        for index, button in enumerate(run):
            menu_buttons.append(_menu_button(button, row + index // width, primary=False))
        row += -(-len(run) // width)
    while spare and (v2 or row < MENU_ROWS):
        for button in spare[:ROW_WIDTH]:
            menu_buttons.append(_menu_button(button, row))
        spare, row = spare[ROW_WIDTH:], row + 1
    if v2:
        return menu_buttons, navigation
    if row > MENU_ROWS or len(spare) + len(navigation) > ROW_WIDTH:
        return None
    return menu_buttons, [*spare, *navigation]


def _menu_layout(buttons: list[Button], navigation: list[Button], language: str,
                 v2: bool = False) -> tuple[list[MenuButton], list[MenuSelect], bool]:
    """The menu's buttons and selects by row, navigation last. ``v2``: for a Components V2
    message, whose grid may take more than Discord's five classic rows."""
    menu_buttons: list[MenuButton] = []
    selects: list[MenuSelect] = []
    overflow = False
    navigation_row = MENU_ROWS
    grid = _grid_layout(buttons, navigation, v2)
    if grid is not None:
        menu_buttons, navigation = grid
        buttons = []
        navigation_row = max([MENU_ROWS - 1, *(b.row for b in menu_buttons)]) + 1
    grouped = _grouped_layout(buttons, language) if len(buttons) > MAX_MENU_BUTTONS else None
    if grouped is not None:
        menu_buttons, selects = grouped
    elif len(buttons) <= MAX_MENU_BUTTONS:
        for index, button in enumerate(buttons):
            menu_buttons.append(_menu_button(button, index // ROW_WIDTH))
    else:
        # A select's chosen value is the last path token; the select's own id carries
        # the path so far, which is the payload of the options without their last token.
        capacity = SELECT_OPTIONS * MENU_ROWS
        overflow = len(buttons) > capacity
        shown = buttons[:capacity]
        for chunk in range(0, len(shown), SELECT_OPTIONS):
            group = shown[chunk:chunk + SELECT_OPTIONS]
            number = chunk // SELECT_OPTIONS
            selects.append(MenuSelect(
                translate(language, "menu.pick", first=chunk + 1, last=chunk + len(group)),
                f"{SELECT_PREFIX}{_option_payload(group[0]).parent().encode()}:{number}",
                [(shorten(b.label, SELECT_LABEL_LIMIT), _option_payload(b).last_token)
                 for b in group],
                number))
    for button in navigation[:ROW_WIDTH]:
        menu_buttons.append(MenuButton(shorten(button.label, BUTTON_LABEL_LIMIT),
                                       BUTTON_PREFIX + button.payload, navigation_row))
    return menu_buttons, selects, overflow


def _option_payload(button: Button) -> Payload:
    payload = Payload.parse(button.payload)
    if payload is None:
        raise ValueError(f"not a service payload: {button.payload!r}")
    return payload


def select_payload(prefix: str, value: str) -> str:
    """The button payload a select choice stands for: the select's step plus the chosen
    token. A forged prefix or value gives a payload the service refuses ("" for one that
    cannot even be encoded: too long, or a lone surrogate from a forged request)."""
    parent = Payload.parse(prefix)
    if parent is None:
        return ""
    try:
        return parent.child(value).encode()
    except (PayloadTooLong, UnicodeEncodeError):
        return ""


def board_layout(board: Board, language: str, header: list[str] | None = None) -> Layout:
    """The public board message: classic content and rows, or for a board with a grid
    (``Board.grid``) Components V2 (``grid_board_layout``)."""
    if board.grid:
        return grid_board_layout(board, language, header)
    navigation = list(board.navigation)
    if board.hand_button is not None:
        navigation.append(board.hand_button)
    buttons, selects, overflow = _menu_layout(board.buttons, navigation, language)
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
        buttons, selects, overflow = _menu_layout(board.buttons, navigation, language,
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


def hand_layout(hand: Hand, language: str, notice: str | None = None) -> Layout:
    """A player's private hand message, always sent ephemerally: a card hand's as a
    Components V2 message (``card_hand_layout``), any other as content and rows."""
    if hand.cards is not None:
        return card_hand_layout(hand, language, notice)
    buttons, selects, overflow = _menu_layout(hand.buttons, hand.navigation, language)
    text = rendered(hand.text)
    prompt = hand.prompt + ("\n" + translate(language, "menu.more") if overflow else "")
    return Layout(fit_content([f"**{inert(notice)}**" if notice else "", text, inert(prompt)]),
                  buttons, selects, overflow)


def card_hand_layout(hand: Hand, language: str, notice: str | None = None) -> Layout:
    """A card hand as Components V2: the text above the cards, then each card as a section,
    its line (``• AND→1: goes where both inputs are 1``) beside the button that plays it
    (disabled when the card is unavailable), then the text under the cards, the prompt,
    and the other options and navigation in action rows. Where no card can be played now
    (a later step of the menu, not the player's turn), or the sections would pass
    Discord's limits, the whole text comes first and every button follows in rows."""
    header = f"**{inert(notice)}**" if notice else ""
    sectioned = _sectioned_hand(hand, language, header)
    if sectioned is not None:
        return sectioned
    buttons, selects, overflow = _menu_layout(hand.buttons, hand.navigation, language)
    prompt = hand.prompt + ("\n" + translate(language, "menu.more") if overflow else "")
    text = shorten("\n".join(part for part in (header, rendered(hand.text), inert(prompt))
                             if part), V2_TEXT_LIMIT)
    return Layout(text, buttons, selects, overflow, v2=True, parts=(text,))


def _sectioned_hand(hand: Hand, language: str, header: str) -> Layout | None:
    """The hand with a section per card that has a button; None when no card has one, a
    card's line is not where the text should hold it, or Discord's limits forbid."""
    cards = hand.cards or []
    if not any(card.button is not None for card in cards):
        return None
    lines = hand.text.split("\n")
    found: list[int] = []
    for card in cards:
        start = found[-1] + 1 if found else 0
        if card.text not in lines[start:]:
            return None
        found.append(lines.index(card.text, start))
    played = {card.button.payload for card in cards if card.button is not None}
    rest = [button for button in hand.buttons if button.payload not in played]
    buttons, selects, overflow = _menu_layout(rest, hand.navigation, language)
    prompt = hand.prompt + ("\n" + translate(language, "menu.more") if overflow else "")
    parts: list[str | CardSection] = []

    def text(part: str) -> None:
        if not part:
            return
        if parts and isinstance(parts[-1], str):
            parts[-1] += "\n" + part
        else:
            parts.append(part)

    text(header)
    text(rendered("\n".join(lines[:found[0]])))
    for card in cards:
        if card.button is None:
            text(inert(card.text))
        else:
            parts.append(CardSection(inert(card.text), _menu_button(card.button, 0)))
    text(rendered("\n".join(lines[found[-1] + 1:])))
    text(inert(prompt))
    content = "\n".join(part if isinstance(part, str) else part.text for part in parts)
    layout = Layout(content, buttons, selects, overflow, v2=True, parts=tuple(parts))
    if layout.component_count() > V2_COMPONENTS or layout.text_length() > V2_TEXT_LIMIT:
        return None
    return layout


def as_v2(layout: Layout) -> Layout:
    """A classic layout as a Components V2 message, for an edit of a message that is V2
    already (a card hand answered with a refusal): its content as one text display."""
    if layout.v2:
        return layout
    text = shorten(layout.content, V2_TEXT_LIMIT) or "…"
    return Layout(text, layout.buttons, layout.selects, layout.overflow, v2=True, parts=(text,))


def page_menu_view(choices: tuple[Button, ...], navigation: tuple[Button, ...], language: str,
                   button: Callable[[str, str, int, bool, bool], discord.ui.Item[Any]],
                   select: Callable[[int, str, list[tuple[str, str]], int],
                                    discord.ui.Item[Any]]) -> discord.ui.View | None:
    """A page's options (a lesson's, the trainer's) as ``button`` items (payload, label,
    row, primary, disabled) in four rows, or as ``select`` menus (number, placeholder,
    options, row) of the pressable ones when there are more; the navigation in the last
    row."""
    if not choices and not navigation:
        return None
    view = discord.ui.View(timeout=None)
    # Buttons first: a select wrapped in a DynamicItem takes the first empty row
    # (discord.py 2.7), which is then its own.
    for nav in navigation[:ROW_WIDTH]:
        view.add_item(button(nav.payload, shorten(nav.label, BUTTON_LABEL_LIMIT), MENU_ROWS,
                             False, False))
    if len(choices) <= MAX_MENU_BUTTONS:
        for index, choice in enumerate(choices):
            view.add_item(button(choice.payload, shorten(choice.label, BUTTON_LABEL_LIMIT),
                                 index // ROW_WIDTH, True, choice.disabled))
        return view
    shown = [choice for choice in choices if not choice.disabled]
    shown = shown[:SELECT_OPTIONS * MENU_ROWS]
    for number, start in enumerate(range(0, len(shown), SELECT_OPTIONS)):
        group = shown[start:start + SELECT_OPTIONS]
        view.add_item(select(
            number, translate(language, "menu.pick", first=start + 1, last=start + len(group)),
            [(shorten(choice.label, SELECT_LABEL_LIMIT), choice.payload) for choice in group],
            number))
    return view


def plain_layout(text: str) -> Layout:
    return Layout(fit_content([inert(text)]), [], [])


def question_layout(text: str, yes: Button) -> Layout:
    """A question before something that voids a result (``Reply.confirm``: a hint that
    leaves the game uncounted), always sent ephemerally: why it asks, and the one button
    that says yes."""
    return Layout(fit_content([inert(text)]), [_menu_button(yes, 0)], [])


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                  template=BUTTON_TEMPLATE):
    """A menu, join or hand button. Being a DynamicItem, it works on messages sent before a
    restart: everything it needs is in its custom id and the database."""

    def __init__(self, payload: str, label: str = "…", row: int | None = None,
                 primary: bool = False, disabled: bool = False) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, custom_id=BUTTON_PREFIX + payload,
                                           style=style, row=row, disabled=disabled))
        self.payload = payload

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> BoardButton:
        return cls(match["payload"])

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "handle_component", None)
        if handler is not None:
            await handler(interaction, self.payload)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=REPLAY_TEMPLATE):
    """Start, back, forward or end of a replay: ``lr:<game>:<step>:<slot>`` (the slot keeps
    the ids of one message apart when two buttons lead to the same step)."""

    def __init__(self, game_id: int, index: int, slot: int, label: str = "…",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=f"lr:{game_id}:{index}:{slot}"))
        self.game_id, self.index = game_id, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> ReplayButton:
        return cls(int(match["game"]), int(match["index"]), int(match["slot"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(interaction.client, "handle_replay", None)
        if handler is not None:
            await handler(interaction, self.game_id, self.index)


def replay_view(step: ReplayStep) -> discord.ui.View | None:
    """Start, back, forward and end under a replay step; none under a refusal."""
    if not step.ok:
        return None
    view = discord.ui.View(timeout=None)
    at_start, at_end = step.index == 0, step.index == step.last
    for slot, (label, target, disabled) in enumerate((
            ("⏮", step.first, at_start), ("◀", step.back, at_start),
            ("▶", step.forward, at_end), ("⏭", step.end, at_end))):
        view.add_item(ReplayButton(step.game_id, target, slot, label, disabled))
    return view


class BoardSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
                  template=SELECT_TEMPLATE):
    """A select menu of move options; see ``BoardButton`` for why it is dynamic."""

    def __init__(self, prefix: str, chunk: int, placeholder: str = "…",
                 options: list[tuple[str, str]] | None = None, row: int | None = None) -> None:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"{SELECT_PREFIX}{prefix}:{chunk}", placeholder=placeholder,
            options=[discord.SelectOption(label=label, value=value)
                     for label, value in (options or [("…", "-")])],
            row=row)
        super().__init__(select)
        self.prefix = prefix

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[discord.ui.View],
                             match: re.Match[str]) -> BoardSelect:
        return cls(match["payload"], int(match["chunk"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        values = data.get("values") or []
        handler = getattr(interaction.client, "handle_component", None)
        if handler is not None:
            value = str(values[0]) if len(values) == 1 else ""
            await handler(interaction, select_payload(self.prefix, value))


AnyView = discord.ui.View | discord.ui.LayoutView


def message_fields(layout: Layout, *, edit: bool) -> dict[str, Any]:
    """The content and view with which to send (``edit``: edit a message to) ``layout``. A
    V2 message has no content; an edit clears it, in case the message was classic."""
    view = build_view(layout)
    if layout.v2:
        return {"content": None, "view": view} if edit else {"view": view}
    fields: dict[str, Any] = {"content": layout.content}
    if view is not None or edit:
        fields["view"] = view
    return fields


def build_view(layout: Layout) -> AnyView | None:
    if layout.v2:
        return _build_layout_view(layout)
    if not layout.has_components:
        return None
    view = discord.ui.View(timeout=None)
    # Buttons first: a select wrapped in a DynamicItem loses its row in discord.py 2.7
    # and takes the first empty row, which is its own once the buttons hold theirs (the
    # layouts above give selects exactly the rows no button uses, in order).
    for button in layout.buttons:
        view.add_item(BoardButton(button.custom_id[len(BUTTON_PREFIX):], button.label,
                                  button.row, button.primary, button.disabled))
    for select in sorted(layout.selects, key=lambda select: select.row):
        prefix = select.custom_id[len(SELECT_PREFIX):].rsplit(":", 1)[0]
        view.add_item(BoardSelect(prefix, int(select.custom_id.rsplit(":", 1)[1]),
                                  select.placeholder, select.options, select.row))
    return view


def _build_layout_view(layout: Layout) -> discord.ui.LayoutView:
    """A V2 layout's components: its parts, then its buttons and selects, a row each."""
    view = discord.ui.LayoutView(timeout=None)
    for part in layout.parts or ("…",):
        if isinstance(part, str):
            view.add_item(discord.ui.TextDisplay(part))
        else:
            button = part.button
            view.add_item(discord.ui.Section(
                discord.ui.TextDisplay(part.text),
                accessory=BoardButton(button.custom_id[len(BUTTON_PREFIX):], button.label,
                                      None, button.primary, button.disabled)))
    rows: dict[int, list[BoardButton | BoardSelect]] = {}
    for menu_button in layout.buttons:
        rows.setdefault(menu_button.row, []).append(BoardButton(
            menu_button.custom_id[len(BUTTON_PREFIX):], menu_button.label, None,
            menu_button.primary, menu_button.disabled))
    for select in layout.selects:
        prefix = select.custom_id[len(SELECT_PREFIX):].rsplit(":", 1)[0]
        rows.setdefault(select.row, []).append(BoardSelect(
            prefix, int(select.custom_id.rsplit(":", 1)[1]), select.placeholder,
            select.options))
    for row in sorted(rows):
        view.add_item(discord.ui.ActionRow(*rows[row]))
    return view
