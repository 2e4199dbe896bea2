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


def register_renderer(game: str, module_path: str | None) -> None:
    if module_path is None:
        _EXTRA_RENDERERS.pop(game, None)
    else:
        _EXTRA_RENDERERS[game] = module_path


def renderer_for(game: str) -> GameRenderer:
    path = _EXTRA_RENDERERS.get(game, f"renderers.{game}")
    return cast(GameRenderer, importlib.import_module(path))
