"""Discord's documented limits, in one place, and checks of a request against them.

Every number here comes from Discord's developer documentation; the comment beside each
group names the page. Nothing else in the project spells these numbers: the layout draws
within them, the start-up checks the command tree against them before it syncs, and the
test Discord (``tests/helpers/discord_world.py``) refuses a request that breaks one with
Discord's own answer, ``400 Invalid Form Body`` (code 50035) with the field's path, so
the test that sends a bad request is the one that fails, not a school's start-up.

``problems`` answers in Discord's shape: ``Problem(path, code, message)``, where ``path``
is the field's place in the JSON body (``("5", "description_localizations", "de")``)
and ``code``/``message`` are the ones Discord sends, e.g. ``BASE_TYPE_BAD_LENGTH`` /
"Must be between 1 and 100 in length.". ``error_tree`` nests them as Discord's
``errors`` object, which discord.py flattens to "In 5.description: …".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# --- Application commands ---------------------------------------------------------------
# https://discord.com/developers/docs/interactions/application-commands
# ("Application Command Naming", "Application Command Object", "Registering a Command").
COMMAND_NAME = (1, 32)  # characters; CHAT_INPUT names and option names, lower case
COMMAND_DESCRIPTION = (1, 100)  # command and option descriptions, and their localisations
COMMAND_OPTIONS = 25  # options of a command, or of a subcommand
OPTION_CHOICES = 25  # choices of one option
CHOICE_NAME = (1, 100)
CHOICE_STRING_VALUE = 100  # characters of a string choice's value
# "Combined sum of characters in command name, description, and value properties of a
# command, its options (including subcommands and groups), and choices. When localization
# fields are present, only the longest localization for each field (including the default
# value) is counted towards the size limit."
COMMAND_TOTAL_CHARACTERS = 4000
GLOBAL_CHAT_INPUT_COMMANDS = 100  # "100 global CHAT_INPUT commands"
AUTOCOMPLETE_CHOICES = 25  # an autocomplete result's choices ("Autocomplete")
CHAT_INPUT = 1
SUBCOMMAND_TYPES = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP: options with options inside

# --- Messages ---------------------------------------------------------------------------
# https://discord.com/developers/docs/resources/message#create-message
CONTENT = 2000  # characters of content
EMBEDS = 10
# https://discord.com/developers/docs/resources/message#embed-object-embed-limits
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_TOTAL = 6000
# https://discord.com/developers/docs/resources/message#message-object-message-flags
IS_COMPONENTS_V2 = 1 << 15
# https://discord.com/developers/docs/resources/channel#start-thread-from-message
THREAD_NAME = (1, 100)

# --- Components -------------------------------------------------------------------------
# https://discord.com/developers/docs/components/reference
ACTION_ROWS = 5  # top-level action rows of a classic message
ROW_BUTTONS = 5  # buttons in one action row (or exactly one select)
BUTTON_LABEL = 80
CUSTOM_ID = (1, 100)
SELECT_OPTIONS = (1, 25)
SELECT_OPTION_TEXT = 100  # an option's label, value and description each
SELECT_PLACEHOLDER = 150
SELECT_VALUES = (0, 25)  # min_values and max_values
# https://discord.com/developers/docs/components/using-message-components
# ("Components V2"): no content or embeds, up to 40 components in total counting nested
# ones, and up to 4000 characters of text across all text displays.
V2_COMPONENTS = 40
V2_TEXT = 4000
SECTION_TEXTS = (1, 3)  # text displays in a section, which has one accessory

ACTION_ROW, BUTTON, STRING_SELECT, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 3, 9, 10, 11
CONTAINER = 17
SELECT_TYPES = (3, 5, 6, 7, 8)  # string, user, role, mentionable and channel selects
LINK_STYLE, PREMIUM_STYLE = 5, 6  # buttons without a custom id

# Interaction callback types whose ``data`` is a message, and the autocomplete result.
# https://discord.com/developers/docs/interactions/receiving-and-responding
MESSAGE_CALLBACKS = (4, 7)  # CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE
AUTOCOMPLETE_CALLBACK = 8


@dataclass(frozen=True)
class Problem:
    """One refused field: where it is in the body, and what Discord says of it."""

    path: tuple[str, ...]
    code: str
    message: str

    def __str__(self) -> str:
        return f"In {'.'.join(self.path)}: {self.message}"


def _length(value: object) -> int:
    return len(value) if isinstance(value, str) else 0


def _bad_length(path: tuple[str, ...], value: object, bounds: tuple[int, int]
                ) -> Iterator[Problem]:
    low, high = bounds
    if not isinstance(value, str) or not low <= len(value) <= high:
        yield Problem(path, "BASE_TYPE_BAD_LENGTH",
                      f"Must be between {low} and {high} in length.")


def _max_length(path: tuple[str, ...], size: int, high: int) -> Iterator[Problem]:
    if size > high:
        yield Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")


def valid_command_name(name: object) -> bool:
    """``^[-_\\p{L}\\p{N}]{1,32}$`` in lower case where a letter has a lower case (the
    regex of "Application Command Naming"; Python's ``re`` has no ``\\p``)."""
    if not isinstance(name, str) or not COMMAND_NAME[0] <= len(name) <= COMMAND_NAME[1]:
        return False
    if name != name.lower():
        return False
    return all(char in "-_" or unicodedata.category(char)[0] in "LN" for char in name)


def _name(path: tuple[str, ...], name: object) -> Iterator[Problem]:
    if not valid_command_name(name):
        yield Problem(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _localised(path: tuple[str, ...], data: Mapping[str, Any], key: str,
               check: Any) -> Iterator[Problem]:
    """The field ``key`` and each of its localisations, under the same rule."""
    yield from check((*path, key), data.get(key))
    for locale, text in sorted((data.get(f"{key}_localizations") or {}).items()):
        yield from check((*path, f"{key}_localizations", locale), text)


def _description(path: tuple[str, ...], text: object) -> Iterator[Problem]:
    return _bad_length(path, text, COMMAND_DESCRIPTION)


def _longest(data: Mapping[str, Any], key: str) -> int:
    texts = [data.get(key), *(data.get(f"{key}_localizations") or {}).values()]
    return max((_length(text) for text in texts), default=0)


def command_size(command: Mapping[str, Any]) -> int:
    """The characters Discord counts against ``COMMAND_TOTAL_CHARACTERS``."""
    size = _longest(command, "name") + _longest(command, "description")
    for option in command.get("options") or []:
        size += command_size(option)
    for choice in command.get("choices") or []:
        size += _longest(choice, "name") + _length(choice.get("value"))
    return size


def _option_problems(path: tuple[str, ...], option: Mapping[str, Any]) -> Iterator[Problem]:
    yield from _localised(path, option, "name", _name)
    yield from _localised(path, option, "description", _description)
    options = option.get("options") or []
    if option.get("type") in SUBCOMMAND_TYPES:
        yield from _max_length((*path, "options"), len(options), COMMAND_OPTIONS)
        for index, inner in enumerate(options):
            yield from _option_problems((*path, "options", str(index)), inner)
    choices = option.get("choices") or []
    yield from _max_length((*path, "choices"), len(choices), OPTION_CHOICES)
    for index, choice in enumerate(choices):
        yield from _choice_problems((*path, "choices", str(index)), choice)


def _choice_problems(path: tuple[str, ...], choice: Mapping[str, Any]) -> Iterator[Problem]:
    yield from _localised(path, choice, "name",
                          lambda where, text: _bad_length(where, text, CHOICE_NAME))
    value = choice.get("value")
    if isinstance(value, str):
        yield from _max_length((*path, "value"), len(value), CHOICE_STRING_VALUE)


def command_problems(command: Mapping[str, Any], path: tuple[str, ...] = ()
                     ) -> list[Problem]:
    """What Discord refuses in one application command's payload."""
    found: list[Problem] = []
    kind = command.get("type", CHAT_INPUT)
    if kind == CHAT_INPUT:
        found += _localised(path, command, "name", _name)
        found += _localised(path, command, "description", _description)
    options = command.get("options") or []
    found += _max_length((*path, "options"), len(options), COMMAND_OPTIONS)
    for index, option in enumerate(options):
        found += _option_problems((*path, "options", str(index)), option)
    if command_size(command) > COMMAND_TOTAL_CHARACTERS:
        found.append(Problem(path, "APPLICATION_COMMAND_TOO_LARGE",
                             f"Command exceeds maximum size ({COMMAND_TOTAL_CHARACTERS})"))
    return found


def command_list_problems(commands: Sequence[Mapping[str, Any]], *,
                          global_scope: bool = True) -> list[Problem]:
    """What Discord refuses in a bulk overwrite of the application's commands."""
    found: list[Problem] = []
    chat_inputs = sum(1 for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT)
    if global_scope:
        found += _max_length((), chat_inputs, GLOBAL_CHAT_INPUT_COMMANDS)
    for index, command in enumerate(commands):
        found += command_problems(command, (str(index),))
    return found


# --- messages and components ------------------------------------------------------------
def _walk(components: Iterable[Mapping[str, Any]], path: tuple[str, ...]
          ) -> Iterator[tuple[tuple[str, ...], Mapping[str, Any]]]:
    """Every component with its path, nested ones (rows, containers, accessories) too."""
    for index, component in enumerate(components):
        where = (*path, str(index))
        yield where, component
        yield from _walk(component.get("components") or [], (*where, "components"))
        accessory = component.get("accessory")
        if accessory:
            yield (*where, "accessory"), accessory


def _button_problems(path: tuple[str, ...], button: Mapping[str, Any]) -> Iterator[Problem]:
    if "label" in button:
        yield from _max_length((*path, "label"), _length(button["label"]), BUTTON_LABEL)
    if button.get("style") not in (LINK_STYLE, PREMIUM_STYLE):
        yield from _bad_length((*path, "custom_id"), button.get("custom_id"), CUSTOM_ID)


def _select_problems(path: tuple[str, ...], select: Mapping[str, Any]) -> Iterator[Problem]:
    yield from _bad_length((*path, "custom_id"), select.get("custom_id"), CUSTOM_ID)
    if "placeholder" in select:
        yield from _max_length((*path, "placeholder"), _length(select["placeholder"]),
                               SELECT_PLACEHOLDER)
    for key in ("min_values", "max_values"):
        value = select.get(key)
        if value is not None and not SELECT_VALUES[0] <= int(value) <= SELECT_VALUES[1]:
            yield Problem((*path, key), "NUMBER_TYPE_MAX",
                          f"int value should be between {SELECT_VALUES[0]} and "
                          f"{SELECT_VALUES[1]}.")
    if select.get("type", STRING_SELECT) != STRING_SELECT:
        return
    options = select.get("options") or []
    low, high = SELECT_OPTIONS
    if not low <= len(options) <= high:
        yield Problem((*path, "options"), "BASE_TYPE_BAD_LENGTH",
                      f"Must be between {low} and {high} in length.")
    for index, option in enumerate(options):
        where = (*path, "options", str(index))
        yield from _bad_length((*where, "label"), option.get("label"), (1, SELECT_OPTION_TEXT))
        yield from _bad_length((*where, "value"), option.get("value"), (1, SELECT_OPTION_TEXT))
        if option.get("description") is not None:
            yield from _max_length((*where, "description"), _length(option["description"]),
                                   SELECT_OPTION_TEXT)


def _classic_rows(components: Sequence[Mapping[str, Any]]) -> Iterator[Problem]:
    yield from _max_length(("components",), len(components), ACTION_ROWS)
    for index, row in enumerate(components):
        children = row.get("components") or []
        where = ("components", str(index), "components")
        selects = sum(1 for child in children if child.get("type") in SELECT_TYPES)
        if not 1 <= len(children) <= ROW_BUTTONS or (selects and len(children) > 1):
            yield Problem(where, "BASE_TYPE_BAD_LENGTH",
                          f"Must be between 1 and {ROW_BUTTONS} in length.")


def _v2_problems(body: Mapping[str, Any], walked: list[tuple[tuple[str, ...],
                                                             Mapping[str, Any]]]
                 ) -> Iterator[Problem]:
    if body.get("content"):
        yield Problem(("content",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                      "The 'content' field cannot be used when using "
                      "MessageFlags.IS_COMPONENTS_V2")
    if body.get("embeds"):
        yield Problem(("embeds",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                      "The 'embeds' field cannot be used when using "
                      "MessageFlags.IS_COMPONENTS_V2")
    yield from _max_length(("components",), len(walked), V2_COMPONENTS)
    text = sum(_length(c.get("content")) for _, c in walked if c.get("type") == TEXT_DISPLAY)
    if text > V2_TEXT:
        yield Problem(("components",), "COMPONENT_TEXT_TOO_LONG",
                      f"The total length of text displays must be {V2_TEXT} or fewer.")
    for path, component in walked:
        if component.get("type") != SECTION:
            continue
        texts = component.get("components") or []
        yield from _bad_length_count((*path, "components"), len(texts), SECTION_TEXTS)
        if not component.get("accessory"):
            yield Problem((*path, "accessory"), "BASE_TYPE_REQUIRED",
                          "This field is required")


def _bad_length_count(path: tuple[str, ...], count: int, bounds: tuple[int, int]
                      ) -> Iterator[Problem]:
    if not bounds[0] <= count <= bounds[1]:
        yield Problem(path, "BASE_TYPE_BAD_LENGTH",
                      f"Must be between {bounds[0]} and {bounds[1]} in length.")


def _embed_problems(embeds: Sequence[Mapping[str, Any]]) -> Iterator[Problem]:
    yield from _max_length(("embeds",), len(embeds), EMBEDS)
    total = 0
    for index, embed in enumerate(embeds):
        where = ("embeds", str(index))
        yield from _max_length((*where, "title"), _length(embed.get("title")), EMBED_TITLE)
        yield from _max_length((*where, "description"), _length(embed.get("description")),
                               EMBED_DESCRIPTION)
        total += _length(embed.get("title")) + _length(embed.get("description"))
    if total > EMBED_TOTAL:
        yield Problem(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size "
                      f"of {EMBED_TOTAL}")


def message_problems(body: Mapping[str, Any]) -> list[Problem]:
    """What Discord refuses in a message body (a send, an edit, a follow-up, or the data
    of an interaction's message answer)."""
    found: list[Problem] = []
    components = body.get("components") or []
    walked = list(_walk(components, ("components",)))
    v2 = bool(int(body.get("flags") or 0) & IS_COMPONENTS_V2)
    if v2:
        found += _v2_problems(body, walked)
    else:
        found += _max_length(("content",), _length(body.get("content")), CONTENT)
        found += _classic_rows(components)
    found += _embed_problems(body.get("embeds") or [])
    seen: set[str] = set()
    for path, component in walked:
        kind = component.get("type")
        if kind == BUTTON:
            found += _button_problems(path, component)
        elif kind in SELECT_TYPES:
            found += _select_problems(path, component)
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                found.append(Problem((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                                     "Component custom id cannot be duplicated"))
            seen.add(custom_id)
    return found


def autocomplete_problems(data: Mapping[str, Any]) -> list[Problem]:
    """What Discord refuses in an autocomplete result."""
    choices = data.get("choices") or []
    found = list(_max_length(("choices",), len(choices), AUTOCOMPLETE_CHOICES))
    for index, choice in enumerate(choices):
        found += _choice_problems(("choices", str(index)), choice)
    return found


def thread_problems(body: Mapping[str, Any]) -> list[Problem]:
    return list(_bad_length(("name",), body.get("name"), THREAD_NAME))


_MESSAGE_ROUTES = (
    ("POST", re.compile(r"/channels/\d+/messages")),
    ("PATCH", re.compile(r"/channels/\d+/messages/\d+")),
    ("POST", re.compile(r"/webhooks/\d+/[^/]+")),
    ("PATCH", re.compile(r"/webhooks/\d+/[^/]+/messages/[^/]+")),
)
_COMMAND_ROUTES = (
    ("PUT", re.compile(r"/applications/\d+/commands"), True),
    ("PUT", re.compile(r"/applications/\d+/guilds/\d+/commands"), False),
)
_THREAD_ROUTES = (
    ("POST", re.compile(r"/channels/\d+/threads")),
    ("POST", re.compile(r"/channels/\d+/messages/\d+/threads")),
)
_COMMAND_ROUTE = re.compile(r"/applications/\d+(/guilds/\d+)?/commands(/\d+)?")
_CALLBACK_ROUTE = re.compile(r"/interactions/\d+/[^/]+/callback")


def request_problems(method: str, path: str, body: Any) -> list[Problem]:
    """What Discord refuses in the REST request ``method path`` with JSON ``body``: the
    routes this bot uses (commands, messages, interaction answers, threads)."""
    if body is None:
        return []
    for verb, route, global_scope in _COMMAND_ROUTES:
        if method == verb and route.fullmatch(path) and isinstance(body, list):
            return command_list_problems(body, global_scope=global_scope)
    if method in ("POST", "PATCH") and _COMMAND_ROUTE.fullmatch(path) and isinstance(body,
                                                                                      dict):
        return command_problems(body)
    if not isinstance(body, dict):
        return []
    if method == "POST" and _CALLBACK_ROUTE.fullmatch(path):
        data = body.get("data") or {}
        if body.get("type") in MESSAGE_CALLBACKS:
            return [Problem(("data", *p.path), p.code, p.message)
                    for p in message_problems(data)]
        if body.get("type") == AUTOCOMPLETE_CALLBACK:
            return [Problem(("data", *p.path), p.code, p.message)
                    for p in autocomplete_problems(data)]
        return []
    if any(method == verb and route.fullmatch(path) for verb, route in _THREAD_ROUTES):
        return thread_problems(body)
    if any(method == verb and route.fullmatch(path) for verb, route in _MESSAGE_ROUTES):
        return message_problems(body)
    return []


def error_tree(problems: Iterable[Problem]) -> dict[str, Any]:
    """The problems as Discord's nested ``errors`` object of a 50035 answer."""
    tree: dict[str, Any] = {}
    for problem in problems:
        node = tree
        for key in problem.path:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": problem.code,
                                               "message": problem.message})
    return tree


def describe(problem: Problem, commands: Sequence[Mapping[str, Any]] | None = None) -> str:
    """A problem in words a technician reads: with ``commands`` (a bulk payload), the
    command's name in place of its index, and the length of the text refused."""
    path = list(problem.path)
    node: Any = commands
    words: list[str] = []
    for key in path:
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
            name = node.get("name") if isinstance(node, dict) else None
            words.append(f"/{name}" if name and len(words) == 0 else
                         (str(name) if name else key))
        else:
            node = node.get(key) if isinstance(node, dict) else None
            words.append(key)
    where = " ".join(words) if commands is not None else ".".join(path)
    size = f" ({len(node)} characters)" if isinstance(node, str) else ""
    return f"{where}{size}: {problem.message}"
