"""The player's experience, measured: one whole game of each game on each platform.

Run from the repository root. It needs the dev extras (simcord), which ``./run-tests``
installs; progress (one line per game) goes to stderr::

    python benchmarks/ux_walk.py [--seed 1] [--games lgame,booleo] [--platforms discord]
                                 [--json]

Two people play each game against each other through the real adapters: on Discord
through simcord (discord.py against an in-memory Discord), on Telegram through the
loopback fake of the Bot API that the adapter tests use. Every game can seat two people,
so nobody plays the computer here. Each person knows what they want to play: at every turn
a computer player of the game chooses the move for them (the same levels on both
platforms, listed in ``MINDS``), and the person then taps their way to that move the
shortest way the menu allows, as someone who knows the buttons would. Where the platform
cannot show the option they want (a menu cut at Discord's or Telegram's limits), they pick
another one on screen and the walk counts it as a retarget.

For each game and platform it reports:

* **taps per move** (median and max): the presses and select choices from the first menu
  step to the press that saved the move, the press that opened a private hand included;
* **posts and edits**: the messages the bot sent and edited in the game's channel or
  group, and in private (Discord's ephemeral messages, Telegram's private chats);
* **turn cues**: how many the bot sent, and the most alive at once (looked at after every
  tap), which must never exceed the number of people waiting to move;
* **widest code block**: the widest line, in monospace columns
  (``renderers.common.display_width``), of any code block of any message of the game:
  Discord's fenced blocks, Telegram's ``<pre>`` blocks. Phones show 32.

The games use the seed's deals on both platforms, so the two columns describe the same
games as far as the adapters let them. The Turing Machine plays a fixed booklet puzzle
(``TURING_PUZZLE``): a generated one is CPU work for the bot's worker processes.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import itertools
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.progress import Progress
from bot.payloads import Payload
from bot.store import GameRecord
from engines.base import GRID_TOKEN, Action, Agent, GameError, GameState
from engines.registry import game_names, get_game, make_agent
from renderers.common import PHONE_COLUMNS, display_width, split_blocks

try:
    from simcord.results import ResponseMessage

    from bot.adapters.discord.menus import BUTTON_PREFIX, SELECT_PREFIX, select_payload
    from tests.helpers.discord_text import visible_text
    from tests.helpers.discord_world import World as DiscordWorld
    from tests.helpers.discord_world import components_of, discord_world
    from tests.helpers.telegram_fake import Person, Sent, group_chat
    from tests.helpers.telegram_world import World as TelegramWorld
    from tests.helpers.telegram_world import telegram_world
except ImportError as missing:  # simcord is a dev extra: say so instead of a traceback
    sys.exit(f"benchmarks/ux_walk.py needs the dev extras ({missing.name} is missing): "
             "run ./run-tests once, or .venv/bin/pip install -e '.[dev]'")

PLATFORMS = ("discord", "telegram")
GAMES = ("lgame", "booleo", "digitalo", "turing", "rithmomachia")
assert set(GAMES) == set(game_names()), "every game is walked"
TURING_PUZZLE = "TM-C4E-23NNR2QV"  # the booklet's first challenge
OPTIONS: dict[str, str] = {game: "" for game in GAMES} | {"turing": f"puzzle={TURING_PUZZLE}"}
# The computer levels that choose each seat's moves: games that end on their own within
# a few dozen moves, a strong player against a weaker one where equals would draw.
MINDS: dict[str, tuple[str, str]] = {
    "lgame": ("strong", "easy"),
    "booleo": ("strong", "strong"),
    "digitalo": ("easy", "easy"),
    "turing": ("strong", "easy"),
    "rithmomachia": ("easy", "easy"),
}
CUE_MARK = "🔔"
MAX_TAPS = 40  # per move: more means the walk is lost, which is a finding in itself
MAX_MOVES = 600  # per game, far above any game's own limit
TARGET_TAPS = 2.0
_PRE = re.compile(r"<pre>(.*?)</pre>", re.S)


# ------------------------------------------------------------------ measurements
@dataclass
class Option:
    """One thing a player can press now: its menu path and the menu version it was
    drawn for, and what the platform needs to press it."""

    path: tuple[str, ...]
    version: int
    press: Any


@dataclass
class Tally:
    """What one game looked like to its players."""

    game: str
    platform: str
    board: str = "emoji"
    players: str = "two humans"
    options: str = ""
    outcome: str = ""
    moves: int = 0
    taps: list[int] = field(default_factory=list)
    # The same moves made on the board's grid instead (the L-game, Rithmomachia), counted
    # on the engine's grid menu: its second view, not the way the walk plays.
    grid_taps: list[int] = field(default_factory=list)
    select_taps: int = 0
    hand_opens: int = 0
    retargets: int = 0
    channel_posts: int = 0
    channel_edits: int = 0
    private_posts: int = 0
    private_edits: int = 0
    deletions: int = 0
    cues_sent: int = 0
    cues_alive_max: int = 0
    cue_excess: int = 0  # observations with more cues alive than people waiting
    cues_left_at_end: int = 0
    widest_block: int = 0
    widest_line: str = ""
    seconds: float = 0.0

    def note_text(self, text: str) -> None:
        for block in split_blocks(text):
            if not block.code:
                continue
            for line in block.text.split("\n"):
                width = display_width(line)
                if width > self.widest_block:
                    self.widest_block, self.widest_line = width, line

    def summary(self) -> dict[str, Any]:
        data = asdict(self)
        data["taps_median"] = statistics.median(self.taps) if self.taps else 0
        data["taps_max"] = max(self.taps, default=0)
        data["taps_mean"] = round(statistics.fmean(self.taps), 2) if self.taps else 0
        data["grid_taps_median"] = (statistics.median(self.grid_taps) if self.grid_taps
                                    else None)
        data["meets_taps"] = data["taps_median"] <= TARGET_TAPS
        data["meets_width"] = self.widest_block <= PHONE_COLUMNS
        data["seconds"] = round(self.seconds, 2)
        return data


# ------------------------------------------------------------------ the players' minds
def menu_paths(state: GameState, seat: int) -> dict[Action, tuple[str, ...]]:
    """Each move the menu offers ``seat``, with the shortest path of taps to it."""
    found: dict[Action, tuple[str, ...]] = {}
    frontier: list[tuple[str, ...]] = [()]
    while frontier:
        deeper: list[tuple[str, ...]] = []
        for path in frontier:
            for choice in state.menu(seat, path):
                step = (*path, choice.token)
                if choice.action is not None:
                    found.setdefault(choice.action, step)
                else:
                    deeper.append(step)
        frontier = deeper
    return found


def grid_path(state: GameState, seat: int, wanted: Action) -> tuple[str, ...] | None:
    """The shortest path of taps that makes ``wanted`` on the board's grid
    (``GameState.offers_grid``), from the tap that opens the grid; None for a game
    without one. Breadth first over grid paths; a tap the grid refuses is a dead end, as
    it is for a player."""
    if not state.offers_grid():
        return None
    frontier: list[tuple[str, ...]] = [(GRID_TOKEN,)]
    seen: set[tuple[str, ...]] = set()
    while frontier:
        deeper: list[tuple[str, ...]] = []
        for path in frontier:
            try:
                choices = state.menu(seat, path)
            except GameError:
                continue
            for choice in choices:
                step = (*path, choice.token)
                if choice.action == wanted:
                    return step
                # The squares of an L are a set: one order of them is enough.
                key = (*path[:1], *sorted(step[1:])) if state.game_name == "lgame" else step
                if choice.action is None and key not in seen and len(step) < 10:
                    seen.add(key)
                    deeper.append(step)
        frontier = deeper
    return None


def grid_taps(state: GameState, seat: int, wanted: Action) -> int | None:
    """The fewest taps that make ``wanted`` on the grid, the one that opens it included."""
    path = grid_path(state, seat, wanted)
    return None if path is None else len(path)


class Mind:
    """What each seat of one game wants to play: a computer player's choice."""

    def __init__(self, game: str, seed: int) -> None:
        self.game = game
        self.rng = random.Random(f"{seed}:{game}")
        self.agents: dict[int, Agent] = {
            seat: make_agent(game, level, random.Random(f"{seed}:{game}:{seat}"))
            for seat, level in enumerate(MINDS[game])}
        self.unreachable = 0  # chosen moves that no menu path leads to
        self.last_wanted: Action | None = None

    def target(self, state: GameState, seat: int) -> tuple[str, ...]:
        paths = menu_paths(state, seat)
        wanted = self.agents[seat].choose(state, seat)
        if wanted not in paths:
            with suppress(Exception):  # an agent's own spelling of a menu move
                wanted = state.parse_action(str(wanted), seat)
        if wanted in paths:
            self.last_wanted = wanted
            return paths[wanted]
        self.unreachable += 1
        return paths[self.rng.choice(sorted(paths))]

    def retarget(self, state: GameState, seat: int, offered: list[tuple[str, ...]]
                 ) -> tuple[str, ...]:
        """A move under one of the options on screen, when the wanted one is not shown."""
        paths = [path for path in menu_paths(state, seat).values()
                 if any(path[:len(step)] == step for step in offered)]
        return self.rng.choice(sorted(paths))


