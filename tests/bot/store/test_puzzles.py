"""The puzzle trainer's tables (``bot/store/puzzle_rows.py``) on both databases: one open
puzzle per person and game, one puzzle of the day per game and day, a first answer
written once with both ratings, ratings that moved meanwhile refused, and /forget-me."""

from __future__ import annotations

import asyncio

from bot.store import Store
from bot.store.puzzle_rows import (
    NewPuzzleAttempt,
    PuzzleAnswer,
    PuzzleAttempt,
    PuzzlePlayer,
    PuzzleRating,
)
from bot.store.records import now

PUZZLE = {"game": "lgame", "seed": 7, "state": {"secret": "the whole deal"},
          "proof": {"why": "…"}}


def attempt(user: str = "u1", game: str = "lgame", code: str = "LG-10-7X",
            daily: str = "", server: str = "") -> NewPuzzleAttempt:
    return NewPuzzleAttempt("discord", user, f"Name {user}", server, game, code,
                            ("win-in-2", "trap"), "", daily, PUZZLE)


def answer(opened: PuzzleAttempt, solved: bool, *, player_before: int | None = None,
           puzzle_before: int | None = None, rating: float = 1550.0) -> PuzzleAnswer:
    tried = (player_before or 0) + 1
    return PuzzleAnswer(
        opened.id, "solved" if solved else "failed", "a1", {"correct": solved},
        now(), 1500.0,
        PuzzlePlayer(opened.platform, opened.user_id, opened.game, rating, 300.0, 0.06,
                     tried, int(solved), int(solved), int(solved)), player_before,
        PuzzleRating(opened.code, opened.game, 1400.0, 190.0, 0.06, (puzzle_before or 0) + 1,
                     int(solved)), puzzle_before)


async def test_an_attempt_round_trips_and_one_is_open_per_game(any_store: Store) -> None:
    opened = await any_store.open_puzzle_attempt(attempt())
    assert opened is not None and opened.open
    assert opened.themes == ("win-in-2", "trap") and opened.puzzle == PUZZLE
    assert opened.answer is None and opened.verdict is None
    assert await any_store.open_puzzle_attempt(attempt(code="LG-10-8Y")) is None
    assert await any_store.open_puzzle_attempt(attempt(game="rithmomachia")) is not None
    assert await any_store.open_puzzle_attempt(attempt(user="u2")) is not None
    found = await any_store.open_puzzle("discord", "u1", "lgame")
    assert found is not None and found.id == opened.id
    assert await any_store.open_puzzle("telegram", "u1", "lgame") is None


async def test_a_first_answer_writes_once_with_both_ratings(any_store: Store) -> None:
    opened = await any_store.open_puzzle_attempt(attempt())
    assert opened is not None
    assert await any_store.record_puzzle_answer(answer(opened, True)) == "recorded"
    assert await any_store.record_puzzle_answer(answer(opened, False)) == "answered"
    stored = await any_store.puzzle_attempt(opened.id)
    assert stored is not None and stored.status == "solved" and stored.answer == "a1"
    assert stored.verdict == {"correct": True}
    assert stored.rating_before == 1500.0 and stored.rating_after == 1550.0
    player = await any_store.puzzle_player("discord", "u1", "lgame")
    assert player is not None and (player.tried, player.solved, player.streak) == (1, 1, 1)
    ratings = await any_store.puzzle_ratings(["LG-10-7X", "LG-99-0"])
    assert list(ratings) == ["LG-10-7X"] and ratings["LG-10-7X"].tried == 1
    # Answered, the game has no open puzzle: the next one may be opened.
    assert await any_store.open_puzzle("discord", "u1", "lgame") is None
    assert await any_store.open_puzzle_attempt(attempt(code="LG-10-8Y")) is not None
    assert await any_store.recent_puzzle_codes("discord", "u1", "lgame", 5) == [
        "LG-10-8Y", "LG-10-7X"]


