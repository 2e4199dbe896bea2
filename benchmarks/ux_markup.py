"""The bot's own message text as the HTML of ``benchmarks/ux_screens.py``'s pages: Discord's
Markdown, Telegram's HTML subset, and each emoji in a span (drawn larger, as the apps do)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import ClassVar

# Emoji that phones draw in colour: keycaps, flags' regional indicators, the emoji blocks
# (with the playing-card and mahjong symbols that are not emoji left out), a symbol that an
# emoji-presentation selector follows, and the BMP symbols that are emoji by default.
_DEFAULT_EMOJI = ("\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615"
                  "\u2648-\u2653\u267f\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5"
                  "\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b"
                  "\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf"
                  "\u2b1b\u2b1c\u2b50\u2b55")
_PICTOGRAPH = ("[\U0001F004\U0001F0CF\U0001F18E\U0001F191-\U0001F19A\U0001F201-\U0001F251"
               "\U0001F300-\U0001FAFF" + _DEFAULT_EMOJI + "]")
EMOJI = re.compile(
    "[0-9#*]\ufe0f?\u20e3"
    "|[\U0001F1E6-\U0001F1FF]{1,2}"
    f"|(?:{_PICTOGRAPH}[\U0001F3FB-\U0001F3FF\ufe0f]?|[\u00a9\u00ae\u2000-\u2bff]\ufe0f)"
    f"(?:\u200d{_PICTOGRAPH}\ufe0f?)*")


def emoji_spans(text: str) -> str:
    """``text`` escaped for HTML, each emoji in a span (drawn larger, as the apps do)."""
    out: list[str] = []
    start = 0
    for found in EMOJI.finditer(text):
        out += [html.escape(text[start:found.start()], quote=False),
                f'<span class="e">{found[0]}</span>']
        start = found.end()
    out.append(html.escape(text[start:], quote=False))
    return "".join(out)


_FENCE = re.compile(r"```(?:([\w+-]+)?\n)?(.*?)```", re.S)
_INLINE = re.compile(
    r"(?P<url>https?://[^\s<>]+[^\s<>.,:;!?)])"
    r"|(?P<escape>\\(?P<escaped>[^A-Za-z0-9\s]))"
    r"|(?P<code>`(?P<code_text>[^`]+)`)"
    r"|(?P<bold>\*\*(?P<bold_text>.+?)\*\*(?!\*))"
    r"|(?P<underline>__(?P<underline_text>.+?)__(?!_))"
    r"|(?P<italic>\*(?P<italic_text>[^*\s](?:.*?[^*\s\\])?)\*(?!\*)"
    r"|\b_(?P<italic2_text>[^_\s](?:.*?[^_\s\\])?)_\b)"
    r"|(?P<strike>~~(?P<strike_text>.+?)~~)"
    r"|(?P<spoiler>\|\|(?P<spoiler_text>.+?)\|\|)"
    r"|(?P<mention><@(?P<mention_id>\d+):(?P<mention_name>[^>]*)>)", re.S)


def discord_inline(text: str) -> str:
    """Discord's inline Markdown, to HTML."""
    out: list[str] = []
    start = 0
    for found in _INLINE.finditer(text):
        out.append(emoji_spans(text[start:found.start()]))
        start = found.end()
        if found["url"]:  # Discord links a bare address
            out.append(f'<span class="link">{html.escape(found["url"], quote=False)}</span>')
        elif found["escape"]:
            out.append(html.escape(found["escaped"], quote=False))
        elif found["code"]:
            out.append(f'<code>{html.escape(found["code_text"], quote=False)}</code>')
        elif found["bold"]:
            out.append(f"<b>{discord_inline(found['bold_text'])}</b>")
        elif found["underline"]:
            out.append(f"<u>{discord_inline(found['underline_text'])}</u>")
        elif found["italic"]:
            inner = found["italic_text"] or found["italic2_text"] or ""
            out.append(f"<i>{discord_inline(inner)}</i>")
        elif found["strike"]:
            out.append(f"<s>{discord_inline(found['strike_text'])}</s>")
        elif found["spoiler"]:
            out.append(f'<span class="spoiler">{discord_inline(found["spoiler_text"])}'
                       "</span>")
        else:
            out.append(f'<span class="mention">@{html.escape(found["mention_name"])}'
                       "</span>")
    out.append(emoji_spans(text[start:]))
    return "".join(out)


