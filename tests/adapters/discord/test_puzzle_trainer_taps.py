"""The trainer's board puzzles answered by taps on Discord, through simcord (issue 41): an
L-game or Rithmomachia puzzle offers the game's own "Tap the board", whose grid is drawn in
the board's shape (a row of buttons per board row) and makes the answer tap by tap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.discord_text import as_dict
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.puzzle_grid import grid_presses

# The grid's rows: the L-game's four squares, Rithmomachia's four cells and a level key.
ROW_WIDTHS = {"lgame": 4, "rithmomachia": 5}


def row_sizes(message: Any) -> list[int]:
    return [len(as_dict(row).get("components", [])) for row in message.components]


async def click(world: World, message: Any, data: str) -> Any:
    ids = [c.get("custom_id") for c in components_of(message)]
    assert f"lp:{data}" in ids, (data, ids)
    result = await world.alice.click(message, custom_id=f"lp:{data}")
    assert result.acknowledged and result.response is not None
    return result.response


@pytest.mark.parametrize("game", sorted(ROW_WIDTHS))
async def test_a_board_puzzle_is_answered_by_taps(tmp_path: Path, game: str) -> None:
    async with discord_world(tmp_path) as world:
        for right in (True, False):
            shown = await world.alice.slash(world.channel, "puzzle", game=game)
            assert shown.ephemeral and shown.response is not None
            attempt = await world.store.open_puzzle("discord", str(world.alice.id), game)
            assert attempt is not None
            message = shown.response
            labels = {c.get("custom_id"): c.get("label") for c in components_of(message)}
            assert labels[f"lp:{attempt.id}:a:G"] == "▦ Tap the board"
            taps = grid_presses(attempt, right)
            grid = await click(world, message, taps[0])
            sizes = row_sizes(grid)
            assert sizes[:4] == [ROW_WIDTHS[game]] * 4, sizes
            assert len(sizes) == 5, "the grid's four rows, then back (and what is beside it)"
            message = grid
            for data in taps[1:]:
                message = await click(world, message, data)
            assert ("✅ Right!" if right else "❌ Not this one.") in message.content
            answered = await world.store.puzzle_attempt(attempt.id)
            assert answered is not None and not answered.open
            await click(world, message, f"{attempt.id}:n")
