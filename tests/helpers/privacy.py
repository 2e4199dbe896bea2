"""Hostile names and a stranger who tries everything, for the privacy tests
(tests/adapters/test_privacy_sweep.py, tests/adapters/test_tournament_privacy.py).

Players with display names that would be markup if the bot passed them on, what only a
player may read of a game (``private_lines``) and the check that a text shows none of it,
and one move on each platform during which a stranger presses the board's buttons and
forges the player's private ones, each refused without a change.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from simcord.actors import _component_interaction  # forging needs the raw dispatcher

from bot.adapters.discord.markdown import inert
from bot.service import Service
from bot.store import GameRecord
from renderers import renderer_for
from tests.helpers import hostile
from tests.helpers import telegram_cards as cards
from tests.helpers.discord_cards import board_message, game_record, hand_button, menu_items
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import World as DiscordWorld
from tests.helpers.discord_world import components_of
from tests.helpers.telegram_fake import Person, group_chat, plain_text
from tests.helpers.telegram_world import World as TelegramWorld

# Display names that would be markup if the bot passed them on: HTML for Telegram,
# Markdown, masked links and mentions for Discord.
HOSTILE_NAMES = ("<b>x</b> *bold* @everyone", "</code> [a](http://x) <@123>",
                 "@here _u_ ~~s~~ ||sp|| `c`")
STRANGER_PRESSES = 4  # per position, besides the hand and navigation buttons


# ------------------------------------------------------------------ private fields
def private_lines(record: GameRecord) -> set[str]:
    """What only a player may read: each line of a player's private view (their hand or
    notes sheet) that the public view does not show, and the cards of a hand."""
    if not Service.hides_hands(record):
        return set()
    state = hostile.state_of(record)
    renderer = renderer_for(record.game)
    names = Service.names(record)
    public = {line.strip() for emoji in (True, False)
              for line in renderer.render(state.view(None), names, "en", emoji).splitlines()}
    # A game that hides hands renders them with render_private (as the service does).
    render_private = getattr(renderer, "render_private", renderer.render)
    lines: set[str] = set()
    for seat in range(len(record.players)):
        view = state.view(seat)
        for emoji in (True, False):
            text = render_private(view, names, "en", emoji)
            lines |= {line.strip() for line in text.splitlines() if len(line.strip()) >= 10}
        hand_text = getattr(renderer, "hand_text", None)
        if hand_text is not None and view.get("hand"):
            cards_text = hand_text(view["hand"])
            if ", " in cards_text:  # a single card is also what a move line may name
                lines.add(cards_text)
    return lines - public


def assert_private(texts: Iterable[str], secrets: set[str], where: str) -> None:
    for text in texts:
        for secret in secrets:
            assert secret not in text and inert(secret) not in text, \
                f"{where} shows the private line {secret!r}: {text!r}"


# ------------------------------------------------------------------------- Discord
async def stranger_clicks_discord(world: DiscordWorld, stranger: Any, channel: Any,
                                  forged: list[str], rng: random.Random) -> None:
    """The stranger clicks a sample of the board's components and forges ``forged`` custom
    ids (from a player's private hand) onto it: each is refused privately, changing nothing."""
    board = await board_message(world, channel)
    items = components_of(board)
    menu = [c for c in items if c["type"] == 3 or c.get("style") == 1]
    others = [c for c in items if c not in menu]
    chosen = rng.sample(menu, min(STRANGER_PRESSES, len(menu))) + others
    before = await hostile.snapshot(world.store)
    results = []
    for item in chosen:
        if item["type"] == 3:
            results.append(await stranger.select(board, [item["options"][0]["value"]],
                                                 custom_id=item["custom_id"]))
        else:
            results.append(await stranger.click(board, custom_id=item["custom_id"]))
    stored = world.env.backend.get_message(channel.id, board.id)
    for custom_id in forged:
        results.append(await _component_interaction(
            stranger, stored, {"custom_id": custom_id, "component_type": 2}))
    await world.bot.wait_for_background()
    for result in results:
        assert result.acknowledged and result.ephemeral and result.response is not None
        hostile.assert_clear(visible_text(result.response), "a stranger's click")
    assert await hostile.snapshot(world.store) == before, "a stranger changed a game"


async def discord_move(world: DiscordWorld, actor: Any, stranger: Any, channel: Any,
                       rng: random.Random) -> None:
    """One move by ``actor``, clicked through the board or, in a game with hidden hands,
    through their private hand; the stranger first tries the hand's buttons herself."""
    start = await game_record(world, channel)
    board = await board_message(world, channel)
    if not Service.hides_hands(start):
        items = [c for c in components_of(board) if c["type"] == 3 or c.get("style") == 1]
        for _ in range(12):
            board = await board_message(world, channel)
            items = [c for c in components_of(board) if c["type"] == 3 or c.get("style") == 1]
            item = rng.choice(items)
            if item["type"] == 3:
                await actor.select(board, [rng.choice(item["options"])["value"]],
                                   custom_id=item["custom_id"])
            else:
                await actor.click(board, custom_id=item["custom_id"])
            if (await game_record(world, channel)).version > start.version:
                return
        raise AssertionError("the board's menu never completed a move")
    opened = await actor.click(board, custom_id=hand_button(board))
    hand = opened.response
    assert hand is not None and hand.ephemeral
    await stranger_clicks_discord(world, stranger, channel,
                                  [c["custom_id"] for c in menu_items(hand)], rng)
    for _ in range(40):
        items = menu_items(hand) or [c for c in components_of(hand) if c["type"] == 2]
        assert items, visible_text(hand)
        item = rng.choice(items)
        if item["type"] == 3:
            await actor.select(hand, [rng.choice(item["options"])["value"]],
                               custom_id=item["custom_id"])
        else:
            await actor.click(hand, custom_id=item["custom_id"])
        await world.bot.wait_for_background()
        if (await game_record(world, channel)).version > start.version:
            return
    raise AssertionError("the hand's menu never completed a move")


# ------------------------------------------------------------------------ Telegram
ONE = Person(2001, "<b>x</b> *bold*", last_name="@everyone")
TWO = Person(2002, "</code> [a](http://x)", last_name="<@123>")
STRANGER = Person(2003, "@here _u_", last_name="<i>~~s~~</i>")
CHAT = group_chat(-1009001, "Class <4> & co")


def group_texts(world: TelegramWorld, chat_id: int) -> list[str]:
    """Every text the bot sent or edited into the chat, as Telegram would show it."""
    return [plain_text(str(params["text"]))
            for method in ("sendMessage", "editMessageText")
            for params in world.fake.calls(method) if int(params["chat_id"]) == chat_id]


async def stranger_presses_telegram(world: TelegramWorld, rng: random.Random,
                                    forged: list[str]) -> list[dict[str, Any]]:
    board = await world.board(CHAT)
    keys = [b["callback_data"] for b in board.buttons if "callback_data" in b]
    chosen = rng.sample(keys, min(STRANGER_PRESSES, len(keys))) + [
        b["callback_data"] for b in board.buttons[-3:] if "callback_data" in b] + forged
    before = await hostile.snapshot(world.store)
    answers = []
    for data in chosen:
        [answer] = await world.press(STRANGER, board, data)
        assert answer.get("text"), answer  # answered in words (a toast or an alert)
        hostile.assert_clear(answer.get("text"), "a stranger's press")
        answers.append(answer)
    assert await hostile.snapshot(world.store) == before, "a stranger changed a game"
    return answers


async def telegram_move(world: TelegramWorld, person: Person, record: GameRecord,
                        rng: random.Random) -> list[dict[str, Any]]:
    """One move; in a game with hidden hands through the private hand (which the stranger
    first tries to use on the group board), else through the group board."""
    if Service.hides_hands(record):
        hand = world.last(person.private_chat)
        answers = await stranger_presses_telegram(
            world, rng, [b["callback_data"] for b in hand.buttons if "callback_data" in b])
        await cards.play_a_move(world, person, CHAT, rng)
        return answers
    answers = await stranger_presses_telegram(world, rng, [])
    for _ in range(12):
        board = await world.board(CHAT)
        keys = [b for b in board.buttons if "callback_data" in b][:-1] or board.buttons
        await world.press(person, board, rng.choice(keys)["callback_data"])
        if (await world.store.get_game(record.id)).version > record.version:  # type: ignore[union-attr]
            return answers
    raise AssertionError("the board's menu never completed a move")
