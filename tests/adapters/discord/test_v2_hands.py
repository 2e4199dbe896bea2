"""Card hands on Discord as Components V2 messages (issue 23, deliverable 4): each card a
section, its line and meaning beside the button that plays it; the other options in
action rows; a V2 hand stays V2 through every edit; the public board stays classic and
never shows a hand."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord

from bot.adapters.discord.components import build_view
from bot.adapters.discord.hands import LiveHands, hand_layout
from bot.adapters.discord.layout import V2_COMPONENTS, CardSection, as_v2, plain_layout
from bot.replies import Button, CardLine, Hand
from engines import booleo, digitalo
from engines.booleo.cards import CARD_TOKENS
from renderers.i18n import translate
from renderers.pyramid import card_label, card_meaning
from tests.helpers.discord_cards import (
    board_message,
    check_shown,
    game_record,
    hand_button,
    hand_options,
    record_messages,
)
from tests.helpers.discord_play import menu_items
from tests.helpers.discord_text import interactive, is_v2, sections, visible_text
from tests.helpers.discord_world import World, discord_world
from tests.helpers.hands import hand_prefixes, shows_hand

STATES: dict[str, Any] = {"booleo": booleo.BooleoState, "digitalo": digitalo.DigitaloState}


async def seat_and_state(world: World, actor: Any, game: str) -> tuple[int, Any]:
    record = await game_record(world, world.channel)
    seat = next(i for i, p in enumerate(record.players) if p.get("id") == str(actor.id))
    return seat, STATES[game].from_dict(record.state)


async def open_hand(world: World, actor: Any) -> Any:
    board = await board_message(world, world.channel)
    opened = await actor.click(board, custom_id=hand_button(board))
    assert opened.response is not None and opened.response.ephemeral
    return opened.response


async def play_through_hand(world: World, actor: Any, game: str, hand: Any,
                            rng: random.Random) -> None:
    """Click through ``hand`` (a message on ``actor``'s turn) until a move lands, always
    an option that completes a legal move or leads on (never a refused slot)."""
    seat, state = await seat_and_state(world, actor, game)
    version = (await game_record(world, world.channel)).version

    def rating(path: tuple[str, ...]) -> int:
        choice = next(c for c in state.menu(seat, path[:-1]) if c.token == path[-1])
        if choice.unavailable is not None:
            return 0
        if choice.action is None:
            return 1
        return 3 if choice.action in state.legal_actions(seat) else 0

    for _ in range(20):
        options = [option for option in hand_options(hand) if option[2] != ("i",)]
        weights = [rating(path) if path[0] not in ("", "i") else 0 for _, _, path in options]
        if not any(weights):
            back = next(c for c in interactive(hand)
                        if c.get("label") == translate("en", "menu.back"))
            await actor.click(hand, custom_id=back["custom_id"])
            continue
        item, value, _ = rng.choices(options, weights)[0]
        result = (await actor.click(hand, custom_id=item["custom_id"]) if value is None
                  else await actor.select(hand, [value], custom_id=item["custom_id"]))
        assert result.acknowledged
        await world.bot.wait_for_background()
        if (await game_record(world, world.channel)).version > version:
            return
    raise AssertionError("the hand's menu never completed a move")


async def mover(world: World, game: str) -> Any:
    record = await game_record(world, world.channel)
    seat = STATES[game].from_dict(record.state).to_move()[0]
    return world.alice if record.players[seat]["id"] == str(world.alice.id) else world.bob


async def test_each_card_is_a_section_with_its_meaning_and_its_button(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        await world.alice.slash(world.channel, "play", game="booleo", opponent=world.bob,
                                options="bits=4")
        await world.bot.wait_for_background()
        actor = await mover(world, "booleo")
        seat, state = await seat_and_state(world, actor, "booleo")
        hand = await open_hand(world, actor)
        assert is_v2(hand) and hand.content == "", "a V2 message has no content"
        kinds = list(dict.fromkeys(state.view(seat)["hand"]))
        found = sections(hand)
        assert [text.split(":")[0] + ":" for text, _ in found] == hand_prefixes(
            state.view(seat)["hand"]), "one section per kind of card, in the hand's order"
        choices = {c.token: c for c in state.menu(seat, ())}
        for card, (text, button) in zip(kinds, found, strict=True):
            assert card_meaning(card, "en") in text, "the card's line says what it does"
            assert card_label(card) in button["label"] and button["style"] == 1
            token = button["custom_id"].rsplit(":", 1)[1]
            assert token == CARD_TOKENS[card] and token in choices
        # The text above says whose hand it is; the prompt follows the cards.
        text = visible_text(hand)
        assert "Your hand (" in text.split("\n")[0]
        assert text.endswith(translate("en", "menu.choose"))
        assert shows_hand(state.view(seat)["hand"], text)
        # A card's button is a move option like any other, and routes as one.
        chosen = await actor.click(hand, custom_id=found[0][1]["custom_id"])
        assert chosen.acknowledged and chosen.response is not None
        assert chosen.response.id == hand.id, "the hand is edited in place"
        assert not chosen.followups, "no second answer (say, to a 'foreign' button)"
        assert "so far" in visible_text(hand) and is_v2(hand)
        assert sections(hand) == [], "a slot step has no card to press: rows only"
        assert menu_items(hand), "the slots are buttons in action rows"
        check_shown(shown)


async def test_an_unavailable_digitalo_card_has_its_section_with_a_disabled_button(
        tmp_path: Path) -> None:
    async with discord_world(tmp_path, seed_source=lambda: 3) as world:
        await world.alice.slash(world.channel, "play", game="digitalo", opponent=world.bob)
        await world.bot.wait_for_background()
        actor = await mover(world, "digitalo")
        seat, state = await seat_and_state(world, actor, "digitalo")
        unavailable = {c.token for c in state.menu(seat, ()) if c.unavailable is not None}
        assert unavailable, "seed 3 deals the mover a card that fits nowhere"
        hand = await open_hand(world, actor)
        found = sections(hand)
        assert len(found) == len(set(state.view(seat)["hand"]))
        for text, button in found:
            token = button["custom_id"].rsplit(":", 1)[1]
            assert bool(button.get("disabled")) == (token in unavailable), (text, button)
            if token in unavailable:
                assert "✖ (no place now)" in text and button["style"] == 2
            assert "goes where" in text or "flips" in text


async def test_a_v2_hand_is_redrawn_in_place_when_the_turn_comes(tmp_path: Path) -> None:
    """LiveHands edits the starter's V2 hand message (their turn begins) in place: the
    same message, still V2, now with a button beside each card."""
    rng = random.Random(5)
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        started = await world.alice.slash(world.channel, "play", game="digitalo",
                                          opponent=world.bob, options="bits=4")
        await world.bot.wait_for_background()
        held = [m for m in started.followups if m.ephemeral]
        assert len(held) == 1 and is_v2(held[0])
        seat, state = await seat_and_state(world, world.alice, "digitalo")
        if state.to_move() == [seat]:  # Alice first: she moves in that very message
            await play_through_hand(world, world.alice, "digitalo", held[0], rng)
        assert sections(held[0]) == [], "no card to press on Bob's turn: the text only"
        assert shows_hand(
            (await seat_and_state(world, world.alice, "digitalo"))[1].view(seat)["hand"],
            visible_text(held[0]))
        mark = len(shown)
        await play_through_hand(world, world.bob, "digitalo", await open_hand(world, world.bob),
                                rng)
        redrawn = [m for m in shown[mark:] if m.message_id == held[0].id]
        assert redrawn, "Alice's hand was redrawn when her turn began"
        assert all(m.ephemeral and m.content == "" for m in redrawn)
        seat, state = await seat_and_state(world, world.alice, "digitalo")
        assert state.to_move() == [seat]
        found = sections(held[0])
        assert len(found) == len(set(state.view(seat)["hand"])), "a section per card now"
        usable = [button for _, button in found if not button.get("disabled")]
        assert usable
        pressed = await world.alice.click(held[0], custom_id=usable[0]["custom_id"])
        assert pressed.acknowledged and not pressed.followups
        check_shown(shown)


async def test_the_public_board_never_carries_a_hand(tmp_path: Path) -> None:
    rng = random.Random(11)
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        await world.alice.slash(world.channel, "play", game="booleo", opponent=world.bob,
                                options="bits=4")
        await world.bot.wait_for_background()
        lines: set[str] = set()
        for _ in range(6):
            actor = await mover(world, "booleo")
            hand = await open_hand(world, actor)
            lines |= {text for text, _ in sections(hand)}
            await play_through_hand(world, actor, "booleo", hand, rng)
        assert lines, "the players saw their cards' lines (so the check below can fail)"
        for message in shown:
            if message.ephemeral:
                continue
            assert not any(c.get("type") in (9, 10) for c in message.components), \
                "the public board is a classic message"
            assert not any(line in message.content for line in lines)
            assert "Your hand" not in message.content
        assert all(m.ephemeral for m in shown if m.content == ""), "every V2 hand is private"
        check_shown(shown)


async def test_a_refusal_in_a_v2_hand_keeps_it_v2(tmp_path: Path) -> None:
    """A card pressed in a hand whose game has ended is answered in that message: as a
    V2 text display, since a V2 message cannot become classic again."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="digitalo", opponent=world.bob)
        await world.bot.wait_for_background()
        actor = await mover(world, "digitalo")
        hand = await open_hand(world, actor)
        card = next(button for _, button in sections(hand) if not button.get("disabled"))
        resigned = await actor.slash(world.channel, "resign")
        assert resigned.acknowledged
        await world.bot.wait_for_background()
        late = await actor.click(hand, custom_id=card["custom_id"])
        assert late.acknowledged
        await world.bot.wait_for_background()
        assert late.response is not None and late.response.id == hand.id
        assert is_v2(hand) and hand.content == "" and sections(hand) == []
        assert visible_text(hand) == translate("en", "error.button_not_valid")


# ------------------------------------------------------------------- layouts
def cards_hand(kinds: int, others: int, disabled: tuple[int, ...] = ()) -> Hand:
    """A made-up card hand: ``kinds`` card lines, each with its button, and ``others``
    further options."""
    buttons = [Button(f"C{n}", f"m:1:1:C{n}", disabled=n in disabled) for n in range(kinds)]
    lines = [f"• C{n}: does thing {n}" for n in range(kinds)]
    extra = [Button(f"X{n}", f"m:1:1:X{n}") for n in range(others)]
    return Hand("\n".join(["Your hand (South):", *lines, "! a pending NOT"]),
                [*buttons, *extra], [Button("💡 Hint", "i:1:1:")], "Choose your move.",
                [CardLine(line, button) for line, button in zip(lines, buttons, strict=True)])


def test_the_layout_puts_cards_in_sections_and_the_rest_in_rows() -> None:
    layout = hand_layout(cards_hand(4, 2, disabled=(1,)), "en", "Careful")
    assert layout.v2 and layout.component_count() <= V2_COMPONENTS
    texts = [part for part in layout.parts if isinstance(part, str)]
    cards = [part for part in layout.parts if isinstance(part, CardSection)]
    assert texts == ["**Careful**\nYour hand (South):", "! a pending NOT\nChoose your move."]
    assert [card.text for card in cards] == [f"• C{n}: does thing {n}" for n in range(4)]
    assert [card.button.disabled for card in cards] == [False, True, False, False]
    assert [b.label for b in layout.buttons] == ["X0", "X1", "💡 Hint"]
    view = build_view(layout)
    assert isinstance(view, discord.ui.LayoutView)
    kinds = [c["type"] for c in view.to_components()]
    assert kinds == [10, 9, 9, 9, 9, 10, 1, 1], "texts, sections, then the rows"


def test_a_hand_past_discords_limits_shows_its_cards_as_text_above_every_button() -> None:
    hand = cards_hand(12, 4)  # 12 sections of 3 components each: past 40
    layout = hand_layout(hand, "en")
    assert layout.v2 and not any(isinstance(part, CardSection) for part in layout.parts)
    assert layout.component_count() <= V2_COMPONENTS
    assert all(line.text in layout.content for line in hand.cards or [])
    labels = [b.label for b in layout.buttons] + [o[0] for s in layout.selects
                                                  for o in s.options]
    assert {f"C{n}" for n in range(12)} <= set(labels), "every card still has its option"


def test_hands_of_other_games_and_other_messages_stay_classic() -> None:
    turing = Hand("Your notes", [Button("A", "m:1:1:A")], [], "Choose.")
    assert not hand_layout(turing, "en").v2
    assert not plain_layout("hello").v2
    converted = as_v2(plain_layout("The game has ended."))
    assert converted.v2 and converted.parts == ("The game has ended.",)


class Recorder:
    """Stands in for an interaction: records what an edit was asked to show."""

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []

    async def edit_original_response(self, **fields: Any) -> None:
        self.edits.append(fields)


async def test_live_hands_redraw_a_v2_hand_without_content() -> None:
    hands = LiveHands(clock=lambda: 0.0)
    interaction = Recorder()
    hands.remember(3, "ann", interaction)  # type: ignore[arg-type]
    assert await hands.redraw(3, "ann", hand_layout(cards_hand(3, 0), "en"))
    (edit,) = interaction.edits
    assert edit["content"] is None and isinstance(edit["view"], discord.ui.LayoutView)
