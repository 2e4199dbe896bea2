"""``Hand.cards``: a card hand's lines, each with the button that plays its card at the
menu's first step (what Discord puts beside each line); None in games without card hands."""

from __future__ import annotations

import pytest

from bot.service import Opponent, Reply, Service
from engines.booleo import BooleoState
from engines.digitalo import DigitaloState
from tests.helpers.people import ALICE, BOB, PLACE


async def hand_on_turn(service: Service, game: str) -> Reply:
    """Alice's hand against the easy computer, once it is her turn."""
    reply = await service.start_game(PLACE, ALICE, game, Opponent("ai", level="easy"))
    assert reply.ok
    while reply.ai_to_move:
        reply = await service.play_ai_turn(PLACE)
    return await service.hand(PLACE, ALICE)


@pytest.mark.parametrize("game", ["booleo", "digitalo"])
async def test_each_card_line_carries_the_button_that_plays_it(service: Service,
                                                               game: str) -> None:
    reply = await hand_on_turn(service, game)
    hand = reply.hand
    assert hand is not None and hand.cards is not None
    lines = [line for line in hand.text.split("\n") if line.startswith("• ")]
    assert [card.text for card in hand.cards] == lines, "the lines as the text shows them"
    records = await service.store.games_with_status("active")
    state_class = BooleoState if game == "booleo" else DigitaloState
    state = state_class.from_dict(records[-1].state)
    seat = next(i for i, p in enumerate(records[-1].players) if p.get("id") == ALICE.id)
    choices = {c.token: c for c in state.menu(seat, ())}
    for card in hand.cards:
        assert card.button is not None and card.button in hand.buttons
        label = card.text.removeprefix("• ").split(":")[0]
        assert label in card.button.label, (card.text, card.button.label)
        token = card.button.payload.rsplit(":", 1)[1]
        assert card.button.disabled == (choices[token].unavailable is not None)
    # A card chosen: the next step's options are slots, no card is pressable.
    first = hand.cards[0].button
    assert first is not None
    pressed = await service.press(PLACE, ALICE, first.payload)
    if pressed.ok and pressed.hand is not None and not pressed.moved:
        assert pressed.hand.cards == []


async def test_a_hand_seen_off_turn_has_its_lines_without_buttons(service: Service) -> None:
    reply = await service.start_game(PLACE, ALICE, "digitalo", Opponent("user", user=BOB))
    assert reply.ok and reply.board is not None
    bob = await service.hand(PLACE, BOB)
    alice = await service.hand(PLACE, ALICE)
    waiting = next(r.hand for r in (alice, bob) if r.hand is not None and not r.hand.buttons)
    assert waiting.cards == []


@pytest.mark.usefixtures("secret_cards")
async def test_a_game_without_card_hands_has_none(service: Service) -> None:
    reply = await service.start_game(PLACE, ALICE, "secrets", Opponent("user", user=BOB))
    assert reply.ok
    for user in (ALICE, BOB):
        hand = (await service.hand(PLACE, user)).hand
        assert hand is not None and hand.cards is None
