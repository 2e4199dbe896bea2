"""Helpers for the card games' Telegram tests: the stored state of a chat's game, and a move
clicked through a private hand."""

from __future__ import annotations

import random
from typing import Any, TypeVar

from engines.base import GameState
from tests.helpers.hands import shows_hand
from tests.helpers.telegram_fake import Sent
from tests.helpers.telegram_world import World

State = TypeVar("State", bound=GameState)


def labels(message: Sent) -> list[str]:
    return [button["text"] for button in message.buttons]


async def latest_record(world: World, chat: dict[str, Any]) -> Any:
    records = [r for status in ("active", "finished")
               for r in await world.store.games_with_status(status)
               if r.channel == str(chat["id"])]
    return max(records, key=lambda r: r.id)


async def state_of(world: World, chat: dict[str, Any], kind: type[State]) -> State:
    return kind.from_dict((await latest_record(world, chat)).state)


async def play_a_move(world: World, person: Any, game_chat: dict[str, Any],
                      rng: random.Random) -> None:
    """Click through the menu in the player's private chat until a move lands (the game's
    version goes up; a refused pick leaves it)."""
    chat = person.private_chat
    before = (await latest_record(world, game_chat)).version
    while (await latest_record(world, game_chat)).version == before:
        message = world.last(chat)
        # "↩ back" stays a choice: a step may offer only slots where the card does not fit.
        # (The link back to the group is a URL, not an option; nor is the hint button of a
        # game against the computer a move.)
        options = [button["text"] for button in message.buttons
                   if "callback_data" in button and "hand" not in button["text"].lower()
                   and not button["callback_data"].startswith("i:")]
        assert options, message.text
        await world.click(person, message, rng.choice(options))


async def hand_of_the_player_to_move(world: World, game_chat: dict[str, Any],
                                     players: tuple[Any, Any], state: GameState
                                     ) -> tuple[Any, str]:
    """The person to move and their hand's card lines, after checking that the hand is in
    their private chat (opened with the board's hand button when the chat has moved on)."""
    seat = state.to_move()[0]
    person = players[seat]
    hand = state.view(seat)["hand"]
    if not shows_hand(hand, world.last(person.private_chat).text):
        await world.click(person, await world.board(game_chat), "🂠 My hand")
    text = world.last(person.private_chat).text
    assert shows_hand(hand, text), "the hand is sent privately"
    return person, "\n".join(line for line in text.split("\n") if line.startswith("• "))
