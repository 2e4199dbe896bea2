"""The one Digitalo state: the rules (``rules.py``) answering the engine contract
(``engines.base.GameState``) with the game's menus (``menu.py``), views (``views.py``) and
storage (``serial.py``), which are functions of the rules' state, not parts of the class."""

from __future__ import annotations

from typing import Self

from engines.base import JSON, Choice
from engines.digitalo import menu, serial, views
from engines.digitalo.rules import DigitaloRules


class DigitaloState(DigitaloRules):
    """A Digitalo game."""

    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        return menu.choices(self, player, path)

    def view(self, player: int | None) -> JSON:
        return views.view(self, player)

    def to_dict(self) -> JSON:
        return serial.to_dict(self)

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        return serial.from_dict(cls, data)


State = DigitaloState
