"""Menu paths through a trainer puzzle, for tests to press, and the trainer's App."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.app import App
from bot.config import Settings
from bot.limits import Limits
from bot.puzzles.pages import PuzzlePage
from bot.replies import Place, User
from bot.store import Store
from bot.store.puzzle_rows import PuzzleAttempt
from engines.base import Action
from engines.puzzles import Puzzle


def menu_tokens(puzzle: Puzzle, action: Action) -> tuple[str, ...]:
    """The menu tokens that make ``action`` at the puzzle's position."""
    state = puzzle.position()

    def search(path: tuple[str, ...]) -> tuple[str, ...] | None:
        for choice in state.menu(puzzle.seat, path):
            if choice.action == action:
                return (*path, choice.token)
            if choice.action is None:
                found = search((*path, choice.token))
                if found is not None:
                    return found
        return None

    found = search(())
    assert found is not None, f"{action} is not on the menu"
    return found


def presses(attempt: int, step: str, tokens: tuple[str, ...]) -> list[str]:
    """The data of each button pressed in turn: ``<attempt>:a:x``, ``<attempt>:a:x.y``…"""
    return [f"{attempt}:{step}:{'.'.join(tokens[:end])}" for end in range(1, len(tokens) + 1)]


def right_action(puzzle: Puzzle) -> Action:
    return puzzle.accepted[0]


def wrong_action(puzzle: Puzzle) -> Action:
    state = puzzle.position()
    return sorted(set(state.legal_actions(puzzle.seat)) - set(puzzle.accepted))[0]


def answer_presses(attempt: PuzzleAttempt, right: bool, step: str = "a") -> list[str]:
    puzzle = Puzzle.from_dict(attempt.puzzle)
    action = right_action(puzzle) if right else wrong_action(puzzle)
    return presses(attempt.id, step, menu_tokens(puzzle, action))


def payloads(page: PuzzlePage) -> list[str]:
    return [button.payload for button in (*page.choices, *page.navigation)]


@asynccontextmanager
async def trainer_app(store: Store, tmp_path: Path) -> AsyncIterator[App]:
    app = App.build(Settings(database_path=str(tmp_path / "unused.sqlite3")), store,
                    limits=Limits.unlimited())
    try:
        yield app
    finally:
        await app.trainer.close()  # the next puzzles it was making, as the bot's close does


async def started_attempt(app: App, place: Place, user: User, game: str,
                          theme: str | None = None) -> tuple[PuzzlePage, PuzzleAttempt]:
    """A trainer puzzle of ``game`` started (or resumed) for ``user``: its first page and
    its attempt as the store holds it."""
    page = await app.trainer.start(place, user, game, theme)
    assert page.attempt is not None, page.text
    attempt = await app.store.puzzle_attempt(page.attempt)
    assert attempt is not None
    return page, attempt
