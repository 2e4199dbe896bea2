"""What every chat adapter says the same way: names, whose turn it is, who is thinking.

Each platform formats these lines its own way (Markdown on Discord, HTML on Telegram);
the sentences come from here so that both platforms tell players the same thing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.service import Board, Place, Reply, Service
from renderers.i18n import DEFAULT_LANGUAGE, normalise_language, translate

log = logging.getLogger(__name__)

NAME_LIMIT = 32
MAX_AI_TURNS_IN_A_ROW = 8


def clean_name(name: str) -> str:
    """A display name safe inside boards: no code fences or line breaks, bounded length."""
    flat = " ".join(name.replace("`", "'").split())
    return (flat or "?")[:NAME_LIMIT]


def pick_language(candidates: list[str | None]) -> str:
    """The first candidate locale the catalogue has, else English."""
    for code in candidates:
        if not code:
            continue
        language = normalise_language(code)
        # normalise_language answers English for languages it lacks: take that only
        # when English was what the candidate asked for.
        if language != DEFAULT_LANGUAGE or code.lower().startswith(DEFAULT_LANGUAGE):
            return language
    return DEFAULT_LANGUAGE


def turn_line(board: Board, language: str) -> str:
    """``▶ Alice: choose your move.``, or the bare prompt when no human is to move."""
    if not board.prompt:
        return ""
    humans = [str(p.get("name", "?")) for p in board.to_move if p.get("kind") == "human"]
    if not humans:
        return board.prompt
    return translate(language, "board.turn", name=", ".join(humans), prompt=board.prompt)


def thinking_line(board: Board, language: str) -> str:
    """``⏳ Computer (strong) is thinking…`` while the computer holds the move."""
    thinkers = [str(p.get("name", "?")) for p in board.to_move if p.get("kind") == "ai"]
    return translate(language, "board.waiting_for", name=", ".join(thinkers) or "…")


class AITurns:
    """The computer's moves, one task per channel: each move is shown through
    ``show(place, reply)`` before the next is asked for.

    A second request while a channel's task runs only makes that task look once more, as
    the running task may be about to stop on a reply that predates the request.
    """

    def __init__(self, service: Service,
                 show: Callable[[Place, Reply], Awaitable[None]]) -> None:
        self.service = service
        self.show = show
        self._running: set[str] = set()
        self._again: set[str] = set()

    async def run(self, place: Place) -> None:
        if place.channel in self._running:
            self._again.add(place.channel)
            return
        self._running.add(place.channel)
        try:
            for _ in range(MAX_AI_TURNS_IN_A_ROW):
                self._again.discard(place.channel)
                reply = await self.service.play_ai_turn(place)
                await self.show(place, reply)
                if not reply.ai_to_move and place.channel not in self._again:
                    break
        except Exception:
            log.exception("AI turn failed in %s", place.channel)
        finally:
            self._running.discard(place.channel)
            self._again.discard(place.channel)