async def test_a_rating_that_moved_meanwhile_writes_nothing(any_store: Store) -> None:
    first = await any_store.open_puzzle_attempt(attempt())
    second = await any_store.open_puzzle_attempt(attempt(user="u2"))
    assert first is not None and second is not None
    assert await any_store.record_puzzle_answer(answer(first, True)) == "recorded"
    # u2's answer was computed before u1's changed the puzzle's rating: refused whole.
    assert await any_store.record_puzzle_answer(answer(second, False)) == "conflict"
    untouched = await any_store.puzzle_attempt(second.id)
    assert untouched is not None and untouched.open
    assert await any_store.puzzle_player("discord", "u2", "lgame") is None
    # Read again: it builds on the puzzle's rating as it is now.
    assert await any_store.record_puzzle_answer(
        answer(second, False, puzzle_before=1)) == "recorded"
    assert (await any_store.puzzle_ratings(["LG-10-7X"]))["LG-10-7X"].tried == 2
    # And the player's own row is guarded alike.
    third = await any_store.open_puzzle_attempt(attempt(code="LG-10-9Z"))
    assert third is not None
    assert await any_store.record_puzzle_answer(answer(third, True)) == "conflict"
    assert await any_store.record_puzzle_answer(
        answer(third, True, player_before=1)) == "recorded"
    player = await any_store.puzzle_player("discord", "u1", "lgame")
    assert player is not None and player.tried == 2


async def test_answers_at_once_count_once(any_store: Store) -> None:
    opened = await any_store.open_puzzle_attempt(attempt())
    assert opened is not None
    outcomes = await asyncio.gather(*(any_store.record_puzzle_answer(answer(opened, True))
                                      for _ in range(5)))
    assert sorted(outcomes) == ["answered"] * 4 + ["recorded"]


async def test_the_puzzle_of_the_day_once_per_game_and_its_leaderboard(any_store: Store
                                                                        ) -> None:
    day = "2026-03-02"
    mine = await any_store.open_puzzle_attempt(attempt(daily=day, server="class"))
    assert mine is not None
    assert await any_store.open_puzzle_attempt(attempt(daily=day)) is None
    assert await any_store.open_puzzle_attempt(attempt(daily="2026-03-03")) is not None
    # A trainer puzzle of the same game stays possible beside it.
    assert await any_store.open_puzzle_attempt(attempt()) is not None
    assert await any_store.open_puzzle_attempt(attempt(user="u2", daily=day)) is not None
    found = await any_store.daily_puzzle_attempt("discord", "u1", "lgame", day)
    assert found is not None and found.id == mine.id
    assert len(await any_store.daily_puzzle_attempts(day, "lgame")) == 2
    assert [a.user_id for a in await any_store.daily_puzzle_attempts(day, "lgame", "class")
            ] == ["u1"]
    assert await any_store.daily_puzzle_attempts(day, "digitalo") == []


async def test_solved_puzzles_in_a_window_and_forget_me(any_store: Store) -> None:
    since = now()
    opened = await any_store.open_puzzle_attempt(attempt())
    failed = await any_store.open_puzzle_attempt(attempt(game="rithmomachia", code="RM-10-3"))
    assert opened is not None and failed is not None
    assert await any_store.record_puzzle_answer(answer(opened, True)) == "recorded"
    assert await any_store.record_puzzle_answer(answer(failed, False)) == "recorded"
    solved = await any_store.solved_puzzles_between("discord", since, "9999")
    assert [(s.user_id, s.game, s.themes, s.server) for s in solved] == [
        ("u1", "lgame", ("win-in-2", "trap"), "")]
    assert await any_store.solved_puzzles_between("telegram", since, "9999") == []
    assert len(await any_store.puzzle_players("discord", "u1")) == 2
    assert await any_store.forget_puzzle_player("discord", "u1") == 2
    assert await any_store.puzzle_players("discord", "u1") == []
    assert await any_store.puzzle_attempt(opened.id) is None
    # The puzzle's own rating holds nothing about anyone and stays.
    assert "LG-10-7X" in await any_store.puzzle_ratings(["LG-10-7X"])
