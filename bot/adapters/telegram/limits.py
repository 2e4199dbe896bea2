"""Telegram's documented limits, in one place, and checks of a request against them.

Every number comes from the Bot API documentation, https://core.telegram.org/bots/api; the
comment beside each names the section. Nothing else in the project spells these numbers:
the layout draws within them, the start-up checks the command menus against them before
it publishes them, and the test Telegram (``tests/helpers/telegram_fake.py``) refuses a
request that breaks one with Telegram's own answer, so the test that sends a bad request
is the one that fails, not a school's start-up.

Each check returns a list of ``Problem``: where (``field``), what is wrong in words a
person reads (``detail``) and ``answer``, the description Telegram sends with its 400
("Bad Request: …"). The answers are the texts of Telegram's Bot API server
(github.com/tdlib/telegram-bot-api, ``Client.cpp``) and of TDLib, which it runs
(github.com/tdlib/td, ``td/telegram/BotCommand.cpp``, ``MessageEntity.cpp``,
``misc.cpp``); the server passes Telegram's own error names (``BUTTON_DATA_INVALID``)
through and lower-cases the first letter of TDLib's sentences. ``answer`` is None where
Telegram accepts what its documentation forbids (it drops formatting nested against the
rules, cuts a long topic name, keeps a bare ``&`` as typed): the fake refuses it anyway.

Pure: no input or output, so the bot and the fake share one definition.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# --- Messages -----------------------------------------------------------------------------
# sendMessage, editMessageText: "Text of the message to be sent, 1-4096 characters after
# entities parsing". Characters are counted in the parsed text, without the tags.
TEXT_LIMIT = 4096
# sendDocument (and every caption): "Document caption …, 0-1024 characters after entities
# parsing".
CAPTION_LIMIT = 1024

# --- Buttons ------------------------------------------------------------------------------
# InlineKeyboardButton: "callback_data: Data to be sent in a callback query to the bot when
# the button is pressed, 1-64 bytes".
CALLBACK_DATA_LIMIT = 64
# An inline keyboard's size is not in the Bot API documentation: 100 buttons in all and 8
# to a row are the limits Telegram's servers hold to, as listed by tginfo's Telegram Limits
# (https://limits.tginfo.me, "Bots") and spelled by python-telegram-bot as
# ``InlineKeyboardMarkupLimit``.
KEYBOARD_LIMIT = 100
ROW_LIMIT = 8
# answerCallbackQuery: "text: Text of the notification. If not specified, nothing will be
# shown to the user, 0-200 characters".
ALERT_LIMIT = 200

# --- Command menus ------------------------------------------------------------------------
# BotCommand: "command: Text of the command; 1-32 characters. Can contain only lowercase
# English letters, digits and underscores." "description: Description of the command;
# 1-256 characters."
COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
COMMAND_NAME_LIMIT = 32
COMMAND_DESCRIPTION_LIMIT = 256
# setMyCommands: "commands: A JSON-serialized list of bot commands to be set as the list of
# the bot's commands. At most 100 commands can be specified."
COMMANDS_PER_MENU = 100
# setMyCommands: "language_code: A two-letter ISO 639-1 language code. If empty, commands
# will be applied to all users from the given scope". Telegram checks the form only
# (TDLib's ``validate_bot_language_code``: empty, or two letters a-z).
LANGUAGE_CODE = re.compile(r"[a-z]{2}")
# BotCommandScope: "Currently, the following 7 types of scope are supported".
SCOPES_WITHOUT_CHAT = ("default", "all_private_chats", "all_group_chats",
                       "all_chat_administrators")
SCOPES_WITH_CHAT = ("chat", "chat_administrators", "chat_member")

# --- Forum topics -------------------------------------------------------------------------
# createForumTopic: "name: Topic name, 1-128 characters".
TOPIC_NAME_LIMIT = 128

# --- Formatting options, HTML style ---------------------------------------------------------
# "Formatting options" → "HTML style": the tags Telegram parses, by the entity each makes.
HTML_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough",
    "del": "strikethrough", "span": "spoiler", "tg-spoiler": "spoiler", "a": "text_link",
    "tg-emoji": "custom_emoji", "code": "code", "pre": "pre", "blockquote": "blockquote",
}
# "Message entities can be nested, providing following restrictions are met: … bold,
# italic, underline, strikethrough, and spoiler entities can contain and can be part of
# any other entities, except pre and code. blockquote and expandable_blockquote entities
# can't be nested. All other entities can't contain each other." And under HTML style:
# "Use nested pre and code tags, to define programming language for pre entity."
# (Bold code, the other reading of the first rule, is one Telegram keeps: TDLib's own
# tests parse "<i><b><code> </code></b></i>" into all three entities, so it is allowed.)
UNNESTED = frozenset({"text_link", "custom_emoji", "code", "pre"})
# "The API currently supports only the following named HTML entities: &lt;, &gt;, &amp;
# and &quot;." "All numerical HTML entities are supported."
NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_MARKUP_START = re.compile("[&<]")
_ENTITY = re.compile(r"&(?:(lt|gt|amp|quot)|#([0-9]+)|#[xX]([0-9a-fA-F]+));")
_ATTRIBUTE_NAME = re.compile(r"[A-Za-z0-9_-]+")
BAD_REQUEST = "Bad Request: "


@dataclass(frozen=True)
class Problem:
    """One way a request breaks one of Telegram's limits."""

    field: str  # where, e.g. "/classboard description" or "text"
    detail: str  # what is wrong, for people: "301 characters; Telegram allows 1-256"
    answer: str | None  # Telegram's description of its 400; None: it accepts it anyway

    def __str__(self) -> str:
        return f"{self.field}: {self.detail}"


