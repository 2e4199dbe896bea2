"""Load test: many games at once through the game service and a real SQLite file.

Run from the repository root::

    python benchmarks/load.py [--games 1000] [--moves 20] [--seed 1] [--think 2.5]
                              [--click 0.1] [--ramp 20] [--sync full|normal]
                              [--workers process|thread] [--runtime bot|python]
                              [--people process|inline] [--tmpdir DIR] [--json]
                              [--profile TOP] [--check] [--curve [100,300,...]]

The scripted people run in a process of their own (``--people process``, the default;
``benchmarks/load_people.py`` says what is and is not in the bot's account), so the bot
process's CPU per saved move and its loop's busy share are the bot's only: the real
``Service`` with its press resolution, drawing of replies and store at its real
durability setting, each command read off a socket and its ``Reply`` pickled back (as an
adapter reads and answers). ``--people inline`` plays them on the bot's loop as before.

``--games`` channels play at once, each its own coroutine, in turn L-game, Turing Machine,
bOOleO, Digitalo and Rithmomachia; one table in three of each game is a person against
the computer (a solo game in the Turing Machine), the others two people
(``tests/helpers/scripted_play.py``). Each table plays ``--moves`` saved moves, starting a
rematch when a game ends. People move by pressing the buttons of the service's replies
(hand, menu steps, the final step), a random legal move each time; the computer plays at
the ``easy`` level (under a millisecond a move), timed as its own command ``ai_turn``, so
the numbers are the bot's and not an agent's.

Players pause as people do: ``--think`` seconds on average before each move (uniform
from half to one and a half times it, so the tables stay in step)
and ``--click`` between the presses of one move; tables open at random moments within
``--ramp`` seconds. With no pauses every coroutine queues a new command the moment the last
one returns, which measures capacity (moves/s) but makes the latency just the queue length
divided by the rate; ``--think 0 --click 0 --ramp 0`` does that. The bot's set-up is used
throughout: its two worker processes, its interpreter set-up (``bot.runtime``) and its
store, synced as ``--sync`` says (the host's ``DATABASE_SYNC``).

Printed: moves per second over the whole run and while every table plays (with that
window's p50/p99), p50/p99 per command (every command is timed
from the call to the returned ``Reply``), the process's peak RSS (``ru_maxrss``), its CPU
time per move and the event loop's lag, and two baselines for a saved move (``press_move``):
a bare aiosqlite commit of the store's own write right after the run on a fresh file of
the same kind (``service_latency.bare_run``), and bare commits sampled from a thread
*during* the run (``CommitSampler``), because a shared disk's sync time changes by the
minute. The database is checked with ``PRAGMA integrity_check`` at the end.

Then where the time of every saving or creating command went, stage by stage
(``benchmarks/breakdown.py``), each command's p99 over the bare commit's p99 during the run,
and issue 42's targets as they apply to the run (``benchmarks/load_targets.py``), each
with its measured value; ``--check`` exits with status 2 when one is missed. ``--curve``
runs one point per number of tables and the capacity run, and finds the capacity at the
service level (``benchmarks/load_curve.py``, about 9 minutes; docs/performance.md, *Issue
42*).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import io
import itertools
import json
import multiprocessing
import os
import pstats
import random
import resource
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiosqlite

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.breakdown import Breakdown, print_breakdown  # noqa: E402
from benchmarks.load_curve import CURVE_TABLES, run_curve  # noqa: E402
from benchmarks.load_people import PeopleServer, start_people, wait_for_people  # noqa: E402
from benchmarks.load_probes import (  # noqa: E402
    SAMPLE_PERIOD_S,
    CommitSampler,
    GcPauses,
    full_collection,
)
from benchmarks.load_processes import print_result, run_processes  # noqa: E402
from benchmarks.load_targets import (  # noqa: E402
    Target,
    postgres_targets,
    print_targets,
    run_targets,
)
from benchmarks.machine import CpuTrace, engine_yardstick  # noqa: E402
from benchmarks.service_latency import (  # noqa: E402
    CpuClock,
    bare_run,
    filesystem_of,
)
from benchmarks.timing import summary  # noqa: E402
from bot.config import EVENT_LOOPS  # noqa: E402
from bot.limits import Limits  # noqa: E402
from bot.runtime import (  # noqa: E402
    FULL_SECONDS,
    collect_garbage,
    prepare_interpreter,
    run_on_loop,
)
from bot.service import Service  # noqa: E402
from bot.store import SQLiteStore  # noqa: E402
from tests.helpers.scripted_play import (  # noqa: E402
    Table,
    make_table,
    play_table,
    table_spec,
)

PLATFORM = "load"
LAG_PERIOD_S = 0.05
BARE_COMMITS = 300
# Commands a person waits for; start and rematch are listed, and count, too.
COMMANDS = ("board", "start", "rematch", "hand", "press", "press_move", "move", "ai_turn")
SAVING_COMMANDS = ("press_move", "move", "ai_turn")
def peak_rss_mb() -> float:
    """The process's peak resident set so far; Linux reports kilobytes."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def worker_peak_rss_mb(people: int | None = None) -> list[float]:
    """Each live worker process's peak resident set (``VmHWM``), where /proc has it; the
    people's process (pid ``people``) is not one."""
    peaks = []
    for child in multiprocessing.active_children():
        if child.pid == people:
            continue
        with contextlib.suppress(OSError):
            status = Path(f"/proc/{child.pid}/status").read_text()
            kilobytes = next(int(line.split()[1]) for line in status.splitlines()
                             if line.startswith("VmHWM:"))
            peaks.append(round(kilobytes / 1024, 1))
    return peaks


