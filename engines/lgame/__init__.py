"""Edward de Bono's L-game, solved completely.

Specification: ``shared/rules/lgame.md``. Decisions the rules leave to the engine:

* Cells are ``a1``–``d4``: files a–d left to right, ranks 1–4 bottom to top. Internally a
  cell is ``rank * 4 + file`` and a set of cells is a 16-bit mask.
* An L placement is written ``<corner> <leg> <foot>``: the corner is the end of the long
  leg where the foot joins it, ``leg`` is the compass direction in which the 3-cell leg
  runs from the corner, and ``foot`` is the side the foot points to. ``a1 N E`` covers
  a1 a2 a3 b1, which is the letter L itself. Each of the 48 placements has exactly one
  such name.
* A neutral move is ``d1>b3`` (``d1-b3`` and ``d1b3`` are accepted too). In
  ``sudden_death`` up to two may follow the L move. Moves that end in the same position
  are the same move, so the canonical action names the resulting position: ``c4SW``,
  ``c4SW d1b3`` or, in sudden death with both neutrals moved, sources and destinations each
  in board order (``c4SW a4b2 d1c3``).
* Seat 0 plays X (red) and moves first, seat 1 plays O (blue).
* Threefold repetition of the same position with the same player to move draws, as does
  the ``move_limit`` option (counted in single moves, default 200).
"""

from __future__ import annotations

from engines.base import JSON, Action, GameInfo, InvalidMove, play_actions
from engines.lgame.agents import LEVELS, make_agent
from engines.lgame.rules import NAME, OPTIONS
from engines.lgame.state import LGameState, State

ALIASES = ("l", "l-game", "lgame", "l_game")
TITLE = "L-game"
# Levels whose move takes a millisecond or so (``easy``: a safe move or the squeeze, both
# without the solved table): the bot plays them on its event loop, where handing them to a
# worker process would cost more than the move (``benchmarks/quick_levels.py`` times them).
QUICK_LEVELS = frozenset({"easy"})
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                beginner_options="danger=on")

# The game as the registry and the bot see it (``engines.base.GameModule``; ``make_agent``
# too, as ``INFO`` names no module of players). Everything else is imported from the
# module it lives in: ``board``, ``rules``, ``solver``, ``state``, ``menu``, ``grid``,
# ``views``, ``serial``, ``agents``, ``analysis``.
__all__ = [
    "ALIASES",
    "INFO",
    "LEVELS",
    "NAME",
    "OPTIONS",
    "QUICK_LEVELS",
    "TITLE",
    "LGameState",
    "State",
    "make_agent",
    "new_game",
    "replay",
]


def new_game(options: JSON, players: int, seed: int) -> LGameState:
    if players != 2:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return LGameState(options, seed)


def replay(options: JSON, seed: int, actions: list[Action]) -> LGameState:
    return play_actions(new_game(options, 2, seed), actions)