def _refused(field: str, detail: str, answer: str | None) -> Problem:
    return Problem(field, detail, None if answer is None else BAD_REQUEST + answer)


# --- HTML -------------------------------------------------------------------------------------
@dataclass
class _OpenTag:
    name: str
    entity: str
    byte_offset: int


class _HtmlScan:
    """Telegram's HTML parse mode, as TDLib's ``parse_html`` reads it: the text, and the
    first error it would answer (its own words), or the nesting rules broken."""

    def __init__(self, markup: str, field: str) -> None:
        self.markup = markup
        self.field = field
        self.text: list[str] = []
        self.open: list[_OpenTag] = []
        self.problems: list[Problem] = []
        # Set with the first error Telegram answers (``error``): the scan stops there.
        self.failed = False

    def byte_offset(self, index: int) -> int:
        # TDLib counts offsets in the UTF-8 bytes of the markup.
        return len(self.markup[:index].encode("utf-8", "surrogatepass"))

    def error(self, detail: str) -> None:
        self.problems.append(_refused(self.field, f"can't parse entities: {detail}",
                                      f"can't parse entities: {detail}"))
        self.failed = True

    def run(self) -> None:
        index = 0
        markup = self.markup
        while index < len(markup) and not self.failed:
            char = markup[index]
            if char == "&":
                index = self.entity(index)
            elif char == "<":
                index = self.tag(index)
            else:
                # A run of plain text at once: the fake reads every message a test sends.
                found = _MARKUP_START.search(markup, index)
                end = found.start() if found is not None else len(markup)
                self.text.append(markup[index:end])
                index = end
        if not self.failed and self.open:
            self.error(f"Can't find end tag corresponding to start tag "
                       f"\"{self.open[-1].name}\"")

    def entity(self, index: int) -> int:
        found = _ENTITY.match(self.markup, index)
        if found is None:
            # TDLib keeps such an "&" as typed, but the documentation requires "&amp;": a
            # name that happens to spell an entity would change the text.
            self.problems.append(_refused(
                self.field, f"an \"&\" at byte offset {self.byte_offset(index)} starts no "
                        "entity; Telegram asks for &amp; (Formatting options, HTML style)",
                None))
            self.text.append("&")
            return index + 1
        named, decimal, hexadecimal = found.groups()
        code = int(decimal) if decimal else int(hexadecimal, 16) if hexadecimal else None
        if named:
            self.text.append(NAMED_ENTITIES[named])
        elif code is not None and 0xD800 <= code <= 0xDFFF:
            self.error("Text contains invalid Unicode characters after decoding HTML "
                       "entities, check for unmatched surrogate code units")
        elif code is not None and code <= 0x10FFFF:
            self.text.append(chr(code))
        else:
            self.text.append(found.group(0))  # beyond Unicode: TDLib keeps it as typed
        return found.end()

    def tag(self, index: int) -> int:
        offset = self.byte_offset(index)
        if self.markup.startswith("</", index):
            return self.end_tag(index, offset)
        position = index + 1
        while (position < len(self.markup) and not self.markup[position].isspace()
               and self.markup[position] not in "/>"):
            position += 1
        name = self.markup[index + 1:position].lower()
        if name not in HTML_TAGS:
            self.error(f"Unsupported start tag \"{name}\" at byte offset {offset}")
            return position
        attributes, position = self.attributes(name, position, offset)
        if position < 0:
            return len(self.markup)
        entity = HTML_TAGS[name]
        if name == "span" and attributes.get("class") != "tg-spoiler":
            self.error(f"Tag \"span\" must have class \"tg-spoiler\" at byte offset {offset}")
            return position
        if name == "blockquote" and "expandable" in attributes:
            entity = "expandable_blockquote"
        self.check_nesting(name, entity)
        self.open.append(_OpenTag(name, entity, offset))
        return position

    def attributes(self, name: str, position: int, offset: int) -> tuple[dict[str, str], int]:
        """The attributes of a start tag from ``position``, and the index after its ">";
        -1 when the tag never closes."""
        markup = self.markup
        found: dict[str, str] = {}
        while True:
            while position < len(markup) and markup[position].isspace():
                position += 1
            if position >= len(markup):
                self.error(f"Unclosed start tag \"{name}\" at byte offset {offset}")
                return found, -1
            if markup[position] == ">":
                return found, position + 1
            attribute = _ATTRIBUTE_NAME.match(markup, position)
            if attribute is None:
                self.error(f"Empty attribute name in the tag \"{name}\" at byte offset "
                           f"{offset}")
                return found, -1
            key, position = attribute.group(0).lower(), attribute.end()
            while position < len(markup) and markup[position].isspace():
                position += 1
            if position >= len(markup) or markup[position] != "=":
                found[key] = ""
                continue
            position += 1
            while position < len(markup) and markup[position].isspace():
                position += 1
            if position < len(markup) and markup[position] in "\"'":
                close = markup.find(markup[position], position + 1)
                if close < 0:
                    self.error(f"Unclosed start tag at byte offset {offset}")
                    return found, -1
                found[key] = markup[position + 1:close]
                position = close + 1
            else:
                start = position
                while (position < len(markup) and not markup[position].isspace()
                       and markup[position] != ">"):
                    position += 1
                found[key] = markup[start:position]

    def end_tag(self, index: int, offset: int) -> int:
        if not self.open:
            self.error(f"Unexpected end tag at byte offset {offset}")
            return len(self.markup)
        close = self.markup.find(">", index)
        if close < 0:
            self.error(f"Unclosed end tag at byte offset {offset}")
            return len(self.markup)
        name = self.markup[index + 2:close].strip().lower()
        expected = self.open.pop()
        if name and name != expected.name:  # "</>" closes whatever is open
            self.error(f"Unmatched end tag at byte offset {offset}, expected "
                       f"\"</{expected.name}>\", found \"</{name}>\"")
        return close + 1

    def check_nesting(self, name: str, entity: str) -> None:
        """The documented nesting rules. Telegram does not refuse a text that breaks them:
        it drops or splits the formatting, so what people see is not what the bot meant."""
        if not self.open:
            return
        parent = self.open[-1]
        # <pre><code class="language-…"> is how HTML names a block's language.
        if entity == "code" and parent.entity == "pre":
            return
        for outer in self.open:
            rule = ""
            if outer.entity in ("pre", "code"):
                rule = "pre and code can't contain other entities"
            elif entity.endswith("blockquote") and outer.entity.endswith("blockquote"):
                rule = "blockquotes can't be nested"
            elif entity in UNNESTED and outer.entity in UNNESTED:
                rule = "links, custom emoji, code and pre can't contain each other"
            if rule:
                self.problems.append(_refused(
                    self.field, f"<{name}> inside <{outer.name}>: {rule} (Formatting options); "
                            "Telegram would drop the formatting", None))
                return


