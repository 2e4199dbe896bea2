"""Hostile input straight into the service: forged and stale button payloads, typed moves
and game set-ups, in every game, from players, a player out of turn and a stranger.

Whatever arrives, the service answers with a clear notice (never the internal-error
apology), and a refusal leaves every stored game exactly as it was; only a press or a move
that the rules allow the user right now may change the game (see ``tests/helpers/hostile.py``).
The normal suite runs a fixed, derandomised handful of examples; ``--slow`` runs many more.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service import Opponent, Place, Reply, Service, User
from bot.store import SQLiteStore
from engines.registry import game_names
from tests.helpers import hostile
from tests.helpers.people import ALICE, BOB, CAROL

PEOPLE = (ALICE, BOB, CAROL)  # Carol never plays: she is the stranger
MODERATOR = User("test", "mod", "Mod", is_moderator=True)


@dataclass
class Harness:
    """One service on one database, driven from synchronous hypothesis tests through one
    event loop. Each example plays in a new channel on a game set up from its own draws
    (the game, its opponent, a few legal moves), so that hypothesis can replay it; a decoy
    game of every kind keeps running beside them, and none may ever change."""

    runner: asyncio.Runner
    store: SQLiteStore
    service: Service
    channels: Iterator[int]

    def run(self, work: Any) -> Any:
        return self.runner.run(work)

    async def fresh_game(self, data: st.DataObject, language: str = "en"
                         ) -> tuple[Place, int]:
        """A new game in a new channel, set up from the draws (see
        ``hostile.start_fuzzed_game``); returns the place, in ``language``, and the id."""
        game = data.draw(st.sampled_from(game_names()), label="game")
        open_seat = data.draw(st.booleans(), label="open seat")
        moves = data.draw(st.lists(st.integers(0, 10**6), max_size=6), label="moves")
        place = Place("test", f"fuzz-{next(self.channels)}", language=language,
                      emoji=language != "de")
        game_id = await hostile.start_fuzzed_game(self.service, place, (ALICE, BOB), game,
                                                  open_seat, moves)
        return place, game_id

    async def end(self, place: Place) -> None:
        """Abandon the example's game, so that running games stay few."""
        await self.service.abandon(place, MODERATOR)


@contextmanager
def harness(tmp_path: Path) -> Iterator[Harness]:
    with asyncio.Runner() as runner:
        store = runner.run(SQLiteStore.open(tmp_path / "fuzz.sqlite3"))
        ready = Harness(runner, store, Service(store, seed_source=lambda: hostile.SEED),
                        itertools.count(1))
        try:
            for game in game_names():
                decoy = Place("test", f"decoy-{game}")
                reply = runner.run(ready.service.start_game(
                    decoy, ALICE, game, Opponent("user", user=BOB), hostile.GAME_OPTIONS[game]))
                assert reply.ok, reply.notice
            yield ready
        finally:
            runner.run(store.close())


def check_reply(reply: Reply, what: object, language: str) -> None:
    """Any answer is readable; a refusal says why in the user's language, and no answer
    is the crash apology.

    A press that acted on a game elsewhere (``Reply.place``: a hand's button pressed in a
    private chat, which these server-less test channels count as) is answered in that
    game's language, the one its hand was drawn in (``place_of_record``), so that the
    notice reads in the language of the message it pops up over."""
    if reply.place is not None:
        language = reply.place.language
    if not reply.ok:
        hostile.assert_clear(reply.notice, what, language)
    else:
        assert reply.board is not None or reply.hand is not None or reply.notice, what
        if reply.notice:
            hostile.assert_clear(reply.notice, what, language)


# ------------------------------------------------------------------ presses
async def fuzz_press(h: Harness, data: st.DataObject) -> None:
    language = data.draw(st.sampled_from(hostile.LANGUAGES), label="language")
    place, game_id = await h.fresh_game(data, language)
    user = data.draw(st.sampled_from(PEOPLE), label="user")
    real = await hostile.visible_payloads(h.service, place, (ALICE, BOB))
    payload = data.draw(hostile.hostile_payload(real), label="payload")
    record = await h.store.running_game(place.platform, place.channel)
    allowed = hostile.press_may_change(record, user, payload)
    near = hostile.ids_near(game_id, payload)
    before = await hostile.snapshot(h.store, near)
    reply = await h.service.press(place, user, payload)
    check_reply(reply, payload, language)
    changed = hostile.changed_games(before, await hostile.snapshot(h.store, near))
    if not allowed:
        assert not changed, f"{user.name}'s press of {payload!r} changed games {changed}"
        assert not reply.moved, payload
    else:
        assert changed <= {game_id}, payload
    await h.end(place)


def run_press_fuzz(tmp_path: Path, examples: int) -> None:
    with harness(tmp_path) as h:
        @hostile.fuzz_settings(examples)
        @given(st.data())
        def press(data: st.DataObject) -> None:
            h.run(fuzz_press(h, data))
        press()


def test_hostile_presses_change_nothing_and_get_clear_answers(tmp_path: Path) -> None:
    run_press_fuzz(tmp_path, hostile.FAST_EXAMPLES * 3)