# ------------------------------------------------------------------ platforms
class Table(Protocol):
    """One game in one channel or group of one platform, as its two players see it."""

    tally: Tally

    async def start(self, board: str) -> None:
        """Set the board style (``emoji`` or ``text``) and start the game."""

    async def record(self) -> GameRecord: ...

    def menu(self, seat: int, record: GameRecord) -> list[Option] | None:
        """The options ``seat`` can press now: the board's menu, or in a game with
        hidden hands the player's private hand (None when it must be opened first)."""

    async def press(self, seat: int, option: Option) -> None: ...

    async def open_hand(self, seat: int) -> None: ...

    def cues_alive(self) -> int: ...

    def finish(self) -> None:
        """Count the messages of the game into the tally."""


def menu_version(record: GameRecord, state: GameState, seat: int) -> int:
    own = state.seat_version(seat)
    return record.version if own is None else own


def parsed(payload: str) -> Payload | None:
    found = Payload.parse(payload)
    return found if found is not None and found.kind == "m" else None


class DiscordTable:
    def __init__(self, world: DiscordWorld, game: str, number: int) -> None:
        self.world = world
        self.game = game
        self.tally = Tally(game, "discord", options=OPTIONS[game])
        self.channel = world.guild.create_text_channel(f"{game}-{number}")
        self.players = (world.alice, world.bob)
        self.hands: dict[int, Any] = {}
        self.events: list[tuple[str, bool, str]] = []  # (post|edit|delete, private, text)
        self.bot_id = world.bot.user.id if world.bot.user is not None else 0
        self._watch()

    def _watch(self) -> None:
        backend = self.world.env.backend
        commit, edit, delete = backend.commit_message, backend.edit_message, \
            backend.delete_message
        channel_id = self.channel.id

        def committed(message: Any, *args: Any, **kwargs: Any) -> Any:
            stored = commit(message, *args, **kwargs)
            if stored.channel_id == channel_id and stored.author_id == self.bot_id:
                # A Components V2 message (a board you tap, a card hand) has its text
                # in text displays, not its content.
                self.events.append(("post", bool(stored.is_ephemeral), visible_text(stored)))
            return stored

        def edited(channel: int, message_id: int, fields: dict[str, Any]) -> Any:
            stored = edit(channel, message_id, fields)
            if channel == channel_id:
                self.events.append(("edit", bool(stored.is_ephemeral), visible_text(stored)))
            return stored

        def deleted(channel: int, message_id: int) -> None:
            if channel == channel_id:
                self.events.append(("delete", False, ""))
            delete(channel, message_id)

        backend.commit_message, backend.edit_message = committed, edited
        backend.delete_message = deleted

    async def start(self, board: str) -> None:
        self.tally.board = board
        await self.world.bot.set_guild_setting(self.world.guild.id, "board", board)
        options = {"options": OPTIONS[self.game]} if OPTIONS[self.game] else {}
        started = await self.players[0].slash(self.channel, "play", game=self.game,
                                              opponent=self.players[1], **options)
        assert started.acknowledged, started
        await self.world.bot.wait_for_background()
        for followup in started.followups:  # the starter's own hand, sent with the board
            if followup.ephemeral:
                self.hands[0] = followup
        record = await self.record()
        if record.status == "waiting":  # a lobby: the second player takes the seat first
            for seat, kind in ((1, "j"), (0, "g")):
                shown = self.board(record)
                ids = [c["custom_id"] for c in components_of(shown)
                       if str(c.get("custom_id", "")).startswith(f"{BUTTON_PREFIX}{kind}:")]
                if ids:
                    await self.players[seat].click(shown, custom_id=ids[0])
                    record = await self.record()

    async def record(self) -> GameRecord:
        records = [r for status in ("waiting", "active", "finished", "abandoned")
                   for r in await self.world.store.games_with_status(status)
                   if r.channel == str(self.channel.id)]
        assert records, f"no {self.game} game in the channel"
        return max(records, key=lambda r: r.id)

    def board(self, record: GameRecord) -> ResponseMessage:
        """The board message, read from the in-memory Discord (the channel's whole history
        would be read again at every tap otherwise, hands included)."""
        assert record.board_ref is not None, "the game has a board"
        stored = self.world.env.backend.get_message(self.channel.id,
                                                    int(record.board_ref["message"]))
        return ResponseMessage(self.world.env, stored)

    @staticmethod
    def options_of(message: Any) -> list[Option]:
        found: list[Option] = []
        for component in components_of(message):
            custom_id = str(component.get("custom_id", ""))
            if component["type"] == 2 and custom_id.startswith(BUTTON_PREFIX):
                payload = parsed(custom_id[len(BUTTON_PREFIX):])
                if payload is not None:
                    found.append(Option(payload.path, payload.version,
                                        (message, custom_id, None)))
            elif component["type"] == 3 and custom_id.startswith(SELECT_PREFIX):
                prefix = custom_id[len(SELECT_PREFIX):].rsplit(":", 1)[0]
                for choice in component["options"]:
                    payload = parsed(select_payload(prefix, str(choice["value"])))
                    if payload is not None:
                        found.append(Option(payload.path, payload.version,
                                            (message, custom_id, str(choice["value"]))))
        return found

    def menu(self, seat: int, record: GameRecord) -> list[Option] | None:
        if not get_game(self.game).INFO.hidden_information:
            return self.options_of(self.board(record))
        hand = self.hands.get(seat)
        return None if hand is None else self.options_of(hand)

    async def press(self, seat: int, option: Option) -> None:
        message, custom_id, value = option.press
        actor = self.players[seat]
        if value is None:
            result = await actor.click(message, custom_id=custom_id)
        else:
            result = await actor.select(message, [value], custom_id=custom_id)
            self.tally.select_taps += 1
        assert result.acknowledged, result
        await self.world.bot.wait_for_background()

    async def open_hand(self, seat: int) -> None:
        board = self.board(await self.record())
        [custom_id] = [c["custom_id"] for c in components_of(board)
                       if str(c.get("custom_id", "")).startswith(f"{BUTTON_PREFIX}h:")]
        result = await self.players[seat].click(board, custom_id=custom_id)
        await self.world.bot.wait_for_background()
        assert result.response is not None and result.response.ephemeral, result
        self.hands[seat] = result.response

    def cues_alive(self) -> int:
        messages = self.world.env.backend.messages.get(self.channel.id, {})
        return sum(str(m.content).startswith(CUE_MARK) for m in messages.values())

    def finish(self) -> None:
        for kind, private, text in self.events:
            self.tally.note_text(text)
            if kind == "delete":
                self.tally.deletions += 1
            elif kind == "post":
                if private:
                    self.tally.private_posts += 1
                else:
                    self.tally.channel_posts += 1
                    self.tally.cues_sent += text.startswith(CUE_MARK)
            elif private:
                self.tally.private_edits += 1
            else:
                self.tally.channel_edits += 1


