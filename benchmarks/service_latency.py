"""Latency of one move through the game service, against a bare SQLite commit, plus the
L-game solver's build time.

Run from the repository root::

    python benchmarks/service_latency.py [--games 100] [--moves-per-game 20]
                                         [--solver-runs 1] [--json]

The default run takes about a minute and a half; each phase says on stderr when it starts.
``--games 200 --solver-runs 3`` is the fuller run of docs/performance.md.

What it measures, all in one run:

1. ``Service.move`` end to end (load, parse, apply, save with the version guard, render the
   board), on a real temporary SQLite file: first one game at a time (no queueing), then
   all games at once under ``asyncio.gather`` (every move queues behind aiosqlite's single
   worker thread). Every game between two human users plays
   random legal moves from a seeded ``random.Random``, picked from a mirror engine state
   that follows the service; both runs play the same games. Restarting a finished game is
   not timed.
2. A bare aiosqlite commit of the same size on its own fresh file with the same PRAGMAs
   (WAL, ``synchronous=FULL``) and the store's schema: the store's single guarded
   ``UPDATE`` (its trigger appends the log row) with a JSON text as long as a mid-game
   state as the store writes it; sequentially and with as many concurrent coroutines as
   games, sharing one connection as the store does.
3. ``engines.lgame.solver.solve`` for both rule sets, built fresh (not the cached table).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.progress import Progress  # noqa: E402
from benchmarks.timing import summary  # noqa: E402
from bot.service import Opponent, Place, Service, User  # noqa: E402
from bot.store import MIGRATIONS, SQLiteStore, sql_statements  # noqa: E402
from engines import lgame  # noqa: E402
from engines.lgame.solver import solve  # noqa: E402

PLATFORM = "bench"
GAME = "lgame"
PLAYERS = (User(PLATFORM, "u1", "Alice"), User(PLATFORM, "u2", "Bob"))
SOLVER_RUNS = 1


class BenchmarkError(RuntimeError):
    """The service refused or misreported a move the benchmark knows to be legal."""


# ----------------------------------------------------------------------------- statistics


def store_json(value: Any) -> str:
    """JSON as ``SQLiteStore`` writes it (compact, sorted keys)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def game_rng(seed: int, index: int) -> random.Random:
    """The move picker of game ``index``: the same in the sequential and concurrent runs."""
    return random.Random(seed * 1_000_003 + index)


def new_mirror() -> lgame.LGameState:
    return lgame.new_game({}, 2, 0)


def mid_game_state(seed: int, plies: int) -> lgame.LGameState:
    """The state after ``plies`` random legal moves, as game 0 of the benchmark plays."""
    rng = game_rng(seed, 0)
    state = new_mirror()
    for _ in range(plies):
        if state.outcome() is not None:
            state = new_mirror()
        state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
    return state


