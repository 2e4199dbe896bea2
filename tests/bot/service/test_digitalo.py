"""Digitalo through the service: a whole match against the computer and a two-player round
played only with buttons, with hands that never reach the public board."""

from __future__ import annotations

import random

from bot.service import Opponent, Place, Reply, Service
from engines import digitalo
from renderers import digitalo as render
from tests.helpers.hands import shows_hand
from tests.helpers.menus import move_buttons
from tests.helpers.people import ALICE, BOB, CAROL, PLACE

DIRECT = Place("test", "dm-alice", emoji=True)


async def current_state(service: Service, place: Place) -> digitalo.DigitaloState:
    records = [r for status in ("active", "finished")
               for r in await service.store.games_with_status(status)
               if r.channel == place.channel]
    return digitalo.DigitaloState.from_dict(max(records, key=lambda r: r.id).state)


def check_public(reply: Reply, state: digitalo.DigitaloState, place: Place,
                 names: list[str]) -> None:
    if reply.board is not None:
        assert reply.board.text == render.render(state.view(None), names, "en", place.emoji)
        assert move_buttons(reply.board.buttons) == [], "a hand's menu would show its cards"


async def play_one_move(service: Service, place: Place, user: object, rng: random.Random,
                        taught: list[str]) -> Reply:
    """Open the hand and click through its menu, at random, until a move lands."""
    reply = await service.hand(place, user)  # type: ignore[arg-type]
    while True:
        assert reply.hand is not None and reply.hand.buttons, reply
        button = rng.choice(reply.hand.buttons)
        reply = await service.press(place, user, button.payload)  # type: ignore[arg-type]
        if not reply.ok:
            assert reply.notice
            taught.append(reply.notice)
            reply = await service.hand(place, user)  # type: ignore[arg-type]
        elif reply.moved:
            return reply


async def test_a_whole_match_against_the_strong_computer(service: Service) -> None:
    started = await service.start_game(DIRECT, ALICE, "digitalo",
                                       Opponent("ai", level="strong"))
    assert started.ok
    names = ["Alice", "Computer · strong"]
    rng = random.Random(3)
    reply = started
    taught: list[str] = []
    rounds_seen: set[int] = set()
    for _ in range(600):
        if reply.ai_to_move:
            reply = await service.play_ai_turn(DIRECT)
            assert reply.ok
        state = await current_state(service, DIRECT)
        check_public(reply, state, DIRECT, names)
        rounds_seen.add(int(state.view(None)["round"]))
        if state.outcome() is not None:
            break
        if state.to_move() == [0]:
            reply = await play_one_move(service, DIRECT, ALICE, rng, taught)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "digitalo_points"
    assert max(state.view(None)["scores"]) >= 8 and len(rounds_seen) >= 2
    assert "Game over" in render.render(state.view(None), names, "en", True)


async def test_two_players_keep_their_hands_private(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "digitalo", Opponent("user", user=BOB))
    rng = random.Random(6)
    taught: list[str] = []
    for _ in range(40):
        state = await current_state(service, PLACE)
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        user = (ALICE, BOB)[seat]
        stranger = await service.press(PLACE, CAROL, f"h:{0}")
        assert not stranger.ok
        hand = await service.hand(PLACE, user)
        assert hand.hand is not None
        assert shows_hand(state.view(seat)["hand"], hand.hand.text)
        reply = await play_one_move(service, PLACE, user, rng, taught)
        after = await current_state(service, PLACE)
        check_public(reply, after, PLACE, ["Alice", "Bob"])
        assert reply.board is not None and "Your hand" not in reply.board.text
    assert all(any(word in text for word in ("needs", "gives", "must", "only", "fits"))
               for text in taught), taught
