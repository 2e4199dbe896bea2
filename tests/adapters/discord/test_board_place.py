"""Where a game's board message is (its ``board_ref``): a process that is its database's
only one keeps it from its own posts, so a move's board draws read no game row to learn a
message id (two reads a move before); with other processes on the database it is read at
every draw, since one of them may have posted the board anew."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.store import GameRecord
from tests.helpers.discord_play import board_message, play_one_move
from tests.helpers.discord_world import World, discord_world


def count_row_reads(world: World) -> list[int]:
    """How often the bot reads a game's row for its board from now on (one-item list)."""
    reads = [0]
    service = world.bot.service
    read: Callable[[int], Awaitable[GameRecord | None]] = service.game_record

    async def counted(game_id: int) -> GameRecord | None:
        reads[0] += 1
        return await read(game_id)

    service.game_record = counted  # type: ignore[method-assign]
    return reads


@pytest.mark.parametrize("shared", [False, True])
async def test_a_move_reads_no_game_row_to_find_its_board(tmp_path: Path,
                                                          shared: bool) -> None:
    rng = random.Random(4)
    async with discord_world(tmp_path) as world:
        world.store.shared = shared  # type: ignore[misc]  # as PostgreSQL with others
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        board = await board_message(world)
        reads = count_row_reads(world)
        for mover in (world.alice, world.bob, world.alice, world.bob):
            await play_one_move(mover, world, rng)
        assert (await board_message(world)).id == board.id, "edited in place every time"
        assert (reads[0] >= 4) if shared else (reads[0] == 0), reads


async def test_a_board_posted_anew_is_the_one_edited_next(tmp_path: Path) -> None:
    """A moderator deletes the board: the next move posts it anew, and the move after
    edits that new message, not the deleted one, and reads no row to find it."""
    rng = random.Random(5)
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        first = await board_message(world)
        await play_one_move(world.alice, world, rng)
        await first.delete()
        reads = count_row_reads(world)
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None
        place = world.bot.place_of_record(record)
        stored = await world.bot.service.stored_board(place, record)
        assert stored.board is not None
        await world.bot.draw_board(place, stored.board, False)  # as a /board or redelivery
        second = await board_message(world)
        assert second.id != first.id, "posted anew"
        await play_one_move(world.bob, world, rng)
        assert (await board_message(world)).id == second.id, "edited in place"
        assert reads[0] == 0, "the new place was this process's own post"
