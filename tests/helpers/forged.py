"""The forged-button matrix both platforms are tested against: every payload kind pressed
in every kind of place, and which of them the one rule of ``Service.press_place`` allows.

A hostile user can send any payload from any chat they are in (Telegram's callback data is
not signed). Only these presses may act:

* in the game's own channel or group, every kind (the service then checks the seat);
* in the private chat of a player seated in a game with hidden hands, that player's hand
  and its menu (``h`` and ``m``), because that is where such a hand is sent.

Everything else must be refused with the same sentence and change nothing.
"""

from __future__ import annotations

from typing import Literal

from bot.payloads import Payload
from bot.store import GameRecord
from engines.registry import get_game

Where = Literal["own group", "another group", "seated player's private chat",
                "stranger's private chat"]
WHERE: tuple[Where, ...] = ("own group", "another group", "seated player's private chat",
                            "stranger's private chat")


def allowed(kind: str, where: Where) -> bool:
    return where == "own group" or (where == "seated player's private chat"
                                    and kind in ("h", "m"))


def mover_seat(record: GameRecord) -> int:
    state = get_game(record.game).State.from_dict(record.state)
    return state.to_move()[0]


def whole_move(record: GameRecord, seat: int | None = None) -> str:
    """The payload of the mover's (or ``seat``'s) first complete move through the menu, as
    a hand's buttons would carry it: a press that saves a move wherever it is allowed."""
    state = get_game(record.game).State.from_dict(record.state)
    seat = state.to_move()[0] if seat is None else seat
    path: tuple[str, ...] = ()
    for _ in range(8):
        choice = state.menu(seat, path)[0]
        path = (*path, choice.token)
        if choice.action is not None:
            own = state.seat_version(seat)
            version = record.version if own is None else own
            return Payload("m", record.id, version, path).encode()
    raise AssertionError("no complete move within 8 steps")


def hand_payload(record: GameRecord) -> str:
    return Payload("h", record.id, record.version).encode()


def lobby_payload(record: GameRecord, kind: Literal["j", "g"]) -> str:
    return Payload(kind, record.id, record.version).encode()
