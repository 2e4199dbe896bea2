"""Turn cues on Discord: a short line that mentions the player to move, with
``allowed_mentions`` naming only them; the game's previous cue is deleted."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.helpers.discord_play import play_one_move
from tests.helpers.discord_world import World, discord_world


def cues(world: World) -> list[str]:
    return [m.content for m in world.channel.history() if m.content.startswith("🔔")]


def cue_requests(world: World) -> list[dict[str, Any]]:
    return [r.json for r in world.env.backend.http_requests
            if isinstance(r.json, dict) and str(r.json.get("content", "")).startswith("🔔")]


async def test_the_player_to_move_is_pinged_alone_and_the_old_cue_goes(
        tmp_path: Path) -> None:
    rng = random.Random(4)
    async with discord_world(tmp_path) as world:
        started = await world.alice.slash(world.channel, "play", game="lgame",
                                          opponent=world.bob)
        assert started.acknowledged
        assert cues(world) == [], "Alice created the game and moves first: no cue"
        await play_one_move(world.alice, world, rng)
        assert cues(world) == [f"🔔 <@{world.bob.id}>, it is your turn."]
        [request] = cue_requests(world)
        allowed = request["allowed_mentions"]
        assert allowed["parse"] == [] and [str(u) for u in allowed["users"]] == [
            str(world.bob.id)], allowed
        await play_one_move(world.bob, world, rng)
        assert cues(world) == [f"🔔 <@{world.alice.id}>, it is your turn."], \
            "Bob's cue is gone, Alice's is the one alive"
        # Alice turns her cues off for herself.
        muted = await world.alice.slash(world.channel, "turn-cues", enabled=False)
        assert muted.response is not None and muted.response.ephemeral
        await play_one_move(world.alice, world, rng)
        await play_one_move(world.bob, world, rng)
        assert all(str(world.alice.id) not in c for c in cues(world))


async def test_an_invited_player_who_moves_first_is_cued_at_the_start(
        tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        started = await world.alice.slash(world.channel, "play", game="lgame",
                                          opponent=world.bob, first="opponent")
        assert started.acknowledged
        assert cues(world) == [f"🔔 <@{world.bob.id}>, it is your turn."]
