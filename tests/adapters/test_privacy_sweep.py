"""Authorisation and privacy, swept over scripted games of every kind on both platforms.

Two players with hostile display names (HTML, Markdown, mentions) play a few moves of each
game in a server channel or a Telegram group, through the real clients and the offline
worlds; a third member with a hostile name presses every button she can reach, and forges
the buttons she cannot. Every public text that ever reached the channel (each post and each
edit, as recorded) is then checked:

* no private field: a hand's cards (bOOleO, Digitalo) or a Turing player's own notes and
  test results, i.e. any line of a player's private view that the public view lacks;
* no non-player can act: each stranger press changes no stored game and gets a clear,
  private answer;
* no mention can ping: every Discord message and edit carries ``allowed_mentions`` that
  allows nothing;
* names stay inert: on Telegram they show as typed from escaped HTML (the fake refuses
  HTML it cannot parse), on Discord their Markdown and mentions are escaped outside code
  blocks, and no name breaks out of a code block.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.discord.markdown import inert
from bot.adapters.telegram.layout import neutral
from bot.names import clean_display_name as clean_name
from engines.registry import game_names
from tests.helpers import hostile
from tests.helpers import telegram_cards as cards
from tests.helpers.discord_cards import (
    Shown,
    board_message,
    check_shown,
    game_record,
    hand_button,
    record_messages,
)
from tests.helpers.discord_play import pick
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import World as DiscordWorld
from tests.helpers.discord_world import discord_world
from tests.helpers.privacy import (
    CHAT,
    HOSTILE_NAMES,
    ONE,
    STRANGER,
    TWO,
    assert_private,
    discord_move,
    group_texts,
    private_lines,
    stranger_clicks_discord,
    telegram_move,
)
from tests.helpers.telegram_world import World as TelegramWorld
from tests.helpers.telegram_world import telegram_world

# The pieces of the hostile names that must never reach Discord unescaped (outside code blocks).
MARKUP = ("*bold*", "[a](http://x)", "@everyone", "@here", "_u_", "~~s~~", "||sp||")
MOVES = 4
# A Turing Machine player's first steps, by their buttons: a proposal, then a test, whose
# result only that player may see. Random clicks would often guess or end the round first.
TURING_OPENING = ("▲2■4", "241", "Test A")


# ------------------------------------------------------------------------- Discord
def outside_code(content: str) -> str:
    """Discord content without its code blocks and inline code, where Markdown is inert."""
    return re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", content, flags=re.S))


def check_discord_markup(shown: list[Shown]) -> None:
    for message in shown:
        assert visible_text(message).count("```") % 2 == 0, visible_text(message)
        prose = outside_code(visible_text(message))
        for piece in MARKUP:
            assert not re.search(r"(?<!\\)" + re.escape(piece), prose), \
                f"{piece!r} is live Markdown or a mention in {visible_text(message)!r}"


def is_turn_cue(body: dict[str, Any], players: frozenset[str] | set[str]) -> bool:
    """The only pings the bot sends: a turn cue, whose ``allowed_mentions`` name exactly
    the players it mentions by id (never a name anyone typed), and nothing else."""
    allowed = body.get("allowed_mentions")
    if not isinstance(allowed, dict) or allowed.get("parse") != [] or allowed.get("roles"):
        return False
    users = [str(user) for user in allowed.get("users") or []]
    content = str(body.get("content", ""))
    return (bool(users) and set(users) <= players and content.startswith("🔔")
            and set(re.findall(r"<@!?(\d+)>", content)) == set(users))


def mentions_blocked(body: Any, players: frozenset[str] | set[str] = frozenset()) -> bool:
    """Every message body in a request (a send, an edit, an interaction response or
    follow-up) carries ``allowed_mentions`` that parses nothing and names nobody, but for
    turn cues, which mention exactly the player to move (``players``: the game's)."""
    if isinstance(body, dict):
        # A Components V2 message (a card hand) has its text in text displays, where a
        # mention would ping too, and no content; its components are not bodies.
        v2 = bool(int(body.get("flags") or 0) & (1 << 15))
        if ("content" in body or v2) and not is_turn_cue(body, players):
            allowed = body.get("allowed_mentions")
            if not isinstance(allowed, dict) or allowed.get("parse") != [] \
                    or allowed.get("users") or allowed.get("roles"):
                return False
        return all(mentions_blocked(value, players) for key, value in body.items()
                   if not (v2 and key == "components"))
    if isinstance(body, list):
        return all(mentions_blocked(value, players) for value in body)
    return True


async def stranger_commands_discord(world: DiscordWorld, stranger: Any, channel: Any) -> None:
    """The stranger types a legal move of the player to move, asks for a hand, resigns and
    abandons: each refused privately, changing nothing."""
    record = await game_record(world, channel)
    state = hostile.state_of(record)
    seat = state.to_move()[0]
    legal = str(state.action_text(state.legal_actions(seat)[0]))
    before = await hostile.snapshot(world.store)
    for name, options in (("move", {"notation": legal}), ("hand", {}), ("resign", {}),
                          ("abandon", {})):
        result = await stranger.slash(channel, name, **options)
        assert result.acknowledged and result.ephemeral and result.response is not None, name
        hostile.assert_clear(visible_text(result.response), name)
    assert await hostile.snapshot(world.store) == before, "a stranger's command changed a game"


async def sweep_discord(tmp_path: Path, game: str, moves: int) -> None:
    rng = random.Random(game)
    async with discord_world(tmp_path) as world:
        one, two, stranger = (world.guild.add_member(world.env.create_user(
            f"player{index}", global_name=name)) for index, name in enumerate(HOSTILE_NAMES))
        shown = record_messages(world)
        channel = world.channel
        options = hostile.GAME_OPTIONS[game]
        started = await one.slash(channel, "play", game=game, opponent=two,
                                  **({"options": options} if options else {}))
        assert started.acknowledged and not started.ephemeral, started
        secrets: set[str] = set()
        seats = {str(one.id): one, str(two.id): two}
        if game == "turing":
            for player in (one, two):
                hand = (await player.click(await board_message(world, channel),
                                           custom_id=hand_button(await board_message(
                                               world, channel)))).response
                assert hand is not None
                for label in TURING_OPENING:
                    hand = (await pick(player, hand, label)).response or hand
                await world.bot.wait_for_background()
        await stranger_commands_discord(world, stranger, channel)
        for _ in range(moves):
            record = await game_record(world, channel)
            secrets |= private_lines(record)
            if not record.running:
                break
            await stranger_clicks_discord(world, stranger, channel, [], rng)
            state = hostile.state_of(record)
            mover = seats[record.players[state.to_move()[0]]["id"]]
            await discord_move(world, mover, stranger, channel, rng)
        secrets |= private_lines(await game_record(world, channel))
        public = [visible_text(m) for m in shown if not m.ephemeral]
        assert public, "the game was played in public"
        if secrets:  # the check can fail: the players did see their private lines
            assert any(secret in visible_text(m) for m in shown if m.ephemeral
                       for secret in secrets)
        assert_private(public, secrets, "a public Discord message")
        assert_private([visible_text(m) for m in shown if m.viewer == str(stranger.id)], secrets,
                       "an answer to the stranger")
        check_discord_markup(shown)
        check_shown(shown)
        # Whoever's name it is, the board names them as typed, escaped.
        assert any(inert(clean_name(HOSTILE_NAMES[0])) in text for text in public)
        requests = world.env.backend.http_requests
        assert sum("content" in str(r.json) for r in requests) >= moves, "messages were sent"
        players = {str(one.id), str(two.id)}
        assert requests and all(mentions_blocked(r.json, players) for r in requests), [
            r.json for r in requests if not mentions_blocked(r.json, players)][:1]
        cues = [r.json for r in requests if isinstance(r.json, dict)
                and is_turn_cue(r.json, players)]
        assert all(str(stranger.id) not in str(cue) for cue in cues), "no cue pings others"


@pytest.mark.parametrize("game", game_names())
async def test_discord_privacy_sweep(tmp_path: Path, game: str) -> None:
    await sweep_discord(tmp_path, game, MOVES)


# ------------------------------------------------------------------------ Telegram
async def stranger_commands_telegram(world: TelegramWorld) -> None:
    """The stranger types a legal move of the player to move, asks for a hand, resigns and
    abandons in the group: each refused, changing nothing."""
    record = await cards.latest_record(world, CHAT)
    state = hostile.state_of(record)
    legal = str(state.action_text(state.legal_actions(state.to_move()[0])[0]))
    before = await hostile.snapshot(world.store)
    for command in (f"/move {legal}", "/hand", "/resign", "/abandon"):
        posted = len(world.fake.bot_messages(CHAT["id"]))
        await world.say(STRANGER, CHAT, command)
        assert len(world.fake.bot_messages(CHAT["id"])) == posted + 1, command
        hostile.assert_clear(world.last(CHAT).text, command)
    assert await hostile.snapshot(world.store) == before, "a stranger's command changed a game"


async def sweep_telegram(tmp_path: Path, game: str, moves: int) -> None:
    rng = random.Random(game)
    async with telegram_world(tmp_path) as world:
        for person in (ONE, TWO, STRANGER):
            await world.say(person, person.private_chat, "/start")
        invitation = await world.say(TWO, CHAT, "let's play")
        await world.say(ONE, CHAT, f"/play {game} {hostile.GAME_OPTIONS[game]}".strip(),
                        reply_to=invitation)
        record = await cards.latest_record(world, CHAT)
        people = {str(ONE.id): ONE, str(TWO.id): TWO}
        secrets: set[str] = set()
        answers: list[dict[str, Any]] = []
        if game == "turing":
            for person in (ONE, TWO):
                for label in TURING_OPENING:
                    await world.click(person, world.last(person.private_chat), label)
        await stranger_commands_telegram(world)
        for _ in range(moves):
            record = await cards.latest_record(world, CHAT)
            secrets |= private_lines(record)
            if not record.running:
                break
            person = people[record.players[hostile.state_of(record).to_move()[0]]["id"]]
            answers += await telegram_move(world, person, record, rng)
        secrets |= private_lines(await cards.latest_record(world, CHAT))
        public = group_texts(world, CHAT["id"])
        assert public
        if secrets:  # the check can fail: the players did see their private lines
            assert any(secret in text for person in (ONE, TWO)
                       for text in group_texts(world, person.id) for secret in secrets)
        assert_private(public, secrets, "a group message")
        assert_private([str(a.get("text", "")) for a in answers], secrets,
                       "an alert to the stranger")
        assert_private(group_texts(world, STRANGER.id), secrets, "the stranger's chat")
        assert world.fake.refusals == []
        for name in (ONE, TWO):
            typed = neutral(clean_name(f"{name.first_name} {name.last_name}"))
            assert any(typed in text for text in public), f"{typed!r} is not shown as typed"
        for text in public:
            assert not re.search(r"@\w", text), f"a live @mention in {text!r}"
        for params in world.fake.calls("sendMessage") + world.fake.calls("editMessageText"):
            assert "<b>x</b>" not in str(params["text"]), "a name's HTML was passed on"


@pytest.mark.parametrize("game", game_names())
async def test_telegram_privacy_sweep(tmp_path: Path, game: str) -> None:
    await sweep_telegram(tmp_path, game, MOVES)


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
async def test_long_privacy_sweeps(tmp_path: Path, game: str) -> None:
    await sweep_discord(tmp_path / "discord", game, 40)
    await sweep_telegram(tmp_path / "telegram", game, 40)


# ------------------------------------------------------------ fixes the sweep found
def test_names_cannot_ping_or_link() -> None:
    """Found by the sweep: Telegram makes "@name" in any text a mention that notifies that
    user, and discord.py's escape_markdown takes a masked link as one greedy match to the
    line's last ")", escaping nothing inside it: a second link and a "*bold*" after the
    first link stayed live. Both are now inert wherever the adapters write text."""
    from bot.adapters.telegram.layout import Block

    assert Block("@teacher moved").html() == "@\u2060teacher moved"
    assert inert("[a](http://x) vs [a](http://x)") == "\\[a\\](http://x) vs \\[a\\](http://x)"
    assert inert("[a](http://x) wins (*bold* lost)") == "\\[a\\](http://x) wins (\\*bold\\* lost)"
    assert inert("<@123456789012345678>") == "<@\u200b123456789012345678>"
    assert inert("https://discord.com/channels/1/2_3") == "https://discord.com/channels/1/2_3"
