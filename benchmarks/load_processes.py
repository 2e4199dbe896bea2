"""The load benchmark on PostgreSQL, with one or several bot processes (issue 26.8).

    python benchmarks/load.py --database postgresql://USER:PASSWORD@HOST/DB \\
                              [--processes 2] [--games 1000] [--moves 20] [--seed 1] ...

The same tables, moves and pauses as the SQLite run (``benchmarks/load.py``), but every
bot process is a separate Python process with its own ``Service``, its own pool of
connections to one PostgreSQL database and its own two worker processes, as
``SHARD_IDS``/webhook workers run it: process ``k`` of ``N`` plays the tables whose number
is ``k`` modulo ``N`` (a balancer's share). The processes are started and set up first,
then released together. The run uses a fresh schema in the database, dropped afterwards.

A thread of the parent samples the bare synced commit of the same database every
``SAMPLE_PERIOD_S`` during the run: the store's own save (one row's UPDATE, whose trigger
logs the move) on a connection of its own, so that ``press_move``'s p99 is judged against
what one commit cost at the same moments (issue 42: within 3x at the service level).

Printed: moves/s over the whole run and while every table played, p50/p99 per command
over all processes, each process's event-loop lag, and the bare commit's p50/p99. Run it
with ``--processes 1`` and ``--processes 2`` (and ``--think 0 --click 0 --ramp 0`` for
capacity, where the number of processes can matter: with people's pauses the rate is set
by the pauses, not by the bot).
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import itertools
import multiprocessing
import os
import pstats
import secrets
import shutil
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import replace
from multiprocessing.synchronize import Event as ProcessEvent
from pathlib import Path
from typing import Any

import asyncpg

from benchmarks.load_people import PeopleServer, start_people, wait_for_people
from benchmarks.load_targets import SERVICE_LEVEL_RATIO
from benchmarks.machine import CpuTrace, machine_cpu, window_shares
from benchmarks.timing import summary
from bot.limits import Limits
from bot.runtime import collect_garbage, prepare_interpreter, run_on_loop
from bot.service import Service
from bot.store.postgres import PostgresStore

PLATFORM = "load"
SAMPLE_PERIOD_S = 0.05
LAG_PERIOD_S = 0.05
SAMPLE_STATE = "x" * 900  # as long as a typical stored state
SAVING_COMMANDS = ("press_move", "move", "ai_turn")


def with_search_path(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _lag(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(LAG_PERIOD_S)
        lags.append(time.perf_counter() - started - LAG_PERIOD_S)


async def _play_share(url: str, share: int, processes: int, options: dict[str, Any],
                      ready: Any, go: ProcessEvent) -> dict[str, Any]:
    """One bot process: open the store, start the workers, say ready, wait for the
    others, then play this process's tables."""
    store = await PostgresStore.open(url)
    timings: dict[str, list[float]] = defaultdict(list)
    saved_at: list[float] = []
    opened: list[float] = []
    done: list[float] = []
    games, seed = options["games"], options["seed"]
    mine = [i for i in range(games) if i % processes == share]

    def record(command: str, seconds: float) -> None:
        moment = time.perf_counter()  # CLOCK_MONOTONIC: comparable across processes
        timings[command].append(seconds)
        if command in SAVING_COMMANDS:
            saved_at.append(moment)
        elif command in ("start", "board") and len(opened) < len(mine):
            opened.append(moment)

    try:
        seeds = itertools.count(seed * 1_000_000 + share * 100_000_000)
        limits = replace(Limits.unlimited(), cpu_workers=Limits().cpu_workers,
                         cpu_processes=True)
        service = Service(store, seed_source=lambda: next(seeds), limits=limits)
        service.workers.start()
        # The people in a process of their own (benchmarks/load_people.py): this process's
        # CPU and loop are then the bot's only.
        people_dir = tempfile.mkdtemp(prefix="people-")
        socket_path = Path(people_dir) / "people.sock"
        server = PeopleServer(service, socket_path, record)
        await server.start()
        people = start_people(socket_path, ("postgres", url), mine, seed, options["moves"],
                              options["think"], options["click"], options["ramp"], PLATFORM)
        await asyncio.wait_for(server.connected.wait(), 120)
        ready.put(share)
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        lags: list[float] = []
        stop = asyncio.Event()
        sampler = asyncio.create_task(_lag(lags, stop))
        trace = CpuTrace()
        tracer = asyncio.create_task(trace.run(stop))
        # As ``python -m bot`` runs: ``prepare_interpreter`` switched the automatic
        # collector off, so without this the process would never collect at all.
        collector = asyncio.ensure_future(collect_garbage())

        # --profile: process 0's own time while it plays (its share of the tables).
        profiler = cProfile.Profile() if options.get("profile") and share == 0 else None
        started = time.perf_counter()
        cpu_started = time.process_time()
        try:
            if profiler is not None:
                profiler.enable()
            await server.go()
            await wait_for_people(server, people)
            done.extend(server.done)
        finally:
            if profiler is not None:
                profiler.disable()
            stop.set()
            collector.cancel()
            service.workers.shutdown()
            await server.close()
            people.join(30)
            if people.is_alive():
                people.kill()
            shutil.rmtree(people_dir, ignore_errors=True)
        ended = time.perf_counter()
        # The socket to the people's process stands in for an adapter: counted apart.
        cpu_used = time.process_time() - cpu_started - server.transport_cpu
        await sampler
        await tracer
    finally:
        await store.close()
    profile = ""
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(options["profile"])
        stats.sort_stats("cumulative").print_stats(options["profile"])
        profile = out.getvalue()
    return {"timings": dict(timings), "saved_at": saved_at, "opened": opened, "done": done,
            "profile": profile, "cpu_s": cpu_used,
            "transport_cpu_s": server.transport_cpu,
            "moves": server.summary["moves"], "started": started, "ended": ended,
            "loop_lag": summary(lags or [0.0]), "cpu_trace": trace.samples}


