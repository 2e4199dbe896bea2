"""Sentences both platforms compute the same way, written once: a game's rules, the
rankings, a refusal from an engine. Each platform only formats and sends them."""

from __future__ import annotations

from bot.app import App
from bot.service import Place
from engines.base import GameError
from renderers.i18n import translate


def error_text(place: Place, error: GameError) -> str:
    return translate(place.language, error.key, error.default, **error.params)


def rules_answer(app: App, place: Place, game: str) -> str:
    """The rules of ``game`` with an example, or why there are none (an unknown name)."""
    try:
        return app.service.rules_text(place, game)
    except GameError as error:
        return error_text(place, error)


async def leaderboard_answer(app: App, place: Place, game: str | None) -> str:
    """A game's rankings, here (in a server or group) and everywhere; without a game, the
    daily challenge's, the same two ways."""
    parts: list[str] = []
    if game:
        if place.server:
            parts.append(await app.community.leaderboard_text(place, game[:60], place.server))
        parts.append(await app.community.leaderboard_text(place, game[:60], None))
        return "\n\n".join(dict.fromkeys(parts))
    day = app.daily.today()
    if place.server:
        parts.append(await app.daily.leaderboard_text(place.language, day, place.server))
    parts.append(await app.daily.leaderboard_text(place.language, day, None))
    return "\n\n".join(parts)
