"""The service's vocabulary: who acts (``User``), where (``Place``), and what a command
produces (``Board``, ``Hand``, ``Reply``) or refuses (``ServiceError``). Adapters read
these and never change a game; ``bot.service`` makes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.store import GameRecord
from renderers.i18n import normalise_language, translate


@dataclass(frozen=True)
class User:
    """A person on a platform. ``id`` is the platform's user id; names are for display."""

    platform: str
    id: str
    name: str
    is_moderator: bool = False


@dataclass(frozen=True)
class Place:
    """Where a command happened: one channel, thread or chat holds at most one game."""

    platform: str
    channel: str
    language: str = "en"
    emoji: bool = True
    # The Discord guild or Telegram group around the channel ("" in private chats): games
    # are stored with it, for per-server leaderboards and the list of running games.
    server: str = ""


@dataclass(frozen=True)
class Button:
    label: str
    payload: str
    group: str = ""  # ``engines.base.Choice.group``: shown together with its group
    disabled: bool = False  # ``Choice.unavailable``: shown, not pressable where a platform can


@dataclass
class Board:
    """The public board message. Adapters edit the previous one in place when they can.

    In a game with hidden hands the move menu would reveal the mover's cards, so
    ``buttons`` stays empty and ``hand_button`` opens the menu privately instead.
    """

    game_id: int
    version: int
    text: str
    monospace: bool
    buttons: list[Button]
    navigation: list[Button]
    prompt: str
    to_move: list[dict[str, Any]]
    hand_button: Button | None = None
    # The game's menu can turn into the board's grid (``GameState.has_grid``: the L-game,
    # Rithmomachia), so Discord sends this board as Components V2 from the first message.
    grid: bool = False


@dataclass(frozen=True)
class CardLine:
    """One line of a card hand as ``text`` shows it (``• AND→1: goes where both inputs are
    1``), with the menu button that plays that card when the hand's menu is at its first
    step (one of ``Hand.buttons``, possibly disabled), else None."""

    text: str
    button: Button | None = None


@dataclass
class Hand:
    """One player's private view and, when it is their turn, their move menu.

    ``cards``: in a game with card hands (bOOleO, Digitalo), the hand's card lines, each
    as it stands in ``text``, with its button; None in other games. Platforms that can put
    a button beside a line of text (Discord's Components V2 sections) use it; the others
    show ``text`` and ``buttons`` as they are."""

    text: str
    buttons: list[Button]
    navigation: list[Button]
    prompt: str
    cards: list[CardLine] | None = None


@dataclass
class Reply:
    """What a command produces.

    * ``board``: the public board (new or updated), with the move menu as buttons.
    * ``notice``: for the actor only (an ephemeral reply, a callback alert, a console line).
    * ``announcements``: public lines for everyone in the channel.
    * ``private``: texts for single players, keyed by user id; never shown publicly.
    * ``hand``: the actor's private view and menu; only ever shown to the actor.
    * ``moved``: the game changed, so every copy of the public board is out of date.
    * ``ai_to_move``: the computer moves next; the adapter calls ``Service.play_ai_turn``.
    * ``place``: where the game lives, when that is not where the command came from (a
      button of a private hand pressed in the player's private chat).
    * ``turn_cue``: the people whose turn has just begun, in a game of two or more people
      (not the one who acted, not the computer): the adapter notifies each of them once.
    * ``started``: the reply is a new game's first board (everyone to move gets their
      hand, where hands are private).
    * ``confirm``: a question before an action that voids something (a hint that leaves
      the game's result uncounted, ``bot.hints``): nothing was done (``ok`` is False),
      ``notice`` asks, and this button says yes. It is for the actor's eyes (Discord: an
      ephemeral message; Telegram: an alert, and the pressed button turns into it), and
      the service refuses it to anyone else.
    * ``needs_private``: a hint was not given (nothing was done, ``ok`` is False), as it
      could not reach the actor privately (Telegram: they never opened a private chat
      with the bot): the adapter offers them the way to open one.
    """

    ok: bool = True
    board: Board | None = None
    notice: str | None = None
    announcements: list[str] = field(default_factory=list)
    private: dict[str, str] = field(default_factory=dict)
    hand: Hand | None = None
    moved: bool = False
    ai_to_move: bool = False
    finished: bool = False
    place: Place | None = None
    turn_cue: list[dict[str, Any]] = field(default_factory=list)
    # The people whose turn has just begun, whatever the number of people (``turn_cue``
    # is these in a game of two or more): a platform may bring their hand up to date.
    turn_began: list[dict[str, Any]] = field(default_factory=list)
    # A refusal that only says "wait" or "not for you" (not your turn, not playing): a
    # platform may show it lightly (Telegram: a toast rather than an alert to dismiss).
    light: bool = False
    started: bool = False
    confirm: Button | None = None
    needs_private: bool = False


@dataclass(frozen=True)
class Opponent:
    """Who the creator plays against: the computer at a level, a named user, or whoever joins."""

    kind: str  # "ai", "user" or "open"
    level: str = ""
    user: User | None = None


class ServiceError(Exception):
    """A refusal, already translated, with the board to show beside it when useful."""

    def __init__(self, notice: str, record: GameRecord | None = None, *,
                 light: bool = False) -> None:
        super().__init__(notice)
        self.notice = notice
        self.record = record
        self.light = light  # see ``Reply.light``


def place_of_record(record: GameRecord, default_language: str = "en") -> Place:
    """Where a stored game lives, in the language and board style its board was drawn in
    (the adapter stores both with the board's message), so that an AI move, a timer or a
    press from a private chat answers the game's channel as its own commands would."""
    ref = record.board_ref or {}
    language = normalise_language(str(ref.get("language") or default_language))
    return Place(record.platform, record.channel, language, bool(ref.get("emoji", True)),
                 record.server)


def human_player(user: User) -> dict[str, Any]:
    return {"kind": "human", "platform": user.platform, "id": user.id, "name": user.name}


def ai_player(level: str) -> dict[str, Any]:
    return {"kind": "ai", "level": level, "name": translate("en", "ai.name", level=level)}
