"""The puzzle trainer (``bot/puzzles/trainer.py``) on the service: a run of puzzles answered by
their buttons, the rating moving after each first try and never after a retry or "show
me", streaks, one open puzzle per game that a new /puzzle resumes, refusals of other
people's and forged buttons, themes, the puzzle of the day and its leaderboard, /stats."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app import App
from bot.puzzles.pages import PuzzlePage
from bot.puzzles.trainer import daily_seed, puzzle_game, themes_of
from bot.replies import Place, User
from bot.store import Store
from engines.puzzles import Puzzle, puzzle_games
from tests.helpers.puzzle_trainer import answer_presses, payloads, started_attempt, trainer_app

PLACE = Place("discord", "c1", "en", False, "guild")
ANN = User("discord", "1", "Ann")
BEN = User("discord", "2", "Ben")
GAMES = puzzle_games()


async def press_all(app: App, user: User, data: list[str], page: PuzzlePage) -> PuzzlePage:
    for button in data:
        assert button in payloads(page), (button, payloads(page))
        page = await app.trainer.press(PLACE, user, button)
        assert page.ok, page.text
    return page


async def rating(app: App, user: User, game: str) -> float | None:
    player = await app.store.puzzle_player(user.platform, user.id, game)
    return None if player is None else player.rating


@pytest.mark.parametrize("game", GAMES)
async def test_ten_puzzles_in_a_row_by_their_buttons(store: Store, tmp_path: Path,
                                                     game: str) -> None:
    async with trainer_app(store, tmp_path) as app:
        page = await app.trainer.start(PLACE, ANN, game)
        ratings: list[float | None] = [None]
        codes = set()
        for number in range(10):
            assert page.ok and page.answering and page.attempt is not None, page.text
            attempt = await store.puzzle_attempt(page.attempt)
            assert attempt is not None and attempt.open
            codes.add(attempt.code)
            right = number % 3 != 2
            page = await press_all(app, ANN, answer_presses(attempt, right), page)
            assert ("✅ Right!" if right else "❌ Not this one.") in page.text, page.text
            ratings.append(await rating(app, ANN, game))
            assert ratings[-1] != ratings[-2], "the rating moves after every first try"
            assert (ratings[-1] or 0) > (ratings[-2] or 1500) if right else \
                (ratings[-1] or 0) < (ratings[-2] or 1500)
            next_button = f"{attempt.id}:n"
            page = await press_all(app, ANN, [next_button], page)
        assert len(codes) == 10, "no puzzle twice in a row of ten"
        player = await store.puzzle_player("discord", "1", game)
        assert player is not None
        assert (player.tried, player.solved, player.streak, player.best_streak) == (10, 7, 1, 2)


@pytest.mark.parametrize("game", GAMES)
async def test_retry_and_show_me_change_no_rating(store: Store, tmp_path: Path,
                                                  game: str) -> None:
    async with trainer_app(store, tmp_path) as app:
        page, attempt = await started_attempt(app, PLACE, ANN, game)
        # Before an answer, the steps after it are refused: no peeking without a rating.
        early = await app.trainer.press(PLACE, ANN, f"{attempt.id}:s")
        assert "Answer the puzzle first" in early.text and early.answering
        page = await press_all(app, ANN, answer_presses(attempt, right=False), page)
        assert "❌ Not this one." in page.text and "Your puzzle rating:" in page.text
        after_answer = await rating(app, ANN, game)
        page = await press_all(app, ANN, [f"{attempt.id}:r"], page)
        assert "Practice" in page.text and page.answering
        page = await press_all(app, ANN, answer_presses(attempt, True, "r"), page)
        assert "✅ Right (practice: not rated)." in page.text
        page = await press_all(app, ANN, [f"{attempt.id}:s"], page)
        assert "👁 The answer:" in page.text
        assert await rating(app, ANN, game) == after_answer
        # The first try's buttons, pressed again, show how it went and change nothing.
        again = await app.trainer.press(PLACE, ANN, answer_presses(attempt, True)[-1])
        assert "You answered this puzzle already" in again.text and "❌" in again.text
        assert await rating(app, ANN, game) == after_answer


async def test_an_open_puzzle_is_resumed_and_belongs_to_its_solver(store: Store,
                                                                   tmp_path: Path) -> None:
    game = GAMES[0]
    async with trainer_app(store, tmp_path) as app:
        first = await app.trainer.start(PLACE, ANN, game)
        again = await app.trainer.start(PLACE, ANN, game)
        assert again.attempt == first.attempt and "still open" in again.text
        refused = await app.trainer.press(PLACE, BEN, f"{first.attempt}:v")
        assert not refused.ok and "someone else's" in refused.text
        for forged in ("nonsense", f"{first.attempt}:q", f"{first.attempt}:a:../..",
                       "99999:v"):
            page = await app.trainer.press(PLACE, ANN, forged)
            assert not page.ok, forged
        stale = await app.trainer.press(PLACE, ANN, f"{first.attempt}:a:ZZZ")
        assert stale.ok and "out of date" in stale.text and stale.answering
        assert await store.puzzle_player("discord", "1", game) is None


async def test_a_theme_is_asked_for_and_kept(store: Store, tmp_path: Path) -> None:
    game = GAMES[0]
    async with trainer_app(store, tmp_path) as app:
        themes = themes_of(game)
        theme = themes[1]
        page = await app.trainer.start(PLACE, ANN, game, theme)
        assert page.attempt is not None
        attempt = await store.puzzle_attempt(page.attempt)
        assert attempt is not None and Puzzle.from_dict(attempt.puzzle).theme == theme
        page = await press_all(app, ANN, answer_presses(attempt, True), page)
        page = await press_all(app, ANN, [f"{attempt.id}:t"], page)
        assert "Which theme" in page.text
        page = await press_all(app, ANN, [f"{attempt.id}:t:0"], page)
        assert page.attempt is not None
        chosen = await store.puzzle_attempt(page.attempt)
        assert chosen is not None and chosen.theme == themes[0]
        assert Puzzle.from_dict(chosen.puzzle).theme == themes[0]
        unknown = await app.trainer.start(PLACE, BEN, game, "nonsense")
        assert not unknown.ok and "no theme 'nonsense'" in unknown.text


async def test_the_puzzle_of_the_day_is_one_try_and_has_a_leaderboard(
        store: Store, tmp_path: Path) -> None:
    game = GAMES[0]
    async with trainer_app(store, tmp_path) as app:
        day = app.trainer.today()
        ann = await app.trainer.start_daily(PLACE, ANN, game)
        ben = await app.trainer.start_daily(PLACE, BEN, game)
        assert ann.attempt is not None and ben.attempt is not None
        ann_attempt = await store.puzzle_attempt(ann.attempt)
        ben_attempt = await store.puzzle_attempt(ben.attempt)
        assert ann_attempt is not None and ben_attempt is not None
        assert ann_attempt.code == ben_attempt.code, "one puzzle of the day for everyone"
        assert ann_attempt.daily == day.isoformat()
        assert "puzzle of the day" in ann.text
        answered = await press_all(app, ANN, answer_presses(ann_attempt, True), ann)
        assert "1. Ann: ✅ in" in answered.text, "the day's leaderboard under the verdict"
        await press_all(app, BEN, answer_presses(ben_attempt, False), ben)
        # Both first tries moved the puzzle's own rating: down, then up again.
        puzzle_rating = (await store.puzzle_ratings([ann_attempt.code]))[ann_attempt.code]
        assert (puzzle_rating.tried, puzzle_rating.solved) == (2, 1)
        board = await app.trainer.leaderboard_text("en", game, day, "guild")
        lines = board.splitlines()
        assert "puzzle of" in lines[0]
        assert lines[1].startswith("1. Ann: ✅ in") and lines[2] == "2. Ben: ❌"
        # Asked again: the same attempt, answered; no second try.
        again = await app.trainer.start_daily(PLACE, ANN, game)
        assert again.attempt == ann.attempt and "✅ Right!" in again.text
        # A trainer puzzle of the same game is still to be had beside it.
        assert (await app.trainer.start(PLACE, ANN, game)).attempt != ann.attempt
        assert daily_seed(game, day.isoformat()) == daily_seed(game, day.isoformat())


async def test_stats_show_the_puzzle_rating_apart_from_game_results(
        store: Store, tmp_path: Path) -> None:
    game = GAMES[0]
    async with trainer_app(store, tmp_path) as app:
        page, attempt = await started_attempt(app, PLACE, ANN, game)
        await press_all(app, ANN, answer_presses(attempt, True), page)
        text = await app.community.stats_text(PLACE, ANN.id, ANN.name)
        assert "puzzles: rating" in text and "1 of 1 solved" in text
        assert await store.player_stats("discord", "1") == [], "no game result"
        await app.community.forget_me(PLACE, ANN)
        assert await store.puzzle_players("discord", "1") == []


def test_games_are_named_as_players_type_them() -> None:
    assert puzzle_game("L-game") == "lgame" or "lgame" not in GAMES
    assert puzzle_game("chess") is None and puzzle_game("") is None
    assert puzzle_game("turing") is None, "the Turing Machine's /puzzle keeps its meaning"


async def test_a_move_the_rules_refuse_is_explained_and_spends_no_try(
        store: Store, tmp_path: Path) -> None:
    """bOOleO's menus offer a gate on every slot it fits, wrong ones too (a learner is told
    why): in a puzzle such a tap is refused with the rule, as in a game, not judged."""
    if "booleo" not in GAMES:
        pytest.skip("no bOOleO puzzles")
    async with trainer_app(store, tmp_path) as app:
        for _ in range(10):
            page, attempt = await started_attempt(app, PLACE, ANN, "booleo")
            puzzle = Puzzle.from_dict(attempt.puzzle)
            state = puzzle.position()
            legal = set(state.legal_actions(puzzle.seat))
            refused = next((tokens for tokens, action in menu_moves(state, puzzle.seat)
                            if action not in legal), None)
            if refused is not None:
                break
            page = await press_all(app, ANN, answer_presses(attempt, True), page)
            page = await press_all(app, ANN, [f"{attempt.id}:n"], page)
        else:
            pytest.skip("no puzzle offered a move the rules refuse")
        for end in range(1, len(refused) + 1):
            page = await app.trainer.press(PLACE, ANN, f"{attempt.id}:a:{'.'.join(refused[:end])}")
        assert page.ok and page.answering and "❌" in page.text, page.text
        still = await store.puzzle_attempt(attempt.id)
        assert still is not None and still.open, "the try is not spent"


def menu_moves(state, seat: int, path: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    """Every complete move of the menu, with its tokens."""
    for choice in state.menu(seat, path):
        if choice.action is not None:
            yield (*path, choice.token), choice.action
        else:
            yield from menu_moves(state, seat, (*path, choice.token))


async def test_a_class_opening_the_puzzle_of_the_day_at_once_makes_it_once(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.puzzles.trainer
    from bot.puzzles.jobs import puzzle_candidates as real
    made: list[str] = []

    def counted(game: str, *args: object) -> object:
        made.append(game)
        return real(game, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.puzzles.trainer, "puzzle_candidates", counted)
    game = GAMES[0]
    async with trainer_app(store, tmp_path) as app:
        students = [User("discord", str(number), f"S{number}") for number in range(12)]
        pages = await asyncio.gather(*(app.trainer.start_daily(PLACE, student, game)
                                       for student in students))
        assert all(page.ok for page in pages)
        assert made == [game], "made once, whoever asked first"