def parse_html(markup: str, field: str = "text") -> tuple[str, list[Problem]]:
    """The text Telegram shows for ``markup`` in HTML parse mode, and what is wrong with the
    markup: a parse error Telegram refuses (the last problem, ``answer`` set), or rules it
    does not enforce but the documentation sets (``answer`` None)."""
    scan = _HtmlScan(markup, field)
    scan.run()
    return "".join(scan.text), scan.problems


def text_problems(markup: str, *, edit: bool = False) -> list[Problem]:
    """What Telegram refuses in the HTML ``markup`` of sendMessage (or editMessageText,
    ``edit``): markup it cannot parse, nothing left to show, or too long a text."""
    text, problems = parse_html(markup)
    if any(problem.answer is not None for problem in problems):
        return problems
    # TDLib trims the parsed text, so a text of spaces is empty.
    length = len(text.strip())
    if length == 0:
        problems.append(_refused("text", "no text after entities parsing (Telegram "
                                         f"allows 1-{TEXT_LIMIT} characters)",
                                 "message text is empty"))
    elif length > TEXT_LIMIT:
        # The edit is refused by Telegram's servers, the send by TDLib: two texts.
        problems.append(_refused(
            "text", f"{length} characters after entities parsing; Telegram allows "
                    f"1-{TEXT_LIMIT}", "MESSAGE_TOO_LONG" if edit else "message is too long"))
    return problems


