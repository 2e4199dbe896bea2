"""The one L-game state: the rules (``rules.py``) answering the engine contract
(``engines.base.GameState``) with the game's menus (``menu.py``, the grid's in
``grid.py``), view (``views.py``) and storage (``serial.py``), which are functions of the
rules' state, not parts of the class."""

from __future__ import annotations

from typing import Self

from engines.base import JSON, Choice, Message
from engines.lgame import menu, serial, views
from engines.lgame.rules import LGameRules


class LGameState(LGameRules):
    """An L-game."""

    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        return menu.choices(self, player, path)

    def offers_grid(self) -> bool:
        return True  # the menu as the board's 16 squares (``engines.lgame.grid``)

    def menu_prompt(self, player: int, path: tuple[str, ...]) -> Message | None:
        return menu.prompt(self, player, path)

    def view(self, player: int | None) -> JSON:
        return views.view(self, player)

    def to_dict(self) -> JSON:
        return serial.to_dict(self)

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        return serial.from_dict(cls, data)


State = LGameState