def _process_main(url: str, share: int, processes: int, options: dict[str, Any],
                  ready: Any, go: ProcessEvent, results: Any) -> None:
    prepare_interpreter()  # as ``python -m bot`` sets up its interpreter
    try:
        results.put((share, run_on_loop(_play_share(url, share, processes, options, ready,
                                                    go), options.get("loop", "uvloop"))))
    except BaseException as error:  # the parent must hear of it, not wait forever
        results.put((share, {"error": repr(error)}))
        raise


class PostgresCommitSampler(threading.Thread):
    """The bare synced commit of the run's database, one every ``SAMPLE_PERIOD_S``, on a
    connection of its own and an event loop of its own thread."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.timings: list[float] = []
        self.stop = threading.Event()
        self.failed: BaseException | None = None

    def run(self) -> None:
        try:
            asyncio.run(self._sample())
        except BaseException as error:  # reported by the parent
            self.failed = error

    async def _sample(self) -> None:
        connection = await asyncpg.connect(self.url)
        try:
            row_id = await connection.fetchval(
                "INSERT INTO games (platform, channel, game, options, seed, state, version, "
                "players, status, created_at, updated_at) VALUES "
                "('bare', 'bare', 'lgame', '{}', 1, '', 1, '[]', 'finished', '', '') "
                "RETURNING id")
            version = 1
            while True:
                started = time.perf_counter()
                await connection.execute(
                    "UPDATE games SET state=$1, version=$2, last_seat=0, last_kind='action', "
                    "last_action='a' WHERE id=$3 AND version=$4",
                    SAMPLE_STATE, version + 1, row_id, version)
                self.timings.append(time.perf_counter() - started)
                version += 1
                if self.stop.wait(SAMPLE_PERIOD_S):
                    break
        finally:
            await connection.close()


async def _new_schema(url: str) -> str:
    schema = "load_" + secrets.token_hex(5)
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    store = await PostgresStore.open(with_search_path(url, schema))  # migrate once, here
    await store.close()
    return schema


async def _drop_schema(url: str, schema: str) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


def run_processes(database: str, processes: int, options: dict[str, Any]) -> dict[str, Any]:
    """Play the run with ``processes`` bot processes on ``database``; the merged result."""
    schema = asyncio.run(_new_schema(database))
    url = with_search_path(database, schema)
    context = multiprocessing.get_context("spawn")
    ready, results = context.Queue(), context.Queue()
    go = context.Event()
    children = [context.Process(target=_process_main, daemon=False,
                                args=(url, share, processes, options, ready, go, results))
                for share in range(processes)]
    sampler = PostgresCommitSampler(url)
    try:
        for child in children:
            child.start()
        for _ in children:
            ready.get(timeout=300)
        print(f"  {processes} process(es) ready; playing {options['games']} tables",
              file=sys.stderr, flush=True)
        sampler.start()
        machine_before, server_before = machine_cpu(), postgres_cpu()
        server = ServerCpuWatch(server_before)
        server.start()
        go.set()
        shares: dict[int, dict[str, Any]] = {}
        waited = 0
        while len(shares) < processes:
            try:
                share, result = results.get(timeout=10)
            except Exception:  # queue.Empty: say that it is still running
                waited += 10
                print(f"  ... {waited} s, {len(shares)}/{processes} processes done",
                      file=sys.stderr, flush=True)
                if not any(child.is_alive() for child in children):
                    raise RuntimeError("a bot process died without a result") from None
                continue
            if "error" in result:
                raise RuntimeError(f"bot process {share} failed: {result['error']}")
            shares[share] = result
        machine_after = machine_cpu()
        server.stop.set()
        server.join()
        for child in children:
            child.join(timeout=60)
    finally:
        sampler.stop.set()
        if sampler.is_alive():
            sampler.join()
        for child in children:
            if child.is_alive():
                child.kill()
        asyncio.run(_drop_schema(database, schema))
    if sampler.failed is not None:
        raise RuntimeError(f"the commit sampler failed: {sampler.failed!r}")
    merged = merge(list(shares.values()), sampler.timings, processes)
    merged["machine"] = machine_use(machine_before, machine_after, server_before,
                                    server.latest, merged["moves"])
    merged["loop"] = options.get("loop", "uvloop")
    return merged


def postgres_cpu() -> dict[int, int]:
    """CPU ticks used so far by each PostgreSQL server process on this machine (empty when
    the server is elsewhere): its backends live as long as the pools' connections."""
    used: dict[int, int] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        name = text[text.find("(") + 1:text.rfind(")")]
        if name.startswith("postgres"):
            fields = text[text.rfind(")") + 2:].split()
            used[int(entry)] = int(fields[11]) + int(fields[12])  # utime + stime
    return used


