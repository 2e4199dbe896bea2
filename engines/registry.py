"""Maps game names and aliases to their engine modules."""

from __future__ import annotations

import importlib
from typing import cast

from engines.base import GameModule, InvalidMove

# Module paths, not imports, so that starting the bot does not load every game's tables.
_MODULES: dict[str, str] = {
    "lgame": "engines.lgame",
}
_ALIASES: dict[str, str] = {
    "l": "lgame",
    "l-game": "lgame",
    "l_game": "lgame",
}


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
