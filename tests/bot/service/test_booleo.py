"""bOOleO through the service: whole games played only with buttons, hands that never reach
the public board, teaching refusals, and the nasty cases (strangers, double clicks, a
restart mid-game)."""

from __future__ import annotations

import asyncio
import itertools
import random

from bot.service import Button, Opponent, Place, Reply, Service
from bot.store import SQLiteStore
from engines import booleo
from renderers import booleo as render
from tests.helpers.hands import shows_hand
from tests.helpers.menus import move_buttons
from tests.helpers.people import ALICE, BOB, CAROL, PLACE

NAMES = ["Alice", "Bob"]
DIRECT = Place("test", "dm-alice", emoji=True)


async def current_state(service: Service, place: Place) -> booleo.BooleoState:
    records = [r for status in ("active", "finished")
               for r in await service.store.games_with_status(status)
               if r.channel == place.channel]
    record = max(records, key=lambda r: r.id)
    return booleo.BooleoState.from_dict(record.state)


def check_public(reply: Reply, state: booleo.BooleoState, place: Place,
                 names: list[str] = NAMES) -> None:
    """The public board is exactly the public view's rendering: no hand card can be in it."""
    if reply.board is not None:
        assert reply.board.text == render.render(state.view(None), names, "en", place.emoji)
        assert move_buttons(reply.board.buttons) == [], "a hand's menu would show its cards"
    for line in reply.announcements:
        assert "Your hand" not in line


async def play_one_step(service: Service, place: Place, rng: random.Random,
                        taught: list[str]) -> Reply:
    """The mover opens their hand and clicks through its menu to a complete move."""
    state = await current_state(service, place)
    seat = state.to_move()[0]
    user = (ALICE, BOB)[seat] if place is PLACE else ALICE
    reply = await service.hand(place, user)
    assert reply.hand is not None
    assert shows_hand(state.view(seat)["hand"], reply.hand.text)
    while True:
        assert reply.hand is not None and reply.hand.buttons, reply
        choice: Button = rng.choice(reply.hand.buttons)
        reply = await service.press(place, user, choice.payload)
        if not reply.ok:
            # A refused gate: the notice teaches the rule, and the hand is offered again.
            assert reply.notice
            taught.append(reply.notice)
            reply = await service.hand(place, user)
            continue
        if reply.moved:
            return reply


async def test_two_players_play_a_whole_game_with_buttons(service: Service) -> None:
    started = await service.start_game(PLACE, ALICE, "booleo", Opponent("user", user=BOB),
                                       "bits=4")
    assert started.ok and started.board is not None and started.board.hand_button is not None
    check_public(started, await current_state(service, PLACE), PLACE)
    rng = random.Random(5)
    taught: list[str] = []
    for _ in range(400):
        reply = await play_one_step(service, PLACE, rng, taught)
        state = await current_state(service, PLACE)
        check_public(reply, state, PLACE)
        if state.outcome() is not None:
            break
    assert state.outcome() is not None, "random clicking with bits=4 ends a game"
    # Random clicks hit invalid slots; each refusal says which rule the inputs break.
    assert taught and all("needs" in text or "gives" in text or "must" in text
                          for text in taught), taught


async def test_strangers_double_clicks_and_forged_payloads(service: Service) -> None:
    started = await service.start_game(PLACE, ALICE, "booleo", Opponent("user", user=BOB))
    state = await current_state(service, PLACE)
    mover, waiter = (ALICE, BOB) if state.to_move() == [0] else (BOB, ALICE)
    opened = await service.hand(PLACE, mover)
    assert opened.hand is not None and opened.hand.buttons
    first = opened.hand.buttons[0]
    stranger = await service.press(PLACE, CAROL, first.payload)
    assert not stranger.ok and stranger.hand is None
    waiting = await service.press(PLACE, waiter, first.payload)
    assert not waiting.ok
    waiters_hand = await service.hand(PLACE, waiter)
    assert waiters_hand.hand is not None and waiters_hand.hand.buttons == []
    for forged in ("m:1:1:ZZ", f"m:{started.board.game_id if started.board else 0}:999:A1",
                   "m:x:y:z", "h:", "m:" + "9" * 70):
        refused = await service.press(PLACE, mover, forged)
        assert not refused.ok and refused.notice
    assert (await current_state(service, PLACE)).to_dict() == state.to_dict()

    # Through to a complete move, then both copies of the last click at once: one lands.
    reply = opened
    while True:
        assert reply.hand is not None
        discard = [b for b in reply.hand.buttons if "Discard" in b.label]
        button = discard[0] if discard else reply.hand.buttons[0]
        if discard:
            results = await asyncio.gather(service.press(PLACE, mover, button.payload),
                                           service.press(PLACE, mover, button.payload))
            assert sorted(r.ok for r in results) == [False, True]
            break
        reply = await service.press(PLACE, mover, button.payload)
    after = await current_state(service, PLACE)
    assert after.actions == [*state.actions, after.actions[-1]]
    assert after.actions[-1].startswith("discard")


async def test_a_restart_mid_game_keeps_hands_and_buttons(service: Service,
                                                          store: SQLiteStore) -> None:
    await service.start_game(PLACE, ALICE, "booleo", Opponent("user", user=BOB))
    rng = random.Random(2)
    for _ in range(6):
        await play_one_step(service, PLACE, rng, [])
    before = await current_state(service, PLACE)
    seat = before.to_move()[0]
    user = (ALICE, BOB)[seat]
    opened = await service.hand(PLACE, user)
    assert opened.hand is not None
    seeds = itertools.count(5000)
    restarted = Service(store, seed_source=lambda: next(seeds))
    again = await restarted.hand(PLACE, user)
    assert again.hand is not None and again.hand.text == opened.hand.text
    # A button from before the restart still works.
    pressed = await restarted.press(PLACE, user, opened.hand.buttons[0].payload)
    assert pressed.ok


async def test_a_game_against_the_strong_ai_in_a_private_chat(service: Service) -> None:
    started = await service.start_game(DIRECT, ALICE, "booleo",
                                       Opponent("ai", level="strong"), "bits=4")
    assert started.ok
    rng = random.Random(9)
    reply = started
    for _ in range(300):
        if reply.ai_to_move:
            reply = await service.play_ai_turn(DIRECT)
            assert reply.ok
        state = await current_state(service, DIRECT)
        check_public(reply, state, DIRECT, ["Alice", "Computer · strong"])
        if state.outcome() is not None:
            break
        if state.to_move() == [0]:
            reply = await play_one_step(service, DIRECT, rng, [])
    assert state.outcome() is not None
    text = render.render(state.view(None), NAMES, "en", True)
    assert "Game over" in text