class ServerCpuWatch(threading.Thread):
    """The PostgreSQL processes' CPU ticks, read every half second while the tables play:
    a pool's backends end when its bot process closes it, before the run's last reading."""

    def __init__(self, first: dict[int, int]) -> None:
        super().__init__(daemon=True)
        self.latest = dict(first)
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.5):
            self.latest.update(postgres_cpu())


def machine_use(before: tuple[int, int], after: tuple[int, int], server_before: dict[int, int],
                server_after: dict[int, int], moves: int) -> dict[str, Any]:
    """How busy the machine was while the tables played, and the database server's share:
    whether the run was held back by the machine's cores rather than by the bot."""
    busy, total = after[0] - before[0], after[1] - before[1]
    cores = os.cpu_count() or 1
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    server = sum(used - server_before.get(pid, 0) for pid, used in server_after.items())
    wall = total / cores / ticks if total else 0.0
    return {"cores": cores,
            "busy_share": round(busy / total, 3) if total else None,
            "server_cores": round(server / ticks / wall, 2) if wall else None,
            "server_ms_per_move": round(1000 * server / ticks / moves, 2) if moves else None}


def merge(shares: list[dict[str, Any]], bare: list[float], processes: int
          ) -> dict[str, Any]:
    timings: dict[str, list[float]] = defaultdict(list)
    for share in shares:
        for command, values in share["timings"].items():
            timings[command].extend(values)
    started = min(share["started"] for share in shares)
    ended = max(share["ended"] for share in shares)
    moves = sum(share["moves"] for share in shares)
    saved_at = [moment for share in shares for moment in share["saved_at"]]
    all_open = max(moment for share in shares for moment in share["opened"])
    first_done = min(moment for share in shares for moment in share["done"])
    steady = (round(sum(1 for m in saved_at if all_open <= m <= first_done)
                    / (first_done - all_open), 1) if first_done > all_open else None)
    # While every table played: each process's loop thread, and the machine (read by
    # every process; the first one's samples serve).
    windows = [window_shares(share["cpu_trace"], all_open, first_done) for share in shares]
    commands = {name: summary(values) for name, values in sorted(timings.items())}
    commands["all"] = summary([s for values in timings.values() for s in values])
    bare_summary = summary(bare or [0.0])
    move = commands.get("press_move", commands["all"])
    return {
        "processes": processes, "moves": moves, "wall_s": round(ended - started, 2),
        "moves_per_s": round(moves / (ended - started), 1), "steady_moves_per_s": steady,
        "commands": commands, "bare_commit_during": bare_summary,
        "press_move_p99_over_bare_p99": round(move["p99_ms"] / bare_summary["p99_ms"], 2)
        if bare_summary["p99_ms"] else None,
        "loop_lag_p99_ms": [share["loop_lag"]["p99_ms"] for share in shares],
        # The bot processes' own CPU (their worker processes and the scripted people's
        # processes not counted) per saved move: what decides how many moves one process
        # can save.
        "cpu_ms_per_move": round(1000 * sum(share["cpu_s"] for share in shares) / moves, 2)
        if moves else None,
        "transport_cpu_ms_per_move": round(1000 * sum(share["transport_cpu_s"]
                                                      for share in shares) / moves, 3)
        if moves else None,
        "cpu_share_of_one_core": [round(share["cpu_s"] / (share["ended"] - share["started"]), 2)
                                  for share in shares],
        "steady_loop_share": [window["loop"] for window in windows],
        "steady_machine_share": windows[0]["machine"] if windows else None,
        "profile": "\n".join(share["profile"] for share in shares if share.get("profile")),
    }


