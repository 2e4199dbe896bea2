"""Time from a Telegram button press to the bot's answer, through the real
python-telegram-bot ``Application``.

Run from the repository root (needs the dev extras)::

    python benchmarks/telegram_latency.py [--games 10] [--ai-seconds 0.5] [--json]

Progress goes to stderr, a line per game.

The bot long-polls a loopback fake of the Bot API (``tests/helpers/telegram_fake.py``), so the
numbers are the bot's own work per press (the poll's return, PTB's parsing and dispatch,
the service call with its SQLite commit, the edit and the callback answer) without
Telegram's network time. Two cases:

1. Two humans play L-games in a group with buttons: each press's time to its answer.
2. A human plays an AI whose every move takes ``--ai-seconds`` of wall time in its worker
   thread: the press that completes the human's move must still be answered at once, and
   the AI's move reaches the board later by itself.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.timing import click_benchmark_arguments, slow_lgame_agent, summary
from engines import lgame
from tests.helpers.telegram_fake import Person
from tests.helpers.telegram_world import ALICE, BOB, GROUP, World, telegram_world


async def press_once(world: World, person: Person, chat: dict[str, Any],
                     rng: random.Random) -> tuple[str, float] | None:
    """Press a random menu button on the board; the query id and time to its answer."""
    board = await world.board(chat)
    options = [b for b in board.buttons if b.get("callback_data", "").startswith("m:")]
    if not options:
        return None
    query = world.fake.press(person, board, rng.choice(options)["callback_data"])
    await world.settle()
    return query, world.fake.answer_latency(query)


async def humans(games: int, seed: int) -> tuple[list[float], float]:
    """Each press's time to its answer, and the process's CPU seconds while they were
    played (the bot, the platform's library and the fake platform, all in this process:
    a figure to compare codes by, not the bot's alone)."""
    latencies: list[float] = []
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with telegram_world(Path(folder)) as world:
            cpu = time.process_time()
            for number in range(games):
                print(f"two humans: game {number + 1}/{games}, {len(latencies)} presses",
                      file=sys.stderr, flush=True)
                bob_line = await world.say(BOB, GROUP, "ready")
                await world.say(ALICE, GROUP, "/play lgame move_limit=30", reply_to=bob_line)
                for _ in range(200):
                    record = await world.store.running_game("telegram", str(GROUP["id"]))
                    if record is None:
                        break
                    seat = lgame.LGameState.from_dict(record.state).turn
                    mover = ALICE if record.players[seat]["id"] == str(ALICE.id) else BOB
                    pressed = await press_once(world, mover, GROUP, rng)
                    if pressed is not None:
                        latencies.append(pressed[1])
            cpu = time.process_time() - cpu
    return latencies, cpu


async def slow_ai(moves: int, ai_seconds: float, seed: int) -> tuple[list[float], list[float]]:
    answers: list[float] = []
    ai_shown: list[float] = []
    rng = random.Random(seed)
    chat = ALICE.private_chat
    with slow_lgame_agent(ai_seconds), tempfile.TemporaryDirectory() as folder:
        async with telegram_world(Path(folder)) as world:
            await world.say(ALICE, chat, "/play lgame easy")
            while len(ai_shown) < moves:
                print(f"against a {ai_seconds} s AI: move {len(ai_shown) + 1}/{moves}",
                      file=sys.stderr, flush=True)
                record = await world.store.running_game("telegram", str(chat["id"]))
                if record is None:
                    await world.say(ALICE, chat, "/play lgame easy")
                    continue
                requests_before = len(world.fake.requests)
                pressed = await press_once(world, ALICE, chat, rng)
                if pressed is None:
                    break
                answers.append(pressed[1])
                after = await world.store.get_game(record.id)
                if after is not None and after.version > record.version + 1:
                    edits = [arrived for (method, _), arrived in zip(
                        world.fake.requests[requests_before:],
                        world.fake.arrivals[requests_before:], strict=True)
                        if method == "editMessageText"]
                    ai_shown.append(edits[-1] - world.fake.pressed_at[pressed[0]])
    return answers, ai_shown


async def main() -> None:
    args = click_benchmark_arguments(__doc__.split("\n")[0])
    presses, cpu = await humans(args.games, args.seed)
    answers, ai_shown = await slow_ai(args.ai_moves, args.ai_seconds, args.seed)
    result = {"human_presses": summary(presses), "presses_against_slow_ai": summary(answers),
              "ai_move_on_board": summary(ai_shown), "ai_seconds": args.ai_seconds,
              "cpu_ms_per_human_press": round(cpu * 1000 / max(1, len(presses)), 3)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"press → answer, two humans:       {result['human_presses']}")
    print(f"press → answer, {args.ai_seconds}s AI:          {result['presses_against_slow_ai']}")
    print(f"press → AI's move on the board:   {result['ai_move_on_board']}")
    print(f"process CPU a press, two humans:  {result['cpu_ms_per_human_press']} ms (the bot, "
          "python-telegram-bot and the fake Bot API, all in this process)")


if __name__ == "__main__":
    asyncio.run(main())
