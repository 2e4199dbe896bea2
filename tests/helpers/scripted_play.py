"""Seeded random play through the game service, the way players do it: button presses.

Shared by ``benchmarks/load.py`` (many games at once, every command timed) and the
crash-safety test's player (``tests/helpers/crash_player.py``, which reports every acknowledged
move). It lives in tests/helpers/ because both use it: the benchmarks import shared code
from tests/helpers/, and nothing under tests/ imports a benchmark but the tests of the
benchmarks (tests/benchmarks/). One ``Table`` is one channel; its games alternate between
the five games, two people or one person against the computer at the ``easy`` level (see
``table_spec``).

A move is chosen by a random walk through the engine's ``menu`` on a *mirror* state that
follows the service (read from the store after a start, a resume or a computer's move),
until the walk reaches a legal action; then the driver presses the very buttons the
service's last reply offered for that path (a hand button first in games with hidden
hands). A path the reply did not offer is an error, so the driver also checks the button
path. When no walk reaches a legal action (bOOleO's menus also offer wrong gates, which
the referee refuses), the move is typed with ``Service.move``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from bot.service import Button, Opponent, Place, Reply, Service, User
from bot.store import GameRecord, SQLiteStore
from engines.base import Choice, GameState
from engines.registry import get_game

GAMES = ("lgame", "turing", "booleo", "digitalo", "rithmomachia")
# The cheapest level of every game (a random legal move or close to it, well under a
# millisecond): the benchmark measures the bot around the computer, not its thinking.
AI_LEVEL = "easy"
# Random menu walks tried before typing the move instead.
MENU_WALKS = 20

Recorder = Callable[[str, float], None]
# (table, game id, version after the move, seat, action): called once the service
# acknowledged a saved move.
MoveListener = Callable[["Table", int, int, int, str], None]


class PlayError(RuntimeError):
    """The service refused or misreported something the script knows to be legal."""


@dataclass(frozen=True)
class TableSpec:
    game: str
    versus_ai: bool


def table_spec(index: int) -> TableSpec:
    """Every game in turn; one table in three of each game plays against the computer
    (the Turing Machine has no computer seat: that is a solo game against its score)."""
    return TableSpec(GAMES[index % len(GAMES)], (index // len(GAMES)) % 3 == 1)


@dataclass
class Table:
    """One channel, its two people, and the script's copy of its current game."""

    index: int
    spec: TableSpec
    place: Place
    users: tuple[User, User]
    rng: random.Random
    reply: Reply | None = None  # the newest reply: its board and hand are what we press
    record: GameRecord | None = None
    mirror: GameState | None = None
    moves: int = 0  # saved moves, the people's and the computer's
    games: int = 0  # games started or resumed here
    resumed: bool = False  # the last ``open`` found a running game (after a restart)
    # The mirror's menus for its current position, (seat, path) -> options: a move's
    # random walks and its press loop ask for the same ones many times (``menu``).
    menus: dict[tuple[int, tuple[str, ...]], list[Choice]] = field(default_factory=dict)

    def menu(self, seat: int, path: tuple[str, ...]) -> list[Choice]:
        assert self.mirror is not None
        choices = self.menus.get((seat, path))
        if choices is None:
            choices = self.menus[(seat, path)] = self.mirror.menu(seat, path)
        return choices

    @property
    def finished(self) -> bool:
        return self.record is not None and not self.record.running


def make_table(index: int, seed: int, platform: str) -> Table:
    users = (User(platform, f"t{index}a", f"Ann{index}"),
             User(platform, f"t{index}b", f"Bob{index}"))
    return Table(index, table_spec(index), Place(platform, f"c{index}", emoji=False), users,
                 random.Random(seed * 1_000_003 + index))


def _path_of(button: Button) -> str:
    return button.payload.split(":", 3)[3]