TELEGRAM_PEOPLE = (Person(3001, "Ann", username="ann"), Person(3002, "Ben"))


class TelegramTable:
    def __init__(self, world: TelegramWorld, game: str, number: int) -> None:
        self.world = world
        self.game = game
        self.tally = Tally(game, "telegram", options=OPTIONS[game])
        self.chat = group_chat(-1007000 - number, f"{game} table")
        self.players = TELEGRAM_PEOPLE
        self.first_request = len(world.fake.requests)

    async def start(self, board: str) -> None:
        self.tally.board = board
        await self.world.bot.set_chat_setting(self.chat["id"], "board", board)
        invitation = await self.world.say(self.players[1], self.chat, "shall we play?")
        self.first_request = len(self.world.fake.requests)
        await self.world.say(self.players[0], self.chat,
                             f"/play {self.game} {OPTIONS[self.game]}".strip(),
                             reply_to=invitation)
        record = await self.record()
        if record.status == "waiting":
            for seat, kind in ((1, "j"), (0, "g")):
                shown = await self.world.board(self.chat)
                data = [b["callback_data"] for b in shown.buttons
                        if str(b.get("callback_data", "")).startswith(f"{kind}:")]
                if data:
                    await self.world.press(self.players[seat], shown, data[0])

    async def record(self) -> GameRecord:
        records = [r for status in ("waiting", "active", "finished", "abandoned")
                   for r in await self.world.store.games_with_status(status)
                   if r.channel == str(self.chat["id"])]
        assert records, f"no {self.game} game in the group"
        return max(records, key=lambda r: r.id)

    def board(self, record: GameRecord) -> Sent:
        ref = record.board_ref or {}
        return self.world.fake.messages[(self.chat["id"], int(ref["message"]))]

    @staticmethod
    def options_of(message: Sent) -> list[Option]:
        found: list[Option] = []
        for button in message.buttons:
            payload = parsed(str(button.get("callback_data", "")))
            if payload is not None:
                found.append(Option(payload.path, payload.version,
                                    (message, button["callback_data"])))
        return found

    def menu(self, seat: int, record: GameRecord) -> list[Option] | None:
        if not get_game(self.game).INFO.hidden_information:
            return self.options_of(self.board(record))
        chat_id = self.players[seat].id
        mine = self.world.fake.bot_messages(chat_id)
        hands = [m for m in mine if any(str(b.get("callback_data", "")).startswith(
            f"m:{record.id}:") for b in m.buttons)]
        return self.options_of(hands[-1]) if hands else None

    async def press(self, seat: int, option: Option) -> None:
        message, data = option.press
        answers = await self.world.press(self.players[seat], message, data)
        assert answers, "every press is answered"

    async def open_hand(self, seat: int) -> None:
        board = self.board(await self.record())
        [data] = [b["callback_data"] for b in board.buttons
                  if str(b.get("callback_data", "")).startswith("h:")]
        await self.world.press(self.players[seat], board, data)

    def cues_alive(self) -> int:
        return sum(sent.text.startswith(CUE_MARK)
                   for sent in self.world.fake.bot_messages(self.chat["id"]))

    def finish(self) -> None:
        people = {person.id for person in self.players}
        for method, params in self.world.fake.requests[self.first_request:]:
            chat = int(params.get("chat_id", 0) or 0)
            if chat != self.chat["id"] and chat not in people:
                continue
            private = chat in people
            text = str(params.get("text", ""))
            for block in _PRE.findall(text):
                self.tally.note_text(f"```\n{html.unescape(block)}\n```")
            if method == "sendMessage":
                if private:
                    self.tally.private_posts += 1
                else:
                    self.tally.channel_posts += 1
                    self.tally.cues_sent += html.unescape(text).startswith(CUE_MARK)
            elif method in ("editMessageText", "editMessageReplyMarkup"):
                if private:
                    self.tally.private_edits += 1
                else:
                    self.tally.channel_edits += 1
            elif method == "deleteMessage":
                self.tally.deletions += 1


