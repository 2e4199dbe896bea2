"""The trainer's pages, for every puzzle game (issue 41): a card game's puzzle never shows
the opponent's hand (nor the proof, which holds the whole deal), on any page; every code
block fits a phone's 32 columns in every language and style; and the pages read in every
language's own words."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from bot.app import App
from bot.puzzles.pages import PuzzlePage
from bot.replies import Place, User
from bot.store import Store
from engines.base import GameState
from engines.puzzles import Puzzle, puzzle_games
from engines.registry import get_game
from renderers import renderer_for
from renderers.common import PHONE_COLUMNS, display_width, split_blocks
from tests.helpers.puzzle_trainer import answer_presses, started_attempt, trainer_app

ANN = User("discord", "1", "Ann")
CARD_GAMES = [game for game in puzzle_games() if get_game(game).INFO.hidden_information]


def lines_at(game: str, state: GameState, seat: int) -> tuple[set[str], set[str]]:
    """What the solver may read at ``state`` (the public board and their own view), and
    what only the opponent may: each line of their private view, and their cards."""
    renderer = renderer_for(game)
    names = ["You", "Opponent"] if seat == 0 else ["Opponent", "You"]
    # Card games' renderers draw a hand too; the protocol names only ``render``.
    render_private = cast(Any, renderer).render_private
    seen: set[str] = set()
    hidden: set[str] = set()
    for emoji in (True, False):
        seen |= {line.strip() for line in renderer.render(state.view(None), names, "en",
                                                          emoji).splitlines()}
        seen |= {line.strip() for line in render_private(state.view(seat), names, "en",
                                                         emoji).splitlines()}
        hidden |= {line.strip() for line in render_private(state.view(1 - seat), names, "en",
                                                           emoji).splitlines()
                   if len(line.strip()) >= 10}
    hand_text = getattr(renderer, "hand_text", None)
    hand = state.view(1 - seat).get("hand")
    if hand_text is not None and hand:
        cards = hand_text(hand)
        if ", " in cards:
            hidden.add(cards)
    return seen, hidden


async def every_page(app: App, place: Place, attempt_id: int) -> list[PuzzlePage]:
    """The pages of one puzzle: its menu's first steps, a wrong first answer, a retry
    answered right, show me, and the themes."""
    attempt = await app.store.puzzle_attempt(attempt_id)
    assert attempt is not None
    pages = [await app.trainer.press(place, ANN, f"{attempt_id}:v")]
    for data in answer_presses(attempt, right=False)[:-1]:
        pages.append(await app.trainer.press(place, ANN, data))
    for data in answer_presses(attempt, right=False)[-1:]:
        pages.append(await app.trainer.press(place, ANN, data))
    pages.append(await app.trainer.press(place, ANN, f"{attempt_id}:r"))
    for data in answer_presses(attempt, True, "r"):
        pages.append(await app.trainer.press(place, ANN, data))
    pages.append(await app.trainer.press(place, ANN, f"{attempt_id}:s"))
    pages.append(await app.trainer.press(place, ANN, f"{attempt_id}:t"))
    assert all(page.ok for page in pages), [page.text for page in pages if not page.ok]
    return pages


@pytest.mark.parametrize("game", CARD_GAMES)
async def test_a_card_puzzle_never_shows_the_opponents_hand(store: Store, tmp_path: Path,
                                                            game: str) -> None:
    place = Place("discord", "c", "en", False, "g")
    async with trainer_app(store, tmp_path) as app:
        for number in range(4):
            page, attempt = await started_attempt(app, place, ANN, game)
            puzzle = Puzzle.from_dict(attempt.puzzle)
            state = puzzle.position()
            seen, hidden = lines_at(game, state, puzzle.seat)
            # After the solver's own move too (the pages draw the board after it).
            for action in (*puzzle.accepted[:1], *sorted(
                    set(state.legal_actions(puzzle.seat)) - set(puzzle.accepted))[:1]):
                after = puzzle.position()
                after.apply(puzzle.seat, action)
                more_seen, more_hidden = lines_at(game, after, puzzle.seat)
                seen, hidden = seen | more_seen, hidden | more_hidden
            # A card both hold reads the same in either hand, with a mark in the solver's
            # ("✖ (no place now)"): a line the solver's own lines contain is not hidden.
            forbidden = {line for line in hidden if not any(line in own for own in seen)}
            assert forbidden, "the opponent holds cards the solver must not see"
            for shown in [page, *await every_page(app, place, attempt.id)]:
                leaked = [line for line in forbidden if line in shown.text]
                assert not leaked, (number, leaked, shown.text)
            # Next puzzle, for the next round.
            await app.trainer.press(place, ANN, f"{attempt.id}:n")


@pytest.mark.parametrize("game", puzzle_games())
@pytest.mark.parametrize("language", ["en", "nl", "de"])
async def test_every_page_fits_a_phone_in_every_language(store: Store, tmp_path: Path,
                                                         game: str, language: str) -> None:
    async with trainer_app(store, tmp_path) as app:
        for emoji in (True, False):
            place = Place("discord", "c", language, emoji, "g")
            page = await app.trainer.start(place, ANN, game)
            assert page.attempt is not None
            pages = [page, *await every_page(app, place, page.attempt)]
            daily = await app.trainer.start_daily(place, ANN, game)
            pages.append(daily)
            for shown in pages:
                for block in split_blocks(shown.text):
                    if block.code:
                        widest = max(display_width(line) for line in block.text.splitlines())
                        assert widest <= PHONE_COLUMNS, (shown.text, widest)
            if language != "en":
                english = {"Find the best move", "Not this one", "Show me", "Next ▶",
                           "Your puzzle rating", "Which theme"}
                for shown in pages:
                    assert not [words for words in english if words in shown.text], shown.text
                    assert not [words for words in english
                                if any(words in button.label
                                       for button in (*shown.choices, *shown.navigation))]
            await app.trainer.press(place, ANN, f"{page.attempt}:n")
