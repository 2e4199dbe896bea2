"""Boolean Rithmomachia on Discord, through the real discord.py client (simcord): a whole
game against the strong computer in a channel, moved only with buttons and select menus (a
Pyramid can have 26 destinations, more than one select menu holds), and a two-player game
that strangers cannot touch."""

from __future__ import annotations

import random
from pathlib import Path

from engines import rithmomachia
from tests.helpers.discord_play import board_message, menu_items, play_one_move
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import components_of, discord_world
from tests.helpers.menus import END_PANEL_LABELS


async def test_a_whole_game_against_the_strong_computer(tmp_path: Path,
                                                        fast_rithmomachia_agent: None) -> None:
    rng = random.Random(11)
    async with discord_world(tmp_path) as world:
        started = await world.alice.slash(world.channel, "play", game="rithmomachia",
                                          level="strong", options="move_limit=40")
        assert started.acknowledged and not started.ephemeral
        board_id = (await board_message(world)).id
        for _ in range(60):
            if await world.store.running_game("discord", str(world.channel.id)) is None:
                break
            await play_one_move(world.alice, world, rng)
            await world.bot.wait_for_background()
        else:
            raise AssertionError("the game did not end")
        final = await board_message(world)
        assert final.id == board_id, "the board is edited in place"
        assert "Game over" in visible_text(final) and "Victories:" in visible_text(final)
        assert "Level 4 (Black's home)" in visible_text(final)
        assert [c["label"] for c in components_of(final)] == END_PANEL_LABELS
        record = (await world.store.games_with_status("finished"))[0]
        state = rithmomachia.RithmomachiaState.from_dict(record.state)
        outcome = state.outcome()
        assert outcome is not None and 0 not in outcome.winners


async def test_strangers_cannot_move_in_a_two_player_game(tmp_path: Path) -> None:
    rng = random.Random(2)
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="rithmo", opponent=world.bob)
        board = await board_message(world)
        item = menu_items(board)[0]  # a button, or a select when the pushes make it long
        stranger = (await world.carol.click(board, custom_id=item["custom_id"])
                    if item["type"] == 2 else
                    await world.carol.select(board, [item["options"][0]["value"]],
                                             custom_id=item["custom_id"]))
        assert stranger.response is not None and stranger.response.ephemeral
        assert "not playing" in stranger.response.content
        await play_one_move(world.alice, world, rng)
        await play_one_move(world.bob, world, rng)
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None
        assert len(rithmomachia.RithmomachiaState.from_dict(record.state).actions) == 2


async def test_the_teaching_game_is_offered_first(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        offered = await world.alice.autocomplete(world.channel, "play", "options", "",
                                                 game="rithmomachia")
        assert offered[0]["value"] == "ops=not,nand"
        assert offered[0]["name"].startswith("Teaching game")
        started = await world.alice.slash(world.channel, "play", game="rithmomachia",
                                          level="easy", options=offered[0]["value"])
        assert started.acknowledged and not started.ephemeral
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.options.get("ops") == "not,nand"