# ------------------------------------------------------------------ the walk
async def play_move(table: Table, mind: Mind, record: GameRecord, state: GameState,
                    seat: int) -> int:
    """``seat`` taps their way to the move their mind wants; returns the taps."""
    target = mind.target(state, seat)
    wanted_version = menu_version(record, state, seat)
    pressed: tuple[str, ...] = ()
    taps = 0
    while taps < MAX_TAPS:
        options = table.menu(seat, record)
        current = [o for o in options or [] if o.version == wanted_version]
        if not current:
            if options is not None and not get_game(record.game).INFO.hidden_information:
                raise AssertionError(f"no current menu for seat {seat} on the board")
            await table.open_hand(seat)
            table.tally.hand_opens += 1
            taps += 1
            pressed = ()
            continue
        following = [o for o in current if len(o.path) == len(pressed) + 1
                     and o.path[:-1] == pressed]
        if not following:
            if not pressed:
                raise AssertionError(f"seat {seat}'s menu offers no first step")
            pressed = ()  # the menu went back to its first step
            continue
        step = next((o for o in following if o.path == target[:len(pressed) + 1]), None)
        if step is None:
            table.tally.retargets += 1
            target = mind.retarget(state, seat, [o.path for o in following])
            continue
        await table.press(seat, step)
        taps += 1
        observe_cues(table, state)
        after = await table.record()
        if after.version > record.version:
            return taps
        pressed = step.path
    raise AssertionError(f"{table.tally.platform} {record.game}: no move after {taps} taps")


