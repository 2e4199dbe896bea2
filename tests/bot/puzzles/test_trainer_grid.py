"""The trainer answered by taps on the board (issue 41): an L-game or Rithmomachia puzzle
offers the game's own "Tap the board", whose grid makes the answer as a move is made in a
game; one answer per puzzle still, judged by the puzzle's accepted answers; a tap the grid
refuses says why and spends nothing; a retry may tap too."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import App
from bot.puzzles.pages import PuzzlePage
from bot.replies import Place, User
from bot.store import Store
from engines.base import grid_width
from engines.puzzles import Puzzle
from tests.helpers.puzzle_grid import grid_presses, refused_tap
from tests.helpers.puzzle_trainer import payloads, started_attempt, trainer_app

PLACE = Place("discord", "c1", "en", False, "guild")
ANN = User("discord", "1", "Ann")
GRID_GAMES = ("lgame", "rithmomachia")


async def press_all(app: App, data: list[str], page: PuzzlePage) -> PuzzlePage:
    for button in data:
        assert button in payloads(page), (button, payloads(page))
        page = await app.trainer.press(PLACE, ANN, button)
        assert page.ok, page.text
    return page


@pytest.mark.parametrize("game", GRID_GAMES)
async def test_a_board_puzzle_is_answered_by_taps_on_its_grid(store: Store, tmp_path: Path,
                                                              game: str) -> None:
    async with trainer_app(store, tmp_path) as app:
        for right in (True, False):
            page = await app.trainer.start(PLACE, ANN, game)
            assert page.answering and page.attempt is not None
            attempt = await store.puzzle_attempt(page.attempt)
            assert attempt is not None
            [tap_the_board] = [b for b in page.navigation if b.label == "▦ Tap the board"]
            assert tap_the_board.payload == f"{attempt.id}:a:G"
            grid = await app.trainer.press(PLACE, ANN, tap_the_board.payload)
            assert grid.answering and grid.choices
            assert all(grid_width(choice.group) for choice in grid.choices
                       if choice.label not in ("Neutrals stay",)), "the board's cells"
            assert "Choose:" not in grid.text, "the game's own prompt: what to tap"
            assert [b.payload for b in grid.navigation] == [f"{attempt.id}:a"], \
                "back to the list menu"
            page = await press_all(app, grid_presses(attempt, right), page)
            assert ("✅ Right!" if right else "❌ Not this one.") in page.text, page.text
            answered = await store.puzzle_attempt(attempt.id)
            assert answered is not None and not answered.open
            puzzle = Puzzle.from_dict(attempt.puzzle)
            assert (answered.answer in puzzle.accepted) == right
            # One answer per puzzle: the grid's last tap again changes nothing.
            again = await app.trainer.press(PLACE, ANN, grid_presses(attempt, not right)[-1])
            assert "answered this puzzle already" in again.text
            if not right:  # a retry may tap as well, and counts for nothing
                player = await store.puzzle_player("discord", ANN.id, game)
                retried = await press_all(app, [f"{attempt.id}:r"], page)
                retried = await press_all(app, grid_presses(attempt, True, "r"), retried)
                assert "✅ Right (practice: not rated)." in retried.text
                assert await store.puzzle_player("discord", ANN.id, game) == player
            await app.trainer.press(PLACE, ANN, f"{attempt.id}:n")


async def test_a_tap_the_grid_refuses_says_why_and_spends_nothing(store: Store,
                                                                  tmp_path: Path) -> None:
    async with trainer_app(store, tmp_path) as app:
        for _ in range(10):
            page, attempt = await started_attempt(app, PLACE, ANN, "lgame")
            tap = refused_tap(Puzzle.from_dict(attempt.puzzle))
            if tap is not None:
                break
            await press_all(app, grid_presses(attempt, True), page)
            await app.trainer.press(PLACE, ANN, f"{attempt.id}:n")
        else:
            pytest.skip("no puzzle with a square no L could use")
        grid = await app.trainer.press(PLACE, ANN, f"{attempt.id}:a:G")
        refused = await app.trainer.press(PLACE, ANN, f"{attempt.id}:a:G.{tap}")
        assert refused.ok and refused.answering and refused.text.count("❌") == 1
        assert payloads(refused) == payloads(grid), "the grid as it was, to tap again"
        still = await store.puzzle_attempt(attempt.id)
        assert still is not None and still.open


async def test_a_card_puzzle_has_no_grid(store: Store, tmp_path: Path) -> None:
    async with trainer_app(store, tmp_path) as app:
        page = await app.trainer.start(PLACE, ANN, "booleo")
        assert page.attempt is not None
        assert not any(b.payload.endswith(":G") for b in page.navigation)
        forged = await app.trainer.press(PLACE, ANN, f"{page.attempt}:a:G")
        assert "out of date" in forged.text
