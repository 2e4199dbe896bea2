"""The load benchmark's scripted people in a process of their own (issue 42.1).

``benchmarks/load.py`` and ``benchmarks/load_processes.py`` measure a bot process's CPU per
saved move and its event loop's busy share. When the scripted people
(``tests/helpers/scripted_play.py``) share that process, their random menu walks, mirror
states and store reads are counted as the bot's (about a fifth of it in issue 42). Here
they run in a child process and talk to the bot process over a Unix socket with a thin
command protocol; the bot process only serves the commands.

Inside the bot's account (the bot process's CPU and its loop):

- every command the people send, run by the real ``Service`` (``board``, ``start_game``,
  ``rematch``, ``play_ai_turn``, ``press``, ``move``): the payload's resolution through the
  menus, the engine, the store with its real durability settings (its writer task, the
  database thread and its synced commit), the drawing of the reply's board, menu and hand;
- reading a request off the socket and pickling the ``Reply`` back, which stand in for an
  adapter's reading of an interaction and its sending of the answer: their CPU is
  measured (``PeopleServer.transport_cpu``) and reported apart, and the bot's CPU per
  saved move is given without it, as issue 42 measured the bot (no transport at all);
- the benchmark's own instruments in the bot process: the stage breakdown
  (``benchmarks/breakdown.py``), the loop-lag sampler, the CPU trace (a few µs a command).

Outside it: the people's menu walks, their mirror of every game and the store reads that
keep it in step (on a connection of their own, in their process), the bare-commit sampler
(a thread of the parent), the computer's thinking in the bot's worker processes (their
CPU is their own; the bot process only sends the job and waits), and PostgreSQL's
server processes.

Each command is timed in the bot process, from the request's arrival to the ``Reply``,
as ``load.py`` timed the call before (the socket's trip is not the bot's latency).
"""

from __future__ import annotations

import asyncio
import contextvars
import multiprocessing
import pickle
import struct
import time
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.config import EVENT_LOOPS
from bot.runtime import run_on_loop
from bot.service import Reply, Service
from bot.store import GameRecord
from tests.helpers.scripted_play import ScriptedPlayer, make_table, play_table

HEADER = struct.Struct("!I")
# The Service methods the people may call, and nothing else.
SERVICE_CALLS = ("board", "start_game", "rematch", "play_ai_turn", "press", "move")
LATE_READ_TRIES = 50
LATE_READ_PAUSE_S = 0.02
LABEL: contextvars.ContextVar[str] = contextvars.ContextVar("label", default="")

Recorder = Callable[[str, float], None]
Traced = Callable[[str, Callable[[], Awaitable[Reply]]], Awaitable[Reply]]


def frame(message: Any) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