def observe_cues(table: Table, state: GameState) -> None:
    alive = table.cues_alive()
    table.tally.cues_alive_max = max(table.tally.cues_alive_max, alive)
    if alive > max(1, len(state.to_move())):
        table.tally.cue_excess += 1


async def walk_game(table: Table, seed: int, board: str = "emoji",
                    max_moves: int = MAX_MOVES) -> Tally:
    began = time.perf_counter()
    await table.start(board)
    mind = Mind(table.tally.game, seed)
    module = get_game(table.tally.game)
    turn = itertools.count()
    while table.tally.moves < max_moves:
        record = await table.record()
        if record.status != "active":
            break
        state = module.State.from_dict(record.state)
        movers = state.to_move()
        seat = movers[next(turn) % len(movers)]
        mind.last_wanted = None
        table.tally.taps.append(await play_move(table, mind, record, state, seat))
        if mind.last_wanted is not None:
            on_grid = grid_taps(state, seat, mind.last_wanted)
            if on_grid is not None:
                table.tally.grid_taps.append(on_grid)
        table.tally.moves += 1
        after = await table.record()
        observe_cues(table, module.State.from_dict(after.state))
    final = await table.record()
    outcome = final.state.get("outcome") or {}
    names = [p.get("name", "?") for p in final.players]
    winners = ", ".join(names[w] for w in outcome.get("winners", [])) or "nobody"
    table.tally.outcome = f"{outcome.get('reason', final.status)}; won: {winners}"
    table.tally.cues_left_at_end = table.cues_alive()
    table.finish()
    table.tally.seconds = time.perf_counter() - began
    if mind.unreachable:
        table.tally.outcome += f"; {mind.unreachable} wanted moves not on the menu"
    return table.tally


