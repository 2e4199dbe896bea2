"""docs/teachers.md names only commands the bot publishes, on the platform it names them for.

The published names are read from the bot's own objects: Discord's from the command tree
that ``build_discord`` assembles (commands, their subcommands and options), Telegram's from
the menus the adapter publishes (``command_menus``: everyone's, private chats', admins').

Which platform a command belongs to is read from the guide's layout: a paragraph that
starts with **On Discord** or **On Telegram**, with the list that follows it, is that
platform's (up to a heading, the next such paragraph, or a paragraph after a blank line
that is not a list item); in a table whose header has a Discord and a Telegram column,
each cell is its column's platform; everything else is written for both, so it must
exist on both. On Discord a
command's subcommand (``/tournament create``) and its options (``game:lgame``) are
checked too, when the guide writes them in a code span.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from discord import app_commands

from bot.adapters.discord import build_discord
from bot.adapters.telegram import build_telegram
from bot.app import App
from bot.config import Settings
from bot.store import SQLiteStore

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "teachers.md"
PLATFORMS = ("discord", "telegram")
# A command where a slash starts a word: not a path (docs/operations.md), not an address.
COMMAND = re.compile(r"(?<![\w/.:<>-])/([a-z][a-z0-9_-]*)")
CODE = re.compile(r"`([^`]+)`")
OPTION = re.compile(r"^([a-z][a-z0-9_-]*):")
MARKER = re.compile(r"^\*\*On (Discord|Telegram)\b", re.I)
LIST_ITEM = re.compile(r"^(?:\s+\S|[-*]\s|\d+\.\s)")


@dataclass
class Mention:
    platform: str  # discord, telegram, or both
    line: int
    text: str  # the code span it stands in, or the bare /name
    name: str


@dataclass
class DiscordCommand:
    options: set[str] = field(default_factory=set)
    subcommands: dict[str, set[str]] = field(default_factory=dict)


def mentions(guide: str) -> Iterator[Mention]:
    """Every /command of the guide, with the platform its place in the guide gives it."""
    platform = "both"
    columns: list[str] = []
    blank = False
    for number, line in enumerate(guide.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            platform, columns = "both", []
            continue
        if not stripped:
            blank = True
            continue
        marker = MARKER.match(line)
        if marker:
            platform = marker[1].lower()
        elif blank and not LIST_ITEM.match(line):
            platform = "both"  # a new paragraph that is not the block's list
        blank = False
        if stripped.startswith("|"):
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            if not columns:
                columns = [cell.lower().strip("* ") for cell in cells]
                if not {"discord", "telegram"} <= set(columns):
                    columns = ["-"] * len(cells)  # a table for both platforms
                continue
            for index, cell in enumerate(cells):
                column = columns[index] if index < len(columns) else "-"
                where = column if column in PLATFORMS else platform
                yield from in_text(cell, where, number)
            continue
        columns = []
        yield from in_text(line, platform, number)


def in_text(text: str, platform: str, line: int) -> Iterator[Mention]:
    spans = list(CODE.finditer(text))
    for span in spans:
        inner = span[1].strip()
        for found in COMMAND.finditer(inner):
            # The span's text after the command: its subcommand and options.
            rest = inner[found.start():]
            yield Mention(platform, line, rest if found.start() == 0 else found[0], found[1])
    outside = CODE.sub(" ", text)
    for found in COMMAND.finditer(outside):
        yield Mention(platform, line, found[0], found[1])


async def published(tmp_path: Path) -> tuple[dict[str, DiscordCommand], set[str]]:
    store = await SQLiteStore.open(tmp_path / "guide.sqlite3")
    try:
        app = App.build(Settings(database_path=str(tmp_path / "guide.sqlite3"),
                                 telegram_token="123456:" + "A" * 35), store)
        tree = build_discord(app).tree
        discord: dict[str, DiscordCommand] = {}
        for command in tree.get_commands():
            entry = DiscordCommand()
            if isinstance(command, app_commands.Group):
                for sub in command.commands:
                    assert isinstance(sub, app_commands.Command), "one level of groups"
                    entry.subcommands[sub.name] = {p.name for p in sub.parameters}
            elif isinstance(command, app_commands.Command):
                entry.options = {p.name for p in command.parameters}
            discord[command.name] = entry
        telegram = {command.command
                    for _, _, commands in build_telegram(app).command_menus()
                    for command in commands}
    finally:
        await store.close()
    return discord, telegram


def problems_of(mention: Mention, discord: dict[str, DiscordCommand],
                telegram: set[str]) -> list[str]:
    where = f"docs/teachers.md:{mention.line}: {mention.text!r}"
    found: list[str] = []
    platforms = PLATFORMS if mention.platform == "both" else (mention.platform,)
    for platform in platforms:
        if platform == "telegram":
            if mention.name not in telegram:
                found.append(f"{where}: /{mention.name} is not in Telegram's menus")
            continue
        command = discord.get(mention.name)
        if command is None:
            found.append(f"{where}: /{mention.name} is not a Discord command")
            continue
        words = mention.text.split()[1:]
        options = command.options
        if command.subcommands:
            if not words or words[0] not in command.subcommands:
                if words and not OPTION.match(words[0]):
                    found.append(f"{where}: {words[0]!r} is not a subcommand of "
                                 f"/{mention.name} ({', '.join(sorted(command.subcommands))})")
                continue
            options = command.subcommands[words[0]]
            words = words[1:]
        for word in words:
            option = OPTION.match(word)
            if option and option[1] not in options:
                found.append(f"{where}: /{mention.name} has no option {option[1]!r} "
                             f"({', '.join(sorted(options)) or 'none'})")
    return found


async def test_every_command_the_guide_names_is_published_where_it_says(
        tmp_path: Path) -> None:
    discord, telegram = await published(tmp_path)
    named = list(mentions(GUIDE.read_text(encoding="utf-8")))
    problems = [problem for mention in named
                for problem in problems_of(mention, discord, telegram)]
    assert problems == [], "\n".join(problems)
    # The parse found the guide's steps on both platforms (a guide that names nothing,
    # or a marker the parser no longer sees, would pass the check above).
    on = {platform: {m.name for m in named if m.platform in (platform, "both")}
          for platform in PLATFORMS}
    assert {"learn", "play", "class-board", "assign", "progress", "daily", "tournament",
            "export", "logic-settings"} <= on["discord"]
    assert {"learn", "play", "classboard", "assign", "progress", "daily", "tournament",
            "export", "settings"} <= on["telegram"]


def test_every_picture_the_guide_shows_exists() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    pictures = re.findall(r'<img [^>]*src="([^"]+)"', guide) + \
        re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", guide)
    assert len(pictures) >= 10
    missing = [p for p in pictures if not (GUIDE.parent / p).is_file()]
    assert missing == []


@pytest.mark.parametrize(("text", "expected"), [
    ("**On Discord**, type `/tournament create game:lgame`.",
     [("discord", "/tournament create game:lgame", "tournament")]),
    ("**On Telegram:**\n\n1. `/classboard`\n   then `/export`\n\nBoth: `/export`.",
     [("telegram", "/classboard", "classboard"), ("telegram", "/export", "export"),
      ("both", "/export", "export")]),
    ("Both: `/learn lgame` or /play, not docs/operations.md nor https://t.me/x/y.",
     [("both", "/learn lgame", "learn"), ("both", "/play", "play")]),
])
def test_the_guide_parser_reads_platforms_and_spans(
        text: str, expected: list[tuple[str, str, str]]) -> None:
    assert [(m.platform, m.text, m.name) for m in mentions(text)] == expected


def test_a_table_gives_each_column_its_platform() -> None:
    table = ("| step | Discord | Telegram |\n|---|---|---|\n"
             "| class board | `/class-board` | `/classboard` |\n")
    assert [(m.platform, m.name) for m in mentions(table)] == [
        ("discord", "class-board"), ("telegram", "classboard")]


def test_a_wrong_spelling_is_caught() -> None:
    discord = {"class-board": DiscordCommand(options={"enabled"}),
               "tournament": DiscordCommand(subcommands={"create": {"game"}})}
    telegram = {"classboard"}
    assert problems_of(Mention("telegram", 1, "/class-board", "class-board"),
                       discord, telegram)
    assert problems_of(Mention("discord", 1, "/classboard", "classboard"), discord, telegram)
    assert problems_of(Mention("both", 1, "/classboard", "classboard"), discord, telegram)
    assert problems_of(Mention("discord", 1, "/tournament begin", "tournament"),
                       discord, telegram)
    assert problems_of(Mention("discord", 1, "/tournament create level:easy", "tournament"),
                       discord, telegram)
    assert not problems_of(Mention("discord", 1, "/tournament create game:lgame",
                                   "tournament"), discord, telegram)
