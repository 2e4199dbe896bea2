"""Turing Machine: the deduction game, as a package.

* ``cards``: the 48 criteria cards as code masks.
* ``puzzle``: puzzles, validity, candidate sets and shareable codes.
* ``generator``: random valid puzzles by difficulty, size and mode.
* ``machine``: the solver that plays a puzzle in the fewest rounds, then tests.
* ``count``: how many valid puzzles exist.
* ``rules``: the game flow the bot runs; ``state``: its ``TuringState`` with the menus
  (``menu``), view (``views``) and storage (``serial``), and new games.
* ``agents``: the computer's stand-ins; ``analysis``: hints and replays' tests;
  ``daily``: the daily challenge's puzzle.
"""

from __future__ import annotations

import random

from engines.base import GameInfo, check_level
from engines.turing.agents import TuringAgent
from engines.turing.rules import NAME, OPTIONS, TITLE
from engines.turing.state import TuringState, new_game

ALIASES = ("tm", "turing-machine", "turing_machine", "puzzle")
LEVELS = ("easy", "strong")
# Players act at the same time, and "against the computer" means alone against the
# machine's score: the service seats no computer player. A new game generates a puzzle
# and scores it with the machine: the bot creates it in its pool for CPU work.
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, hidden_information=True,
                simultaneous=True, solo=True, costly_new_game=True)
State = TuringState

__all__ = [
    "ALIASES",
    "INFO",
    "LEVELS",
    "NAME",
    "OPTIONS",
    "TITLE",
    "State",
    "make_agent",
    "new_game",
]


def make_agent(level: str, rng: random.Random) -> TuringAgent:
    check_level(level, LEVELS)
    return TuringAgent(level, rng)


