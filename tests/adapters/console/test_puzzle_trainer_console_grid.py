"""The console's board puzzles keep typed and numbered answers (issue 41): the chat
platforms' "Tap the board" is for tapping, so the console never lists it, as in a game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.store import SQLiteStore
from engines.puzzles import Puzzle
from engines.registry import get_game
from tests.helpers.console_script import Script, number_of, run_session
from tests.helpers.puzzle_trainer import right_action

PLAYER = ("console", "player-1")


@pytest.mark.parametrize("game", ["lgame", "rithmomachia"])
async def test_a_board_puzzle_is_answered_by_a_typed_move(store: SQLiteStore,
                                                          game: str) -> None:
    title = get_game(game).TITLE

    def open_one(out: list[str]) -> Iterator[str]:
        yield number_of(out, title)
        yield number_of(out, "Solve puzzles")
        yield "quit"

    first = Script(open_one)
    await run_session(store, first)
    assert "Find the best move" in first.text
    assert "Tap the board" not in first.text
    attempt = await store.open_puzzle(*PLAYER, game)
    assert attempt is not None
    puzzle = Puzzle.from_dict(attempt.puzzle)
    typed = right_action(puzzle)  # in the game's notation, as a move is typed in a game

    def answer(out: list[str]) -> Iterator[str]:
        yield number_of(out, title)
        yield number_of(out, "Solve puzzles")
        yield str(typed)
        yield number_of(out, "Leave the puzzles")
        yield "quit"

    second = Script(answer)
    await run_session(store, second)
    assert "✅ Right!" in second.text, second.text[-3000:]
    assert "Tap the board" not in second.text
