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
Agents are in ``engines/rithmomachia_agent.py``.

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

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Self

from engines import rithmomachia_grid
from engines.base import (
    GRID_TOKEN,
    JSON,
    Action,
    Choice,
    Event,
    GameError,
    GameInfo,
    GamePreset,
    GameState,
    IllegalMove,
    InvalidMove,
    Message,
    NotYourTurn,
    OptionSpec,
    Outcome,
    StateError,
    not_in_menu,
    play_actions,
    validate_options,
)
from engines.json_copy import copy_json
from engines.rithmomachia_board import (
    CELL_BY_NAME,
    CELL_NAMES,
    CELLS,
    EMPTY,
    HOME_LEVEL,
    LAYOUT_SHAPES,
    PYRAMID,
    REACH,
    REACH_MASK,
    SHAPE_NAMES,
    SHAPE_OF,
    SHAPE_STEPS,
    STEP_WORDS,
    bits,
    cell_at,
    code_label,
    code_of,
    coords,
    is_pyramid,
    owner_of,
    piece_info,
    piece_label,
    standard_board,
    value_of,
)
from engines.state_checks import check_header, checked_int, checked_outcome, load_checked

NAME = "rithmomachia"
ALIASES = ("rithmo", "rithmomachy", "boolean_rithmomachia", "boolean-rithmomachia")
TITLE = "Boolean Rithmomachia"
LEVELS = ("easy", "medium", "strong", "expert")
# Levels whose move takes a millisecond or so (a random legal move): the bot plays them
# on its event loop, where handing them to a worker process would cost more than the move
# (``benchmarks/quick_levels.py`` prints their timings).
# ``easy`` looks at the opponent's replies to the moves it tries (a few milliseconds, tens
# at worst), so it runs in the worker processes like the other levels.
QUICK_LEVELS: frozenset[str] = frozenset()
OPS = ("not", "and", "or", "xor", "nand", "nor")
OPTIONS = (
    OptionSpec("setup", str, "standard",
               "standard: a fixed set-up; placement: players take turns placing their values",
               choices=("standard", "placement")),
    OptionSpec("push", bool, True, "a Pyramid may land on a piece and push it to a free cell"),
    OptionSpec("ops", str, ",".join(OPS),
               "the equations that capture, any of not,and,or,xor,nand,nor (e.g. ops=not,nand)"),
    OptionSpec("move_limit", int, 200, "the game ends after this many plies",
               minimum=10, maximum=2000),
    # A learner's aid the rules ignore: the bot marks on the board the pieces of the side to
    # move that the opponent could capture next move (issue 27's danger marks).
    OptionSpec("danger", bool, False,
               "mark the pieces the opponent could capture next move (on against easy)"),
)
# Named option sets (name, option text, label) the bot can offer, the first to newcomers. The
# teaching game is the seed's NOT-NAND game: with only those two equations captures are rarer,
# so games last long enough to learn from (random games 121 plies on average, median 200,
# against 15 under the standard rules: ``docs/ai.md``).
# The seed's NOT-NAND game first: random games last ~150 plies instead of ~11, long enough
# for a newcomer to see the captures before a Pyramid falls (issue 24 C.3).
PRESETS = (
    GamePreset("teaching", "ops=not,nand",
               Message("rithmo.preset.teaching",
                       "Teaching game: only NOT and NAND capture, longer games")),
    GamePreset("standard", "",
               Message("rithmo.preset.standard", "Standard game: all six equations")),
)

INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                agents="engines.rithmomachia_agent", presets=PRESETS,
                beginner_options="danger=on")

SEATS = 2
# Names that reach players inside error texts, so translatable (the renderer's keys).
SEAT_NAMES = (Message("rithmo.side.0", "White"), Message("rithmo.side.1", "Black"))



# --- equations ------------------------------------------------------------------------------

BINARY: dict[str, Callable[[int, int], int]] = {
    "and": lambda x, y: x & y,
    "or": lambda x, y: x | y,
    "xor": lambda x, y: x ^ y,
    "nand": lambda x, y: ~(x & y) & 15,
    "nor": lambda x, y: ~(x | y) & 15,
}


@dataclass(frozen=True)
class Rules:
    """Capture tables for one set of enabled equations, so the search never calls an op:
    ``targets[x][y]`` is the mask of target values X and Y capture, ``need[x][t]`` the mask of
    Y values with which X captures a target of value t."""

    ops: tuple[str, ...]
    binary: tuple[str, ...]
    not_on: bool
    targets: tuple[tuple[int, ...], ...]
    need: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=64)
def rules_for(ops: tuple[str, ...]) -> Rules:
    binary = tuple(op for op in ops if op != "not")
    targets = tuple(tuple(sum(1 << v for v in {BINARY[op](x, y) for op in binary})
                          for y in range(16)) for x in range(16))
    need = tuple(tuple(sum(1 << y for y in range(16) if targets[x][y] >> t & 1)
                       for t in range(16)) for x in range(16))
    return Rules(ops, binary, "not" in ops, targets, need)


