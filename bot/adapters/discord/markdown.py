"""Text as Discord shows it: the service's words escaped so that Markdown and mentions in
them stay literal (``inert``), a renderer's grids fenced as code blocks (``rendered``),
and everything cut to fit a message (``fit_content``, ``shorten``)."""

from __future__ import annotations

import re

import discord

from bot.adapters.common import valid_unicode
from bot.adapters.discord import limits
from renderers.common import split_blocks

# Discord's own number, from the one place that names their documentation.
CONTENT_LIMIT = limits.CONTENT
# Escaping for Discord's Markdown (after simple-markdown, where a backslash escapes any
# punctuation): the inline markers everywhere, quote, header and subtext markers at the
# start of a line, nothing inside URLs (the same pattern discord.py uses to find them).
_MARKDOWN = re.compile(r"[\\*_~|`\[\]]")
_LINE_MARKDOWN = re.compile(r"^(\s*)(>|#|-#)", re.MULTILINE)
_URL = re.compile(r"<[^: >]+:/[^ >]+>|(?:https?|steam)://[^\s<]+[^<.,:;\"'\]\s]")


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
