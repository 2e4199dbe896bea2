"""A menu step with one option costs no tap (issue 23.4): pressing the step before it
takes it, and makes the move when it completes one."""

from __future__ import annotations

import random

import pytest

from bot.payloads import Payload
from bot.service import Opponent, Service
from engines.base import GameState
from engines.registry import get_game
from tests.helpers.people import ALICE, BOB, PLACE


def forced_step(state: GameState, seat: int) -> tuple[str, ...] | None:
    """A path to a step (not a whole move) whose next menu has a single option."""
    for choice in state.menu(seat, ()):
        if choice.action is None and len(state.menu(seat, (choice.token,))) == 1:
            return (choice.token,)
    return None


@pytest.mark.parametrize("game", ["digitalo", "rithmomachia"])
async def test_a_step_with_one_option_is_taken_without_a_tap(service: Service,
                                                             game: str) -> None:
    rng = random.Random(4)
    reply = await service.start_game(PLACE, ALICE, game, Opponent("user", user=BOB))
    assert reply.ok, reply.notice
    for _ in range(200):
        record = await service.store.running_game(PLACE.platform, PLACE.channel)
        assert record is not None, "no forced step turned up before the game ended"
        state = get_game(game).State.from_dict(record.state)
        seat = state.to_move()[0]
        user = (ALICE, BOB)[seat]
        path = forced_step(state, seat)
        if path is None:
            await service.move(PLACE, user, state.action_text(
                rng.choice(sorted(state.legal_actions(seat)))))
            continue
        menu = (await service.hand(PLACE, user)).hand if service.hides_hands(record) \
            else (await service.board(PLACE)).board
        assert menu is not None
        button = next(b for b in menu.buttons
                      if (p := Payload.parse(b.payload)) is not None and p.path == path)
        [only] = state.menu(seat, path)
        pressed = await service.press(PLACE, user, button.payload)
        if only.action is not None and only.action not in state.legal_actions(seat):
            # A menu may offer a move the rules then refuse, to teach why: that answer
            # now comes one tap sooner, and nothing changes.
            assert not pressed.ok and pressed.notice and not pressed.moved
            unchanged = await service.store.get_game(record.id)
            assert unchanged is not None and unchanged.version == record.version
            await service.move(PLACE, user, state.action_text(
                rng.choice(sorted(state.legal_actions(seat)))))
            continue
        assert pressed.ok, pressed.notice
        if only.action is not None:
            assert pressed.moved, "the step's one option completed the move at once"
            moves = await service.store.moves(record.id)
            assert moves[-1].action == only.action
        else:
            shown = pressed.hand if service.hides_hands(record) else pressed.board
            assert shown is not None and not pressed.moved
            deeper = {Payload.parse(b.payload).path[:-1]  # type: ignore[union-attr]
                      for b in shown.buttons}
            assert deeper == {(*path, only.token)}, "the forced step was taken"
        return
    raise AssertionError("no forced step in 200 moves")