def steady_rate(saved_at: list[float], all_started: float, first_done: float) -> float | None:
    """Moves per second while every table was playing: after the last one had started its
    first game and before the first one had played all its moves. The whole run's rate
    also counts the start, when a thousand games are created at once, and the end, when
    the last tables play on alone."""
    if first_done <= all_started:
        return None
    inside = sum(1 for moment in saved_at if all_started <= moment <= first_done)
    return round(inside / (first_done - all_started), 1)


async def sample_loop_lag(lags: list[float], stop: asyncio.Event) -> None:
    """How late a ``LAG_PERIOD_S`` sleep wakes up: the time a ready command waits for the
    event loop. Near zero until the loop's thread is saturated."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(LAG_PERIOD_S)
        lags.append(time.perf_counter() - started - LAG_PERIOD_S)


async def load_run(folder: Path, games: int, moves: int, seed: int, think: float,
                   click: float, ramp: float, processes: bool, bot_gc: bool,
                   sync: str, people: str = "process",
                   young_seconds: float | None = None) -> dict[str, Any]:
    """Play every table to ``moves`` saved moves at once; return the timings and counts.
    ``people``: ``process`` runs the scripted people in a child process
    (``benchmarks/load_people.py``), ``inline`` on this process's loop, as before issue 42."""
    store = await SQLiteStore.open(folder / "load.sqlite3", sync=sync)
    timings: dict[str, list[float]] = defaultdict(list)
    finished_at: list[tuple[float, float]] = []  # (when, how long) of every command
    saved_at: list[float] = []
    opened: list[float] = []
    done: list[float] = []

    def record(command: str, seconds: float) -> None:
        moment = time.perf_counter()
        timings[command].append(seconds)
        finished_at.append((moment, seconds))
        if command in SAVING_COMMANDS:  # the script fails the run when one saves nothing
            saved_at.append(moment)
        elif command in ("start", "board") and len(opened) < games:
            opened.append(moment)

    async def play(table: Table) -> None:
        # Tables open at random moments over the ramp, not all in the same second.
        await asyncio.sleep(random.Random(f"{seed}-{table.place.channel}").uniform(0, ramp))
        await play_table(player, table, moves)
        done.append(time.perf_counter())

    try:
        seeds = itertools.count(seed * 1_000_000)
        # The bot's pool for computer moves; no rate or game limits, which would refuse
        # the script's commands rather than time them.
        limits = replace(Limits.unlimited(), cpu_workers=Limits().cpu_workers,
                         cpu_processes=processes)
        service = Service(store, seed_source=lambda: next(seeds), limits=limits)
        service.workers.start()
        breakdown = Breakdown(service, store)
        server: PeopleServer | None = None
        people_process = None
        tables: list[Table] = []
        if people == "process":
            server = PeopleServer(service, folder / "people.sock", record, breakdown.traced)
            await server.start()
            people_process = start_people(folder / "people.sock",
                                          ("sqlite", str(folder / "load.sqlite3")),
                                          list(range(games)), seed, moves, think, click, ramp,
                                          PLATFORM)
            await asyncio.wait_for(server.connected.wait(), 120)
        else:
            player = breakdown.player(service, store, recorder=record, think=think,
                                      click=click)
            tables = [make_table(i, seed, PLATFORM) for i in range(games)]
        lags: list[float] = []
        stop = asyncio.Event()
        sampler = asyncio.create_task(sample_loop_lag(lags, stop))
        trace = CpuTrace()
        tracer = asyncio.create_task(trace.run(stop))
        commits = CommitSampler(folder / "sampler.sqlite3", sync)
        commits.start()
        clock = CpuClock()
        process_cpu = time.process_time()
        collections = GcPauses()
        gc.callbacks.append(collections)
        collector = (asyncio.ensure_future(collect_garbage(young_seconds))
                     if bot_gc else None)
        try:
            if server is not None:
                await server.go()
                assert people_process is not None
                await wait_for_people(server, people_process)
                done.extend(server.done)
            else:
                await asyncio.gather(*(play(table) for table in tables))
            workers_rss = worker_peak_rss_mb(people_process.pid if people_process else None)
        finally:
            if collector is not None:
                collector.cancel()
            service.workers.shutdown()
            gc.callbacks.remove(collections)
            commits.stop.set()
            stop.set()
            if server is not None:
                await server.close()
            if people_process is not None:
                people_process.join(30)
                if people_process.is_alive():
                    people_process.kill()
        wall, worker_cpu = clock.read()
        process_cpu = time.process_time() - process_cpu
        # The socket to the people's process stands in for an adapter: counted apart.
        transport_cpu = server.transport_cpu if server is not None else 0.0
        await sampler
        await tracer
        commits.join()
        process_cpu -= commits.cpu  # the yardstick's thread is not the bot
        full = full_collection() if bot_gc else None
        integrity = await store.integrity_ok()
        states = [json.dumps(r.state, separators=(",", ":"), sort_keys=True)
                  for r in await store.games_with_status("active", "finished")]
    finally:
        await store.close()
    if server is not None:
        saved, games_played = server.summary["moves"], server.summary["games"]
    else:
        saved, games_played = sum(t.moves for t in tables), sum(t.games for t in tables)
    # The median stored state: what the bare commit writes, so it stores as many bytes.
    payload = sorted(states, key=len)[len(states) // 2]
    # Every table playing: from the last table's start to the first table's end (the
    # bounds computed once; per element they made this a quadratic pass of seconds).
    first_done, last_opened = min(done), max(opened)
    return {
        "timings": timings,
        "wall_s": round(wall, 3),
        "moves": saved,
        "ai_moves": len(timings["ai_turn"]),
        "moves_per_s": round(saved / wall, 1),
        "steady_moves_per_s": steady_rate(saved_at, last_opened, first_done),
        "steady_commands": summary([seconds for moment, seconds in finished_at
                                    if last_opened <= moment <= first_done] or [0.0]),
        "steady_cpu": trace.shares(last_opened, first_done),
        "workers_peak_rss_mb": workers_rss,
        "command_count": sum(len(v) for v in timings.values()),
        "games_played": games_played,
        "people_late_reads": server.summary.get("late_reads", 0) if server else 0,
        "db_thread_cpu_ms_per_move": round(worker_cpu * 1000 / max(saved, 1), 4),
        "process_cpu_ms_per_move": round((process_cpu - transport_cpu) * 1000
                                         / max(saved, 1), 4),
        "transport_cpu_ms_per_move": round(transport_cpu * 1000 / max(saved, 1), 4),
        "process_cpu_percent": round(100 * process_cpu / wall, 1),
        "loop_lag": summary(lags or [0.0]),
        "gc_pauses": collections.summary(),
        "full_collection": full,
        "bare_commit_during": summary(commits.timings),
        "integrity_ok": integrity,
        "breakdown": breakdown.report(),
        "payload": payload,
    }


def commands_table(timings: dict[str, list[float]]) -> dict[str, dict[str, Any]]:
    rows = {name: summary(timings[name]) for name in COMMANDS if timings.get(name)}
    rows["all"] = summary([s for values in timings.values() for s in values])
    return rows


def targets(result: dict[str, Any], args: argparse.Namespace) -> dict[str, bool]:
    """Each of issue 42's targets that applies to this run, and whether it was met
    (``benchmarks/load_targets.py``)."""
    return {target.name: target.met for target in run_targets(result, args)}


def ratios(result: dict[str, Any]) -> dict[str, float]:
    """Each command's p99 over the bare commit's p99 sampled during the run."""
    bare_p99 = result["bare_commit_during"]["p99_ms"]
    return {name: round(row["p99_ms"] / bare_p99, 2)
            for name, row in result["commands"].items() if bare_p99 > 0}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100, help="tables playing at once")
    parser.add_argument("--moves", type=int, default=20, help="saved moves per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=2.5,
                        help="mean pause before each move, seconds (uniform from half to 1.5 "
                             "times it; 0: none)")
    parser.add_argument("--click", type=float, default=0.1,
                        help="pause between the presses of one move, seconds")
    parser.add_argument("--sync", choices=("full", "normal"), default="full",
                        help="the store's DATABASE_SYNC (full: every commit synced)")
    parser.add_argument("--ramp", type=float, default=20.0,
                        help="tables open at random moments within this many seconds")
    parser.add_argument("--tmpdir", default=None,
                        help="where the temporary databases go (default: the system's)")
    parser.add_argument("--profile", type=int, default=0, metavar="TOP",
                        help="also cProfile the run and print the TOP functions by own and "
                             "cumulative time")
    parser.add_argument("--runtime", choices=("bot", "python"), default="bot",
                        help="the interpreter as python -m bot runs it (bot.runtime: a short "
                             "thread switch, frozen start-up, young collections on a timer) "
                             "or Python's defaults")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="with --curve: every point N times, each measure the median of "
                             "the N runs (the issue's targets are medians of three)")
    parser.add_argument("--switch", type=float, default=None, metavar="MS",
                        help="with the bot runtime, Python's thread switch interval in ms "
                             "(default bot.runtime.SWITCH_SECONDS)")
    parser.add_argument("--young", type=float, default=None, metavar="SECONDS",
                        help="the bot runtime's young collections every SECONDS (default "
                             "bot.runtime.YOUNG_SECONDS)")
    parser.add_argument("--loop", choices=EVENT_LOOPS, default=EVENT_LOOPS[0],
                        help="the event loop, as the bot's EVENT_LOOP setting chooses it "
                             "(uvloop where installed, the bot's default)")
    parser.add_argument("--workers", choices=("process", "thread"), default="process",
                        help="computer moves in worker processes, as the bot runs them, or "
                             "in threads of this process")
    parser.add_argument("--database", default="",
                        help="postgresql://... : run on that PostgreSQL database instead of a "
                             "SQLite file, with --processes bot processes "
                             "(benchmarks/load_processes.py)")
    parser.add_argument("--processes", default="1",
                        help="with --database: bot processes, or a list such as 1,2 run one "
                             "after the other and compared")
    parser.add_argument("--people", choices=("process", "inline"), default="process",
                        help="the scripted people in a process of their own, so that the bot "
                             "process's CPU and loop are the bot's only "
                             "(benchmarks/load_people.py), or on the bot's loop (before "
                             "issue 42)")
    parser.add_argument("--curve", nargs="?", const=CURVE_TABLES, default=None,
                        metavar="TABLES",
                        help="the load curve (benchmarks/load_curve.py): one run per number "
                             f"of tables (default {CURVE_TABLES}) and the capacity run, then "
                             "the capacity at the service level; about 9 min")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 2 when a target that applies to this run is "
                             "missed (issue 42: a regression guard, not a unit test)")
    args = parser.parse_args(argv)
    try:
        args.process_counts = [int(n) for n in args.processes.split(",")]
    except ValueError:
        parser.error("--processes takes a number or a list such as 1,2")
    try:
        args.curve_tables = [int(n) for n in args.curve.split(",")] if args.curve else []
    except ValueError:
        parser.error("--curve takes a list of table counts such as 100,300,1000")
    if args.curve and args.database:
        parser.error("--curve runs on SQLite; on PostgreSQL run --processes at each size")
    if args.repeat < 1 or (args.repeat > 1 and not args.curve):
        parser.error("--repeat takes a number of runs of 1 or more, and goes with --curve")
    if args.database and not args.database.startswith(("postgresql://", "postgres://")):
        parser.error("--database takes a postgresql:// URL (SQLite is the default)")
    if (args.games < 1 or args.moves < 1 or args.think < 0 or args.click < 0
            or args.ramp < 0 or min(args.process_counts) < 1):
        parser.error("--games and --moves must be at least 1, --think, --click and --ramp "
                     ">= 0")
    return args