class CpuClock:
    """Wall time, and the CPU time of threads other than this one (aiosqlite's worker)."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.others = time.process_time() - time.thread_time()

    def read(self) -> tuple[float, float]:
        others = time.process_time() - time.thread_time()
        return time.perf_counter() - self.wall, others - self.others


# ----------------------------------------------------------------------- service benchmark


@dataclass
class Table:
    """One benchmark game: its channel, the expected record version and a mirror state."""

    index: int
    place: Place
    rng: random.Random
    mirror: lgame.LGameState
    version: int = 1
    restarts: int = 0


async def open_table(service: Service, index: int, seed: int) -> Table:
    place = Place(PLATFORM, f"c{index}", emoji=False)
    table = Table(index, place, game_rng(seed, index), new_mirror())
    await start(service, table)
    return table


async def start(service: Service, table: Table) -> None:
    reply = await service.start_game(table.place, PLAYERS[0], GAME,
                                     Opponent("user", user=PLAYERS[1]))
    if not reply.ok or reply.board is None:
        raise BenchmarkError(f"start_game in {table.place.channel} refused: {reply.notice}")
    table.mirror = new_mirror()
    table.version = reply.board.version


async def play(service: Service, table: Table, moves: int, timings: list[float],
               cpu: list[float] | None = None, profiler: cProfile.Profile | None = None) -> None:
    """Play ``moves`` timed moves in ``table``; a finished game restarts, untimed.

    ``cpu`` collects the event-loop thread's CPU time per move, which only means something
    when nothing else runs meanwhile (the sequential run); ``profiler`` is switched on for
    the ``Service.move`` calls alone.
    """
    for _ in range(moves):
        if table.mirror.outcome() is not None:
            table.restarts += 1
            await start(service, table)
        seat = table.mirror.turn
        action = table.rng.choice(table.mirror.legal_actions(seat))
        if profiler is not None:
            profiler.enable()
        cpu_started = time.thread_time()
        started = time.perf_counter()
        reply = await service.move(table.place, PLAYERS[seat], action)
        timings.append(time.perf_counter() - started)
        if cpu is not None:
            cpu.append(time.thread_time() - cpu_started)
        if profiler is not None:
            profiler.disable()
        if not reply.ok or reply.board is None:
            raise BenchmarkError(f"move {action!r} in {table.place.channel} refused: "
                                 f"{reply.notice}")
        table.mirror.apply(seat, action)
        table.version += 1
        if (reply.board.version != table.version
                or reply.finished != (table.mirror.outcome() is not None)):
            raise BenchmarkError(f"service and mirror disagree in {table.place.channel}")


async def service_run(db_path: Path, games: int, moves: int, seed: int, concurrent: bool,
                      profiler: cProfile.Profile | None = None) -> dict[str, Any]:
    """Create ``games`` games (untimed), then time every move, one game at a time or all
    at once."""
    store = await SQLiteStore.open(db_path)
    try:
        counter = iter(range(1, 1 << 30))
        service = Service(store, seed_source=lambda: next(counter))
        tables = [await open_table(service, i, seed) for i in range(games)]
        timings: list[float] = []
        cpu: list[float] = []
        clock = CpuClock()
        if concurrent:
            await asyncio.gather(*(play(service, t, moves, timings) for t in tables))
        else:
            for table in tables:
                await play(service, table, moves, timings, cpu, profiler)
        wall, worker_cpu = clock.read()
    finally:
        await store.close()
    result = summary(timings)
    result.update(wall_s=round(wall, 3), moves_per_s=round(len(timings) / wall, 1),
                  restarts=sum(t.restarts for t in tables),
                  worker_cpu_ms_per_op=round(worker_cpu * 1000 / len(timings), 4))
    if cpu:
        result["loop_cpu_ms_per_op"] = round(statistics.fmean(cpu) * 1000, 4)
    return result


# -------------------------------------------------------------------------- bare commits

async def bare_run(db_path: Path, workers: int, commits: int, payload: str,
                   concurrent: bool) -> dict[str, Any]:
    """Time ``workers * commits`` commits of the store's own write, issued directly.

    The same schema (its trigger appends the move to the log) and the same single guarded
    ``UPDATE`` in autocommit mode, with a state of the same length: the storage cost of a
    move with no service around it.
    """
    db = await aiosqlite.connect(str(db_path), isolation_level=None)
    try:
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON",
                       "busy_timeout=5000"):
            await db.execute(f"PRAGMA {pragma}")
        for statement in sql_statements(MIGRATIONS[0]):
            await db.execute(statement)
        stamp = "2026-01-01T00:00:00.000"
        await db.executemany(
            "INSERT INTO games (id, platform, channel, game, options, seed, state, version, "
            "players, status, created_at, updated_at) VALUES (?,?,?,?,?,?,?,1,?,?,?,?)",
            [(i + 1, "bare", f"c{i}", "lgame", "{}", 1, payload, "[]", "active", stamp, stamp)
             for i in range(workers)])
        versions = [1] * workers
        timings: list[float] = []
        cpu: list[float] = []

        async def commit(doc: int) -> None:
            version = versions[doc]
            cursor = await db.execute(
                "UPDATE games SET state=?, version=?, players=?, status=?, updated_at=?, "
                "last_seat=?, last_kind=?, last_action=? WHERE id=? AND version=?",
                (payload, version + 1, "[]", "active", stamp, 0, "action", "c4SW d1b3",
                 doc + 1, version))
            assert cursor.rowcount == 1
            versions[doc] = version + 1

        async def worker(doc: int) -> None:
            for _ in range(commits):
                cpu_started = time.thread_time()
                started = time.perf_counter()
                await commit(doc)
                timings.append(time.perf_counter() - started)
                cpu.append(time.thread_time() - cpu_started)

        clock = CpuClock()
        if concurrent:
            await asyncio.gather(*(worker(doc) for doc in range(workers)))
        else:
            for doc in range(workers):
                await worker(doc)
        wall, worker_cpu = clock.read()
    finally:
        await db.close()
    result = summary(timings)
    result.update(wall_s=round(wall, 3), commits_per_s=round(len(timings) / wall, 1),
                  worker_cpu_ms_per_op=round(worker_cpu * 1000 / len(timings), 4))
    if not concurrent:
        result["loop_cpu_ms_per_op"] = round(statistics.fmean(cpu) * 1000, 4)
    return result


# ---------------------------------------------------------------------------------- solver


def solver_times(runs: int) -> dict[str, Any]:
    """Fresh ``solve`` builds per rule set: best, median and every run, in seconds."""
    result: dict[str, Any] = {}
    progress = Progress("solver builds", 2 * runs)
    for index, (name, sudden_death) in enumerate((("standard", False),
                                                  ("sudden_death", True))):
        times = []
        for run in range(runs):
            progress(index * runs + run, name, force=True)
            times.append(solve(sudden_death).build_seconds)
        result[name] = {"runs": runs, "best_s": round(min(times), 4),
                        "median_s": round(statistics.median(times), 4),
                        "all_s": [round(t, 4) for t in times]}
    return result


# ------------------------------------------------------------------------------------ main


def filesystem_of(path: Path) -> str:
    """The filesystem type holding ``path`` (Linux only; ``?`` elsewhere)."""
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return "?"
    best, kind = "", "?"
    target = str(path.resolve())
    for line in mounts:
        fields = line.split()
        if len(fields) >= 3:
            point = fields[1]
            inside = target == point or target.startswith(point.rstrip("/") + "/")
            if inside and len(point) > len(best):
                best, kind = point, fields[2]
    return kind


def ratio(service: dict[str, Any], bare: dict[str, Any]) -> float:
    return round(float(service["p50_ms"]) / float(bare["p50_ms"]), 2)


async def run_database_phases(folder: Path, games: int, moves: int, seed: int,
                              payload: str) -> dict[str, Any]:
    phases: list[tuple[str, Callable[[], Awaitable[dict[str, Any]]]]] = [
        ("service_sequential",
         lambda: service_run(folder / "service_seq.db", games, moves, seed, False)),
        ("service_concurrent",
         lambda: service_run(folder / "service_conc.db", games, moves, seed, True)),
        ("bare_sequential",
         lambda: bare_run(folder / "bare_seq.db", games, moves, payload, False)),
        ("bare_concurrent",
         lambda: bare_run(folder / "bare_conc.db", games, moves, payload, True)),
    ]
    progress = Progress("database phases", len(phases))
    results = {}
    for index, (name, phase) in enumerate(phases):
        progress(index, name, force=True)
        results[name] = await phase()
    return results


def profile_sequential(games: int, moves: int, seed: int, top: int,
                       tmpdir: str | None) -> str:
    """cProfile of the ``Service.move`` calls of the sequential run (the benchmark's own
    move picking and game creation excluded)."""
    profiler = cProfile.Profile()
    with tempfile.TemporaryDirectory(prefix="service-latency-", dir=tmpdir) as folder:
        asyncio.run(service_run(Path(folder) / "profile.db", games, moves, seed, False,
                                profiler))
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100,
                        help="games played at once in the concurrent run (default 200)")
    parser.add_argument("--moves-per-game", type=int, default=20,
                        help="timed moves per game (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the move pickers")
    parser.add_argument("--solver-runs", type=int, default=SOLVER_RUNS,
                        help=f"fresh solver builds per rule set (default {SOLVER_RUNS}; "
                             "0 skips the solver)")
    parser.add_argument("--tmpdir", default=None,
                        help="where the temporary databases go (default: the system's)")
    parser.add_argument("--profile", type=int, default=0, metavar="TOP",
                        help="instead of the benchmark, cProfile the sequential service run "
                             "and print the TOP functions by own and cumulative time")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < 1 or args.moves_per_game < 1 or args.solver_runs < 0:
        parser.error("--games and --moves-per-game must be at least 1, --solver-runs >= 0")
    return args


def print_human(result: dict[str, Any]) -> None:
    config = result["config"]
    print(f"L-game service latency: {config['games']} games x {config['moves_per_game']} "
          f"moves, seed {config['seed']}, databases on {config['filesystem']} "
          f"({config['tmpdir']})")
    print(f"mid-game state: {config['state_json_chars']} chars as stored "
          f"({config['state_json_chars_default_dumps']} with json.dumps defaults)")
    for name in ("service_sequential", "service_concurrent", "bare_sequential",
                 "bare_concurrent"):
        row = result[name]
        rate = row.get("moves_per_s", row.get("commits_per_s"))
        extra = f", {row['restarts']} untimed restarts" if "restarts" in row else ""
        loop = (f"loop {row['loop_cpu_ms_per_op']:.3f} + " if "loop_cpu_ms_per_op" in row
                else "")
        print(f"  {name:<19} p50 {row['p50_ms']:8.3f} ms  p99 {row['p99_ms']:8.3f} ms  "
              f"mean {row['mean_ms']:8.3f} ms  max {row['max_ms']:8.3f} ms  "
              f"n={row['n']}  {rate}/s{extra}")
        print(f"  {'':<19} CPU per op: {loop}db thread {row['worker_cpu_ms_per_op']:.3f} ms")
    ratios = result["ratio_service_p50_over_bare_p50"]
    print(f"  service p50 / bare p50: sequential {ratios['sequential']:.2f}x, "
          f"concurrent {ratios['concurrent']:.2f}x")
    for name, row in result["solver"].items():
        print(f"  solve({name == 'sudden_death'}) [{name}]: best {row['best_s']:.3f} s, "
              f"median {row['median_s']:.3f} s over {row['runs']} fresh builds")
    print(f"total {result['total_s']:.1f} s")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.profile:
        print(profile_sequential(args.games, args.moves_per_game, args.seed, args.profile,
                                 args.tmpdir))
        return 0
    began = time.perf_counter()
    state = mid_game_state(args.seed, max(1, args.moves_per_game // 2))
    payload = store_json(state.to_dict())
    with tempfile.TemporaryDirectory(prefix="service-latency-", dir=args.tmpdir) as folder:
        phases = asyncio.run(run_database_phases(Path(folder), args.games,
                                                 args.moves_per_game, args.seed, payload))
        filesystem = filesystem_of(Path(folder))
    result: dict[str, Any] = {
        "config": {
            "games": args.games,
            "moves_per_game": args.moves_per_game,
            "seed": args.seed,
            "state_json_chars": len(payload),
            "state_json_chars_default_dumps": len(json.dumps(state.to_dict())),
            "tmpdir": args.tmpdir or tempfile.gettempdir(),
            "filesystem": filesystem,
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "sqlite": aiosqlite.sqlite_version,
        },
        **phases,
        "ratio_service_p50_over_bare_p50": {
            "sequential": ratio(phases["service_sequential"], phases["bare_sequential"]),
            "concurrent": ratio(phases["service_concurrent"], phases["bare_concurrent"]),
        },
        "solver": solver_times(args.solver_runs) if args.solver_runs else {},
    }
    result["total_s"] = round(time.perf_counter() - began, 2)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_human(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