def print_result(result: dict[str, Any]) -> None:
    print(f"PostgreSQL, {result['processes']} bot process(es) on {result.get('loop', '?')}: "
          f"{result['moves']} moves in "
          f"{result['wall_s']} s: {result['moves_per_s']} moves/s; while every table played: "
          f"{result['steady_moves_per_s']} moves/s")
    print(f"  event loop lag p99 per process: {result['loop_lag_p99_ms']} ms; CPU per "
          f"process (share of one core): {result['cpu_share_of_one_core']}, "
          f"{result['cpu_ms_per_move']} ms per saved move (the bot's alone; the socket to the "
          f"people's process another {result['transport_cpu_ms_per_move']} ms)")
    if result.get("steady_machine_share") is not None:
        print(f"  while every table played: each process's event-loop thread busy "
              f"{result['steady_loop_share']} of the time; the machine's cores "
              f"{100 * result['steady_machine_share']:.0f}% busy")
    print(f"  {'command':<11} {'n':>7} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9}")
    for name, row in result["commands"].items():
        print(f"  {name:<11} {row['n']:>7} {row['p50_ms']:>9.3f} {row['p99_ms']:>9.3f} "
              f"{row['max_ms']:>9.3f}")
    machine = result.get("machine") or {}
    if machine.get("busy_share") is not None:
        print(f"  the machine's {machine['cores']} cores were {100 * machine['busy_share']:.0f}% "
              f"busy; the PostgreSQL server used {machine['server_cores']} of them, "
              f"{machine['server_ms_per_move']} ms per saved move")
    bare = result["bare_commit_during"]
    print(f"  bare synced commit during the run (n={bare['n']}): p50 {bare['p50_ms']:.3f} ms, "
          f"p99 {bare['p99_ms']:.3f} ms; press_move p99 / bare p99 = "
          f"{result['press_move_p99_over_bare_p99']}x (target <= "
          f"{SERVICE_LEVEL_RATIO}x)")
