"""What a player sees on a phone: screenshots of a 360-pixel-wide imitation of each platform.

Run from the repository root. It needs the dev extras (simcord), like
``benchmarks/ux_walk.py``, whose tables it reuses; progress goes to stderr::

    python benchmarks/ux_screens.py [--seed 1] [--games lgame,turing] [--platforms telegram]
                                    [--moves 4] [--first-tap] [--board text]
                                    [--out docs/screens]

Each game is played a few moves (``SCENES``, or ``--moves``) through the real adapters, as
``ux_walk.py`` plays it: Discord through simcord, Telegram through the loopback Bot API
fake. Then the messages the fakes hold are captured as they stand, seen by the player
whose turn is next: the board message with its buttons, the turn cue, and the player's
private hand where the game has one (Discord's ephemeral message, opened with "My hand"
if it is not open yet; Telegram's private chat). With ``--first-tap`` that player also
taps the first step of their next move, so the menu's second step shows.

The captured text and components are drawn, unchanged, as one HTML page per platform
(``discord.html``, ``telegram.html``) that imitates the platform's phone app at 360 CSS
pixels: message bubbles, Discord's Markdown (fenced code blocks, bold, italic, escapes,
mentions) and Telegram's HTML (``<pre>``, ``<b>``, ``<i>``, links), and the buttons in the
rows the adapter sent them (Discord's action rows and selects, Telegram's inline keyboard
rows). A Discord Components V2 message (bOOleO's and Digitalo's card hands) has no content:
it is drawn from its components in order, each text display as message text (the same
Markdown), each section as its text with its accessory button beside it on the right (a
disabled one greyed), action rows as rows, a container as a box holding its own
components, a separator as a line. Nothing is re-rendered from the game: the boards are the
bot's own text.

When ``chromium`` is on the PATH each game's part of each page is screenshotted
(``<platform>-<game>.png``, its height fitted to the content, measured first with
``--dump-dom``); otherwise the script says where the pages are. The imitation's fonts:
Roboto for text, DejaVu Sans Mono for code (close to iOS's Menlo), Noto Color Emoji; with
Debian's ``fonts-roboto-unhinted`` and ``fonts-noto-color-emoji`` installed the
screenshots use them. If ``pngquant`` is on the PATH the PNGs are quantised (smaller
files for the docs).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import ux_walk
from benchmarks.progress import Progress
from engines.registry import get_game
from tests.helpers.discord_text import is_v2
from tests.helpers.discord_world import World as DiscordWorld

# Moves played before the capture: early enough that the boards are still busy with
# choices, late enough that each game has a last move and a cue to show.
SCENES: dict[str, int] = {"lgame": 2, "booleo": 3, "digitalo": 3, "turing": 1,
                          "rithmomachia": 3}
assert set(SCENES) == set(ux_walk.GAMES), "every game has a scene"
PHONE_WIDTH = 360  # CSS pixels: a common Android phone in portrait
BOT_NAME = "Logic Bot"
DEFAULT_OUT = Path("docs/screens")
PRIVATE_SHOWN = 2  # the latest messages of a Telegram private chat that are drawn


# ------------------------------------------------------------------ what was captured
@dataclass
class Control:
    """A button or a select, as the platform was sent it."""

    kind: str  # button, select or link
    label: str
    style: str = "secondary"  # primary, secondary, success, danger, link
    disabled: bool = False
    options: list[str] = field(default_factory=list)  # a select's option labels


@dataclass
class Block:
    """One component of a Discord Components V2 message, in the message's order: a text
    display (``text``), a section (its text, and its accessory in ``controls``), an action
    row (``controls``), a container (``children``, ``accent``: its colour bar), a
    separator, or a kind not drawn (``other``, its type in ``text``)."""

    kind: str  # text, section, row, container, separator, other
    text: str = ""
    controls: list[Control] = field(default_factory=list)
    children: list[Block] = field(default_factory=list)
    accent: int | None = None
    divider: bool = True  # a separator's line (False: only space)


@dataclass
class Bubble:
    """One message: its raw text (Discord Markdown or Telegram HTML) and control rows. A
    Discord Components V2 message has its components in ``blocks`` instead, which are
    drawn; ``text`` then holds its text displays, joined, and ``rows`` stays empty."""

    author: str
    text: str
    rows: list[list[Control]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    bot: bool = True
    edited: bool = False
    private: bool = False  # Discord: an ephemeral message, seen by the viewer only
    header: str = ""  # Discord: "alice used /play" above an interaction's answer


@dataclass
class Screen:
    """One chat as the viewer sees it: a channel, a group, or a private chat."""

    title: str
    subtitle: str
    bubbles: list[Bubble]


@dataclass
class Scene:
    platform: str
    game: str
    viewer: str
    moves: int
    screens: list[Screen]

    @property
    def anchor(self) -> str:
        return self.game


# ------------------------------------------------------------------ capturing
DISCORD_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}


V2_KINDS = {1: "row", 9: "section", 10: "text", 14: "separator", 17: "container"}


def discord_control(part: dict[str, Any]) -> Control | None:
    """A button or a string select as the page draws it; None for anything else."""
    if part.get("type") == 2:
        emoji = part.get("emoji") or {}
        label = " ".join(str(x) for x in (emoji.get("name"), part.get("label")) if x)
        style = DISCORD_STYLES.get(int(part.get("style", 2)), "secondary")
        return Control("link" if style == "link" else "button", label, style,
                       bool(part.get("disabled")))
    if part.get("type") == 3:
        return Control("select", str(part.get("placeholder") or ""),
                       disabled=bool(part.get("disabled")),
                       options=[str(o.get("label", "")) for o in part.get("options", [])])
    return None


def discord_rows(components: list[dict[str, Any]]) -> list[list[Control]]:
    rows: list[list[Control]] = []
    for row in components:
        controls = [c for c in map(discord_control, row.get("components", [row])) if c]
        if controls:
            rows.append(controls)
    return rows


def discord_blocks(components: list[dict[str, Any]], names: dict[int, str]) -> list[Block]:
    """A Components V2 message's components as blocks, nested ones kept nested (a
    container's children, a section's text displays and accessory)."""
    blocks: list[Block] = []
    for component in components:
        kind = V2_KINDS.get(int(component.get("type", 0)), "other")
        children = list(component.get("components") or [])
        if kind == "text":
            blocks.append(Block("text", with_names(str(component.get("content", "")), names)))
        elif kind == "section":
            text = "\n".join(str(c.get("content", "")) for c in children
                             if c.get("type") == 10)
            accessory = discord_control(dict(component.get("accessory") or {}))
            blocks.append(Block("section", with_names(text, names),
                                [accessory] if accessory else []))
        elif kind == "row":
            blocks.append(Block("row", controls=[c for c in map(discord_control, children)
                                                 if c]))
        elif kind == "container":
            blocks.append(Block("container", children=discord_blocks(children, names),
                                accent=component.get("accent_color")))
        elif kind == "separator":
            blocks.append(Block("separator", divider=bool(component.get("divider", True))))
        else:
            blocks.append(Block("other", str(component.get("type"))))
    return blocks


def blocks_text(blocks: list[Block]) -> str:
    """The text of V2 blocks, in order (nested ones included), one after another."""
    parts: list[str] = []
    for block in blocks:
        if block.kind in ("text", "section") and block.text:
            parts.append(block.text)
        parts.extend(filter(None, [blocks_text(block.children)]))
    return "\n".join(parts)


def telegram_rows(markup: dict[str, Any] | None) -> list[list[Control]]:
    rows: list[list[Control]] = []
    for row in (markup or {}).get("inline_keyboard", []):
        rows.append([Control("link" if "url" in button else "button", str(button["text"]),
                             str(button.get("style", "link" if "url" in button else "")))
                     for button in row])
    return rows


async def capture(platform: str, game: str, seed: int, moves: int,
                  first_tap: bool = False, board: str = "emoji",
                  grid: int | None = None) -> Scene:
    """Play ``moves`` moves of ``game`` on ``platform`` as ``ux_walk`` does and capture
    what the next player sees."""
    seeds = ux_walk.Seeds()
    seeds.set(seed, game)
    with tempfile.TemporaryDirectory() as folder:
        async with ux_walk.platform_world(platform, Path(folder), seeds) as world:
            table: ux_walk.DiscordTable | ux_walk.TelegramTable
            private_before: dict[int, int] = {}
            if isinstance(world, DiscordWorld):
                table = ux_walk.DiscordTable(world, game, 0)
            else:
                table = ux_walk.TelegramTable(world, game, 0)
                private_before = {person.id: len(world.fake.bot_messages(person.id))
                                  for person in ux_walk.TELEGRAM_PEOPLE}
            await ux_walk.walk_game(table, seed, board, moves)
            seat = await prepare_view(table, seed, table.tally.moves, first_tap, grid)
            board_id = int(((await table.record()).board_ref or {}).get("message", 0))
            if isinstance(table, ux_walk.DiscordTable):
                screens = discord_screens(table, seat, board_id)
                viewer = table.players[seat].name
            else:
                screens = telegram_screens(table, seat, board_id, private_before)
                viewer = table.players[seat].first_name
    return Scene(platform, game, viewer, table.tally.moves, screens)


async def prepare_view(table: ux_walk.DiscordTable | ux_walk.TelegramTable, seed: int,
                       moves: int, first_tap: bool, grid: int | None = None) -> int:
    """The seat whose turn is next (the walk's own order), with their hand open if the
    game hides hands and, with ``first_tap``, the first step of their move tapped."""
    record = await table.record()
    module = get_game(table.game)
    state = module.State.from_dict(record.state)
    movers = state.to_move()
    if record.status != "active" or not movers:
        return 0
    seat = movers[moves % len(movers)]
    version = ux_walk.menu_version(record, state, seat)
    options = [o for o in table.menu(seat, record) or [] if o.version == version]
    if not options and module.INFO.hidden_information:
        await table.open_hand(seat)  # what the player would tap first
        options = [o for o in table.menu(seat, record) or [] if o.version == version]
    if first_tap and options:
        target = ux_walk.Mind(table.game, seed).target(state, seat)
        step = next((o for o in options if o.path == target[:1]), options[0])
        await table.press(seat, step)
    if grid is not None and options:
        # The board's grid (the L-game, Rithmomachia): opened, then ``grid`` taps of the
        # way to the move this player wants.
        mind = ux_walk.Mind(table.game, seed)
        mind.target(state, seat)
        wanted = mind.last_wanted
        path = ux_walk.grid_path(state, seat, wanted) if wanted is not None else None
        for depth in range(1, 2 + grid if path is not None else 0):
            assert path is not None
            if depth > len(path) - 1:
                break  # the next tap would make the move
            shown = [o for o in table.menu(seat, record) or [] if o.version == version]
            tapped = next((o for o in shown if o.path == path[:depth]), None)
            if tapped is None:
                break
            await table.press(seat, tapped)
    return seat


def discord_screens(table: ux_walk.DiscordTable, seat: int, board_id: int
                    ) -> list[Screen]:
    """The channel from the board message on, as the player at ``seat`` sees it: the
    ephemeral messages of the others left out."""
    backend = table.world.env.backend
    viewer = table.players[seat].id
    names = {backend_id: user.name for backend_id, user in backend.users.items()}
    stored = backend.messages.get(table.channel.id, {})
    bubbles: list[Bubble] = []
    for message in sorted(stored.values(), key=lambda m: int(m.id)):
        if message.id < board_id or not message.visible_to(viewer):
            continue
        meta = message.interaction_metadata or {}
        header = ""
        if meta.get("name"):
            user = (meta.get("user") or {}).get("username", "someone")
            header = f"{user} used /{meta['name']}"
        author = BOT_NAME if message.author_id == table.bot_id \
            else names.get(message.author_id, "someone")
        components = [dict(c) for c in message.components]
        blocks = discord_blocks(components, names) if is_v2(message) else []
        text = blocks_text(blocks) if blocks else with_names(str(message.content), names)
        bubbles.append(Bubble(author, text, [] if blocks else discord_rows(components),
                              blocks, bot=message.author_id == table.bot_id,
                              edited=message.edited_timestamp is not None
                              and message.id == board_id,
                              private=message.is_ephemeral, header=header))
    return [Screen(f"# {table.channel.name}", "Class 3B", bubbles)]


def with_names(content: str, names: dict[int, str]) -> str:
    """Mentions as Discord draws them need the user's name: ``<@id>`` becomes
    ``<@id:name>`` for the Markdown below (the id stays, the text is otherwise as sent)."""
    return re.sub(r"<@!?(\d+)>",
                  lambda m: f"<@{m[1]}:{names.get(int(m[1]), 'unknown-user')}>", content)


def telegram_screens(table: ux_walk.TelegramTable, seat: int, board_id: int,
                     private_before: dict[int, int]) -> list[Screen]:
    """The group from the board message on, and the latest messages of the private chat
    of the player at ``seat`` since the game began."""
    fake = table.world.fake
    group = fake.chat_messages(table.chat["id"])
    bubbles = [telegram_bubble(m) for m in group if m.message_id >= board_id]
    screens = [Screen(str(table.chat["title"]), "3 members", bubbles)]
    person = table.players[seat]
    private = fake.bot_messages(person.id)[private_before.get(person.id, 0):]
    if private:
        screens.append(Screen(BOT_NAME, f"bot · private chat with {person.first_name}",
                              [telegram_bubble(m) for m in private[-PRIVATE_SHOWN:]]))
    return screens


def telegram_bubble(sent: Any) -> Bubble:
    is_bot = bool(sent.sender.get("is_bot"))
    author = BOT_NAME if is_bot else str(sent.sender.get("first_name", "someone"))
    return Bubble(author, str(sent.html), telegram_rows(sent.reply_markup), bot=is_bot,
                  edited=bool(sent.edits))


# ------------------------------------------------------------------ markup to HTML
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
    r"(?P<escape>\\(?P<escaped>[^A-Za-z0-9\s]))"
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
        if found["escape"]:
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


# ------------------------------------------------------------------ the pages
def control_html(control: Control, platform: str) -> str:
    label = emoji_spans(control.label)
    disabled = " disabled" if control.disabled else ""
    if control.kind == "select":
        count = len(control.options)
        return (f'<div class="select{disabled}" title="{count} options">'
                f'<span class="placeholder">{label}</span><span class="chevron">⌄</span>'
                "</div>")
    corner = '<span class="corner">↗</span>' if control.kind == "link" else ""
    return (f'<div class="button {control.style or "plain"}{disabled}">'
            f'<span class="label">{label}</span>{corner}</div>')


def rows_html(rows: list[list[Control]], platform: str) -> str:
    if not rows:
        return ""
    lines = "".join('<div class="row">' + "".join(control_html(c, platform) for c in row)
                    + "</div>" for row in rows)
    return f'<div class="keyboard">{lines}</div>'


def blocks_html(blocks: list[Block]) -> str:
    """A Components V2 message's blocks as the app draws them, top to bottom: text as
    message text, a section's text with its accessory on the right, consecutive action
    rows as one keyboard, a container as a box around its own blocks."""
    out: list[str] = []
    rows: list[list[Control]] = []
    for block in blocks:
        if block.kind == "row":
            rows += [block.controls] if block.controls else []
            continue
        out.append(rows_html(rows, "discord"))
        rows = []
        if block.kind == "text":
            out.append(f'<div class="v2-text">{discord_markdown(block.text)}</div>')
        elif block.kind == "section":
            beside = "".join(control_html(c, "discord") for c in block.controls)
            out.append(f'<div class="v2-section"><div class="v2-section-text">'
                       f'{discord_markdown(block.text)}</div>'
                       f'<div class="accessory">{beside}</div></div>')
        elif block.kind == "container":
            accent = (f' style="border-left-color: #{block.accent:06x}"'
                      if block.accent is not None else "")
            out.append(f'<div class="container"{accent}>{blocks_html(block.children)}</div>')
        elif block.kind == "separator":
            out.append('<hr class="separator">' if block.divider
                       else '<div class="spacer"></div>')
        else:
            out.append(f'<div class="prose subtext">(component of type '
                       f"{html.escape(block.text)}, not drawn)</div>")
    out.append(rows_html(rows, "discord"))
    return f'<div class="v2">{"".join(out)}</div>'


def initials(name: str) -> str:
    return html.escape(name[:1].upper() or "?")


def discord_bubbles(bubbles: list[Bubble]) -> str:
    parts: list[str] = []
    previous = ""
    for bubble in bubbles:
        grouped = bubble.author == previous and not bubble.header and not bubble.private
        previous = bubble.author
        body = blocks_html(bubble.blocks) if bubble.blocks else discord_markdown(bubble.text)
        if bubble.edited:  # after the last line of text, or under a closing code block
            mark = '<span class="edited">(edited)</span>'
            body = (body[:-len("</div>")] + mark + "</div>"
                    if body.endswith("</div>") and not bubble.blocks
                    else body + f'<div class="prose">{mark}</div>')
        classes = "message" + (" ephemeral" if bubble.private else "") + \
            (" grouped" if grouped else "")
        head = ""
        if bubble.header:
            head += f'<div class="reply">{html.escape(bubble.header)}</div>'
        if not grouped:
            tag = '<span class="tag">APP</span>' if bubble.bot else ""
            head += (f'<div class="name">{html.escape(bubble.author)}{tag}'
                     '<span class="time">Today at 12:00</span></div>')
        avatar = "" if grouped else f'<div class="avatar">{initials(bubble.author)}</div>'
        foot = ('<div class="only-you">👁 Only you can see this · '
                '<span class="link">Dismiss message</span></div>') if bubble.private else ""
        parts.append(f'<div class="{classes}">{avatar}<div class="body">{head}'
                     f"{body}{rows_html(bubble.rows, 'discord')}{foot}</div></div>")
    return "".join(parts)


def telegram_bubbles(bubbles: list[Bubble], group: bool) -> str:
    parts: list[str] = []
    for index, bubble in enumerate(bubbles):
        following = bubbles[index + 1] if index + 1 < len(bubbles) else None
        last_of_run = following is None or following.author != bubble.author
        first_of_run = index == 0 or bubbles[index - 1].author != bubble.author
        name = (f'<div class="name">{html.escape(bubble.author)}</div>'
                if group and first_of_run else "")
        stamp = ("edited " if bubble.edited else "") + "12:00"
        avatar = ""
        if group:
            avatar = (f'<div class="avatar">{initials(bubble.author)}</div>'
                      if last_of_run else '<div class="avatar blank"></div>')
        wide = " wide" if bubble.rows else ""
        wide += "" if group else " private"
        parts.append(f'<div class="message{wide}">{avatar}<div class="column">'
                     f'<div class="bubble">{name}{telegram_markup(bubble.text)}'
                     f'<span class="time">{stamp}</span></div>'
                     f"{rows_html(bubble.rows, 'telegram')}</div></div>")
    return "".join(parts)


COMMON_CSS = f"""
* {{ box-sizing: border-box; }}
html, body {{ margin: 0; padding: 0; }}
body {{ width: {PHONE_WIDTH}px; -webkit-font-smoothing: antialiased; }}
body:has(section:target) section:not(:target) {{ display: none; }}
section {{ width: {PHONE_WIDTH}px; overflow: hidden; }}
.prose {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
pre.code {{ white-space: pre-wrap; word-break: break-all; margin: 0;
  font-family: "DejaVu Sans Mono", Menlo, "Roboto Mono", monospace; }}
.e {{ font-family: "Noto Color Emoji", "Apple Color Emoji", sans-serif; }}
.keyboard {{ display: flex; flex-direction: column; }}
.row {{ display: flex; }}
.button, .select {{ overflow: hidden; white-space: nowrap; position: relative; }}
.label {{ overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }}
.caption {{ font: 12px/1.4 Roboto, "DejaVu Sans", sans-serif; padding: 6px 10px; }}
"""

DISCORD_CSS = """
body, section { background: #1a1a1e; color: #dfe0e2;
  font: 16px/1.375 Roboto, "gg sans", "Noto Sans", "DejaVu Sans", sans-serif; }
.bar { display: flex; align-items: center; height: 52px; padding: 0 14px;
  border-bottom: 1px solid #2c2d32; background: #1a1a1e; }
.bar .title { font-weight: 700; font-size: 17px; color: #fff; }
.bar .sub { font-size: 13px; color: #9b9ca3; margin-left: 8px; }
.messages { padding: 8px 0 12px; }
.message { display: flex; padding: 2px 12px 2px 12px; margin-top: 14px; }
.message.grouped { margin-top: 2px; padding-left: 64px; }
.message.ephemeral { background: rgba(88, 101, 242, 0.08); padding-top: 4px;
  padding-bottom: 6px; }
.avatar { flex: 0 0 40px; height: 40px; border-radius: 50%; background: #5865f2;
  color: #fff; font-weight: 700; display: flex; align-items: center;
  justify-content: center; margin-right: 12px; margin-top: 2px; }
.body { flex: 1 1 auto; min-width: 0; }
.reply { font-size: 13px; color: #9b9ca3; margin: -4px 0 2px; }
.reply::before { content: "╭ "; color: #4e5058; }
.name { font-weight: 600; color: #fff; font-size: 16px; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600;
  border-radius: 4px; padding: 1px 4px; margin-left: 6px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; font-weight: 400; margin-left: 8px; }
.e { font-size: 1.375em; line-height: 1; vertical-align: -0.2em; }
pre.code { font-size: 14px; line-height: 18px; background: #232428;
  border: 1px solid #2f3035; border-radius: 6px; padding: 7px; margin: 4px 0;
  color: #dfe0e2; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 85%;
  background: #232428; border-radius: 3px; padding: 0 3px; }
.mention { background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px;
  padding: 0 2px; font-weight: 500; }
.edited { font-size: 11px; color: #949ba4; margin-left: 4px; }
.keyboard { gap: 8px; margin-top: 8px; }
.row { flex-wrap: wrap; gap: 8px; }
.button { height: 36px; padding: 0 14px; border-radius: 8px; display: flex;
  align-items: center; max-width: 100%; font-size: 14px; font-weight: 600;
  color: #fff; background: #4e5058; }
.button.primary { background: #5865f2; }
.button.success { background: #248046; }
.button.danger { background: #da373c; }
.button.disabled { opacity: 0.5; }
.select { width: 100%; height: 44px; border-radius: 8px; background: #232428;
  border: 1px solid #2f3035; display: flex; align-items: center;
  justify-content: space-between; padding: 0 12px; color: #949ba4; font-size: 15px; }
.chevron { font-size: 18px; color: #dfe0e2; }
.v2 { display: flex; flex-direction: column; gap: 8px; }
.v2 .keyboard { margin-top: 0; }
.v2-section { display: flex; align-items: center; gap: 12px; }
.v2-section-text { flex: 1 1 auto; min-width: 0; }
.accessory { flex: 0 1 auto; max-width: 60%; display: flex; }
.container { display: flex; flex-direction: column; gap: 8px; padding: 12px;
  background: #232428; border: 1px solid #2f3035; border-left: 4px solid #4e5058;
  border-radius: 8px; }
.separator { width: 100%; border: 0; border-top: 1px solid #3f4147; margin: 4px 0; }
.spacer { height: 8px; }
.only-you { font-size: 12px; color: #949ba4; margin-top: 4px; }
.only-you .link { color: #00a8fc; }
.subtext { font-size: 13px; color: #949ba4; }
.quote { border-left: 4px solid #4e5058; padding-left: 8px; }
.caption { color: #949ba4; border-top: 1px solid #2c2d32; }
"""

TELEGRAM_CSS = """
body, section { background: #9fb98c; color: #000;
  font: 16px/1.35 Roboto, "DejaVu Sans", sans-serif; }
.bar { display: flex; align-items: center; height: 56px; padding: 0 12px;
  background: #517da2; color: #fff; }
.bar .avatar { width: 40px; height: 40px; margin: 0 12px 0 0; background: #6fb0e0; }
.bar .title { font-weight: 500; font-size: 18px; }
.bar .sub { font-size: 13px; color: #d5e4f0; }
.messages { padding: 8px 0 10px; }
.message { display: flex; align-items: flex-end; padding: 2px 8px; margin-top: 4px; }
.message.wide .column { flex: 1 1 auto; }
.column { max-width: 296px; min-width: 0; display: flex; flex-direction: column; }
.avatar { flex: 0 0 34px; height: 34px; border-radius: 50%; background: #e0803d;
  color: #fff; font-weight: 500; display: flex; align-items: center;
  justify-content: center; margin-right: 6px; font-size: 15px; }
.avatar.blank { background: none; }
.message.private .column { max-width: 320px; }
.message.wide .bubble { margin-bottom: 0; }
.bubble { background: #fff; border-radius: 12px 12px 12px 4px; padding: 6px 9px 7px;
  box-shadow: 0 1px 1px rgba(0, 0, 0, 0.15); position: relative; }
.name { color: #3a8dce; font-weight: 500; font-size: 15px; margin-bottom: 1px; }
.time { float: right; font-size: 12px; color: #99a2aa; margin: 6px 0 -4px 10px; }
.e { font-size: 1.2em; line-height: 1; }
pre.code { font-size: 14px; line-height: 18px; background: #eef4fa;
  border-left: 3px solid #3a8dce; border-radius: 4px; padding: 5px 6px; margin: 3px 0;
  color: #2d3c4b; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 90%; color: #2d3c4b; }
.mention, .link { color: #2678b6; }
blockquote { margin: 2px 0; border-left: 3px solid #3a8dce; padding-left: 7px; }
.keyboard { gap: 3px; margin-top: 3px; }
.row { gap: 3px; }
.button { flex: 1 1 0; min-width: 0; height: 40px; border-radius: 8px;
  background: rgba(40, 58, 30, 0.38); color: #fff; font-size: 14px; font-weight: 500;
  display: flex; align-items: center; justify-content: center; padding: 0 6px; }
.button.primary { background: #3e88d6; }
.button.success { background: #3aa757; }
.button.danger { background: #e0523e; }
.corner { position: absolute; top: 2px; right: 5px; font-size: 10px; }
.caption { color: #2d3a24; background: #b7cba8; }
"""


def screen_html(screen: Screen, platform: str) -> str:
    if platform == "discord":
        bar = (f'<div class="bar"><span class="title">{html.escape(screen.title)}</span>'
               f'<span class="sub">{html.escape(screen.subtitle)}</span></div>')
        inner = discord_bubbles(screen.bubbles)
    else:
        group = not screen.subtitle.startswith("bot")
        bar = (f'<div class="bar"><div class="avatar">{initials(screen.title)}</div>'
               f'<div><div class="title">{html.escape(screen.title)}</div>'
               f'<div class="sub">{html.escape(screen.subtitle)}</div></div></div>')
        inner = telegram_bubbles(screen.bubbles, group)
    return f'<div class="screen">{bar}<div class="messages">{inner}</div></div>'


def page(platform: str, scenes: list[Scene], seed: int) -> str:
    """One platform's page: each scene a section (``page.html#game`` shows it alone)."""
    css = COMMON_CSS + (DISCORD_CSS if platform == "discord" else TELEGRAM_CSS)
    sections = []
    for scene in scenes:
        screens = "".join(screen_html(screen, platform) for screen in scene.screens)
        caption = (f"{html.escape(scene.game)} on {platform}, seed {seed}, after "
                   f"{scene.moves} moves, as {html.escape(scene.viewer)} sees it "
                   f"({PHONE_WIDTH} px wide).")
        sections.append(f'<section id="{html.escape(scene.anchor)}">{screens}'
                        f'<div class="caption">{caption}<span class="columns"></span>'
                        "</div></section>")
    title = f"logic-bot on {platform}, at phone width"
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width={PHONE_WIDTH}">'
            f"<title>{html.escape(title)}</title><style>{css}</style></head>\n"
            f"<body>{''.join(sections)}<script>{MEASURE}</script></body></html>\n")


# Run by the page once loaded: in each section shown, how many monospace columns a code
# block in the first message (the board) has before a line wraps, written into the
# caption; and the height of what is shown, which the screenshot's window is given.
MEASURE = """
window.addEventListener('load', () => {
  const found = [];
  for (const section of document.querySelectorAll('section')) {
    if (!section.getBoundingClientRect().height) continue;
    const box = section.querySelector('.wide .bubble, .message .body, .bubble');
    if (!box) continue;
    const probe = document.createElement('pre');
    probe.className = 'code';
    const ruler = document.createElement('span');
    ruler.textContent = '0'.repeat(20);
    probe.appendChild(ruler);
    box.appendChild(probe);
    const style = getComputedStyle(probe);
    const inner = probe.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight);
    const columns = Math.floor(inner / (ruler.getBoundingClientRect().width / 20));
    probe.remove();
    const board = section.querySelector('.message').getBoundingClientRect().height;
    section.querySelector('.columns').textContent = ' The board message with its '
      + 'buttons is ' + Math.round(board) + ' px tall; a code block in it shows '
      + columns + ' columns a line.';
    found.push(section.id + ':' + columns + ':' + Math.round(board));
  }
  document.body.dataset.columns = found.join(' ');
  document.body.dataset.height = Math.ceil(document.body.getBoundingClientRect().height);
});
"""


# ------------------------------------------------------------------ screenshots
def chromium_command() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(binary: str, profile: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--force-device-scale-factor=1",
               *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=90, check=False)


def screenshot(binary: str, url: str, png: Path, profile: Path) -> tuple[int, int, int]:
    """Screenshot ``url`` at phone width, the window as tall as the content; returns the
    height used, and the monospace columns and the board's height the page measured."""
    dom = chromium(binary, profile, f"--window-size={PHONE_WIDTH},800", "--dump-dom", url)
    found = re.search(r'data-height="(\d+)"', dom.stdout)
    height = int(found[1]) if found else 1600
    measured = re.search(r'data-columns="[^":]*:(\d+):(\d+)', dom.stdout)
    done = chromium(binary, profile, f"--screenshot={png}",
                    f"--window-size={PHONE_WIDTH},{height}", url)
    if not png.exists():
        raise RuntimeError(f"chromium made no screenshot of {url}: {done.stderr[-500:]}")
    quantiser = shutil.which("pngquant")
    if quantiser:
        subprocess.run([quantiser, "--force", "--skip-if-larger", "--strip", "--quality",
                        "70-95", "--output", str(png), str(png)], check=False,
                       capture_output=True, timeout=60)
    return height, *((int(measured[1]), int(measured[2])) if measured else (0, 0))


# ------------------------------------------------------------------ main
def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(ux_walk.GAMES),
                        help="comma-separated games (default: all five)")
    parser.add_argument("--platforms", default=",".join(ux_walk.PLATFORMS),
                        help="comma-separated: discord, telegram")
    parser.add_argument("--moves", type=int, default=None,
                        help="moves before the capture, in every game (default: SCENES)")
    parser.add_argument("--board", choices=("emoji", "text"), default="emoji",
                        help="the board style (the bot's default: emoji; text draws the "
                             "boards as code blocks)")
    parser.add_argument("--first-tap", action="store_true",
                        help="the next player also taps the first step of their move")
    parser.add_argument("--grid", type=int, default=None, metavar="TAPS",
                        help="the next player opens the board's grid (L-game, "
                             "Rithmomachia) and taps TAPS steps of their move on it")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="folder for the pages and PNGs (default: docs/screens)")
    parser.add_argument("--no-screenshots", action="store_true",
                        help="write the pages only, even if chromium is installed")
    args = parser.parse_args()
    for name, known in (("games", ux_walk.GAMES), ("platforms", ux_walk.PLATFORMS)):
        chosen = [word.strip() for word in getattr(args, name).split(",") if word.strip()]
        unknown = sorted(set(chosen) - set(known))
        if unknown or not chosen:
            parser.error(f"--{name}: choose from {', '.join(known)}")
        setattr(args, name, chosen)
    return args


async def capture_all(platforms: list[str], games: list[str], seed: int,
                      moves: int | None, first_tap: bool, board: str,
                      progress: Progress, grid: int | None = None
                      ) -> dict[str, list[Scene]]:
    scenes: dict[str, list[Scene]] = {}
    for platform in platforms:
        for game in games:
            scene = await capture(platform, game, seed,
                                  SCENES[game] if moves is None else moves, first_tap, board,
                                  grid)
            scenes.setdefault(platform, []).append(scene)
            progress.say(f"{platform} {game}: captured after {scene.moves} moves, "
                         f"{sum(len(s.bubbles) for s in scene.screens)} messages")
    return scenes


def main() -> None:
    args = arguments()
    began = time.perf_counter()
    progress = Progress("ux screens")
    scenes = asyncio.run(capture_all(args.platforms, args.games, args.seed, args.moves,
                                     args.first_tap, args.board, progress, args.grid))
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    pages = {}
    for platform, shown in scenes.items():
        pages[platform] = out / f"{platform}.html"
        pages[platform].write_text(page(platform, shown, args.seed), encoding="utf-8")
        progress.say(f"wrote {pages[platform]}")
    binary = None if args.no_screenshots else chromium_command()
    if binary is None:
        print("No chromium on the PATH (or --no-screenshots): open the pages in a browser "
              "at 360 px width:", file=sys.stderr)
        for path in pages.values():
            print(f"  {path}", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as profile:
        for platform, shown in scenes.items():
            for scene in shown:
                png = out / f"{platform}-{scene.game}.png"
                png.unlink(missing_ok=True)
                url = f"{pages[platform].resolve().as_uri()}#{scene.anchor}"
                height, columns, board = screenshot(binary, url, png, Path(profile))
                progress.say(f"{png}: {PHONE_WIDTH}x{height}, "
                             f"{png.stat().st_size // 1024} KB; the board message "
                             f"{board} px tall, its code blocks {columns} columns wide")
    print(f"{time.perf_counter() - began:.0f} s; pages and screenshots in {out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
