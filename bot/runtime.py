"""How the bot's interpreter runs: garbage collected on the bot's own schedule, and
threads handed Python's lock often, so that neither stops the bot for long.

**Threads.** aiosqlite runs each query in a thread of its own, and the CPU pool waits for
its worker processes in threads: every query or computer move crosses between a thread and
the event loop twice. A thread that wants Python's lock while the event loop computes waits
until the loop lets go, by default for up to 5 ms each time. At a thousand games that
alone made a saved move take 10 ms at the median; ``SWITCH_SECONDS`` makes the wait short
(``docs/performance.md``).

**Garbage.**

Python frees most objects by reference counting at once; its cyclic collector only looks
for groups of objects that refer to each other, and it stops everything while it looks.
Under load that hurt twice (``docs/performance.md``):

* Full collections scanned every cached game, up to 440 ms each.
* Young collections grew too. Python starts one when allocations minus deallocations pass
  a threshold, and deallocating an *old* object counts as well. The bot keeps its games in
  memory and replaces each one's state at every move, so old objects die as fast as young
  ones are made. At a thousand games a young collection waited for 100,000 live objects
  and took up to 100 ms, and found no garbage at all.

So the automatic collector is switched off, and ``collect_garbage`` runs on the event loop
instead: a young collection every ``YOUNG_SECONDS``, a few thousand objects at a thousand
games (a few milliseconds), after which the survivors are frozen, out of every later
young collection's way. Cycles that die young are still found; the rare cycle that
outlives its first collection waits for the full collection every ``FULL_SECONDS``.

The young collections stay, although in the load benchmark they find next to nothing (210
objects in a 10,000-move run) and cost about a tenth of the event loop at capacity,
mostly scanning the commands in progress. The benchmark has no platform; the platforms'
libraries make cycles at every request. Through discord.py against simcord, 138 clicks
and their set-up left 91,982 objects of cyclic garbage (discord.py's views, items and
components among them, which refer to each other); through python-telegram-bot, 1,157
presses left 21,637 (178,494 with httpx as its transport, about 49 a request; now aiohttp,
``bot/adapters/telegram/transport.py``). Frozen without a collection, they would wait a
quarter of an hour for the full one.

**The games.** The registry loads a game's modules the first time it is asked for them,
which keeps tests and command-line tools quick; the bot loads every game at start instead
(``load_every_game``). Loaded on the first game of each, an import stopped the event loop,
and every table's move with it, for 4 ms (the L-game) to 41 ms (Rithmomachia) on the
benchmark machine, and what it made was never frozen.

**The event loop.** ``run_on_loop`` runs the bot on uvloop (libuv's event loop for
asyncio, by the authors of asyncpg) unless the host says ``EVENT_LOOP=asyncio`` or uvloop
is not installed. Every database round trip, socket read and thread hand-off is a turn of
the loop; on PostgreSQL uvloop cut the bot's CPU per saved move by about a quarter
(``docs/performance.md``).
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from engines.registry import game_names, get_game
from renderers import renderer_for

T = TypeVar("T")

SWITCH_SECONDS = 0.0005
YOUNG_SECONDS = 0.2
FULL_SECONDS = 15 * 60.0


def load_every_game() -> None:
    """Import each game's engine, computer players and renderer now, not on its first game
    (see the module's text)."""
    for name in game_names():
        module = get_game(name)
        if module.INFO.agents:
            importlib.import_module(module.INFO.agents)
        renderer_for(name)


def prepare_interpreter() -> None:
    """After start-up's imports: every game loaded, the short thread switch; freeze what
    start-up made and hand collection to ``collect_garbage``. Modules, classes and the
    message catalogue live as long as the process; a frozen object is never scanned, yet
    still freed when nothing refers to it."""
    load_every_game()
    sys.setswitchinterval(SWITCH_SECONDS)
    gc.collect()  # what start-up left as garbage should not be frozen with the rest
    gc.freeze()
    gc.disable()


async def collect_garbage(young_seconds: float | None = None,
                          full_seconds: float = FULL_SECONDS) -> None:
    """Collect young objects often (every ``YOUNG_SECONDS`` unless told) and everything
    seldom, until cancelled."""
    young_seconds = YOUNG_SECONDS if young_seconds is None else young_seconds
    loop = asyncio.get_running_loop()
    next_full = loop.time() + full_seconds
    while True:
        await asyncio.sleep(young_seconds)
        if loop.time() >= next_full:
            gc.unfreeze()
            gc.collect()
            next_full = loop.time() + full_seconds
        else:
            gc.collect(0)
        gc.freeze()


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory of the event loop called ``name`` ("uvloop" or "asyncio"); None for
    Python's own, which is also what "uvloop" falls back to where it is not installed."""
    if name != "uvloop":
        return None
    try:
        import uvloop
    except ImportError:  # Windows, or an install without it: Python's loop works as well
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run_on_loop(main: Coroutine[Any, Any, T], loop: str) -> T:
    """``asyncio.run(main)`` on the event loop called ``loop`` (``loop_factory``)."""
    with asyncio.Runner(loop_factory=loop_factory(loop)) as runner:
        return runner.run(main)
