"""Digitalo on Discord: a whole match against the strong computer in a DM, and a channel
game between two members whose hands stay in ephemeral messages."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from simcord import UserHandle

from bot.replies import Place, User
from engines import digitalo
from renderers.i18n import translate
from tests.helpers.discord_cards import (
    board_message,
    check_shown,
    game_record,
    hand_button,
    hand_options,
    record_messages,
)
from tests.helpers.discord_play import menu_items
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.hands import hand_prefixes, shows_hand

BACK = translate("en", "menu.back")


async def game_state(world: World, channel: Any) -> digitalo.DigitaloState:
    return digitalo.DigitaloState.from_dict((await game_record(world, channel)).state)


def rating(state: digitalo.DigitaloState, seat: int, path: tuple[str, ...]) -> int:
    """A legal move is the best pick, a step towards one next; a refused slot never."""
    choice = next(c for c in state.menu(seat, path[:-1]) if c.token == path[-1])
    if choice.action is None:
        return 1
    return 3 if choice.action in state.legal_actions(seat) else 0


async def play_turn(world: World, actor: Any, channel: Any, rng: random.Random) -> None:
    """Open the hand from the public board and click through it until the move lands."""
    record = await game_record(world, channel)
    seat = next(i for i, p in enumerate(record.players) if p.get("id") == str(actor.id))
    state = digitalo.DigitaloState.from_dict(record.state)
    board = await board_message(world, channel)
    opened = await actor.click(board, custom_id=hand_button(board))
    hand = opened.response
    assert hand is not None and hand.ephemeral
    assert shows_hand(state.view(seat)["hand"], visible_text(hand))
    for _ in range(20):
        options = hand_options(hand)
        weights = [rating(state, seat, path) for _, _, path in options]
        if not any(weights):
            # Every slot this card reaches is refused (and a card fits elsewhere, so there
            # is no discard): back to the cards.
            back = next(c for c in components_of(hand) if c.get("label") == BACK)
            await actor.click(hand, custom_id=back["custom_id"])
            continue
        item, value, _ = rng.choices(options, weights)[0]
        if value is None:
            result = await actor.click(hand, custom_id=item["custom_id"])
        else:
            result = await actor.select(hand, [value], custom_id=item["custom_id"])
        assert result.acknowledged
        if (await game_record(world, channel)).version > record.version:
            return
    raise AssertionError("the hand's menu never completed a move")


async def test_a_whole_match_against_the_strong_computer_in_a_dm(tmp_path: Path) -> None:
    rng = random.Random(1)
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        alice = world.alice.user
        dm = alice.dm_channel
        assert world.bot.user is not None
        computer = UserHandle(world.env, world.env.backend.get_user(world.bot.user.id))
        started = await alice.slash("play", game="digitalo", opponent=computer,
                                    level="strong")
        assert started.acknowledged
        await world.bot.wait_for_background()
        rounds: set[int] = set()
        for _ in range(300):
            state = await game_state(world, dm)
            rounds.add(int(state.view(None)["round"]))
            if state.outcome() is not None:
                break
            assert state.to_move() == [0], "the computer has answered"
            await play_turn(world, alice, dm, rng)
            await world.bot.wait_for_background()
        state = await game_state(world, dm)
        assert state.outcome() is not None and len(rounds) >= 2
        board = await board_message(world, dm)
        assert "Game over" in visible_text(board) and not menu_items(board)
        check_shown(shown)
        assert not any("Your hand" in visible_text(m) for m in shown if not m.ephemeral)


async def test_two_members_keep_their_hands_in_ephemeral_messages(tmp_path: Path) -> None:
    rng = random.Random(7)
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        started = await world.alice.slash(world.channel, "play", game="digitalo",
                                          opponent=world.bob, options="bits=4")
        assert started.acknowledged
        await world.bot.wait_for_background()
        hands: set[str] = set()
        for _ in range(30):
            state = await game_state(world, world.channel)
            if state.outcome() is not None:
                break
            seat = state.to_move()[0]
            hands.update(hand_prefixes(state.view(seat)["hand"]))  # "• OR→0:" lines
            await play_turn(world, (world.alice, world.bob)[seat], world.channel, rng)
        check_shown(shown)
        public = [visible_text(m) for m in shown if not m.ephemeral]
        assert public and not any("Your hand" in text for text in public)
        assert not any(hand in text for hand in hands for text in public)
        private = [visible_text(m) for m in shown if m.ephemeral]
        assert all(any(hand in text for text in private) for hand in hands), \
            "each card line was shown to its player (so the check above can fail)"
        assert all(m.ephemeral for m in shown if "Your hand" in visible_text(m))


async def test_a_card_that_fits_nowhere_is_shown_disabled_and_refused_with_why(
        tmp_path: Path) -> None:
    """Issue 23: the hand lists every card, one a line with what it does; a card that fits
    nowhere (and cannot be discarded) is marked and its button disabled, and a forged
    press of it is refused with the reason."""
    async with discord_world(tmp_path, seed_source=lambda: 3) as world:
        await world.alice.slash(world.channel, "play", game="digitalo", opponent=world.bob)
        await world.bot.wait_for_background()
        record = await game_record(world, world.channel)
        state = digitalo.DigitaloState.from_dict(record.state)
        seat = state.to_move()[0]
        unfit = [c for c in state.menu(seat, ()) if c.unavailable is not None]
        assert unfit, "seed 3 deals the mover a card that fits nowhere"
        mover = world.alice if record.players[seat]["id"] == str(world.alice.id) else world.bob
        board = await board_message(world, world.channel)
        hand = (await mover.click(board, custom_id=hand_button(board))).response
        assert hand is not None and hand.ephemeral
        assert "✖ (no place now)" in visible_text(hand) and "goes where" in visible_text(hand)
        disabled = [c for c in components_of(hand) if c.get("disabled")]
        assert sorted(c["label"] for c in disabled) == sorted(str(c.label) for c in unfit)
        # Discord never sends a disabled button's press; one forged (or pressed on
        # Telegram, which cannot disable a button) reaches the service and is refused.
        reply = await world.bot.service.press(
            Place("discord", str(world.channel.id)), User("discord", str(mover.id), "m"),
            disabled[0]["custom_id"][len("lb:"):])
        assert not reply.ok and "fits nowhere on your pyramid" in (reply.notice or "")
        assert (await game_record(world, world.channel)).version == record.version
