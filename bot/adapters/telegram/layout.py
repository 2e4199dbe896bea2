"""Service boards and hands as Telegram messages: HTML text and an inline keyboard.

Telegram's limits shape this module: 4096 characters of message text, 200 characters in
a callback alert, 64 bytes of callback data and 100 inline buttons (8 to a row).
``limits.py`` spells them, with their sources; they are imported here under the names
this module always gave them (``X as X`` re-exports them). Every text that reaches
Telegram is escaped here, so names such as ``<b>Eve</b>`` show as typed; the only tags
are the ones this module adds.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.adapters.common import grid_width, runs_of, thinking_line, turn_line, valid_unicode
from bot.adapters.telegram.limits import ALERT_LIMIT as ALERT_LIMIT
from bot.adapters.telegram.limits import CALLBACK_DATA_LIMIT as CALLBACK_DATA_LIMIT
from bot.adapters.telegram.limits import KEYBOARD_LIMIT as KEYBOARD_LIMIT
from bot.adapters.telegram.limits import ROW_LIMIT as ROW_LIMIT
from bot.adapters.telegram.limits import TEXT_LIMIT as TEXT_LIMIT
from bot.service import Board, Button, Hand
from renderers.common import split_blocks
from renderers.i18n import translate

# The bot's own choice, not Telegram's: about this much of a button label shows on a phone.
LABEL_LIMIT = 64


# "@" before a name character: Telegram turns "@name" in any message text into a mention
# that notifies that user, so a display name like "@teacher" must not reach a group as is.
_MENTION = re.compile(r"@(?=\w)")
WORD_JOINER = "\u2060"


def neutral(text: str) -> str:
    """Text that Telegram can send (see ``valid_unicode``) and that mentions nobody: an
    invisible word joiner after each "@" keeps it from starting a username."""
    return _MENTION.sub("@" + WORD_JOINER, valid_unicode(text))


@dataclass(frozen=True)
class Block:
    """A paragraph of plain text and how to set it: ``plain``, ``bold``, ``pre`` or
    ``italic``."""

    text: str
    style: str = "plain"

    def html(self) -> str:
        escaped = html.escape(neutral(self.text), quote=False)
        tag = {"bold": "b", "pre": "pre", "italic": "i"}.get(self.style)
        return f"<{tag}>{escaped}</{tag}>" if tag else escaped


@dataclass(frozen=True)
class Key:
    """One inline button. Its data is checked against Telegram's 64-byte limit here, so an
    oversized button fails in tests rather than as a 400 from Telegram."""

    label: str
    data: str = ""
    url: str = ""
    # Telegram's button colours (python-telegram-bot 22.7+): "primary" (blue) marks what a
    # player may do now (moves, "Play again"); empty leaves the app's own style.
    style: str = ""

    def __post_init__(self) -> None:
        if len(self.data.encode()) > CALLBACK_DATA_LIMIT:
            raise ValueError(f"callback data over {CALLBACK_DATA_LIMIT} bytes: {self.data!r}")
        if bool(self.data) == bool(self.url):
            raise ValueError("a key has either callback data or a URL")


@dataclass(frozen=True)
class Message:
    html: str
    rows: tuple[tuple[Key, ...], ...] = ()
    overflow: bool = False  # more menu options than one keyboard holds
    effect: str = ""  # a message effect's id (private chats only), such as CELEBRATION

    def markup(self) -> InlineKeyboardMarkup | None:
        """The keyboard, or None; an edit with None removes the old keyboard."""
        if not self.rows:
            return None
        return InlineKeyboardMarkup([
            [InlineKeyboardButton(key.label, url=key.url) if key.url
             else InlineKeyboardButton(key.label, callback_data=key.data,
                                       style=key.style or None) for key in row]
            for row in self.rows])

    @property
    def keys(self) -> list[Key]:
        return [key for row in self.rows for key in row]

    def callback_data(self) -> set[str]:
        """The callback data of its buttons, to compare with a message Telegram sent."""
        return {key.data for key in self.keys if key.data}


def shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, and sendable (see ``valid_unicode``)."""
    text = valid_unicode(text)
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def fit(blocks: list[Block], limit: int = TEXT_LIMIT) -> str:
    """Blocks as HTML within ``limit``, cutting the longest block first (the board keeps
    its status lines, which are short)."""
    blocks = [block for block in blocks if block.text]
    while True:
        text = "\n".join(block.html() for block in blocks)
        excess = len(text) - limit
        if excess <= 0:
            return text
        longest = max(range(len(blocks)), key=lambda index: len(blocks[index].text))
        block = blocks[longest]
        # Escaping can make the cut fall short; the loop measures again.
        keep = len(block.text) - excess - 1
        if keep <= 0:
            del blocks[longest]
        else:
            blocks[longest] = Block(block.text[:keep] + "…", block.style)


