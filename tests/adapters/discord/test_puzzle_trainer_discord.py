"""The puzzle trainer on Discord, through simcord (issue 41): ten puzzles in a row by
clicks alone in an ephemeral message, the rating changing after each; retry, show me and
the themes; another member's and forged clicks refused in words; a restart in the middle
of a puzzle; /puzzle without a game keeps its meaning (a Turing puzzle); the puzzle of the
day posted with /daily game:… and its Solve button, with the day's leaderboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.backend.errors import SetupError

from bot.adapters.discord.commands.assignments import assign_words
from bot.adapters.discord.commands.puzzles import PuzzleButton
from engines.puzzles import Puzzle, puzzle_games
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.puzzle_trainer import answer_presses

GAMES = puzzle_games()


async def click(world: World, message: Any, data: str, actor: Any = None) -> Any:
    """Press the trainer button with ``data`` (``lp:<data>``), or choose it in the select
    menu that offers it, when the menu was too long for buttons."""
    actor = actor or world.alice
    components = components_of(message)
    select = next((c for c in components
                   if data in [option["value"] for option in c.get("options", [])]), None)
    if select is not None:
        result = await actor.select(message, [data], custom_id=select["custom_id"])
    else:
        ids = [c.get("custom_id") for c in components]
        assert f"lp:{data}" in ids, (data, ids)
        result = await actor.click(message, custom_id=f"lp:{data}")
    assert result.acknowledged and result.response is not None
    return result.response


async def rating(world: World, member: Any, game: str) -> float:
    player = await world.store.puzzle_player("discord", str(member.id), game)
    assert player is not None
    return player.rating


async def open_attempt(world: World, game: str, member: Any = None):  # type: ignore[no-untyped-def]
    member = member or world.alice
    attempt = await world.store.open_puzzle("discord", str(member.id), game)
    assert attempt is not None
    return attempt


@pytest.mark.parametrize("game", GAMES)
async def test_ten_puzzles_in_a_row_by_clicks(tmp_path: Path, game: str) -> None:
    async with discord_world(tmp_path) as world:
        shown = await world.alice.slash(world.channel, "puzzle", game=game)
        assert shown.acknowledged and shown.ephemeral and shown.response is not None
        message = shown.response
        ratings = []
        for number in range(10):
            assert "Find the best move" in message.content, message.content
            attempt = await open_attempt(world, game)
            right = number % 5 != 4
            for data in answer_presses(attempt, right):
                message = await click(world, message, data)
            assert ("✅ Right!" if right else "❌ Not this one.") in message.content
            ratings.append(await rating(world, world.alice, game))
            message = await click(world, message, f"{attempt.id}:n")
        assert len(set(ratings)) == 10, "the rating changed after every puzzle"
        assert await world.store.running_game("discord", str(world.channel.id)) is None
        stats = await world.alice.slash(world.channel, "stats")
        assert stats.response is not None and "puzzles: rating" in stats.response.content


async def test_the_rest_of_the_trainer_and_a_restart(tmp_path: Path) -> None:
    game = GAMES[0]
    async with discord_world(tmp_path) as world:
        shown = await world.alice.slash(world.channel, "puzzle", game=game)
        message: Any = shown.response
        attempt = await open_attempt(world, game)
        assert attempt.server == str(world.guild.id)
        for data in answer_presses(attempt, right=False):
            message = await click(world, message, data)
        assert "❌ Not this one." in message.content and "Line:" in message.content
        after_answer = await rating(world, world.alice, game)
        message = await click(world, message, f"{attempt.id}:r")
        for data in answer_presses(attempt, True, "r"):
            message = await click(world, message, data)
        assert "Right (practice: not rated)" in message.content
        message = await click(world, message, f"{attempt.id}:s")
        assert "The answer:" in message.content
        assert await rating(world, world.alice, game) == after_answer
        # Only Alice sees her puzzle, so only she can click it (the service refuses
        # anyone else in words: tests/bot/test_puzzle_trainer.py); a forged id is refused.
        with pytest.raises(SetupError):
            await world.bob.click(message, custom_id=f"lp:{attempt.id}:n")
        # Forged buttons (a message anyone sees, carrying trainer ids): Bob pressing one
        # of Alice's puzzle is refused, as is a puzzle that does not exist; nothing moves.
        view = discord.ui.View(timeout=None)
        view.add_item(PuzzleButton(f"{attempt.id}:n", "Next"))
        view.add_item(PuzzleButton("999999:v", "Gone"))
        board = await world.bot.get_partial_messageable(world.channel.id).send("…", view=view)
        bob = await world.bob.click(board, custom_id=f"lp:{attempt.id}:n")
        assert bob.ephemeral and bob.response is not None
        assert "someone else's" in bob.response.content
        gone = await world.alice.click(board, custom_id="lp:999999:v")
        assert gone.response is not None and "gone" in gone.response.content
        assert await world.store.open_puzzle("discord", str(world.alice.id), game) is None
        # A theme, then a restart in the middle of its puzzle: the buttons work on.
        message = await click(world, message, f"{attempt.id}:t")
        assert "Which theme" in message.content
        message = await click(world, message, f"{attempt.id}:t:0")
        chosen = await open_attempt(world, game)
        assert Puzzle.from_dict(chosen.puzzle).theme == chosen.theme
        await world.restart()
        for data in answer_presses(chosen, True):
            message = await click(world, message, data)
        assert "✅ Right!" in message.content


async def test_puzzle_without_a_game_is_the_turing_machines(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        shown = await world.alice.slash(world.channel, "puzzle", difficulty="easy")
        assert shown.acknowledged
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.game == "turing"


async def test_the_puzzle_of_the_day_is_posted_and_solved_privately(tmp_path: Path) -> None:
    game = GAMES[0]
    async with discord_world(tmp_path) as world:
        posted = await world.alice.slash(world.channel, "daily", game=game)
        assert posted.response is not None and not posted.ephemeral
        post = posted.response
        assert "puzzle of the day" in post.content and "Nobody has answered" in post.content
        assert f"lpd:{game}" in [c.get("custom_id") for c in components_of(post)]
        opened = await world.bob.click(post, custom_id=f"lpd:{game}")
        assert opened.ephemeral and opened.response is not None
        message = opened.response
        day = world.bot.app.trainer.today().isoformat()
        attempt = await world.store.daily_puzzle_attempt("discord", str(world.bob.id), game,
                                                         day)
        assert attempt is not None and attempt.server == str(world.guild.id)
        for data in answer_presses(attempt, True):
            message = await click(world, message, data, world.bob)
        assert "✅ Right!" in message.content
        again = await world.alice.slash(world.channel, "daily", game=game)
        assert again.response is not None and "1. bob: ✅ in" in again.response.content


def test_assign_takes_a_trainer_theme() -> None:
    """``/assign task:solve game:<game> count:10 theme:<theme>`` reads as the words a
    Telegram teacher types: ``solve 10 <game> <theme>``."""
    assert assign_words("solve", GAMES[0], 10, None, None, False, None, None,
                        "win-in-2") == ["solve", "10", GAMES[0], "win-in-2"]