def normalise_ops(text: str) -> str:
    """The ``ops`` option in canonical form (the spec's order, comma separated)."""
    words = {w for w in re.split(r"[\s,;+/|&-]+", text.strip().lower()) if w}
    if words == {"all"}:
        words = set(OPS)
    unknown = sorted(words - set(OPS))
    if unknown or not words:
        raise InvalidMove("rithmomachia.error.ops",
                          "Option 'ops' is a non-empty list of {known}, not '{given}'.",
                          known=",".join(OPS), given=text[:40])
    return ",".join(op for op in OPS if op in words)


def iter_cells(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def occupancy(board: list[int]) -> tuple[int, int]:
    """The cells White and Black occupy, as masks."""
    white = black = 0
    for cell, c in enumerate(board):
        if c:
            if c <= 16:
                white |= 1 << cell
            else:
                black |= 1 << cell
    return white, black


def captures(board: list[int], own: int, enemy: int, dest: int, rules: Rules) -> int:
    """The mask of enemy cells captured when the piece on ``dest`` has just moved; ``board``
    is the position after the move (before any capture), ``own`` and ``enemy`` are the
    occupancy masks of the mover and of the other side there. Only occupied neighbours are
    looked at, so this is what the search calls."""
    xv = (board[dest] - 1) & 15
    reach = REACH_MASK[SHAPE_OF[xv]][dest]
    out = 0
    near = reach & enemy
    if near:
        need = rules.need[xv]
        not_value = xv ^ 15 if rules.not_on else -1
        helpers = own & ~(1 << dest)
        while near:
            low = near & -near
            near ^= low
            t = low.bit_length() - 1
            tv = (board[t] - 1) & 15
            if tv == not_value:
                out |= low
                continue
            wanted = need[tv]
            if wanted:  # compiling: an own Y next to the target that reaches it
                ys = helpers & REACH_MASK[PYRAMID][t]
                while ys:
                    ylow = ys & -ys
                    ys ^= ylow
                    y = ylow.bit_length() - 1
                    yv = (board[y] - 1) & 15
                    if wanted >> yv & 1 and REACH_MASK[SHAPE_OF[yv]][y] & low:
                        out |= low
                        break
    ys = reach & own
    if ys:  # filtering: through an own Y that X reaches
        targets = rules.targets[xv]
        while ys:
            ylow = ys & -ys
            ys ^= ylow
            y = ylow.bit_length() - 1
            yv = (board[y] - 1) & 15
            wanted = targets[yv]
            if wanted:
                ts = REACH_MASK[SHAPE_OF[yv]][y] & enemy & ~out
                while ts:
                    low = ts & -ts
                    ts ^= low
                    if wanted >> ((board[low.bit_length() - 1] - 1) & 15) & 1:
                        out |= low
    return out


def captured_cells(board: list[int], player: int, dest: int, rules: Rules) -> int:
    """``captures`` for ``player``'s move to ``dest``, occupancy worked out from the board."""
    masks = occupancy(board)
    return captures(board, masks[player], masks[1 - player], dest, rules)


def _operand(cell: int, value: int) -> JSON:
    return {"cell": CELL_NAMES[cell], "value": value, "bits": bits(value)}


def capture_equations(board: list[int], player: int, dest: int,
                      rules: Rules) -> dict[int, list[JSON]]:
    """Every equation that captures, per target cell: the announced, slow twin of
    ``captured_cells``, written as the spec reads (NOT, then compiling, then filtering)."""
    xv = value_of(board[dest])
    reach_x = REACH[SHAPE_OF[xv]][dest]
    found: dict[int, list[JSON]] = {}

    def enemy(cell: int) -> bool:
        return bool(board[cell]) and owner_of(board[cell]) != player

    def record(target: int, form: str, op: str, y: int | None) -> None:
        tv = value_of(board[target])
        operands = [_operand(dest, xv)]
        if y is None:
            text = f"NOT {bits(xv)} = {bits(tv)}"
        else:
            operands.append(_operand(y, value_of(board[y])))
            text = f"{bits(xv)} {op.upper()} {bits(value_of(board[y]))} = {bits(tv)}"
        found.setdefault(target, []).append(
            {"form": form, "op": op.upper(), "equation": text, "operands": operands})

    if rules.not_on:
        for t in reach_x:
            if enemy(t) and value_of(board[t]) == xv ^ 15:
                record(t, "not", "not", None)
    own = [c for c in range(CELLS) if c != dest and board[c] and owner_of(board[c]) == player]
    for y in own:
        yv = value_of(board[y])
        reach_y = REACH[SHAPE_OF[yv]][y]
        for t in reach_x:
            if enemy(t) and t in reach_y:
                for op in rules.binary:
                    if BINARY[op](xv, yv) == value_of(board[t]):
                        record(t, "compiling", op, y)
    for y in own:
        if y not in reach_x:
            continue
        yv = value_of(board[y])
        for t in REACH[SHAPE_OF[yv]][y]:
            if enemy(t):
                for op in rules.binary:
                    if BINARY[op](xv, yv) == value_of(board[t]):
                        record(t, "filtering", op, y)
    return dict(sorted(found.items()))


# --- moves ----------------------------------------------------------------------------------
# A move is an int: from | to << 6 | (push + 1) << 12, push being -1 without one.


def move_parts(move: int) -> tuple[int, int, int]:
    return move & 63, (move >> 6) & 63, (move >> 12) - 1


def encode_move(source: int, dest: int, push: int = -1) -> int:
    return source | dest << 6 | (push + 1) << 12


def move_text(move: int) -> Action:
    source, dest, push = move_parts(move)
    text = f"{CELL_NAMES[source]}-{CELL_NAMES[dest]}"
    return f"{text}-{CELL_NAMES[push]}" if push >= 0 else text


def generate_moves(board: list[int], player: int, push: bool) -> list[int]:
    """Every legal move of ``player``, in cell order of (from, to, push cell)."""
    moves: list[int] = []
    lo = 1 + (player << 4)
    hi = lo + 16
    for source in range(CELLS):
        c = board[source]
        if not lo <= c < hi:
            continue
        shape = SHAPE_OF[c - lo]
        for dest in REACH[shape][source]:
            if not board[dest]:
                moves.append(source | dest << 6)
            elif push and shape == PYRAMID:
                for target in REACH[PYRAMID][dest]:
                    if target == source or not board[target]:
                        moves.append(source | dest << 6 | (target + 1) << 12)
    return moves


def make_move(board: list[int], move: int, player: int, rules: Rules) -> tuple[list[int], int]:
    """The board after ``move`` and its captures (a new list), and the captured mask."""
    after = board.copy()
    source, dest, push = move & 63, (move >> 6) & 63, (move >> 12) - 1
    piece = after[source]
    after[source] = EMPTY
    if push >= 0:
        after[push] = after[dest]
    after[dest] = piece
    captured = captured_cells(after, player, dest, rules)
    mask = captured
    while mask:
        low = mask & -mask
        t = low.bit_length() - 1
        mask ^= low
        c = after[t]
        v = (c - 1) & 15
        after[t] = EMPTY if v == 0 or v == 15 else c + 16 if c <= 16 else c - 16
    return after, captured


def counts(board: list[int]) -> list[JSON]:
    result = [{"pyramids": 0, "pieces": 0, "value": 0} for _ in range(SEATS)]
    for c in board:
        if c:
            side = result[owner_of(c)]
            side["pieces"] += 1
            side["value"] += value_of(c)
            side["pyramids"] += is_pyramid(value_of(c))
    return result


def victories(board: list[int]) -> JSON:
    """Who takes each victory (``None`` when level), and the verdict."""
    tally = counts(board)
    taken: dict[str, int | None] = {}
    for name, key in (("pyramid", "pyramids"), ("piece", "pieces"), ("value", "value")):
        a, b = tally[0][key], tally[1][key]
        taken[name] = None if a == b else (0 if a > b else 1)
    scores = [sum(1 for seat in taken.values() if seat == s) for s in range(SEATS)]
    winners: tuple[int, ...] = ()
    label = None
    if scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        winners = (winner,)
        label = ("simple", "compound", "perfect")[scores[winner] - 1]
    return {"winners": winners, "label": label, "victories": taken, "victory_counts": scores,
            "counts": tally}


_KEY_RE = re.compile(r"[01][.a-pA-P]{64}")


def position_key(board: list[int], turn: int) -> str:
    """The position and side to move as text: ``.`` empty, ``a``–``p`` White's values 0–15,
    ``A``–``P`` Black's."""
    return str(turn) + "".join("." if not c else chr((97 if c <= 16 else 65) + value_of(c))
                               for c in board)


# --- parsing --------------------------------------------------------------------------------

EXPECTED = Message("rithmomachia.expected",
                   "a move like '2b3-3c4' (level, file and rank of your piece, then of its "
                   "destination); a Pyramid landing on a piece adds where that piece goes: "
                   "'1c3-2c3-3c3'")
EXPECTED_PLACE = Message("rithmomachia.expected_place",
                         "a placement like 'place 0101 1b2' (one of your values, then a free "
                         "cell of its shape on your level)")
_CELL = r"([0-9])\s*([a-z])\s*([0-9])"
_MOVE_RE = re.compile(rf"(?:move\s*)?{_CELL}(?:\s*(?:-|x|>|→|:|to|,)?\s*{_CELL}){{1,2}}")
_CELL_RE = re.compile(_CELL)
_PLACE_RE = re.compile(r"(?:place|put|p)?\s*(?:0b)?([01]{4}|[0-9]{1,2})\s*"
                       r"(?:@|at|on|in|to|-|>|→|:)?\s*" + _CELL)


def parse_cell(level: str, file: str, rank: str) -> int:
    name = f"{level}{file}{rank}"
    cell = CELL_BY_NAME.get(name)
    if cell is None:
        raise InvalidMove("rithmomachia.error.bad_cell",
                          "There is no cell {cell}: levels are 1–4, files a–d, ranks 1–4 "
                          "(like 2b3).", cell=name)
    return cell


def parse_move_cells(text: str) -> list[int]:
    """The two or three cells of a typed move; raises ``InvalidMove`` with what is expected."""
    words = " ".join(text.strip().lower().split())
    if not words:
        raise InvalidMove("rithmomachia.error.empty", "Type {expected}.", expected=EXPECTED)
    if _MOVE_RE.fullmatch(words) is None:
        raise InvalidMove("rithmomachia.error.bad_move", "Expected {expected}, not '{got}'.",
                          expected=EXPECTED, got=text.strip()[:30])
    return [parse_cell(*m.groups()) for m in _CELL_RE.finditer(words.removeprefix("move"))]


def parse_placement(text: str) -> tuple[int, int]:
    words = " ".join(text.strip().lower().split())
    match = _PLACE_RE.fullmatch(words)
    if match is None:
        raise InvalidMove("rithmomachia.error.bad_placement", "Expected {expected}, not '{got}'.",
                          expected=EXPECTED_PLACE, got=text.strip()[:30])
    raw = match.group(1)
    value = int(raw, 2) if len(raw) == 4 else int(raw)
    if value > 15:
        raise InvalidMove("rithmomachia.error.bad_value",
                          "Values run from 0 to 15 (0000 to 1111), not {value}.", value=raw)
    return value, parse_cell(*match.groups()[1:])


def placement_text(value: int, cell: int) -> Action:
    return f"place {bits(value)} {CELL_NAMES[cell]}"


def _steps_text(shape: int) -> Message:
    """How a shape steps, as words a translation can join in its own way."""
    words = [w for k, w in STEP_WORDS.items() if SHAPE_STEPS[shape] & k]
    if len(words) == 2:
        return Message("rithmomachia.steps.two", "{first} or {second}",
                       first=words[0], second=words[1])
    return Message("rithmomachia.steps.three", "{first}, {second} or {third}",
                   first=words[0], second=words[1], third=words[2])


# --- the game -------------------------------------------------------------------------------


class RithmomachiaState(GameState):
    game_name = NAME
    has_grid = True
    min_players = SEATS
    max_players = SEATS
    schema_version = 1

    def __init__(self, options: JSON, seed: int) -> None:
        self.options = validate_options(OPTIONS, options)
        self.options["ops"] = normalise_ops(self.options["ops"])
        self.seed = seed
        self.rules = rules_for(tuple(self.options["ops"].split(",")))
        self.push = bool(self.options["push"])
        self.move_limit = int(self.options["move_limit"])
        self.turn = 0
        self.plies = 0
        self.actions: list[Action] = []
        self.history: dict[str, int] = {}
        self.last_move: JSON | None = None
        self.last_events: list[Event] = []
        self._outcome: Outcome | None = None
        # The last position's moves (see ``moves``): its key, the moves, and them by source.
        self._moves_cache: tuple[tuple[int, tuple[int, ...]], list[int],
                                 dict[int, list[int]]] | None = None
        if self.options["setup"] == "standard":
            self.board = standard_board()
            self.phase = "play"
            self.history[self.key()] = 1
        else:
            self.board = [EMPTY] * CELLS
            self.phase = "placement"

    # -- helpers --
    def key(self) -> str:
        return position_key(self.board, self.turn)

    def moves(self) -> list[int]:
        """The side to move's legal moves as ints (empty during placement and after the end).

        Kept for the last position asked about: one press of a menu button asks for the
        menu, its path and the legal actions of the same position several times (the
        service's board, the press's check, the reply), and generating the moves was the
        costliest part of it. The key is the board's contents, not the list object, so a
        board changed in place (placement, an agent's search) is never served stale; a
        copy of the list goes out, so callers cannot change the kept one."""
        if self.phase != "play" or self._outcome is not None:
            return []
        return list(self._generated())

    def _generated(self) -> list[int]:
        """``generate_moves`` for the current position, through the cache (not a copy)."""
        return self._cached_moves()[0]

    def _moves_by_source(self) -> dict[int, list[int]]:
        """The current position's moves by the cell they start from, in the order
        ``generate_moves`` lists them, through the cache (not a copy)."""
        return self._cached_moves()[1]

    def _cached_moves(self) -> tuple[list[int], dict[int, list[int]]]:
        key = (self.turn, tuple(self.board))
        if self._moves_cache is None or self._moves_cache[0] != key:
            moves = generate_moves(self.board, self.turn, self.push)
            by_source: dict[int, list[int]] = {}
            for move in moves:
                by_source.setdefault(move & 63, []).append(move)
            self._moves_cache = (key, moves, by_source)
        return self._moves_cache[1], self._moves_cache[2]

    def unplaced(self, seat: int) -> list[int]:
        placed = {value_of(c) for c in self.board if c and owner_of(c) == seat}
        return [v for v in range(16) if v not in placed]

    def placements(self, seat: int) -> list[tuple[int, int]]:
        level = HOME_LEVEL[seat]
        return [(v, cell_at(level, f, r)) for v in self.unplaced(seat)
                for r in range(4) for f in range(4)
                if LAYOUT_SHAPES[r][f] == SHAPE_OF[v] and not self.board[cell_at(level, f, r)]]

    def _check_turn(self, player: int) -> None:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        if player != self.turn:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")

    def _decode(self, player: int, text: str) -> int | tuple[int, int]:
        """A legal move (int) or placement (value, cell) of ``player``, or a ``GameError``."""
        if self.phase == "placement":
            if _MOVE_RE.fullmatch(" ".join(text.strip().lower().split())):
                raise IllegalMove("rithmomachia.error.placing",
                                  "The pieces are still being placed: expected {expected}.",
                                  expected=EXPECTED_PLACE)
            return self._check_placement(player, *parse_placement(text))
        if re.match(r"\s*(place|put)\b", text.lower()):
            raise IllegalMove("rithmomachia.error.placed",
                              "All pieces are placed: expected {expected}.", expected=EXPECTED)
        cells = parse_move_cells(text)
        return self._check_move(player, cells)

    def _check_placement(self, player: int, value: int, cell: int) -> tuple[int, int]:
        level, file, rank = coords(cell)
        if value not in self.unplaced(player):
            raise IllegalMove("rithmomachia.error.already_placed",
                              "Your {bits} is already on the field.", bits=bits(value))
        if level != HOME_LEVEL[player]:
            raise IllegalMove("rithmomachia.error.not_home",
                              "{seat} places on level {level}, not on {cell}.",
                              seat=SEAT_NAMES[player], level=HOME_LEVEL[player] + 1,
                              cell=CELL_NAMES[cell])
        if self.board[cell]:
            raise IllegalMove("rithmomachia.error.occupied_cell", "{cell} already holds {piece}.",
                              cell=CELL_NAMES[cell], piece=code_label(self.board[cell]))
        if LAYOUT_SHAPES[rank][file] != SHAPE_OF[value]:
            raise IllegalMove("rithmomachia.error.wrong_shape",
                              "{cell} is a {cell_shape} cell; {bits} is a {shape}.",
                              cell=CELL_NAMES[cell],
                              cell_shape=SHAPE_NAMES[LAYOUT_SHAPES[rank][file]],
                              bits=bits(value), shape=SHAPE_NAMES[SHAPE_OF[value]])
        return value, cell

    def _check_move(self, player: int, cells: list[int]) -> int:
        source, dest = cells[0], cells[1]
        push = cells[2] if len(cells) == 3 else -1
        c = self.board[source]
        if not c:
            raise IllegalMove("rithmomachia.error.no_piece", "There is no piece on {cell}.",
                              cell=CELL_NAMES[source])
        value = value_of(c)
        shape = SHAPE_OF[value]
        if owner_of(c) != player:
            raise IllegalMove("rithmomachia.error.not_yours", "{piece} is {seat}'s, not yours.",
                              piece=piece_label(value, source, owner_of(c)),
                              seat=SEAT_NAMES[owner_of(c)])
        if dest not in REACH[shape][source]:
            raise IllegalMove("rithmomachia.error.bad_step",
                              "A {shape} steps one cell {steps}; {to} is not such a step from "
                              "{source}.", shape=SHAPE_NAMES[shape], steps=_steps_text(shape),
                              to=CELL_NAMES[dest], source=CELL_NAMES[source])
        occupant = self.board[dest]
        if not occupant:
            if push >= 0:
                raise IllegalMove("rithmomachia.error.nothing_to_push",
                                  "{to} is empty, so there is nothing to push to {push}.",
                                  to=CELL_NAMES[dest], push=CELL_NAMES[push])
            return encode_move(source, dest)
        if shape != PYRAMID:
            raise IllegalMove("rithmomachia.error.occupied",
                              "{to} holds {piece}: only a Pyramid may land on a piece.",
                              to=CELL_NAMES[dest], piece=code_label(occupant))
        if not self.push:
            raise IllegalMove("rithmomachia.error.push_off",
                              "{to} holds {piece}, and pushing is off in this game.",
                              to=CELL_NAMES[dest], piece=code_label(occupant))
        # The cell the Pyramid leaves is always free, so a push always has somewhere to go.
        free = [t for t in REACH[PYRAMID][dest] if t == source or not self.board[t]]
        if push < 0:
            if len(free) == 1:
                return encode_move(source, dest, free[0])
            raise IllegalMove("rithmomachia.error.push_where",
                              "Your Pyramid lands on {piece} at {to}: add where it goes, like "
                              "'{example}'. Free cells: {cells}.",
                              piece=code_label(occupant), to=CELL_NAMES[dest],
                              example=move_text(encode_move(source, dest, free[0])),
                              cells=" ".join(CELL_NAMES[t] for t in free))
        if push not in free:
            raise IllegalMove("rithmomachia.error.bad_push",
                              "The pushed piece goes one step from {to} to a free cell; {push} "
                              "is not one. Free cells: {cells}.", to=CELL_NAMES[dest],
                              push=CELL_NAMES[push], cells=" ".join(CELL_NAMES[t] for t in free))
        return encode_move(source, dest, push)

    # -- contract --
    def to_move(self) -> list[int]:
        return [] if self._outcome is not None else [self.turn]

    def legal_actions(self, player: int) -> list[Action]:
        if self._outcome is not None or player != self.turn:
            return []
        if self.phase == "placement":
            return [placement_text(v, c) for v, c in self.placements(player)]
        return [move_text(m) for m in self.moves()]

    def parse_action(self, text: str, player: int) -> Action:
        self._check_turn(player)
        decoded = self._decode(player, text)
        if isinstance(decoded, tuple):
            return placement_text(*decoded)
        return move_text(decoded)

    def action_text(self, action: Action) -> str:
        try:
            if action.startswith("place"):
                value, cell = parse_placement(action)
                return Message("rithmomachia.move.place", "place {shape} {bits} ({value}) on "
                               "{cell}", shape=SHAPE_NAMES[SHAPE_OF[value]], bits=bits(value),
                               value=value, cell=CELL_NAMES[cell])
            cells = [CELL_NAMES[c] for c in parse_move_cells(action)]
        except GameError:
            return action
        text = f"{cells[0]} → {cells[1]}"
        if len(cells) == 3:
            return Message("rithmomachia.move.push", "{move}, pushing the piece there to {to}",
                           move=text, to=cells[2])
        return text

    def apply(self, player: int, action: Action) -> list[Event]:
        self._check_turn(player)
        decoded = self._decode(player, action)
        if isinstance(decoded, tuple):
            events = self._place(player, *decoded)
        else:
            events = self._play(player, decoded)
        self.last_events = copy_json(events)
        return events

    def _place(self, player: int, value: int, cell: int) -> list[Event]:
        self.board[cell] = code_of(player, value)
        self.actions.append(placement_text(value, cell))
        events: list[Event] = [{"type": "placed", "player": player, "cell": CELL_NAMES[cell],
                                **piece_info(value)}]
        self.turn = 1 - player
        if all(self.board[cell_at(HOME_LEVEL[s], f, r)] for s in range(SEATS)
               for f in range(4) for r in range(4)):
            self.phase = "play"
            self.turn = 0
            self.history = {self.key(): 1}
            events.append({"type": "play_started"})
        return events

    def _play(self, player: int, move: int) -> list[Event]:
        source, dest, push = move_parts(move)
        before = self.board
        value = value_of(before[source])
        moved = before.copy()
        moved[source] = EMPTY
        if push >= 0:
            moved[push] = moved[dest]
        moved[dest] = before[source]
        equations = capture_equations(moved, player, dest, self.rules)
        after, captured = make_move(before, move, player, self.rules)
        assert captured == sum(1 << t for t in equations), "the two capture finders disagree"
        action = move_text(move)
        push_info = None
        if push >= 0:
            pushed = before[dest]
            push_info = {"from": CELL_NAMES[dest], "to": CELL_NAMES[push],
                         **piece_info(value_of(pushed)), "owner": owner_of(pushed)}
        moved_event: Event = {"type": "moved", "player": player, "action": action,
                              "text": self.action_text(action), "from": CELL_NAMES[source],
                              "to": CELL_NAMES[dest], **piece_info(value), "push": push_info}
        events: list[Event] = [moved_event]
        for target, found in equations.items():
            tv = value_of(moved[target])
            first = found[0]
            events.append({"type": "capture", "player": player, "target": CELL_NAMES[target],
                           **piece_info(tv), "owner": owner_of(moved[target]),
                           "removed": is_pyramid(tv),
                           "flipped": not is_pyramid(tv), "form": first["form"],
                           "op": first["op"], "equation": first["equation"],
                           "operands": first["operands"], "equations": found})
        self.board = after
        self.turn = 1 - player
        self.plies += 1
        self.actions.append(action)
        self.last_move = {"player": player, "action": action, "text": moved_event["text"],
                          "from": CELL_NAMES[source], "to": CELL_NAMES[dest],
                          "push_to": CELL_NAMES[push] if push >= 0 else None,
                          "captured": [CELL_NAMES[t] for t in equations]}
        key = self.key()
        self.history[key] = self.history.get(key, 0) + 1
        outcome = self._ending()
        if outcome is not None:
            self._outcome = outcome
            events.append({"type": "game_over", **outcome.to_dict()})
        return events

    def _ending(self) -> Outcome | None:
        tally = counts(self.board)
        extra: JSON
        if any(side["pyramids"] == 0 for side in tally):
            reason, extra = "rithmomachia_no_pyramid", {
                "without": [s for s in range(SEATS) if tally[s]["pyramids"] == 0]}
        elif not self._generated():
            reason, extra = "rithmomachia_no_moves", {"stuck": self.turn}
        elif self.history[self.key()] >= 3:
            reason, extra = "repetition", {}
        elif self.plies >= self.move_limit:
            reason, extra = "move_limit", {"limit": self.move_limit}
        else:
            return None
        verdict = victories(self.board)
        winners = verdict.pop("winners")
        return Outcome(tuple(winners), reason, {**verdict, **extra, "plies": self.plies})

    def resign(self, player: int) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        self._outcome = Outcome((1 - player,), "resigned", {"loser": player})
        events: list[Event] = [{"type": "game_over", **self._outcome.to_dict()}]
        self.last_events = copy_json(events)
        return events

    def abandon(self) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        self._outcome = Outcome((), "abandoned")
        events: list[Event] = [{"type": "game_over", **self._outcome.to_dict()}]
        self.last_events = copy_json(events)
        return events

    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- menus --
    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        self._check_turn(player)
        if self.phase == "placement":
            return self._placement_menu(player, path)
        if path[:1] == (GRID_TOKEN,):
            return rithmomachia_grid.menu(self, player, path[1:])
        by_source = self._moves_by_source()
        if not path:
            return [*(Choice(CELL_NAMES[s], piece_label(value_of(self.board[s]), s, player))
                      for s in by_source), *self._push_pairs(by_source)]
        if len(path[0]) == 2 * len(CELL_NAMES[0]):  # a push chosen on the first step
            source, dest = (CELL_BY_NAME.get(path[0][:3], -1),
                            CELL_BY_NAME.get(path[0][3:], -1))
            if source not in by_source or len(path) > 1:
                raise not_in_menu()
            return self._push_choices(by_source[source], dest)
        source = CELL_BY_NAME.get(path[0], -1)
        if source not in by_source or len(path) > 3:
            raise not_in_menu()
        mine = by_source[source]
        if len(path) == 1:
            choices = []
            for dest in dict.fromkeys((m >> 6) & 63 for m in mine):
                occupant = self.board[dest]
                if occupant:
                    choices.append(Choice(CELL_NAMES[dest], Message(
                        "rithmomachia.menu.push", "→ {cell} push {piece}",
                        cell=CELL_NAMES[dest], piece=code_label(occupant))))
                else:
                    move = encode_move(source, dest)
                    choices.append(Choice(CELL_NAMES[dest], self._move_label(move, dest),
                                          move_text(move)))
            return choices
        if len(path) > 2:
            raise not_in_menu()
        return self._push_choices(mine, CELL_BY_NAME.get(path[1], -1))

    def offers_grid(self) -> bool:
        return self.phase != "placement"  # a level's cells as buttons (``rithmomachia_grid``)

    def menu_prompt(self, player: int, path: tuple[str, ...]) -> Message | None:
        if path[:1] == (GRID_TOKEN,) and self.offers_grid():
            return rithmomachia_grid.prompt(self, player, path[1:])
        return None

    def _push_pairs(self, by_source: dict[int, list[int]]) -> list[Choice]:
        """Each push as one first-step option ("2c1⇒2c2"), so that a push,
        about half of a good player's moves, takes two taps like any other move: the pair,
        then where the pushed piece goes (issue 23's two taps per move). The Pyramid's own
        option still lists its pushes too, for players who start from the piece."""
        pairs = dict.fromkeys((m & 63, (m >> 6) & 63)
                              for moves in by_source.values() for m in moves if m >> 12)
        return [Choice(f"{CELL_NAMES[source]}{CELL_NAMES[dest]}",
                       Message("rithmomachia.menu.push_pair", "{source}⇒{cell}",
                               source=CELL_NAMES[source], cell=CELL_NAMES[dest]),
                       group="push")
                for source, dest in pairs]

    def _push_choices(self, moves: list[int], dest: int) -> list[Choice]:
        """Where the piece pushed off ``dest`` may go, one option per cell."""
        pushes = [m for m in moves if (m >> 6) & 63 == dest and m >> 12]
        if not pushes:
            raise not_in_menu()
        return [Choice(CELL_NAMES[(m >> 12) - 1], self._move_label(m, (m >> 12) - 1, push=True),
                       move_text(m)) for m in pushes]

    def _move_label(self, move: int, cell: int, push: bool = False) -> str:
        """``→ 2d1``, or ``push → 2d1`` for where a pushed piece goes, with how many pieces
        the move takes."""
        taken = bin(make_move(self.board, move, self.turn, self.rules)[1]).count("1")
        where = (Message("rithmomachia.menu.push_to", "push → {cell}", cell=CELL_NAMES[cell])
                 if push else f"→ {CELL_NAMES[cell]}")
        if not taken:
            return where
        return Message("rithmomachia.menu.takes", "{move} · takes {count}", move=where,
                       count=taken)

    def _placement_menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        options = self.placements(player)
        values = list(dict.fromkeys(v for v, _ in options))
        if not path:
            return [Choice(bits(v), piece_label(v, owner=player)) for v in values]
        if len(path) > 1 or path[0] not in {bits(v) for v in values}:
            raise not_in_menu()
        value = int(path[0], 2)
        return [Choice(CELL_NAMES[c], CELL_NAMES[c], placement_text(v, c))
                for v, c in options if v == value]

    # -- views --
    def view(self, player: int | None) -> JSON:
        if player is not None and player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        board = [{"cell": CELL_NAMES[c], **piece_info(value_of(code)), "owner": owner_of(code)}
                 for c, code in enumerate(self.board) if code]
        standing = victories(self.board)
        return {
            "game": NAME,
            "viewer": player,
            "seat_names": list(SEAT_NAMES),
            "options": dict(self.options),
            "ops": [op.upper() for op in self.rules.ops],
            "push": self.push,
            "setup": self.options["setup"],
            "phase": self.phase,
            "to_move": self.turn if self._outcome is None else None,
            "ply": self.plies,
            "move_limit": self.move_limit,
            "board": board,
            "layout": [[SHAPE_NAMES[s].lower() for s in row] for row in LAYOUT_SHAPES],
            "unplaced": [self.unplaced(s) if self.phase == "placement" else []
                         for s in range(SEATS)],
            "counts": standing["counts"],
            "standing": {"victories": standing["victories"],
                         "victory_counts": standing["victory_counts"],
                         "leader": standing["winners"][0] if standing["winners"] else None,
                         "label": standing["label"]},
            "repetitions": self.history.get(self.key(), 0),
            "last_move": copy_json(self.last_move),  # its list of captured cells too
            "last_events": copy_json(self.last_events),
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    # -- serialisation --
    def to_dict(self) -> JSON:
        # Every part is built fresh here except the options, last move and events the
        # state keeps, which alone need a deep copy (``engines.json_copy``).
        return {
            "game": NAME,
            "schema": self.schema_version,
            "options": copy_json(self.options),
            "seed": self.seed,
            "phase": self.phase,
            "pieces": [[CELL_NAMES[c], owner_of(code), value_of(code)]
                       for c, code in enumerate(self.board) if code],
            "turn": self.turn,
            "plies": self.plies,
            "actions": list(self.actions),
            "history": [[k, n] for k, n in sorted(self.history.items())],
            "last_move": copy_json(self.last_move),
            "last_events": copy_json(self.last_events),
            "outcome": copy_json(self._outcome.to_dict()) if self._outcome else None,
        }

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        return load_checked("Rithmomachia", data, cls._load)

    @classmethod
    def _load(cls, data: JSON) -> Self:
        options = check_header(data, NAME, cls.schema_version, "Rithmomachia")
        state = cls(options, checked_int(data["seed"], "seed"))
        if state.options != data["options"]:
            raise StateError("options are not complete and canonical")
        if data["phase"] not in ("placement", "play"):
            raise StateError("phase is placement or play")
        state.phase = data["phase"]
        pieces = data["pieces"]
        if not isinstance(pieces, list):
            raise StateError("pieces must be a list")
        state.board = [EMPTY] * CELLS
        for entry in pieces:
            if not isinstance(entry, list) or len(entry) != 3 or entry[0] not in CELL_BY_NAME:
                raise StateError("a piece is [cell, owner, value]")
            cell = CELL_BY_NAME[entry[0]]
            if state.board[cell]:
                raise StateError(f"two pieces on {entry[0]}")
            state.board[cell] = code_of(checked_int(entry[1], "owner", 0, 1),
                                        checked_int(entry[2], "value", 0, 15))
        state.turn = checked_int(data["turn"], "turn", 0, 1)
        state.plies = checked_int(data["plies"], "plies", 0, state.move_limit)
        actions = data["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise StateError("actions must be a list of strings")
        state.actions = list(actions)
        history = data["history"]
        if not isinstance(history, list):
            raise StateError("history must be a list")
        state.history = {}
        for entry in history:
            if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str)
                    or entry[0] in state.history):
                raise StateError("history holds [position, count] pairs, once each")
            if not _KEY_RE.fullmatch(entry[0]):
                raise StateError("a history position is a side to move and 64 cells")
            state.history[entry[0]] = checked_int(entry[1], "repetition count", 1, 3)
        last_move = data["last_move"]
        if last_move is not None and not isinstance(last_move, dict):
            raise StateError("last_move must be null or an object")
        state.last_move = copy_json(last_move)
        events = data["last_events"]
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise StateError("last_events must be a list of objects")
        state.last_events = copy_json(events)
        state._outcome = checked_outcome(data["outcome"])
        state._validate()
        return state

    def _validate(self) -> None:
        """A position the rules could produce: turns, counts and history that fit, no value more
        than twice and no side with two Pyramids of one value. Fewer pieces than a game could
        leave are allowed, so that studies and tests can set up small positions."""
        over = self._outcome is not None
        copies = [0] * 16
        pyramids: set[tuple[int, int]] = set()
        for c in self.board:
            if c:
                copies[value_of(c)] += 1
                if is_pyramid(value_of(c)):
                    if (owner_of(c), value_of(c)) in pyramids:
                        raise StateError("a side has one Pyramid of each value")
                    pyramids.add((owner_of(c), value_of(c)))
        if self.phase == "placement":
            self._validate_placement()
            return
        if max(copies) > 2:
            raise StateError("no value is on the field more than twice")
        placed = 32 if self.options["setup"] == "placement" else 0
        if len(self.actions) != self.plies + placed:
            raise StateError("the action log does not match the ply count")
        key = self.key()
        if self.history.get(key, 0) < 1 or sum(self.history.values()) != self.plies + 1:
            raise StateError("the history does not hold every position once per visit")
        if not over:
            if len(pyramids & {(0, 0), (0, 15)}) == 0 or len(pyramids & {(1, 0), (1, 15)}) == 0:
                raise StateError("a side without a Pyramid has lost")
            if self.history[key] >= 3 or self.plies >= self.move_limit:
                raise StateError("the game should have ended")
            if not self.moves():
                raise StateError("the side to move has no move, so the game should have ended")

    def _validate_placement(self) -> None:
        if self.options["setup"] != "placement":
            raise StateError("only the placement set-up has a placement phase")
        placed = [0, 0]
        for cell, c in enumerate(self.board):
            if not c:
                continue
            level, file, rank = coords(cell)
            if level != HOME_LEVEL[owner_of(c)] or LAYOUT_SHAPES[rank][file] != SHAPE_OF[
                    value_of(c)]:
                raise StateError(f"{CELL_NAMES[cell]} cannot hold that piece while placing")
            placed[owner_of(c)] += 1
        if len(set(self.board) - {EMPTY}) != sum(placed):
            raise StateError("a side places each value once")
        if placed[0] - placed[1] != self.turn or sum(placed) >= 32:
            raise StateError("placements alternate, White first")
        if self.plies or self.history or len(self.actions) != sum(placed):
            raise StateError("nothing is played while placing")
        if self._outcome is not None and self._outcome.reason not in ("resigned", "abandoned"):
            raise StateError("a placement phase ends only by resigning or abandoning")


State = RithmomachiaState


def new_game(options: JSON, players: int, seed: int) -> RithmomachiaState:
    if players != SEATS:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return RithmomachiaState(options, seed)


def replay(options: JSON, seed: int, actions: list[Action]) -> RithmomachiaState:
    return play_actions(new_game(options, SEATS, seed), actions)

