"""Checks for ``from_dict``: a saved game is data from disk, so every field is validated on load
and a bad one raises ``StateError`` naming it, instead of failing later in the middle of a move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engines.base import JSON, GameError, Outcome, StateError

Loaded = TypeVar("Loaded")


def checked_int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{what} must be a whole number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise StateError(f"{what} is out of range: {value}")
    return value


def checked_list(value: Any, what: str, length: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != length:
        raise StateError(f"{what} must be a list of {length}")
    return value


def checked_int_list(value: Any, what: str, length: int, low: int,
                     high: int | None) -> list[int]:
    return [checked_int(v, what, low, high) for v in checked_list(value, what, length)]


def checked_cards(value: Any, known: set[str], what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in known for c in value):
        raise StateError(f"{what} holds unknown cards")
    return list(value)


def checked_outcome(value: Any, seats: int = 2) -> Outcome | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("reason"), str):
        raise StateError("outcome must be null or an object with a reason")
    outcome = Outcome.from_dict(value)
    if not set(outcome.winners) <= set(range(seats)) or outcome.to_dict() != value:
        raise StateError("outcome is not in canonical form")
    return outcome


def load_checked(title: str, data: Any, load: Callable[[JSON], Loaded]) -> Loaded:
    """Run ``load`` on a saved state; whatever goes wrong inside becomes a ``StateError``
    naming the game, so a corrupt row is refused on load and never half-read."""
    if not isinstance(data, dict):
        raise StateError(f"a {title} state is a JSON object, not {type(data).__name__}")
    try:
        return load(data)
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, GameError) as error:
        raise StateError(f"invalid {title} state: {error!r}") from error


def check_header(data: JSON, name: str, schema: int, title: str) -> JSON:
    """The game name and schema version of a saved state; returns its options object."""
    if data.get("game") != name or data.get("schema") != schema:
        raise StateError(f"not a {title} state of schema {schema}")
    options = data["options"]
    if not isinstance(options, dict):
        raise StateError("options must be an object")
    return dict(options)
