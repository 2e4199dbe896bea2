"""Maps game names and aliases to their engine modules, and their declared facts.

Each game module declares its facts once, as ``INFO`` (``engines.base.GameInfo``): its
aliases, levels, and whether it hides hands, is played simultaneously or solo, or is
costly to create. The registry knows only module paths, so that starting the bot does not
load every game's tables; an alias is looked up in the modules' ``INFO`` the first time
a name that is not a game's own is asked for.
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol, cast

from engines.base import Agent, GameInfo, GameModule, InvalidMove

_MODULES: dict[str, str] = {
    "lgame": "engines.lgame",
    "turing": "engines.turing",
    "booleo": "engines.booleo",
    "digitalo": "engines.digitalo",
    "rithmomachia": "engines.rithmomachia",
}
_aliases: dict[str, str] | None = None
# Modules already found, by game name: ``get_game`` runs dozens of times a move, and
# ``importlib.import_module`` costs about 0.8 us even for a loaded module.
_loaded: dict[str, GameModule] = {}


def register_game(name: str, module_path: str) -> None:
    """Add a game at run time: how tests plug in a game that does not ship with the bot."""
    global _aliases
    _MODULES[name] = module_path
    _aliases = None
    _loaded.pop(name, None)


def unregister_game(name: str) -> None:
    global _aliases
    _MODULES.pop(name, None)
    _aliases = None
    _loaded.pop(name, None)


def game_names() -> list[str]:
    return list(_MODULES)


def _alias_table() -> dict[str, str]:
    global _aliases
    if _aliases is None:
        table: dict[str, str] = {}
        for name, path in _MODULES.items():
            info = cast(GameModule, importlib.import_module(path)).INFO
            for alias in info.aliases:
                table.setdefault(alias.lower(), name)
        _aliases = table
    return _aliases


def resolve_name(name: str) -> str:
    key = name.strip().lower()
    if key not in _MODULES:
        key = _alias_table().get(key, key)
    if key not in _MODULES:
        raise InvalidMove("error.unknown_game", "Unknown game '{name}'. Games: {games}.",
                          name=name.strip()[:30], games=", ".join(_MODULES))
    return key


def get_game(name: str) -> GameModule:
    module = _loaded.get(name)
    if module is None:
        key = resolve_name(name)  # only game names are kept, not what a person typed
        module = _loaded[key] = cast(GameModule, importlib.import_module(_MODULES[key]))
    return module


class _AgentMaker(Protocol):
    def make_agent(self, level: str, rng: random.Random) -> Agent: ...


def make_agent(name: str, level: str, rng: random.Random) -> Agent:
    """A computer player of game ``name`` at ``level`` (refused for a level the game does
    not have), from the module its ``INFO.agents`` names, or the game's own."""
    module = get_game(name)
    maker = importlib.import_module(module.INFO.agents) if module.INFO.agents else module
    return cast(_AgentMaker, maker).make_agent(level, rng)


def game_info(name: str) -> GameInfo:
    """The facts ``name``'s module declares (``engines.base.GameInfo``)."""
    return get_game(name).INFO
