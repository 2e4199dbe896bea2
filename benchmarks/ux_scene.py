"""What ``benchmarks/ux_screens.py`` captures of a game: the messages (bubbles) with their
buttons and Discord Components V2 blocks, the chats they stand in (screens), and each game's
scene, as ``benchmarks/ux_capture.py`` fills them in and ``benchmarks/ux_pages.py`` draws
them."""

from __future__ import annotations

from dataclasses import dataclass, field


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
    files: list[str] = field(default_factory=list)  # attached files: "name · size"


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
    # The caption under the screens; empty: the game, the moves and the viewer. An anchor
    # other than the game's name (``benchmarks/teacher_screens.py``'s steps).
    caption: str = ""
    name: str = ""

    @property
    def anchor(self) -> str:
        return self.name or self.game