@pytest.mark.slow
def test_many_hostile_presses(tmp_path: Path) -> None:
    run_press_fuzz(tmp_path, hostile.SLOW_EXAMPLES * 2)


# ------------------------------------------------------------------ typed moves
async def fuzz_move(h: Harness, data: st.DataObject) -> None:
    language = data.draw(st.sampled_from(hostile.LANGUAGES), label="language")
    place, game_id = await h.fresh_game(data, language)
    user = data.draw(st.sampled_from(PEOPLE), label="user")
    text = data.draw(st.one_of(hostile.near_miss(await hostile.move_texts(h.service, place)),
                               hostile.hostile_text()), label="text")
    record = await h.store.running_game(place.platform, place.channel)
    allowed = hostile.move_may_change(record, user, text)
    near = hostile.ids_near(game_id)
    before = await hostile.snapshot(h.store, near)
    reply = await h.service.move(place, user, text)
    check_reply(reply, text, language)
    changed = hostile.changed_games(before, await hostile.snapshot(h.store, near))
    if not allowed:
        assert not changed, f"{user.name} typing {text!r} changed games {changed}"
    else:
        assert changed <= {game_id}, text
    await h.end(place)


def run_move_fuzz(tmp_path: Path, examples: int) -> None:
    with harness(tmp_path) as h:
        @hostile.fuzz_settings(examples)
        @given(st.data())
        def move(data: st.DataObject) -> None:
            h.run(fuzz_move(h, data))
        move()


def test_hostile_typed_moves_change_nothing_and_get_clear_answers(tmp_path: Path) -> None:
    run_move_fuzz(tmp_path, hostile.FAST_EXAMPLES * 2)


@pytest.mark.slow
def test_many_hostile_typed_moves(tmp_path: Path) -> None:
    run_move_fuzz(tmp_path, hostile.SLOW_EXAMPLES * 2)


# ------------------------------------------------------------------ game set-up
async def fuzz_start(h: Harness, data: st.DataObject) -> None:
    language = data.draw(st.sampled_from(hostile.LANGUAGES), label="language")
    place = Place("test", "fuzz-start", language=language)
    game = data.draw(st.one_of(st.sampled_from([*game_names(), "tm", "l-game", "rithmo"]),
                               hostile.near_miss(game_names()), hostile.hostile_text(30)),
                     label="game")
    options = data.draw(st.one_of(hostile.near_miss(hostile.option_texts()),
                                  hostile.hostile_text()), label="options")
    level = data.draw(st.one_of(st.sampled_from(["", "easy", "strong", "perfect"]),
                                hostile.hostile_text(20)), label="level")
    kind = data.draw(st.sampled_from(["ai", "open", "user"]), label="opponent")
    rival = Opponent(kind, level, BOB if kind == "user" else None)
    user = data.draw(st.sampled_from([ALICE, User("test", "eve", data.draw(
        hostile.hostile_text(40), label="name"))]), label="user")
    problem = h.service.check_start(place, user, game, rival, options)
    if problem is not None:
        hostile.assert_clear(problem, (game, options, level), language)
    elif hostile.slow_set_up(game, options):
        return
    before = await hostile.snapshot(h.store)
    reply = await h.service.start_game(place, user, game, rival, options,
                                       data.draw(st.sampled_from([0, 1, None, 7, -1])))
    check_reply(reply, (game, options, level), language)
    changed = hostile.changed_games(before, await hostile.snapshot(h.store))
    if problem is not None:
        assert not reply.ok and not changed, (game, options, level)
        assert reply.notice == problem
    if reply.ok:
        # Free the channel for the next example.
        await h.end(place)


def run_start_fuzz(tmp_path: Path, examples: int) -> None:
    with harness(tmp_path) as h:
        @hostile.fuzz_settings(examples)
        @given(st.data())
        def start(data: st.DataObject) -> None:
            h.run(fuzz_start(h, data))
        start()


def test_hostile_game_set_ups_are_refused_clearly(tmp_path: Path) -> None:
    run_start_fuzz(tmp_path, hostile.FAST_EXAMPLES * 2)


@pytest.mark.slow
def test_many_hostile_game_set_ups(tmp_path: Path) -> None:
    run_start_fuzz(tmp_path, hostile.SLOW_EXAMPLES)


# ------------------------------------------------------------------ found by the fuzzing
async def test_a_suggested_push_can_be_typed(tmp_path: Path) -> None:
    """Discord's /move autocompletion and Telegram's /move hint offer each legal move as
    ``action_text``; choosing a Rithmomachia push ("1b2 → 1a1, pushing the piece there to
    1b2") was refused as not understood."""
    store = await SQLiteStore.open(tmp_path / "push.sqlite3")
    try:
        service = Service(store, seed_source=lambda: hostile.SEED)
        place = Place("test", "push")
        await service.start_game(place, ALICE, "rithmomachia", Opponent("user", user=BOB),
                                 hostile.GAME_OPTIONS["rithmomachia"])
        suggestions = await service.move_suggestions(place, ALICE, "", 200)
        push = next(text for text in suggestions if "pushing" in text)
        reply = await service.move(place, ALICE, push)
        assert reply.ok and reply.moved, reply.notice
    finally:
        await store.close()