def split_text(text: str, limit: int = TEXT_LIMIT) -> list[str]:
    """Long plain text (rules, help) as escaped HTML messages, split between lines."""
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        escaped = html.escape(neutral(line), quote=False)
        while len(escaped) > limit:  # one enormous line: cut it anywhere but in an entity
            cut = escaped.rfind("&", 0, limit)
            cut = cut if cut > limit - 8 else limit
            pieces.append(escaped[:cut])
            escaped = escaped[cut:]
        candidate = f"{current}\n{escaped}" if current else escaped
        if len(candidate) > limit:
            pieces.append(current)
            current = escaped
        else:
            current = candidate
    if current or not pieces:
        pieces.append(current or "…")
    return pieces


def _columns(labels: list[str]) -> int:
    """How many buttons share a row: short labels (cells, cards) pack tightly."""
    longest = max((len(label) for label in labels), default=0)
    if longest <= 4:
        return ROW_LIMIT if len(labels) > 40 else 5
    if longest <= 12:
        return 3
    if longest <= 24:
        return 2
    return 1


def keyboard(menu: list[Button], navigation: list[Button]) -> tuple[tuple[tuple[Key, ...], ...],
                                                                  bool]:
    """Menu buttons in rows, navigation in the last row; False when everything fits."""
    navigation = navigation[:ROW_LIMIT]
    room = KEYBOARD_LIMIT - len(navigation)
    shown = menu[:room]
    rows: list[tuple[Key, ...]] = []
    # Each run of one group (``Choice.group``: the Turing code pad, Rithmomachia's
    # pushes) starts its own rows, as wide as its own labels allow: the pad stays a 5×5
    # pad beside the long "End round".
    for run in runs_of(shown):
        # A board's grid keeps the board's own width (``Choice.group`` ``grid4``).
        width = grid_width(run[0].group) or _columns([button.label for button in run])
        keys = [Key(shorten(button.label, LABEL_LIMIT), button.payload,
                    style="" if grid_width(run[0].group) else "primary")
                for button in run]
        rows += [tuple(keys[start:start + width]) for start in range(0, len(keys), width)]
    if navigation:
        # As wide as its labels allow, like the menu: four puzzle buttons in one row are
        # cut to "Show m…" on a 360-pixel phone. The rows are balanced (2 + 2, not 3 + 1).
        keys = [Key(shorten(button.label, LABEL_LIMIT), button.payload)
                for button in navigation]
        rows += balanced_rows(keys, _columns([button.label for button in navigation]))
    return tuple(rows), len(menu) > room