class Seeds:
    """Each new game's seed, set before the game starts: a game gets the same deal on
    both platforms, whichever other games are walked."""

    def __init__(self) -> None:
        self.next = 0

    def __call__(self) -> int:
        return self.next

    def set(self, seed: int, game: str) -> None:
        self.next = seed * 1000 + GAMES.index(game)


@asynccontextmanager
async def platform_world(platform: str, folder: Path, seeds: Seeds
                         ) -> AsyncIterator[DiscordWorld | TelegramWorld]:
    if platform == "discord":
        async with discord_world(folder, seed_source=seeds) as discord:
            yield discord
        return
    async with telegram_world(folder, seed_source=seeds) as telegram:
        for person in TELEGRAM_PEOPLE:
            await telegram.say(person, person.private_chat, "/start")
        yield telegram


async def walk(platforms: list[str], games: list[str], seed: int, board: str = "emoji",
               max_moves: int = MAX_MOVES) -> list[Tally]:
    """Each game in a world of its own: simcord's Discord slows down as its messages pile
    up, which would charge the last games for the first ones' messages."""
    tallies: list[Tally] = []
    progress = Progress("ux walk", len(platforms) * len(games))
    seeds = Seeds()
    for platform in platforms:
        for number, game in enumerate(games):
            seeds.set(seed, game)
            with tempfile.TemporaryDirectory() as folder:
                async with platform_world(platform, Path(folder), seeds) as world:
                    table: Table = (DiscordTable(world, game, number)
                                    if isinstance(world, DiscordWorld)
                                    else TelegramTable(world, game, number))
                    tally = await walk_game(table, seed, board, max_moves)
            tallies.append(tally)
            row = tally.summary()
            progress.say(f"{platform} {game}: {tally.moves} moves, taps/move "
                         f"{row['taps_median']:g} (max {row['taps_max']}), widest block "
                         f"{tally.widest_block} ({tally.seconds:.1f} s)")
    return tallies


