"""Maps game names and aliases to their engine modules."""

from __future__ import annotations

import importlib
from typing import cast

from engines.base import GameModule, InvalidMove

# Module paths, not imports, so that starting the bot does not load every game's tables.
_MODULES: dict[str, str] = {
    "lgame": "engines.lgame",
    "turing": "engines.turing",
    "booleo": "engines.booleo",
    "digitalo": "engines.digitalo",
    "rithmomachia": "engines.rithmomachia",
}
_ALIASES: dict[str, str] = {
    "l": "lgame",
    "l-game": "lgame",
    "l_game": "lgame",
    "tm": "turing",
    "turing-machine": "turing",
    "turing_machine": "turing",
    "puzzle": "turing",
    "boole": "booleo",
    "pyramid": "booleo",
    "digital": "digitalo",
    "digi": "digitalo",
    "rithmo": "rithmomachia",
    "rithmomachy": "rithmomachia",
    "boolean_rithmomachia": "rithmomachia",
    "boolean-rithmomachia": "rithmomachia",
}


def register_game(name: str, module_path: str, aliases: tuple[str, ...] = ()) -> None:
    """Add a game at run time: how tests plug in a game that does not ship with the bot."""
    _MODULES[name] = module_path
    for alias in aliases:
        _ALIASES[alias] = name


def unregister_game(name: str) -> None:
    _MODULES.pop(name, None)
    for alias in [a for a, target in _ALIASES.items() if target == name]:
        del _ALIASES[alias]


def game_names() -> list[str]:
    return list(_MODULES)


def resolve_name(name: str) -> str:
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _MODULES:
        raise InvalidMove("error.unknown_game", "Unknown game '{name}'. Games: {games}.",
                          name=name.strip()[:30], games=", ".join(_MODULES))
    return key


def get_game(name: str) -> GameModule:
    return cast(GameModule, importlib.import_module(_MODULES[resolve_name(name)]))