def balanced_rows(keys: list[Key], width: int) -> list[tuple[Key, ...]]:
    """``keys`` in as few rows of at most ``width`` as hold them, the rows' lengths
    differing by one at most, the longer ones first."""
    count = -(-len(keys) // width)
    rows: list[tuple[Key, ...]] = []
    start = 0
    for row in range(count):
        size = len(keys) // count + (row < len(keys) % count)
        rows.append(tuple(keys[start:start + size]))
        start += size
    return rows


def menu_message(text: str, choices: tuple[Button, ...], navigation: tuple[Button, ...],
                 prefix: str) -> Message:
    """A page of text with its options as keys and its navigation in the last row, each
    key's data the button's payload after the adapter's ``prefix`` (a lesson's, the
    trainer's)."""
    def keys(buttons: tuple[Button, ...]) -> list[Button]:
        return [Button(button.label, prefix + button.payload, button.group)
                for button in buttons]

    rows, overflow = keyboard(keys(choices), keys(navigation))
    return Message(fit(text_blocks(text)), rows, overflow)


def text_blocks(text: str) -> list[Block]:
    """A renderer's text as blocks: its code blocks (the grids whose columns must line up,
    at most 32 columns for a phone) as ``pre``, the prose around them plain."""
    return [Block(block.text, "pre" if block.code else "plain")
            for block in split_blocks(text)]


def board_message(board: Board, language: str, *, header: list[str] | None = None,
                  ai_thinking: bool = False, hand: Hand | None = None) -> Message:
    """The public board; in a private chat ``hand`` merges the player's own hand into it,
    as there is nobody there to hide it from."""
    navigation = list(board.navigation)
    menu = list(board.buttons)
    blocks = [Block(line, "bold") for line in header or []]
    blocks += text_blocks(board.text)
    prompt = turn_line(board, language)
    if hand is not None:
        blocks += text_blocks(hand.text)
        menu = list(hand.buttons)
        navigation = [*hand.navigation, *navigation]
        prompt = hand.prompt or prompt
    elif board.hand_button is not None:
        navigation.append(board.hand_button)
    rows, overflow = keyboard(menu, navigation)
    blocks.append(Block(prompt, "bold"))
    if overflow:
        blocks.append(Block(translate(language, "menu.more"), "italic"))
    if ai_thinking:
        blocks.append(Block(thinking_line(board, language), "italic"))
    return Message(fit(blocks), rows, overflow)


def hand_message(hand: Hand, language: str, *, title: str = "",
                 notice: str | None = None, back: Key | None = None) -> Message:
    """A player's hand, sent to their private chat with the bot; ``back`` is a link to the
    group's board, on a row of its own at the bottom."""
    rows, overflow = keyboard(hand.buttons, hand.navigation)
    if back is not None and sum(len(row) for row in rows) < KEYBOARD_LIMIT:
        rows = (*rows, (back,))
    blocks = [Block(notice or "", "bold"), Block(title, "italic"), *text_blocks(hand.text),
              Block(hand.prompt, "bold")]
    if overflow:
        blocks.append(Block(translate(language, "menu.more"), "italic"))
    return Message(fit(blocks), rows, overflow)


def yes_key(yes: Button) -> Key:
    """The yes of a question before something that voids a result (``Reply.confirm``)."""
    return Key(shorten(yes.label, LABEL_LIMIT), yes.payload, style="primary")


def text_message(text: str, rows: tuple[tuple[Key, ...], ...] = ()) -> Message:
    return Message(fit([Block(text)]), rows)


def alert_text(text: str) -> str:
    return shorten(text, ALERT_LIMIT)


class ShownMessages:
    """What the bot last wrote into each of its messages (a fingerprint of its text and
    buttons), so that an edit that would change nothing is not sent: Telegram refuses it
    ("message is not modified") and counts it against the chat's limits. A waiting
    player's private hand was edited so, unchanged, after every move of the other player
    (19 refused edits in one Digitalo game). Bounded: the oldest are forgotten first, and a
    forgotten message is simply edited again."""

    def __init__(self, limit: int = 20_000) -> None:
        self.limit = limit
        self._shown: dict[tuple[int, int], int] = {}

    @staticmethod
    def fingerprint(message: Message) -> int:
        return hash((message.html, message.rows))

    def unchanged(self, chat_id: int, message_id: int, message: Message) -> bool:
        return self._shown.get((chat_id, message_id)) == self.fingerprint(message)

    def remember(self, chat_id: int, message_id: int, message: Message) -> None:
        self._shown.pop((chat_id, message_id), None)  # re-inserted as the newest
        self._shown[(chat_id, message_id)] = self.fingerprint(message)
        if len(self._shown) > self.limit:
            del self._shown[next(iter(self._shown))]

    def forget(self, chat_id: int, message_id: int) -> None:
        """The message was changed another way (its buttons taken off, its text set)."""
        self._shown.pop((chat_id, message_id), None)
