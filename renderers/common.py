"""Rendering shared by every game: names of seats and how a game ended."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from renderers.i18n import translate


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def render_outcome(outcome: dict[str, Any], names: Sequence[str], language: str) -> str:
    """One sentence: who won and why, or why it was drawn or abandoned."""
    detail = dict(outcome.get("detail") or {})
    if "loser" in detail:
        detail["loser"] = seat_name(names, int(detail["loser"]))
    reason_key = f"reason.{outcome['reason']}"
    reason = translate(language, reason_key, outcome["reason"], **detail)
    if outcome["reason"] == "abandoned":
        return translate(language, "game.over.abandoned")
    winners = outcome.get("winners") or []
    if not winners:
        return translate(language, "game.over.draw", reason=reason)
    winner_names = ", ".join(seat_name(names, int(w)) for w in winners)
    return translate(language, "game.over.win", name=winner_names, reason=reason)
