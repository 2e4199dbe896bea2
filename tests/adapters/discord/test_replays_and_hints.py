"""/replay and /hint on Discord, through simcord."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.discord_world import World, discord_world


async def test_a_finished_game_is_stepped_through_with_buttons(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        await world.alice.slash(world.channel, "resign")
        shown = await world.alice.slash(world.channel, "replay")
        assert shown.acknowledged and shown.ephemeral
        message = shown.response
        assert message is not None
        labels = [c["label"] for row in message.components for c in row["components"]]
        assert labels == ["⏮", "◀", "▶", "⏭"]
        start = message.content
        stepped = await world.alice.click(message, label="▶")
        assert stepped.acknowledged
        assert stepped.response is None or stepped.response.content != start


async def test_a_hint_is_refused_in_a_game_between_people(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        record = await running(world)
        refused = await world.alice.slash(world.channel, "hint")
        assert refused.ephemeral and refused.response is not None
        assert "against the computer" in refused.response.content or \
            "people" in refused.response.content, refused.response.content
        assert (await world.store.get_game(record.id)).version == record.version  # type: ignore[union-attr]


async def running(world: World):  # type: ignore[no-untyped-def]
    record = await world.store.running_game("discord", str(world.channel.id))
    assert record is not None
    return record


async def test_a_practice_game_has_a_hint_button_that_answers_privately(
        tmp_path: Path) -> None:
    """The hint button (issue 27.4) on a game against the computer: its answer is
    ephemeral, the channel is told a hint was taken and the game is marked. A game
    between people has no hint button. (The first hint voids the game's result, so it
    asks first and its yes takes it: ``test_hint_questions.py``.)"""
    from tests.helpers.discord_play import board_message
    from tests.helpers.discord_world import components_of
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        before = await running(world)
        board = await board_message(world)
        assert "💡 Hint" in [c.get("label") for c in components_of(board)]
        asked = await world.alice.click(board, label="💡 Hint")
        assert asked.acknowledged and asked.response is not None
        pressed = await world.alice.click(asked.response, label="💡 Yes, show the hint")
        assert pressed.acknowledged and pressed.response is not None
        assert pressed.response.ephemeral and pressed.response.content.startswith("💡")
        after = await world.store.get_game(before.id)
        assert after is not None and after.players[0].get("hints") == 1
        await world.alice.slash(world.channel, "resign")

        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        rated = await board_message(world)
        assert "💡 Hint" not in [c.get("label") for c in components_of(rated)]