# ------------------------------------------------------------------ output
COLUMNS = ("game", "platform", "moves", "taps med", "taps max", "posts ch/pr",
           "edits ch/pr", "cues", "cues alive", "widest", "grid taps med")


def table_rows(tallies: list[Tally]) -> list[list[str]]:
    rows = []
    for tally in tallies:
        row = tally.summary()
        rows.append([tally.game, tally.platform, str(tally.moves), f"{row['taps_median']:g}",
                     str(row["taps_max"]), f"{tally.channel_posts}/{tally.private_posts}",
                     f"{tally.channel_edits}/{tally.private_edits}", str(tally.cues_sent),
                     str(tally.cues_alive_max), str(tally.widest_block),
                     "—" if row["grid_taps_median"] is None
                     else f"{row['grid_taps_median']:g} (max {max(tally.grid_taps)})"])
    return rows


def markdown(tallies: list[Tally]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(tallies)]
    return "\n".join(lines)


def verdicts(tallies: list[Tally]) -> list[str]:
    lines = []
    for tally in tallies:
        row = tally.summary()
        problems = []
        if not row["meets_taps"]:
            problems.append(f"median {row['taps_median']:g} taps per move > {TARGET_TAPS:g}")
        if not row["meets_width"]:
            problems.append(f"a code block {tally.widest_block} columns wide > "
                            f"{PHONE_COLUMNS}: {tally.widest_line!r}")
        if tally.cue_excess:
            problems.append(f"more cues alive than people waiting, {tally.cue_excess} times")
        if tally.cues_left_at_end:
            problems.append(f"{tally.cues_left_at_end} cue(s) left after the game")
        verdict = "; ".join(problems) if problems else "meets the targets"
        lines.append(f"{tally.game} on {tally.platform} ({tally.players}; {tally.outcome}; "
                     f"{tally.hand_opens} hand opens, {tally.select_taps} select choices, "
                     f"{tally.retargets} retargets): {verdict}")
    return lines


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES),
                        help="comma-separated games (default: all five)")
    parser.add_argument("--platforms", default=",".join(PLATFORMS),
                        help="comma-separated: discord, telegram")
    parser.add_argument("--board", choices=("emoji", "text"), default="emoji",
                        help="the board style the server or group chose (the bot's "
                             "default: emoji; text draws boards as code blocks)")
    parser.add_argument("--moves", type=int, default=MAX_MOVES,
                        help="stop each game after this many moves (a quick look; the "
                             "game is then left unfinished)")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args()
    for name, known in (("games", GAMES), ("platforms", PLATFORMS)):
        chosen = [word.strip() for word in getattr(args, name).split(",") if word.strip()]
        unknown = sorted(set(chosen) - set(known))
        if unknown or not chosen:
            parser.error(f"--{name}: choose from {', '.join(known)}")
        setattr(args, name, chosen)
    return args


def main() -> None:
    args = arguments()
    began = time.perf_counter()
    tallies = asyncio.run(walk(args.platforms, args.games, args.seed, args.board,
                               args.moves))
    if args.json:
        print(json.dumps({"seed": args.seed, "board": args.board, "minds": MINDS,
                          "target_taps": TARGET_TAPS, "target_columns": PHONE_COLUMNS,
                          "seconds": round(time.perf_counter() - began, 1),
                          "games": [tally.summary() for tally in tallies]}))
        return
    print(markdown(tallies))
    print()
    for line in verdicts(tallies):
        print(line)
    print(f"\n{time.perf_counter() - began:.0f} s, seed {args.seed}, {args.board} boards")


if __name__ == "__main__":
    main()
