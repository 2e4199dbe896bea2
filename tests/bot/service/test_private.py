"""Service features for chat adapters: hidden hands, the join button, move suggestions and
checking a new game before creating it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.service import Opponent, Service
from engines import lgame
from engines.registry import register_game, unregister_game
from renderers import register_renderer
from tests.helpers.people import ALICE, BOB, CAROL, PLACE


@pytest.fixture
def secrets_game() -> Iterator[None]:
    register_game("secrets", "tests.helpers.hidden_game")
    register_renderer("secrets", "tests.helpers.hidden_game_renderer")
    yield
    unregister_game("secrets")
    register_renderer("secrets", None)


@pytest.mark.usefixtures("secrets_game")
async def test_hidden_game_keeps_menus_and_hands_off_the_board(service: Service) -> None:
    reply = await service.start_game(PLACE, ALICE, "secrets", Opponent("user", user=BOB))
    assert reply.ok and reply.board is not None
    assert reply.board.buttons == [] and reply.board.hand_button is not None
    assert reply.hand is None, "the creator's hand is not in the public reply"
    assert "Your hand" not in reply.board.text

    opened = await service.press(PLACE, ALICE, reply.board.hand_button.payload)
    assert opened.ok and opened.hand is not None and "Your hand" in opened.hand.text
    assert opened.hand.buttons, "alice moves first, so her hand has the menu"
    bobs = await service.hand(PLACE, BOB)
    assert bobs.hand is not None and bobs.hand.buttons == [], "bob waits: no menu"
    strangers = await service.press(PLACE, CAROL, reply.board.hand_button.payload)
    assert not strangers.ok and strangers.hand is None

    played = await service.press(PLACE, ALICE, opened.hand.buttons[0].payload)
    assert played.ok and played.moved and played.hand is not None
    assert played.hand.buttons == [], "after her move alice's refreshed hand has no menu"
    assert played.board is not None and "Your hand" not in played.board.text

    stale = await service.press(PLACE, ALICE, opened.hand.buttons[1].payload)
    assert not stale.ok and stale.hand is not None, "a stale click redraws the hand"


async def test_waiting_board_has_a_join_button(service: Service) -> None:
    reply = await service.start_game(PLACE, ALICE, "lgame", Opponent("open"))
    assert reply.board is not None
    [join] = reply.board.navigation
    assert join.payload.startswith("j:")
    own = await service.press(PLACE, ALICE, join.payload)
    assert not own.ok
    joined = await service.press(PLACE, BOB, join.payload)
    assert joined.ok and joined.moved and joined.board is not None
    assert joined.board.buttons, "the game is on: alice has her menu"
    again = await service.press(PLACE, CAROL, join.payload)
    assert not again.ok


async def test_hand_in_a_game_without_hidden_cards_says_so(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    reply = await service.hand(PLACE, ALICE)
    assert reply.ok and reply.hand is None and "no hidden cards" in (reply.notice or "")
    assert not (await service.hand(PLACE, CAROL)).ok


async def test_move_suggestions_are_legal_and_only_for_the_mover(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    everything = await service.move_suggestions(PLACE, ALICE, "", limit=500)
    assert everything and len(everything) == len(set(everything))
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None
    state = lgame.LGameState.from_dict(record.state)
    assert sorted(everything) == sorted(state.action_text(a) for a in state.legal_actions(0))
    for text in random.Random(1).sample(everything, 10):
        assert state.parse_action(text, 0) in state.legal_actions(0)
    narrowed = await service.move_suggestions(PLACE, ALICE, "D4  s")
    assert narrowed and all(t.lower().startswith("d4 s") for t in narrowed)
    assert await service.move_suggestions(PLACE, BOB, "") == []
    assert await service.move_suggestions(PLACE, CAROL, "") == []
    moved = await service.move(PLACE, ALICE, narrowed[0])
    assert moved.ok and moved.moved


def test_check_start_refuses_bad_settings_without_side_effects(service: Service) -> None:
    assert service.check_start(PLACE, ALICE, "lgame", Opponent("ai", "easy")) is None
    assert "Unknown game" in (service.check_start(PLACE, ALICE, "chess", Opponent("open"))
                              or "")
    assert service.check_start(PLACE, ALICE, "lgame", Opponent("ai", "godlike")) is not None
    assert service.check_start(PLACE, ALICE, "lgame", Opponent("open"), "gravity") is not None
