"""Pure functions from an engine view to text. Renderers never see hidden state."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol, cast


class GameRenderer(Protocol):
    def render(self, view: dict[str, Any], names: Sequence[str], language: str,
               emoji: bool) -> str: ...


def renderer_for(game: str) -> GameRenderer:
    return cast(GameRenderer, importlib.import_module(f"renderers.{game}"))
