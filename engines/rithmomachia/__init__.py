"""Boolean Rithmomachia, L. Lynn Smith's game of Boolean equations on a 4×4×4 field.

Specification: ``shared/rules/rithmomachia.md`` (seed ``004_968e588bed2b9eb6.txt``). Seat 0 is
White (level 1, moves first), seat 1 is Black (level 4).

Notation
--------
* **Cells** are level, file, rank: ``1a1`` … ``4d4``. Internally a cell is
  ``(level-1)*16 + file*4 + (rank-1)``, so cell order is the order of the names.
* **Values** are written as four binary digits (``0101``). The shape follows from the 1-bits:
  none or four make a Pyramid, one a Circle, two a Triangle, three a Square.
* **A move** is ``2b3-3c4`` (from, to). A Pyramid landing on a piece adds where that piece is
  pushed: ``1c3-2c3-3c3``. Typed text may use spaces, capitals, ``x``, ``>``, ``→``, ``to``,
  and may leave out the push cell when only one cell can take the pushed piece.
* **A placement** (``setup=placement``) is ``place 0101 1b2``; typed text may write the value
  in decimal (``place 5 1b2``, ``5 1b2``, ``5@1b2``). Four binary digits are always read as
  binary, anything else as a decimal number 0–15.

Decisions the rules leave open
------------------------------
* **Standard set-up.** White's level 1 and Black's level 4 hold the same values on the same
  file and rank (a mirror through the middle of the field)::

      rank 4   1011 □  0100 ○  1000 ○  0111 □
      rank 3   1001 △  1010 △  1111 ◆  1100 △
      rank 2   0011 △  0000 ◆  0101 △  0110 △
      rank 1   1110 □  0001 ○  0010 ○  1101 □
               file a  file b  file c  file d

  Every Square stands beside the Circle that is its NOT; Triangles and Pyramids sit opposite
  their NOT through the centre of the level. It is the seed's shape layout.
* **Placement set-up.** White places first, then the players alternate, each putting one of
  their own values on an empty cell of the matching shape on their own level, 16 each. Play
  then starts with White. Placements are not plies: the move limit and the repetition count
  start with play.
* **Push.** The pushed piece may be of either side and of any shape, a Pyramid too. It goes
  one Pyramid step from the cell the Pyramid landed on to an empty cell; the cell the Pyramid
  came from is empty by then, so the pushed piece may go there (the two swap places), and a
  push is never blocked.
* **Captures.** Every capture found on the position after the move is applied at once; the
  same target may be found by several equations, and each is reported. A Pyramid is removed,
  any other piece flips to the mover. Only the piece that moved is X; with a push, the pushed
  piece serves as Y (own) or target (enemy) like any other.
* **End of the game.** Checked after every move in the spec's order: a side without a
  Pyramid (``rithmomachia_no_pyramid``), the side to move without a legal move
  (``rithmomachia_no_moves``), the third occurrence of the same position with the same side
  to move (``repetition``), the move limit in plies (``move_limit``). Each scores the three
  victories; the detail holds ``label`` (``simple``, ``compound``, ``perfect``, or ``None`` for
  a draw), ``victories`` (seat or ``None`` per ``pyramid``/``piece``/``value``),
  ``victory_counts`` and ``counts``. Resigning (``resigned``, ``loser``) and abandoning
  (``abandoned``) score nothing.

* **Loading.** ``from_dict`` checks turns, counts and history, and that no value is on the
  field more than twice nor a side has two Pyramids of one value; it accepts fewer pieces than
  a game could leave, so that studies and tests can set up small positions.

Menus
-----
Step 1: the pieces that can move (token: the cell; label ``○0001 1b1``, the glyph hollow
for White and filled for Black, as on the board). Step 2: their destinations (``→ 2b1``,
with ``· takes 2`` when the move captures; ``→ 1a1 push □1110`` when the Pyramid lands on a
piece). Step 3, for a push: where the pushed piece goes
(``push → 2a1``). While placing: a value (token ``0101``, label ``△0101``), then a cell.
Agents are in ``engines/rithmomachia/agents.py``.

Views and events
----------------
``view(player)`` (there is no hidden information, so every seat sees the same):
``game``, ``viewer``, ``seat_names``, ``options``, ``ops`` (enabled equations, upper case),
``push``, ``setup``, ``phase`` (``placement`` or ``play``), ``to_move``, ``ply``,
``move_limit``, ``board`` (pieces ``{cell, value, bits, shape, owner}`` in cell order),
``layout`` (the shape of each home cell, rank 1 first), ``unplaced`` (per seat, values still
to place), ``counts`` (per seat ``{pyramids, pieces, value}``), ``standing`` (who would take
each victory now), ``repetitions`` (occurrences of the current position), ``last_move``,
``last_events`` and ``outcome``.

Events: ``placed`` ``{player, cell, value, bits, shape}``; ``play_started``; ``moved``
``{player, action, text, from, to, value, bits, shape, push}`` where ``push`` is ``None`` or
``{from, to, value, bits, shape, owner}``; ``capture`` ``{player, target, value, bits, shape,
owner (before), removed, flipped, form, op, equation, operands, equations}``: the first
equation found, and in ``equations`` every one (each ``{form, op, equation, operands}``,
operands ``{cell, value, bits}``, X first); ``game_over``.
"""

from __future__ import annotations

from engines.base import JSON, Action, GameInfo, InvalidMove, play_actions
from engines.rithmomachia.moves import SEATS
from engines.rithmomachia.rules import LEVELS, NAME, OPTIONS, PRESETS
from engines.rithmomachia.state import RithmomachiaState, State

ALIASES = ("rithmo", "rithmomachy", "boolean_rithmomachia", "boolean-rithmomachia")
TITLE = "Boolean Rithmomachia"
# Levels whose move takes a millisecond or so (a random legal move): the bot plays them
# on its event loop, where handing them to a worker process would cost more than the move
# (``benchmarks/quick_levels.py`` prints their timings).
# ``easy`` looks at the opponent's replies to the moves it tries (a few milliseconds, tens
# at worst), so it runs in the worker processes like the other levels.
QUICK_LEVELS: frozenset[str] = frozenset()

INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                agents="engines.rithmomachia.agents", presets=PRESETS,
                beginner_options="danger=on")

# The game as the registry and the bot see it (``engines.base.GameModule``). Everything
# else is imported from the module it lives in: ``board``, ``equations``, ``moves``,
# ``notation``, ``rules``, ``state``, ``menu``, ``grid``, ``views``, ``serial``, ``agents``,
# ``analysis``.
__all__ = [
    "ALIASES",
    "INFO",
    "LEVELS",
    "NAME",
    "OPTIONS",
    "PRESETS",
    "QUICK_LEVELS",
    "TITLE",
    "RithmomachiaState",
    "State",
    "new_game",
    "replay",
]


def new_game(options: JSON, players: int, seed: int) -> RithmomachiaState:
    if players != SEATS:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return RithmomachiaState(options, seed)


def replay(options: JSON, seed: int, actions: list[Action]) -> RithmomachiaState:
    return play_actions(new_game(options, SEATS, seed), actions)
