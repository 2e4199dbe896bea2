"""The one Turing Machine state: the rules (``rules.py``) answering the engine contract
(``engines.base.GameState``) with the game's menus (``menu.py``), view (``views.py``) and
storage (``serial.py``), which are functions of the rules' state, not parts of the class;
and new games, whose puzzle is generated and scored by the machine."""

from __future__ import annotations

from typing import Any, Self

from engines.base import JSON, Choice, InvalidMove, validate_options
from engines.turing import menu, serial, views
from engines.turing.rules import OPTIONS, TuringRules, _options_puzzle, machine_scores


class TuringState(TuringRules):
    """A Turing Machine game."""

    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        return menu.choices(self, player, path)

    def view(self, player: int | None) -> JSON:
        return views.view(self, player)

    def to_dict(self) -> JSON:
        return serial.to_dict(self)

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        return serial.from_dict(cls, data)


State = TuringState


def new_game(options: JSON, players: int, seed: int) -> TuringState:
    """A new game; generating the puzzle and scoring the machine are CPU work."""
    valid = validate_options(OPTIONS, options)
    puzzle = _options_puzzle(valid, seed)
    if valid["daily"] and (valid["handicap"] or valid["assist"]):
        raise InvalidMove("turing.error.daily_options",
                          "The daily challenge is played without assist or handicap.")
    return TuringState(valid, players, seed, puzzle, machine_scores(puzzle))


def replay(options: JSON, players: int, seed: int, actions: list[list[Any]]) -> TuringState:
    state = new_game(options, players, seed)
    for seat, action in actions:
        if action == "resign":
            state.resign(int(seat))
        else:
            state.apply(int(seat), str(action))
    return state
