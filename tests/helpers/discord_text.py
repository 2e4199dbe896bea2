"""What a Discord message shows, whether it is classic (content and action rows) or
Components V2 (text displays, sections with a button beside their text, action rows, in
containers or not): for messages as discord.py parses them and as simcord stores them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

TEXT_DISPLAY, SECTION, BUTTON = 10, 9, 2
INTERACTIVE = {2, 3, 5, 6, 7, 8}  # a button or a select menu
COMPONENTS_V2 = 1 << 15


def _kind(component: Any) -> int:
    if isinstance(component, dict):
        return int(component.get("type", 0))
    return int(getattr(getattr(component, "type", None), "value", 0))


def walk(components: Any) -> Iterator[Any]:
    """Every component in order, nested ones too (rows' and containers' children, a
    section's text displays and then its accessory)."""
    for component in components if isinstance(components, list) else []:
        yield component
        if isinstance(component, dict):
            yield from walk(component.get("components"))
            accessory = component.get("accessory")
        else:
            yield from walk(list(getattr(component, "children", None) or []))
            accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from walk([accessory])


def as_dict(component: Any) -> dict[str, Any]:
    return component if isinstance(component, dict) else dict(component.to_dict())


def is_v2(message: Any) -> bool:
    flags = getattr(message, "flags", 0)
    value = flags if isinstance(flags, int) else getattr(flags, "value", 0)
    return bool(value & COMPONENTS_V2) or any(
        _kind(c) in (TEXT_DISPLAY, SECTION, 17) for c in walk(message.components))


def text_displays_of(components: Any) -> list[str]:
    return [str(c["content"] if isinstance(c, dict) else c.content)
            for c in walk(components) if _kind(c) == TEXT_DISPLAY]


def text_displays(message: Any) -> list[str]:
    """A message's text displays in order (a V2 message's text)."""
    return text_displays_of(message.components)


def visible_text(message: Any) -> str:
    """The text a message shows: its content, or its text displays in order (section
    texts included), one after another."""
    return "\n".join(part for part in [message.content or "", *text_displays(message)] if part)


def sections(message: Any) -> list[tuple[str, dict[str, Any]]]:
    """A V2 message's sections: the text beside each button, and the button."""
    found = []
    for component in walk(message.components):
        if _kind(component) != SECTION:
            continue
        data = as_dict(component)
        text = "\n".join(str(c["content"]) for c in data.get("components", [])
                         if c.get("type") == TEXT_DISPLAY)
        found.append((text, dict(data["accessory"])))
    return found


def interactive_of(components: Any) -> list[dict[str, Any]]:
    return [as_dict(c) for c in walk(components) if _kind(c) in INTERACTIVE]


def interactive(message: Any) -> list[dict[str, Any]]:
    """The message's buttons and selects, section accessories included, in order."""
    return interactive_of(message.components)
