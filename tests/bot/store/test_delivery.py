"""What the delivery path keeps in the store, on SQLite and PostgreSQL alike: the version
each board was confirmed at, and a daily attempt whose puzzle never reached its player."""

from __future__ import annotations

from bot.store import DailyAttempt, Store


def _human(user: str) -> dict[str, object]:
    return {"kind": "human", "platform": "test", "id": user, "name": user.title()}


async def test_shown_versions_are_noted_in_the_board_references(any_store: Store) -> None:
    """Many games in one write; a game without a board reference is left alone, and the
    rest of a reference is kept."""
    drawn = await any_store.create_game("test", "a", "lgame", {}, 1, {"n": 0},
                                        [_human("ann")], "active")
    unseen = await any_store.create_game("test", "b", "lgame", {}, 1, {"n": 0},
                                         [_human("bob")], "active")
    ref = {"channel": "a", "message": "7", "language": "nl", "emoji": True, "shown": 1}
    await any_store.set_board_ref(drawn.id, ref)
    await any_store.record_shown({drawn.id: 4, unseen.id: 2})
    again = await any_store.get_game(drawn.id)
    assert again is not None and again.board_ref == {**ref, "shown": 4}
    untouched = await any_store.get_game(unseen.id)
    assert untouched is not None and untouched.board_ref is None
    await any_store.record_shown({})


async def test_an_undelivered_daily_attempt_is_withdrawn_whatever_its_status(
        any_store: Store) -> None:
    day = "2026-11-20"
    game = await any_store.create_game("test", "dm", "turing", {}, 1, {"n": 0},
                                       [_human("ann")], "active")
    assert await any_store.start_daily_attempt(
        DailyAttempt(day, "test", "ann", "Ann", "s", None, "playing"))
    await any_store.set_daily_attempt_game(day, "test", "ann", game.id)
    await any_store.finish_daily_attempt(game.id, False, 0, 0, False)  # its game ended
    await any_store.forget_daily_attempt(day, "test", "ann")
    assert await any_store.daily_attempt(day, "test", "ann") is not None, \
        "forgetting keeps an attempt that had a game"
    await any_store.withdraw_daily_attempt(day, "test", "ann", game.id + 1)
    assert await any_store.daily_attempt(day, "test", "ann") is not None, "another game's"
    await any_store.withdraw_daily_attempt(day, "test", "ann", game.id)
    assert await any_store.daily_attempt(day, "test", "ann") is None
    assert await any_store.start_daily_attempt(
        DailyAttempt(day, "test", "ann", "Ann", "s", None, "playing")), "Play again works"
