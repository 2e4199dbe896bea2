"""Turing Machine: the deduction game, as a package.

* ``cards``: the 48 criteria cards as code masks.
* ``puzzle``: puzzles, validity, candidate sets and shareable codes.
* ``generator``: random valid puzzles by difficulty, size and mode.
* ``machine``: the solver that plays a puzzle in the fewest rounds, then tests.
* ``count``: how many valid puzzles exist.
* ``game``: the game flow the bot runs; ``daily``: the daily challenge's puzzle.
"""

from __future__ import annotations

import random

from engines.base import check_level
from engines.turing.agent import TuringAgent
from engines.turing.game import NAME, OPTIONS, TITLE, TuringState, new_game

ALIASES = ("tm", "turing-machine", "turing_machine", "puzzle")
LEVELS = ("easy", "strong")
HIDDEN_INFORMATION = True
# Players act at the same time, and "against the computer" means alone against the
# machine's score: the service seats no computer player.
SIMULTANEOUS = True
SOLO = True
# A new game generates a puzzle and scores it with the machine: the bot creates it in its
# pool for CPU work, not on the event loop.
COSTLY_NEW_GAME = True
State = TuringState

__all__ = [
    "ALIASES",
    "COSTLY_NEW_GAME",
    "HIDDEN_INFORMATION",
    "LEVELS",
    "NAME",
    "OPTIONS",
    "SIMULTANEOUS",
    "SOLO",
    "TITLE",
    "State",
    "make_agent",
    "new_game",
]


def make_agent(level: str, rng: random.Random) -> TuringAgent:
    check_level(level, LEVELS)
    return TuringAgent(level, rng)


