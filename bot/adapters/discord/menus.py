"""A menu as Discord's rows: 5 rows of at most 5 buttons, 25 options per select menu,
80-character button labels, 100-character select labels. A menu becomes buttons when it
fits in four rows, otherwise select menus of 25 (a long menu with groups gets a select
per group); the fifth row holds the navigation. A menu holding a board's grid keeps the
grid's shape. A select's id carries the path so far and its options the last token
(``select_payload`` joins them again)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.adapters.common import grid_width, runs_of
from bot.adapters.discord import limits
from bot.adapters.discord.markdown import shorten
from bot.payloads import Payload, PayloadTooLong
from bot.service import Button
from renderers.i18n import translate

# Discord's own numbers, from the one place that names their documentation.
BUTTON_LABEL_LIMIT = limits.BUTTON_LABEL
SELECT_LABEL_LIMIT = limits.SELECT_OPTION_TEXT
SELECT_OPTIONS = limits.SELECT_OPTIONS[1]
ROW_WIDTH = limits.ROW_BUTTONS
MENU_ROWS = 4  # the fifth row is kept for back, join and hand buttons
MAX_MENU_BUTTONS = ROW_WIDTH * MENU_ROWS
BUTTON_PREFIX = "lb:"
SELECT_PREFIX = "lbs:"


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
                menu_buttons.append(menu_button(button, row + index // ROW_WIDTH))
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


def menu_button(button: Button, row: int, primary: bool = True) -> MenuButton:
    """A menu option's button: primary (what the player may do now) unless the option is
    unavailable, which Discord shows disabled."""
    return MenuButton(shorten(button.label, BUTTON_LABEL_LIMIT), BUTTON_PREFIX + button.payload,
                      row, primary=primary and not button.disabled, disabled=button.disabled)


def grid_layout(buttons: list[Button], navigation: list[Button], v2: bool = False
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
            menu_buttons.append(menu_button(button, row + index // width, primary=False))
        row += -(-len(run) // width)
    while spare and (v2 or row < MENU_ROWS):
        for button in spare[:ROW_WIDTH]:
            menu_buttons.append(menu_button(button, row))
        spare, row = spare[ROW_WIDTH:], row + 1
    if v2:
        return menu_buttons, navigation
    if row > MENU_ROWS or len(spare) + len(navigation) > ROW_WIDTH:
        return None
    return menu_buttons, [*spare, *navigation]


def menu_layout(buttons: list[Button], navigation: list[Button], language: str,
                 v2: bool = False) -> tuple[list[MenuButton], list[MenuSelect], bool]:
    """The menu's buttons and selects by row, navigation last. ``v2``: for a Components V2
    message, whose grid may take more than Discord's five classic rows."""
    menu_buttons: list[MenuButton] = []
    selects: list[MenuSelect] = []
    overflow = False
    navigation_row = MENU_ROWS
    grid = grid_layout(buttons, navigation, v2)
    if grid is not None:
        menu_buttons, navigation = grid
        buttons = []
        navigation_row = max([MENU_ROWS - 1, *(b.row for b in menu_buttons)]) + 1
    grouped = _grouped_layout(buttons, language) if len(buttons) > MAX_MENU_BUTTONS else None
    if grouped is not None:
        menu_buttons, selects = grouped
    elif len(buttons) <= MAX_MENU_BUTTONS:
        for index, button in enumerate(buttons):
            menu_buttons.append(menu_button(button, index // ROW_WIDTH))
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
