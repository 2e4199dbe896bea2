"""The grammar of a game button's payload, written once.

A payload is what a button carries back to the bot: Telegram's ``callback_data`` and the
tail of a Discord ``custom_id``. It is ``<kind>:<game id>:<version>:<path>``, for example
``m:5:3:c4SW.d1b3``:

* ``kind``: ``m`` a step through the move menu, ``h`` the presser's private hand (with the
  menu when the game hides it), ``j`` taking the open seat, ``g`` starting a lobby with
  the players seated so far, ``e`` a button of an ended game's end panel (its path is
  one of :data:`END_ACTIONS`), ``i`` the hint button of a practice game (its path
  :data:`HINT_YES`: the yes to the question a hint asks first when it would void the
  game's result, ``bot.hints.hint_voids_result``);
* ``game id``: the stored game the button belongs to;
* ``version``: the game's (or the seat's) version the button was drawn for, so a button
  from an older board is recognised as stale;
* ``path``: the menu tokens chosen so far, joined by dots (empty for ``h``, ``j``, ``g``,
  the hint button and the first step of a menu; the action for ``e``; ``yes`` for the
  hint's yes, which is bound to the game and version it was asked at).

Both platforms, the service and the layouts read and write payloads only through
:class:`Payload`, so the grammar and its limits cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

# Telegram's callback_data holds at most 64 bytes (Discord's custom_id 100): every payload
# fits the smaller, so one grammar serves both.
PAYLOAD_LIMIT = 64

Kind = Literal["m", "h", "j", "g", "e", "i"]
KINDS: tuple[Kind, ...] = ("m", "h", "j", "g", "e", "i")
_KIND_BY_LETTER: dict[str, Kind] = {kind: kind for kind in KINDS}
# The kinds a player may press outside the game's own channel: a hand, its menu and its
# hint button are sent to a player's private chat when the game hides its hands.
PRIVATE_KINDS: frozenset[str] = frozenset({"m", "h", "i"})
# What an ended game's panel offers: the same game again, the presser's results in that
# game, its rules, and its replay with analysis.
END_ACTIONS: tuple[str, ...] = ("again", "stats", "rules", "replay")
# The path of the hint's yes: ``i:5:3:yes`` takes a hint that voids game 5's result, at
# version 3 only (``Service.hint``).
HINT_YES = "yes"

TOKEN_PATTERN = r"[A-Za-z0-9-]{1,8}"
MAX_PATH_TOKENS = 10  # a grid move: G, up to four squares of an L, two neutral steps
_PATH_PATTERN = rf"{TOKEN_PATTERN}(?:\.{TOKEN_PATTERN}){{0,{MAX_PATH_TOKENS - 1}}}"
_PAYLOAD_RE = re.compile(rf"([mhjgei]):(\d{{1,12}}):(\d{{1,9}}):({_PATH_PATTERN})?")


class PayloadTooLong(ValueError):
    """A payload that would not fit a Telegram button: a bug in a game's menu tokens."""


@dataclass(frozen=True)
class Payload:
    kind: Kind
    game_id: int
    version: int
    path: tuple[str, ...] = ()

    def encode(self) -> str:
        text = f"{self.kind}:{self.game_id}:{self.version}:{'.'.join(self.path)}"
        if len(text.encode()) > PAYLOAD_LIMIT:
            raise PayloadTooLong(f"button payload over {PAYLOAD_LIMIT} bytes: {text!r}")
        return text

    def children(self, tokens: Iterable[str]) -> list[str]:
        """The encoded payloads of choosing each of ``tokens`` at this step: a menu's
        buttons, the common part written once (``encode`` of ``child`` for each, as
        cheaply as a menu of thirty options drawn at every move needs)."""
        head = f"{self.kind}:{self.game_id}:{self.version}:"
        if self.path:
            head += ".".join(self.path) + "."
        encoded = [head + token for token in tokens]
        for text in encoded:
            if len(text) > PAYLOAD_LIMIT // 4 and len(text.encode()) > PAYLOAD_LIMIT:
                raise PayloadTooLong(f"button payload over {PAYLOAD_LIMIT} bytes: {text!r}")
        return encoded

    @classmethod
    def parse(cls, text: object) -> Payload | None:
        """Strictly parse a payload; anything else (forged, truncated, not text) is None."""
        if not isinstance(text, str) or len(text) > PAYLOAD_LIMIT:
            return None
        match = _PAYLOAD_RE.fullmatch(text)
        if match is None:
            return None
        kind = _KIND_BY_LETTER[match.group(1)]
        path = tuple(match.group(4).split(".")) if match.group(4) else ()
        return cls(kind, int(match.group(2)), int(match.group(3)), path)

    def child(self, token: str) -> Payload:
        """The payload of choosing ``token`` at this step."""
        return Payload(self.kind, self.game_id, self.version, (*self.path, token))

    def parent(self) -> Payload:
        """The payload of the step this option belongs to: ``m:5:3:c4SW.d1b3`` →
        ``m:5:3:c4SW``; a first step's parent has an empty path."""
        return Payload(self.kind, self.game_id, self.version, self.path[:-1])

    @property
    def last_token(self) -> str:
        return self.path[-1] if self.path else ""

    @property
    def says_yes(self) -> bool:
        """Whether this is the hint's yes (``i:…:yes``) rather than its first tap."""
        return self.kind == "i" and self.path == (HINT_YES,)

    @property
    def private_ok(self) -> bool:
        """Whether this kind may be pressed in a player's private chat."""
        return self.kind in PRIVATE_KINDS


def game_of(text: object) -> int | None:
    """The game a payload belongs to, or None when it is not a payload."""
    payload = Payload.parse(text)
    return payload.game_id if payload is not None else None
