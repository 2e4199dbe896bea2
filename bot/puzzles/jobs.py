"""The puzzle trainer's CPU work, for the service's worker pool (``bot.limits.Workers``),
like ``bot.jobs``: plain data in and out, so that a worker process can run it. Making a
puzzle may build a game's tables first (the L-game's solved table takes about a second,
once per worker), and judging an answer may search; neither belongs on the event loop.

A verdict travels and is stored as JSON (``verdict_json``): its reason is an engine
``Message``, kept as key, English text and parameters so that it is drawn in the reader's
language whenever the page is drawn again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection
from typing import Any

from engines.base import GameError, Message
from engines.puzzles import Puzzle, Verdict, generate_puzzle, judge_answer

log = logging.getLogger(__name__)

# Puzzles made, each with its share code, for a pick to choose from.
Candidates = list[tuple[str, dict[str, Any]]]
# A job's time budget: a worker's first puzzle of a game may build the game's tables.
MAKE_SECONDS = 20.0
# Seeds stay below 2**40, so a share code stays short (eight seed digits at most).
SEED_BITS = 40
# A puzzle whose starting rating is this near the player's is taken without making more.
CLOSE_ENOUGH = 100
# The marker of a ``Message`` among a message's parameters.
MESSAGE = "$message"


def message_json(text: str) -> dict[str, Any]:
    """An engine message (or plain text) as JSON, parameters that are messages included."""
    if not isinstance(text, Message):
        return {"key": "", "default": str(text), "params": {}}
    return {"key": text.key, "default": text.default,
            "params": {name: ({MESSAGE: message_json(value)} if isinstance(value, Message)
                              else value if isinstance(value, int | float | bool) or value is None
                              else str(value))
                       for name, value in text.params.items()}}


def message_from_json(data: Any) -> Message:
    """The message ``message_json`` wrote; anything malformed becomes its text, so a
    damaged row can never stop a page from being drawn."""
    if not isinstance(data, dict):
        return Message("", str(data))
    params = data.get("params") if isinstance(data.get("params"), dict) else {}
    assert isinstance(params, dict)
    return Message(str(data.get("key", "")), str(data.get("default", "")),
                   **{str(name): (message_from_json(value[MESSAGE])
                                  if isinstance(value, dict) and MESSAGE in value else value)
                      for name, value in params.items()})


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    return {"correct": verdict.correct, "reason": message_json(verdict.reason),
            "line": list(verdict.line)}


def puzzle_candidates(game: str, theme: str | None, seeds: list[int],
                      target: float | None = None, recent: Collection[str] = (),
                      budget: float | None = None) -> Candidates:
    """The puzzles of ``seeds`` (a seed the generator finds nothing for is left out), each
    with its share code, for the trainer to pick the one nearest the player's rating.

    Some puzzles take a second to make (a Rithmomachia victory in two), so the making stops
    early: at the first new puzzle within ``CLOSE_ENOUGH`` of ``target``, or once
    ``budget`` seconds are spent and something was found."""
    found: Candidates = []
    started = time.monotonic()
    for seed in seeds:
        try:
            puzzle = generate_puzzle(game, seed, theme)
        except GameError as error:
            log.info("no %s puzzle for seed %d (%s)", game, seed, error.key)
            continue
        code = puzzle.share_code()
        found.append((code, puzzle.to_dict()))
        fresh = code not in recent
        if fresh and target is not None and abs(puzzle.rating - target) <= CLOSE_ENOUGH:
            break
        if budget is not None and time.monotonic() - started > budget and any(
                code not in recent for code, _ in found):
            break
    return found


def judge_puzzle(puzzle: dict[str, Any], action: str) -> dict[str, Any]:
    """The verdict on ``action`` as the answer to ``puzzle``, as JSON."""
    return verdict_json(judge_answer(Puzzle.from_dict(puzzle), action))