def caption_problems(markup: str) -> list[Problem]:
    """What Telegram refuses in a document's HTML caption."""
    text, problems = parse_html(markup, "caption")
    if any(problem.answer is not None for problem in problems):
        return problems
    length = len(text.strip())
    if length > CAPTION_LIMIT:
        problems.append(_refused(
            "caption", f"{length} characters after entities parsing; Telegram allows "
                       f"0-{CAPTION_LIMIT}", "message caption is too long"))
    return problems


# --- Keyboards --------------------------------------------------------------------------------
def markup_problems(reply_markup: Mapping[str, Any] | None) -> list[Problem]:
    """What Telegram refuses in an inline keyboard (``reply_markup`` as JSON)."""
    if not reply_markup:
        return []
    rows: Sequence[Sequence[Mapping[str, Any]]] = reply_markup.get("inline_keyboard", [])
    problems = []
    count = sum(len(row) for row in rows)
    # REPLY_MARKUP_TOO_LONG, which the Bot API server words "reply markup is too long", is
    # Telegram's answer to a keyboard over its limits.
    if count > KEYBOARD_LIMIT:
        problems.append(_refused("reply_markup", f"{count} buttons; Telegram allows "
                                                 f"{KEYBOARD_LIMIT}", "reply markup is too long"))
    for number, row in enumerate(rows, 1):
        if len(row) > ROW_LIMIT:
            problems.append(_refused(f"reply_markup row {number}",
                                     f"{len(row)} buttons; Telegram allows {ROW_LIMIT} a row",
                                     "reply markup is too long"))
    for number, button in enumerate((button for row in rows for button in row), 1):
        where = f"reply_markup button {number}"
        if not str(button.get("text") or "").strip():
            problems.append(_refused(where, "an empty label", "BUTTON_TEXT_INVALID"))
        data = button.get("callback_data")
        if data is None and not button.get("url"):
            problems.append(_refused(where, "neither callback_data nor url",
                                     "can't parse inline keyboard button: Text buttons are "
                                     "unallowed in the inline keyboard"))
        elif data is not None and not data:
            # Empty callback data reads as no action at all.
            problems.append(_refused(where, "empty callback_data (Telegram allows 1-"
                                            f"{CALLBACK_DATA_LIMIT} bytes)",
                                     "can't parse inline keyboard button: Text buttons are "
                                     "unallowed in the inline keyboard"))
        elif data is not None and len(str(data).encode()) > CALLBACK_DATA_LIMIT:
            problems.append(_refused(where, f"callback_data of {len(str(data).encode())} "
                                            f"bytes; Telegram allows 1-{CALLBACK_DATA_LIMIT}",
                                     "BUTTON_DATA_INVALID"))
    return problems