async def read_frame(reader: asyncio.StreamReader) -> Any:
    (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
    return pickle.loads(await reader.readexactly(size))


class PeopleServer:
    """The bot process's side: serves the people's commands on ``service`` and times each
    one (``record``), through ``traced`` (the stage breakdown) when there is one."""

    def __init__(self, service: Service, socket_path: Path, record: Recorder,
                 traced: Traced | None = None) -> None:
        self.service = service
        self.socket_path = socket_path
        self.record = record
        self.traced = traced
        self.done: list[float] = []  # when each table played its last move
        # CPU seconds this process spent on the socket's frames (unpickling requests,
        # pickling and writing replies): the benchmark's transport, reported apart.
        self.transport_cpu = 0.0
        self.connected = asyncio.Event()
        self.finished = asyncio.Event()
        self.summary: dict[str, Any] = {}
        self._writer: asyncio.StreamWriter | None = None
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._serve, path=str(self.socket_path),
                                                       limit=1 << 20)

    async def go(self) -> None:
        """Release the people (they wait after connecting), once the clocks run."""
        await self.connected.wait()
        assert self._writer is not None
        self._writer.write(frame(("go",)))

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._writer is not None:
            self._writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self.connected.set()
        try:
            while True:
                (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
                body = await reader.readexactly(size)
                cpu = time.thread_time()
                message = pickle.loads(body)
                self.transport_cpu += time.thread_time() - cpu
                if message[0] == "call":
                    task = asyncio.create_task(self._call(writer, *message[1:]))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
                elif message[0] == "done":
                    self.done.append(time.perf_counter())
                elif message[0] == "finished":
                    self.summary = message[1]
                    self.finished.set()
                    return
        except (asyncio.IncompleteReadError, OSError, pickle.UnpicklingError) as error:
            self.summary = {"error": f"the people's connection failed: {error!r}"}
            self.finished.set()

    async def _call(self, writer: asyncio.StreamWriter, number: int, label: str, method: str,
                    args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if method not in SERVICE_CALLS:
            raise ValueError(f"not a service call: {method}")
        call = getattr(self.service, method)
        started = time.perf_counter()
        if self.traced is not None:
            reply = await self.traced(label, lambda: call(*args, **kwargs))
        else:
            reply = await call(*args, **kwargs)
        self.record(label, time.perf_counter() - started)
        cpu = time.thread_time()
        writer.write(frame((number, reply)))
        self.transport_cpu += time.thread_time() - cpu


class RemoteService:
    """The people's side: the ``Service`` calls the script makes, sent to the bot process;
    the label is the script's name for the command (``press_move``, ``hand`` …)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._waiting: dict[int, asyncio.Future[Reply]] = {}
        self._numbers = iter(range(1 << 62))

    @staticmethod
    def hides_hands(record: GameRecord) -> bool:
        return Service.hides_hands(record)

    async def receive(self) -> None:
        try:
            while True:
                number, reply = await read_frame(self._reader)
                self._waiting.pop(number).set_result(reply)
        except BaseException as error:  # every waiting command hears of it
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError(f"the bot's socket: {error!r}"))
            raise

    def _send(self, method: str, *args: Any, **kwargs: Any) -> asyncio.Future[Reply]:
        number = next(self._numbers)
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        self._writer.write(frame(("call", number, LABEL.get(), method, args, kwargs)))
        return future

    def board(self, *args: Any, **kwargs: Any) -> asyncio.Future[Reply]:
        return self._send("board", *args, **kwargs)

    def start_game(self, *args: Any, **kwargs: Any) -> asyncio.Future[Reply]:
        return self._send("start_game", *args, **kwargs)

    def rematch(self, *args: Any, **kwargs: Any) -> asyncio.Future[Reply]:
        return self._send("rematch", *args, **kwargs)

    def play_ai_turn(self, *args: Any, **kwargs: Any) -> asyncio.Future[Reply]:
        return self._send("play_ai_turn", *args, **kwargs)

    def press(self, *args: Any, **kwargs: Any) -> asyncio.Future[Reply]:
        return self._send("press", *args, **kwargs)

    def move(self, *args: Any, **kwargs: Any) -> asyncio.Future[Reply]:
        return self._send("move", *args, **kwargs)


class RemotePlayer(ScriptedPlayer):
    """Labels each call for the bot process, which times it; nothing is timed here.

    The mirror is read on a connection of this process. Under load, a game the bot had
    acknowledged (a new game, or the computer's move) was now and then not yet visible
    to that connection on SQLite, at the version the bot's reply showed; such a read is
    tried again, and counted (``late_reads``), rather than failing the run."""

    late_reads = 0

    async def _sync(self, table: Any, game_id: int) -> GameRecord:
        board = table.reply.board if table.reply is not None else None
        shown = board.version if board is not None and board.game_id == game_id else 1
        for _ in range(LATE_READ_TRIES):
            record = await self.store.get_game(game_id)
            if record is not None and record.version >= shown:
                break
            RemotePlayer.late_reads += 1
            await asyncio.sleep(LATE_READ_PAUSE_S)
        return await super()._sync(table, game_id)

    async def _command(self, name: str, call: Callable[[], Awaitable[Reply]]) -> Reply:
        token = LABEL.set(name)
        try:
            return await call()
        finally:
            LABEL.reset(token)


async def _open_store(store_spec: tuple[str, str]) -> Any:
    kind, where = store_spec
    if kind == "sqlite":
        from bot.store import SQLiteStore
        return await SQLiteStore.open(where)
    from bot.store.postgres import PostgresStore
    return await PostgresStore.open(where, pool_size=4)


async def _people(socket_path: str, store_spec: tuple[str, str], indexes: list[int],
                  seed: int, moves: int, think: float, click: float, ramp: float,
                  platform: str) -> None:
    import random

    store = await _open_store(store_spec)
    reader, writer = await asyncio.open_unix_connection(socket_path, limit=1 << 20)
    try:
        assert await read_frame(reader) == ("go",)
        service = RemoteService(reader, writer)
        receiving = asyncio.create_task(service.receive())
        player = RemotePlayer(service, store, think=think, click=click)  # type: ignore[arg-type]
        tables = [make_table(i, seed, platform) for i in indexes]

        async def play(table: Any) -> None:
            await asyncio.sleep(random.Random(f"{seed}-{table.place.channel}").uniform(0, ramp))
            await play_table(player, table, moves)
            writer.write(frame(("done", table.index)))

        error = ""
        try:
            await asyncio.gather(*(play(table) for table in tables))
        except Exception as failure:  # reported to the bot process, which fails the run
            traceback.print_exc()
            error = repr(failure)
        writer.write(frame(("finished", {"moves": sum(t.moves for t in tables),
                                          "games": sum(t.games for t in tables),
                                          "late_reads": RemotePlayer.late_reads,
                                          "error": error})))
        await writer.drain()
        receiving.cancel()
    finally:
        writer.close()
        await store.close()


def _people_main(*args: Any) -> None:
    run_on_loop(_people(*args), EVENT_LOOPS[0])


def start_people(socket_path: Path, store_spec: tuple[str, str], indexes: list[int],
                 seed: int, moves: int, think: float, click: float, ramp: float,
                 platform: str) -> multiprocessing.process.BaseProcess:
    """The people's process (spawned: a fork of a process with an event loop, threads and
    open connections is not safe); it connects to ``socket_path`` and waits for ``go``."""
    context = multiprocessing.get_context("spawn")
    process = context.Process(target=_people_main, daemon=False, args=(
        str(socket_path), store_spec, indexes, seed, moves, think, click, ramp, platform))
    process.start()
    return process


async def wait_for_people(server: PeopleServer,
                          process: multiprocessing.process.BaseProcess) -> None:
    """Until the people say they finished; a process that died without saying so fails
    the run rather than hanging it."""
    while not server.finished.is_set():
        try:
            await asyncio.wait_for(server.finished.wait(), 5)
        except TimeoutError:
            if not process.is_alive():
                raise RuntimeError(f"the people's process died (exit code {process.exitcode})"
                                   ) from None
    if server.summary.get("error"):
        raise RuntimeError(f"the scripted people failed: {server.summary['error']}")