@dataclass
class ScriptedPlayer:
    """Drives tables through ``service``; ``think`` is the mean pause (exponential) before
    each move and ``click`` the pause between the presses of one move, in seconds."""

    service: Service
    store: SQLiteStore
    recorder: Recorder = lambda command, seconds: None
    on_move: MoveListener | None = None
    think: float = 0.0
    click: float = 0.0

    async def _command(self, name: str, call: Callable[[], Awaitable[Reply]]) -> Reply:
        started = time.perf_counter()
        reply = await call()
        self.recorder(name, time.perf_counter() - started)
        return reply

    async def _pause(self, table: Table, mean: float, random_length: bool) -> None:
        # Uniform within half the mean either side rather than exponential: bounded pauses
        # keep the tables in step, so the run ends with the load, not with one straggler.
        if mean > 0:
            await asyncio.sleep(table.rng.uniform(mean / 2, mean * 3 / 2) if random_length
                                else mean)

    async def _sync(self, table: Table, game_id: int) -> GameRecord:
        """Read the game back from the store (untimed) and rebuild the mirror from it."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise PlayError(f"game {game_id} of {table.place.channel} is not stored")
        table.record = record
        table.mirror = get_game(record.game).State.from_dict(record.state)
        table.menus.clear()
        return record

    async def open(self, table: Table) -> None:
        """Resume the channel's running game (after a restart) or start a new one."""
        await self._pause(table, self.think, True)
        running = await self.store.running_game(table.place.platform, table.place.channel)
        table.resumed = running is not None
        if running is not None:
            table.reply = await self._command("board", lambda: self.service.board(table.place))
            await self._sync(table, running.id)
        else:
            opponent = (Opponent("ai", level=AI_LEVEL) if table.spec.versus_ai
                        else Opponent("user", user=table.users[1]))
            # A random seat against the computer, so that it sometimes moves first.
            seat = table.rng.randrange(2) if table.spec.versus_ai else 0
            table.reply = await self._command("start", lambda: self.service.start_game(
                table.place, table.users[0], table.spec.game, opponent, creator_seat=seat))
            await self._started(table, "start")
        table.games += 1

    async def _started(self, table: Table, command: str) -> None:
        reply = table.reply
        if reply is None or not reply.ok or reply.board is None:
            raise PlayError(f"{command} in {table.place.channel} refused: "
                            f"{reply.notice if reply else None}")
        await self._sync(table, reply.board.game_id)

    async def play_move(self, table: Table) -> None:
        """One saved move in the table's game: the computer's when it is to move, else a
        random legal one by a person. A finished game is first played again (rematch)."""
        if table.finished:
            await self._pause(table, self.think, True)
            table.reply = await self._command("rematch", lambda: self.service.rematch(
                table.place, self._human_users(table)[0]))
            await self._started(table, "rematch")
            table.games += 1
        assert table.reply is not None and table.record is not None
        if table.reply.ai_to_move:
            await self._computer_move(table)
        else:
            await self._person_move(table)

    def _human_users(self, table: Table) -> list[User]:
        assert table.record is not None
        ids = [p.get("id") for p in table.record.players if p.get("kind") == "human"]
        return [u for i in ids for u in table.users if u.id == i]

    async def _computer_move(self, table: Table) -> None:
        assert table.record is not None
        before = table.record.version
        await self._pause(table, self.click, False)
        reply = await self._command("ai_turn", lambda: self.service.play_ai_turn(table.place))
        if not reply.ok or not reply.moved:
            raise PlayError(f"the computer did not move in {table.place.channel}: "
                            f"{reply.notice}")
        table.reply = reply
        record = await self._sync(table, table.record.id)
        if record.version != before + 1:
            raise PlayError(f"{table.place.channel}: version {record.version} after the "
                            f"computer's move from {before}")
        if self.on_move is not None:
            last = (await self.store.moves(record.id))[-1]
            if last.seat is None or last.kind != "action":
                raise PlayError(f"{table.place.channel}: the computer's move logged as {last}")
            self.on_move(table, record.id, record.version, last.seat, last.action)
        table.moves += 1

    def _pick(self, table: Table, seat: int) -> tuple[tuple[str, ...] | None, str]:
        """A random legal action and the menu path to it (None: not reachable by menu)."""
        mirror = table.mirror
        assert mirror is not None
        legal = set(mirror.legal_actions(seat))
        if not legal:
            raise PlayError(f"{table.place.channel}: seat {seat} to move without a move")
        for _ in range(MENU_WALKS):
            path: tuple[str, ...] = ()
            while choices := table.menu(seat, path):
                choice = table.rng.choice(choices)
                path = (*path, choice.token)
                if choice.action is not None:
                    if choice.action in legal:
                        return path, choice.action
                    break
        return None, table.rng.choice(sorted(legal))

    async def _person_move(self, table: Table) -> None:
        record, mirror = table.record, table.mirror
        assert record is not None and mirror is not None and table.reply is not None
        humans = [s for s in mirror.to_move() if record.players[s].get("kind") == "human"]
        if not humans:
            raise PlayError(f"{table.place.channel}: nobody to move and no computer turn")
        seat = table.rng.choice(humans)
        user = next(u for u in table.users if u.id == record.players[seat]["id"])
        await self._pause(table, self.think, True)
        path, action = self._pick(table, seat)
        hidden = self.service.hides_hands(record)
        if path is None:
            reply = await self._command("move", lambda: self.service.move(
                table.place, user, mirror.action_text(action)))
        else:
            reply = table.reply
            if hidden:
                board = reply.board
                if board is None or board.hand_button is None:
                    raise PlayError(f"{table.place.channel}: no hand button")
                reply = await self._press(table, user, "hand", board.hand_button.payload)
            pressed = False
            for depth in range(1, len(path) + 1):
                if pressed and reply.moved:
                    break  # the steps left had one option each: the service took them
                menu = reply.hand if hidden else reply.board
                wanted = ".".join(path[:depth])
                buttons = menu.buttons if menu else []
                button = next((b for b in buttons if _path_of(b) == wanted), None)
                if button is None:
                    if any(_path_of(b).startswith(wanted + ".") for b in buttons):
                        continue  # a step with one option, taken without a tap
                    raise PlayError(f"{table.place.channel}: no button for {wanted!r}")
                # The press that makes the move: the last step, or one whose later steps
                # all have a single option.
                final = all(len(table.menu(seat, path[:later])) == 1
                            for later in range(depth, len(path)))
                await self._pause(table, self.click, False)
                reply = await self._press(table, user, "press_move" if final else "press",
                                          button.payload)
                pressed = True
        if not reply.ok or not reply.moved or reply.board is None:
            raise PlayError(f"{table.place.channel}: {action!r} refused: {reply.notice}")
        mirror.apply(seat, action)
        table.menus.clear()
        version = record.version + 1
        if reply.board.version != version or reply.finished != (mirror.outcome() is not None):
            raise PlayError(f"{table.place.channel}: service and mirror disagree after "
                            f"{action!r}")
        table.reply = reply
        table.record = replace(record, version=version,
                               status="finished" if reply.finished else "active")
        if self.on_move is not None:
            self.on_move(table, record.id, version, seat, action)
        table.moves += 1

    async def _press(self, table: Table, user: User, name: str, payload: str) -> Reply:
        reply = await self._command(name, lambda: self.service.press(table.place, user,
                                                                      payload))
        if not reply.ok:
            raise PlayError(f"{table.place.channel}: {payload} refused: {reply.notice}")
        return reply


async def play_table(player: ScriptedPlayer, table: Table, moves: int) -> None:
    """Open the table's game, then play ``moves`` saved moves in it (rematches between)."""
    await player.open(table)
    while table.moves < moves:
        await player.play_move(table)