def callback_answer_problems(text: str | None) -> list[Problem]:
    """What Telegram refuses in answerCallbackQuery's text."""
    length = len(text or "")
    if length <= ALERT_LIMIT:
        return []
    # Telegram's servers refuse it by name, as they do a long edit.
    return [_refused("text", f"{length} characters; Telegram allows 0-{ALERT_LIMIT}",
                     "MESSAGE_TOO_LONG")]


# --- Command menus ----------------------------------------------------------------------------
def scope_name(scope: Mapping[str, Any] | None, language_code: str | None) -> str:
    """A menu's scope and language in words, for log lines: "all_chat_administrators, nl"."""
    kind = str((scope or {}).get("type", "default"))
    chat = (scope or {}).get("chat_id")
    where = f"{kind} {chat}" if chat is not None else kind
    return f"{where}, {language_code or 'every language'}"


def command_problems(commands: Sequence[Mapping[str, Any]], *,
                     scope: Mapping[str, Any] | None = None,
                     language_code: str | None = None) -> list[Problem]:
    """What Telegram refuses in one setMyCommands call, in the order it checks: the scope
    and language, each command as TDLib reads it (trimmed, a leading "/" dropped), then
    what Telegram's servers check: the characters of each name and the number of
    commands."""
    problems = []
    kind = (scope or {}).get("type", "default")
    if kind not in SCOPES_WITHOUT_CHAT + SCOPES_WITH_CHAT:
        problems.append(_refused("scope", f"unknown type {kind!r}",
                                 "can't parse BotCommandScope: Unsupported type specified"))
    elif kind in SCOPES_WITH_CHAT and (scope or {}).get("chat_id") in (None, ""):
        problems.append(_refused("scope", f"a {kind} scope without chat_id",
                                 "can't parse BotCommandScope: Can't find field \"chat_id\""))
    if language_code and not LANGUAGE_CODE.fullmatch(language_code):
        problems.append(_refused("language_code", f"{language_code!r} is not a two-letter "
                                                  "ISO 639-1 code",
                                 "invalid language code specified"))
    names = []
    for command in commands:
        name = str(command.get("command", "")).strip()
        name = name[1:] if name.startswith("/") else name
        names.append(name)
        description = str(command.get("description", "")).strip()
        if not name:
            problems.append(_refused("command", "an empty command",
                                     "command must be non-empty"))
        elif len(name) > COMMAND_NAME_LIMIT:
            problems.append(_refused(f"/{name}", f"the command is {len(name)} characters; "
                                                 f"Telegram allows 1-{COMMAND_NAME_LIMIT}",
                                     f"command length must not exceed {COMMAND_NAME_LIMIT}"))
        if not description:
            problems.append(_refused(f"/{name} description", "an empty description "
                                     f"(Telegram allows 1-{COMMAND_DESCRIPTION_LIMIT} "
                                     "characters)", "command description must be non-empty"))
        elif len(description) > COMMAND_DESCRIPTION_LIMIT:
            problems.append(_refused(
                f"/{name} description", f"{len(description)} characters; Telegram allows "
                                        f"1-{COMMAND_DESCRIPTION_LIMIT}",
                f"command description length must not exceed {COMMAND_DESCRIPTION_LIMIT}"))
    for name in names:
        if name and len(name) <= COMMAND_NAME_LIMIT and not COMMAND_NAME.fullmatch(name):
            problems.append(_refused(f"/{name}", "Telegram allows only a-z, 0-9 and _ in a "
                                                 "command", "BOT_COMMAND_INVALID"))
    if len(commands) > COMMANDS_PER_MENU:
        problems.append(_refused("commands", f"{len(commands)} commands; Telegram allows "
                                             f"{COMMANDS_PER_MENU} a menu",
                                 "BOT_COMMANDS_TOO_MUCH"))
    return problems


# --- Forum topics -----------------------------------------------------------------------------
def topic_name_problems(name: str) -> list[Problem]:
    """What Telegram refuses, or silently cuts, in createForumTopic's name."""
    length = len(name.strip())
    if length == 0:
        return [_refused("name", "an empty topic name", "title must be non-empty")]
    if length > TOPIC_NAME_LIMIT:
        # TDLib cuts a longer name to 128 characters without a word (``clean_name``).
        return [_refused("name", f"{length} characters; Telegram allows 1-{TOPIC_NAME_LIMIT} "
                                 "and would cut the rest", None)]
    return []
