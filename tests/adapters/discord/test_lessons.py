"""/learn on Discord, through simcord: a whole L-game lesson in an ephemeral message, a
wrong move answered with the step's hint, a restart in the middle, and nothing stored."""

from __future__ import annotations

from pathlib import Path

from engines.lessons import lesson
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.lessons import accepted_path, wrong_path


async def test_the_lgame_lesson_is_played_through_privately(tmp_path: Path) -> None:
    chosen = lesson("lgame")
    assert chosen is not None
    async with discord_world(tmp_path) as world:
        shown = await world.alice.slash(world.channel, "learn", game="lgame")
        assert shown.acknowledged and shown.ephemeral and shown.response is not None
        message = shown.response
        assert "step 1 of 5" in message.content
        assert "Move your L now" in message.content

        # A legal move that the step does not ask for: the hint, and the same step.
        for token_path in wrong_path(chosen, 0):
            message = await click(world, message, f"ll:lgame:0:{token_path}")
        assert "not what this step asks for" in message.content
        assert "leave the neutral pieces alone" in message.content
        assert "step 1 of 5" in message.content

        for index in range(len(chosen.steps)):
            for token_path in accepted_path(chosen, index):
                message = await click(world, message, f"ll:lgame:{index}:{token_path}")
            assert "✅" in message.content, message.content
            if index == 1:  # the buttons need no memory: a restart changes nothing
                await world.restart()
            message = await click(world, message, f"ll:lgame:{index + 1}:")
        assert "You finished the L-game lesson" in message.content
        assert "ll:lgame:0:" in [c.get("custom_id") for c in components_of(message)]
        # Private practice: no game, no result.
        assert await world.store.running_game("discord", str(world.channel.id)) is None
        assert await world.store.last_finished_game("discord", str(world.channel.id)) is None


async def click(world: World, message, custom_id: str):  # type: ignore[no-untyped-def]
    assert custom_id in [c.get("custom_id") for c in components_of(message)], (
        custom_id, [c.get("custom_id") for c in components_of(message)])
    result = await world.alice.click(message, custom_id=custom_id)
    assert result.acknowledged
    assert result.response is not None
    return result.response
