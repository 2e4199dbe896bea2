"""Live hands keep a player's hand interaction only while Discord lets it be edited."""

from __future__ import annotations

from typing import Any

from bot.adapters.discord.hands import HAND_TOKEN_SECONDS, LiveHands
from bot.adapters.discord.layout import plain_layout


class Recorder:
    """Stands in for an interaction: records the edits asked of it."""

    def __init__(self) -> None:
        self.edits: list[str] = []

    async def edit_original_response(self, *, content: str, **_: Any) -> None:
        self.edits.append(content)


async def test_a_hand_is_redrawn_only_while_its_token_lasts() -> None:
    now = [0.0]
    hands = LiveHands(clock=lambda: now[0])
    interaction = Recorder()
    hands.remember(7, "ann", interaction)  # type: ignore[arg-type]
    assert await hands.redraw(7, "ann", plain_layout("your turn"))
    assert interaction.edits == ["your turn"]
    assert not await hands.redraw(7, "bo", plain_layout("not held"))
    now[0] = HAND_TOKEN_SECONDS + 1
    assert not hands.holds(7, "ann")
    assert not await hands.redraw(7, "ann", plain_layout("too late"))
    assert interaction.edits == ["your turn"], "an expired token is never used"
    hands.remember(8, "ann", interaction)  # type: ignore[arg-type]
    hands.forget(8)
    assert not hands.holds(8, "ann")