def run(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """The benchmark's result, and the profile's text when ``--profile`` asked for one."""
    rss_before = peak_rss_mb()
    if args.runtime == "bot":
        # As ``python -m bot`` does: once the imports are done, before the event loop.
        prepare_interpreter()
        if args.switch is not None:
            sys.setswitchinterval(args.switch / 1000)
    profiler = cProfile.Profile() if args.profile else None
    print("timing the engine yardstick (benchmarks/machine.py)...", file=sys.stderr, flush=True)
    speed_before = engine_yardstick()
    with tempfile.TemporaryDirectory(prefix="load-", dir=args.tmpdir) as name:
        folder = Path(name)
        if profiler is not None:
            profiler.enable()
        played = run_on_loop(load_run(folder, args.games, args.moves, args.seed, args.think,
                                      args.click, args.ramp, args.workers == "process",
                                      args.runtime == "bot", args.sync, args.people,
                                      args.young),
                             args.loop)
        if profiler is not None:
            profiler.disable()
        rss = peak_rss_mb()  # before the bare commits, which would only add their own
        bare = asyncio.run(bare_run(folder / "bare.sqlite3", 1, BARE_COMMITS,
                                    played.pop("payload"), False))
        filesystem = filesystem_of(folder)
    speed_after = engine_yardstick()
    commands = commands_table(played.pop("timings"))
    move = commands.get("press_move", commands["all"])
    during = played["bare_commit_during"]
    result: dict[str, Any] = {
        "config": {
            "games": args.games, "moves": args.moves, "seed": args.seed,
            "think_s": args.think, "click_s": args.click, "ramp_s": args.ramp,
            "runtime": args.runtime, "workers": args.workers, "sync": args.sync,
            "loop": args.loop, "people": args.people,
            "switch_ms": round(sys.getswitchinterval() * 1000, 3),
            "mix": dict(Counter(f"{s.game}{' vs AI' if s.versus_ai else ''}"
                                for s in map(table_spec, range(args.games)))),
            "cpus": os.cpu_count(), "filesystem": filesystem,
            "tmpdir": args.tmpdir or tempfile.gettempdir(),
            "python": sys.version.split()[0], "sqlite": aiosqlite.sqlite_version,
        },
        **played,
        "engine_yardstick": {"before": speed_before, "after": speed_after},
        "commands": commands,
        "rss_mb": {"after_imports": rss_before, "peak": rss},
        "bare_commit": bare,
        "ratio_press_move_p50_over_bare_p50": round(move["p50_ms"] / bare["p50_ms"], 2),
        "ratio_press_move_over_bare_during": {
            "p50": round(move["p50_ms"] / during["p50_ms"], 2),
            "p99": round(move["p99_ms"] / during["p99_ms"], 2)},
    }
    result["p99_over_bare_during"] = ratios(result)
    judged = run_targets(result, args)
    result["targets"] = {target.name: target.met for target in judged}
    result["target_rows"] = [target.row() for target in judged]
    text = ""
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(args.profile)
        stats.sort_stats("cumulative").print_stats(args.profile)
        text = out.getvalue()
    return result, text


def print_human(result: dict[str, Any]) -> None:
    config = result["config"]
    print(f"load: {config['games']} games x {config['moves']} moves, seed {config['seed']}, "
          f"think {config['think_s']} s, click {config['click_s']} s, ramp {config['ramp_s']} s; "
          f"{config['cpus']} CPUs, "
          f"{config['filesystem']} ({config['tmpdir']}), Python {config['python']}, "
          f"SQLite {config['sqlite']}, event loop {config['loop']}")
    print("tables: " + ", ".join(f"{n} {k}" for k, n in config["mix"].items()))
    print(f"{result['moves']} moves ({result['ai_moves']} by the computer) in "
          f"{result['wall_s']:.1f} s: {result['moves_per_s']:.1f} moves/s, "
          f"{result['command_count']} commands, {result['games_played']} games started or resumed; "
          f"db thread {result['db_thread_cpu_ms_per_move']:.3f} ms CPU per move")
    if result["people_late_reads"]:
        print(f"the people's process read a new game late {result['people_late_reads']} "
              f"time(s) (benchmarks/load_people.py, RemotePlayer)")
    speed = result["engine_yardstick"]
    print(f"engine yardstick (the machine's speed, benchmarks/machine.py): "
          f"{speed['before']['micros_per_position']} µs a position before the run, "
          f"{speed['after']['micros_per_position']} µs after: "
          f"{speed['before']['over_round_5']}x and {speed['after']['over_round_5']}x the time "
          f"of round 5 (passes within {speed['before']['spread']}x and "
          f"{speed['after']['spread']}x of the best)")
    steady, cpu = result["steady_commands"], result["steady_cpu"]
    print(f"while every table played: {result['steady_moves_per_s']} moves/s; commands p50 "
          f"{steady['p50_ms']:.3f} ms, p99 {steady['p99_ms']:.3f} ms (n={steady['n']})")
    if cpu["loop"] is not None:
        machine = (f"{100 * cpu['machine']:.0f}% of the machine's {cpu['cores']} cores busy"
                   if cpu["machine"] is not None else "the machine's use unknown")
        print(f"  the event loop's thread busy {100 * cpu['loop']:.0f}% of those "
              f"{cpu['seconds']} s; {machine}")
    lag = result["loop_lag"]
    who = ("the bot's alone" if config.get("people") == "process"
           else "the scripted people included")
    transport = (f"; the socket to them another {result['transport_cpu_ms_per_move']:.3f} ms"
                 if config.get("people") == "process" else "")
    print(f"bot process CPU {result['process_cpu_percent']:.0f}% of one core, "
          f"{result['process_cpu_ms_per_move']:.3f} ms per move ({who}"
          f"{transport}); event loop "
          f"lag p50 {lag['p50_ms']:.1f} ms, p99 {lag['p99_ms']:.1f} ms")
    print(f"garbage collection ({config['runtime']}): " + ", ".join(
        f"{name} {row['n']}x" + (f" p50 {row['p50_ms']:.1f} / max {row['max_ms']:.1f} ms"
                                 if row["n"] else "")
        for name, row in result["gc_pauses"].items()))
    if result["full_collection"] is not None:
        full = result["full_collection"]
        print(f"a full collection at the end, with every game in memory (the bot makes one "
              f"every {FULL_SECONDS / 60:.0f} min): {full['ms']} ms, "
              f"{full['unreachable']} unreachable objects found")
    print(f"  {'command':<11} {'n':>7} {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9} "
          f"{'max ms':>9}")
    for name, row in result["commands"].items():
        print(f"  {name:<11} {row['n']:>7} {row['p50_ms']:>9.3f} {row['p99_ms']:>9.3f} "
              f"{row['mean_ms']:>9.3f} {row['max_ms']:>9.3f}")
    bare, during = result["bare_commit"], result["bare_commit_during"]
    ratios = result["ratio_press_move_over_bare_during"]
    print(f"bare commit after the run (store's UPDATE + log trigger, one at a time): p50 "
          f"{bare['p50_ms']:.3f} ms, p99 {bare['p99_ms']:.3f} ms; press_move p50 / bare p50 = "
          f"{result['ratio_press_move_p50_over_bare_p50']:.2f}x")
    print(f"bare commit during the run (every {SAMPLE_PERIOD_S * 1000:.0f} ms, n={during['n']}): "
          f"p50 {during['p50_ms']:.3f} ms, p99 {during['p99_ms']:.3f} ms; press_move / bare: "
          f"p50 {ratios['p50']:.2f}x, p99 {ratios['p99']:.2f}x")
    rss = result["rss_mb"]
    print(f"peak RSS {rss['peak']:.1f} MB ({rss['after_imports']:.1f} MB after imports), "
          f"worker processes {result['workers_peak_rss_mb']} MB; "
          f"integrity_check {'ok' if result['integrity_ok'] else 'FAILED'}")
    print("p99 over the bare commit's p99 during the run: " + ", ".join(
        f"{name} {ratio:.2f}x" for name, ratio in result["p99_over_bare_during"].items()))
    print_breakdown(result["breakdown"])
    print_targets([Target(**row) for row in result["target_rows"]])


def main_postgres(args: argparse.Namespace) -> int:
    """``--database postgresql://…``: the run once per process count, then the speed-up of
    the most processes over one and the targets of issue 26."""
    options = {"games": args.games, "moves": args.moves, "seed": args.seed,
               "think": args.think, "click": args.click, "ramp": args.ramp,
               "profile": args.profile, "loop": args.loop}
    results = []
    speed = engine_yardstick()
    for processes in args.process_counts:
        print(f"PostgreSQL run with {processes} bot process(es)...", file=sys.stderr,
              flush=True)
        result = run_processes(args.database, processes, options)
        after = engine_yardstick()
        result["engine_yardstick"] = {"before": speed, "after": after}
        speed = after
        results.append(result)
        if not args.json:
            print(f"engine yardstick (the machine's speed): {result['engine_yardstick']}")
            print_result(result)
            if result.get("profile"):
                print(result["profile"])
    paced = args.think > 0 or args.click > 0
    for result in results:
        result["paced"] = paced
    judged = postgres_targets(results)
    met = {target.name: target.met for target in judged}
    by_count = {r["processes"]: r for r in results}
    if 1 in by_count and max(by_count) > 1 and not args.json:
        most, one = by_count[max(by_count)], by_count[1]
        whole = most["moves_per_s"] / one["moves_per_s"]
        steady = (most["steady_moves_per_s"] / one["steady_moves_per_s"]
                  if most["steady_moves_per_s"] and one["steady_moves_per_s"] else None)
        during = f"{steady:.2f}x while every table played, " if steady is not None else ""
        print(f"{max(by_count)} processes / 1: {during}{whole:.2f}x over the whole run")
    if args.json:
        print(json.dumps({"runs": results, "targets": met,
                          "target_rows": [target.row() for target in judged]}, indent=2))
    else:
        print_targets(judged)
    return 2 if args.check and not all(met.values()) else 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.database:
        return main_postgres(args)
    if args.curve_tables:
        points, judged = run_curve(args, run)
        if args.json:
            print(json.dumps({"points": points, "targets": [t.row() for t in judged]},
                             indent=2))
        else:
            print_targets(judged)
        missed = [target.name for target in judged if not target.met]
        if args.check and missed:
            print("check failed, missed: " + ", ".join(missed), file=sys.stderr)
            return 2
        return 0
    began = time.perf_counter()
    result, profile = run(args)
    result["total_s"] = round(time.perf_counter() - began, 2)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_human(result)
    if profile:
        print(profile)
    if not result["integrity_ok"]:
        return 1
    missed = [name for name, met in result["targets"].items() if not met]
    if args.check and missed:
        print("check failed, missed: " + ", ".join(missed), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
