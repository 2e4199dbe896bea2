"""The CPU-heavy work the bot hands to its worker pool (``bot.limits.Workers``).

The pool may run these in other processes, so each takes and returns only plain data, a
game's name and JSON, and rebuilds what it needs from the engine registry there.
"""

from __future__ import annotations

import random
from typing import Any

from engines.registry import get_game, make_agent


def computer_move(game: str, level: str, agent_seed: int, state: dict[str, Any],
                  seat: int) -> str:
    """The computer's choice for ``seat``; the same seed gives the same move anywhere."""
    module = get_game(game)
    agent = make_agent(module.NAME, level, random.Random(agent_seed))
    chosen: str = agent.choose(module.State.from_dict(state), seat)
    return chosen


def new_game_state(game: str, options: dict[str, Any], players: int,
                   seed: int) -> dict[str, Any]:
    """A new game's state, for games whose set-up is costly (a Turing puzzle)."""
    state: dict[str, Any] = get_game(game).new_game(options, players, seed).to_dict()
    return state