def discord_prose(text: str) -> str:
    """Lines of prose: block quotes, headers and subtext at a line's start, then inline."""
    lines: list[str] = []
    for line in text.split("\n"):
        quote = re.match(r"> (.*)", line)
        header = re.match(r"(#{1,3}) (.*)", line)
        subtext = re.match(r"-# (.*)", line)
        if quote:
            lines.append(f'<span class="quote">{discord_inline(quote[1])}</span>')
        elif header:
            lines.append(f'<span class="h{len(header[1])}">{discord_inline(header[2])}</span>')
        elif subtext:
            lines.append(f'<span class="subtext">{discord_inline(subtext[1])}</span>')
        else:
            lines.append(discord_inline(line))
    return "\n".join(lines)


def discord_markdown(content: str) -> str:
    """A Discord message's content as HTML: fenced code blocks as ``<pre>``, the prose
    between them with Discord's inline Markdown."""
    out: list[str] = []
    start = 0
    for found in _FENCE.finditer(content):
        prose = content[start:found.start()]
        if prose.strip("\n"):
            out.append(f'<div class="prose">{discord_prose(prose.strip(chr(10)))}</div>')
        code = found[2].removesuffix("\n")
        out.append(f'<pre class="code">{html.escape(code, quote=False)}</pre>')
        start = found.end()
    rest = content[start:]
    if rest.strip("\n"):
        out.append(f'<div class="prose">{discord_prose(rest.strip(chr(10)))}</div>')
    return "".join(out)


class _TelegramMarkup(HTMLParser):
    """Telegram's HTML subset to the page's HTML (the fake has checked it is valid)."""

    TAGS: ClassVar[dict[str, str]] = {
        "b": "b", "strong": "b", "i": "i", "em": "i", "u": "u", "ins": "u", "s": "s",
        "strike": "s", "del": "s"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.closing: list[str] = []
        self.verbatim = 0  # inside <pre> or <code>: no emoji spans

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in self.TAGS:
            opening, closing = f"<{self.TAGS[tag]}>", f"</{self.TAGS[tag]}>"
        elif tag == "pre":
            opening, closing = '<pre class="code">', "</pre>"
            self.verbatim += 1
        elif tag == "code":
            opening, closing = ("", "") if self.verbatim else ("<code>", "</code>")
            self.verbatim += 1
        elif tag == "a":
            href = found.get("href") or ""
            kind = "mention" if href.startswith("tg://user") else "link"
            opening, closing = f'<span class="{kind}">', "</span>"
        elif tag == "blockquote":
            opening, closing = "<blockquote>", "</blockquote>"
        elif tag in ("tg-spoiler", "span"):
            opening, closing = '<span class="spoiler">', "</span>"
        else:
            opening, closing = "<span>", "</span>"
        self.out.append(opening)
        self.closing.append(closing)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("pre", "code"):
            self.verbatim -= 1
        if self.closing:
            self.out.append(self.closing.pop())

    def handle_data(self, data: str) -> None:
        self.out.append(html.escape(data, quote=False) if self.verbatim
                        else emoji_spans(data))


def telegram_markup(text: str) -> str:
    """A Telegram message's HTML as the page's HTML. A code block is a block of its own:
    the line breaks right before and after it are its edges, not empty lines."""
    parser = _TelegramMarkup()
    parser.feed(re.sub(r"\n?(<pre>.*?</pre>)\n?", r"\1", text, flags=re.S))
    parser.close()
    return '<div class="prose">' + "".join(parser.out) + "</div>"
