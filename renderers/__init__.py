"""Pure functions from an engine view to text. Renderers never see hidden state."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol, cast


class GameRenderer(Protocol):
    def render(self, view: dict[str, Any], names: Sequence[str], language: str,
               emoji: bool) -> str: ...


# Renderers living outside this package, such as a test game's; shipped games need none.
_EXTRA_RENDERERS: dict[str, str] = {}
# Renderer modules already found, by game: looked up several times a move.
_loaded: dict[str, GameRenderer] = {}


def register_renderer(game: str, module_path: str | None) -> None:
    _loaded.pop(game, None)
    if module_path is None:
        _EXTRA_RENDERERS.pop(game, None)
    else:
        _EXTRA_RENDERERS[game] = module_path


def renderer_for(game: str) -> GameRenderer:
    renderer = _loaded.get(game)
    if renderer is None:
        path = _EXTRA_RENDERERS.get(game, f"renderers.{game}")
        # Only a module that exists is kept, so the table holds at most one per game.
        renderer = _loaded[game] = cast(GameRenderer, importlib.import_module(path))
    return renderer
