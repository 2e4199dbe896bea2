"""/learn on Discord, through simcord: every lesson in an ephemeral message, a wrong move
answered with the step's hint, a restart in the middle, and nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.lessons import LESSON_GAMES, lesson
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.lessons import accepted_path, wrong_path


@pytest.mark.parametrize("game", LESSON_GAMES)
async def test_a_lesson_is_played_through_privately(tmp_path: Path, game: str) -> None:
    chosen = lesson(game)
    assert chosen is not None
    steps = len(chosen.steps)
    async with discord_world(tmp_path) as world:
        shown = await world.alice.slash(world.channel, "learn", game=game)
        assert shown.acknowledged and shown.ephemeral and shown.response is not None
        message = shown.response
        assert f"step 1 of {steps}" in message.content
        assert opening(chosen.steps[0].explain.default) in message.content

        # A legal move that the step does not ask for: the hint, and the same step.
        for token_path in wrong_path(chosen, 0):
            message = await click(world, message, f"ll:{game}:0:{token_path}")
        assert "not what this step asks for" in message.content
        assert opening(chosen.steps[0].hint.default) in message.content
        assert f"step 1 of {steps}" in message.content

        for index in range(steps):
            for token_path in accepted_path(chosen, index):
                message = await click(world, message, f"ll:{game}:{index}:{token_path}")
            assert "✅" in message.content, message.content
            if index == 1:  # the buttons need no memory: a restart changes nothing
                await world.restart()
            message = await click(world, message, f"ll:{game}:{index + 1}:")
        assert "You finished the" in message.content
        assert f"ll:{game}:0:" in [c.get("custom_id") for c in components_of(message)]
        # Private practice: no game, no result.
        assert await world.store.running_game("discord", str(world.channel.id)) is None
        assert await world.store.last_finished_game("discord", str(world.channel.id)) is None


def opening(text: str) -> str:
    """The start of a text as Discord shows it (Markdown escaped after that)."""
    return text[:24]


async def click(world: World, message, custom_id: str):  # type: ignore[no-untyped-def]
    """Press the button with ``custom_id`` (``ll:<page>``), or choose the page in the
    select menu that offers it, when the step's menu was too long for buttons."""
    components = components_of(message)
    page = custom_id.removeprefix("ll:")
    select = next((c for c in components
                   if page in [option["value"] for option in c.get("options", [])]), None)
    if select is not None:
        result = await world.alice.select(message, [page], custom_id=select["custom_id"])
    else:
        assert custom_id in [c.get("custom_id") for c in components], (
            custom_id, [c.get("custom_id") for c in components])
        result = await world.alice.click(message, custom_id=custom_id)
    assert result.acknowledged
    assert result.response is not None
    return result.response
