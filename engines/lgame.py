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

import random
import re
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import ClassVar, Self

from engines import lgame_grid
from engines.base import (
    GRID_TOKEN,
    JSON,
    Action,
    Agent,
    Choice,
    Event,
    GameError,
    GameInfo,
    GameState,
    IllegalMove,
    InvalidMove,
    Message,
    NotYourTurn,
    OptionSpec,
    Outcome,
    StateError,
    check_level,
    play_actions,
    validate_options,
)
from engines.lgame_board import (
    CELLS,
    FULL_BOARD,
    PLACEMENT_BY_CODE,
    PLACEMENT_BY_MASK,
    PLACEMENTS,
    SIZE,
    cell_name,
    cells_of,
    l_moves,
    mask_names,
    parse_cell,
)

NAME = "lgame"
ALIASES = ("l", "l-game", "lgame", "l_game")
TITLE = "L-game"
LEVELS = ("easy", "medium", "strong", "perfect")
# Levels whose move takes a millisecond or so (``easy``: a safe move or the squeeze, both
# without the solved table): the bot plays them on its event loop, where handing them to a
# worker process would cost more than the move (``benchmarks/quick_levels.py`` times them).
QUICK_LEVELS = frozenset({"easy"})
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                beginner_options="danger=on")
OPTIONS = (
    OptionSpec("sudden_death", bool, False,
               "after the L move, both neutral pieces may be moved"),
    OptionSpec("move_limit", int, 200,
               "the game is drawn after this many single moves", minimum=10, maximum=2000),
    # A learner's aid the rules ignore: under the board, how many of the moves of the player
    # to move let the opponent trap their L at once, and where the L is safe (issue 27's
    # danger marks, ``engines.lgame_analysis.trap_threats``).
    OptionSpec("danger", bool, False,
               "say which of your moves let the opponent trap your L next turn (on against "
               "easy)"),
)

# Options added after games were first stored: a stored game without them loads with their
# defaults (``validate_options`` fills them in ``from_dict``; none changes the rules).
LATER_OPTIONS = frozenset({"danger"})

MARKS = ("X", "O")

NEUTRAL_PAIRS = [(1 << a) | (1 << b) for a in range(CELLS) for b in range(a + 1, CELLS)]
PAIR_INDEX = {mask: i for i, mask in enumerate(NEUTRAL_PAIRS)}
PAIR_COUNT = len(NEUTRAL_PAIRS)
KEY_SPACE = len(PLACEMENTS) * len(PLACEMENTS) * PAIR_COUNT

# The 8 symmetries of the square, as maps (x, y) -> (x', y').
_SYMMETRY_MAPS = (
    lambda x, y: (x, y),
    lambda x, y: (SIZE - 1 - y, x),
    lambda x, y: (SIZE - 1 - x, SIZE - 1 - y),
    lambda x, y: (y, SIZE - 1 - x),
    lambda x, y: (SIZE - 1 - x, y),
    lambda x, y: (x, SIZE - 1 - y),
    lambda x, y: (y, x),
    lambda x, y: (SIZE - 1 - y, SIZE - 1 - x),
)


def _map_mask(mask: int, symmetry: int) -> int:
    result = 0
    for cell in cells_of(mask):
        nx, ny = _SYMMETRY_MAPS[symmetry](cell % SIZE, cell // SIZE)
        result |= 1 << (ny * SIZE + nx)
    return result


PLACEMENT_SYMMETRY = [[PLACEMENT_BY_MASK[_map_mask(p.mask, s)] for p in PLACEMENTS]
                      for s in range(8)]
PAIR_SYMMETRY = [[PAIR_INDEX[_map_mask(m, s)] for m in NEUTRAL_PAIRS] for s in range(8)]


def position_key(mover: int, other: int, pair: int) -> int:
    """Index of a position seen from the player to move: their L, the other L, the neutrals."""
    return (mover * len(PLACEMENTS) + other) * PAIR_COUNT + pair


def split_key(key: int) -> tuple[int, int, int]:
    rest, pair = divmod(key, PAIR_COUNT)
    mover, other = divmod(rest, len(PLACEMENTS))
    return mover, other, pair


def canonical_key(key: int) -> int:
    """The smallest key among the 8 symmetric images, naming the position's class."""
    mover, other, pair = split_key(key)
    return min(position_key(PLACEMENT_SYMMETRY[s][mover], PLACEMENT_SYMMETRY[s][other],
                            PAIR_SYMMETRY[s][pair]) for s in range(8))



def neutral_results(neutrals: int, occupied: int, sudden_death: bool) -> list[int]:
    """Every neutral-pair mask reachable after the L move, ``neutrals`` itself included."""
    if sudden_death:
        free = FULL_BOARD & ~occupied
        return [m for m in NEUTRAL_PAIRS if m & free == m]
    empty = FULL_BOARD & ~occupied & ~neutrals
    results = [neutrals]
    for source in cells_of(neutrals):
        for target in cells_of(empty):
            results.append(neutrals & ~(1 << source) | 1 << target)
    return results


def successors(key: int, sudden_death: bool) -> Iterator[int]:
    """Positions (seen by the next player) reachable in one move; each appears once."""
    mover, other, pair = split_key(key)
    neutrals = NEUTRAL_PAIRS[pair]
    other_mask = PLACEMENTS[other].mask
    for target in l_moves(mover, other, neutrals):
        occupied = other_mask | PLACEMENTS[target].mask
        for result in neutral_results(neutrals, occupied, sudden_death):
            yield position_key(other, target, PAIR_INDEX[result])


def predecessors(key: int, sudden_death: bool) -> Iterator[int]:
    """Positions from which one move reaches ``key``; each appears once.

    In ``key`` the mover's L stood still during the last move and the other L is the one
    that moved, so a predecessor has the roles swapped back.
    """
    still, moved, pair = split_key(key)
    neutrals_after = NEUTRAL_PAIRS[pair]
    occupied = PLACEMENTS[still].mask | PLACEMENTS[moved].mask
    # Reversing the neutral step is the same relation as making it: one neutral (or, in
    # sudden death, any) going back to a cell that both Ls leave free.
    for before in neutral_results(neutrals_after, occupied, sudden_death):
        blocked = PLACEMENTS[still].mask | before
        for p in PLACEMENTS:
            if p.index != moved and not p.mask & blocked:
                yield position_key(p.index, still, PAIR_INDEX[before])


def all_position_keys() -> Iterator[int]:
    for mover in PLACEMENTS:
        for other in PLACEMENTS:
            if mover.mask & other.mask:
                continue
            taken = mover.mask | other.mask
            for pair, neutrals in enumerate(NEUTRAL_PAIRS):
                if not neutrals & taken:
                    yield position_key(mover.index, other.index, pair)


UNKNOWN, WIN, LOSS = 0, 1, 2


@dataclass
class SolvedTable:
    """Value and distance of every position, from the point of view of the player to move.

    ``value[key]`` is WIN, LOSS or UNKNOWN (a draw: neither side can force a result), and
    ``distance[key]`` the number of single moves to the end under perfect play.
    """

    sudden_death: bool
    value: bytearray
    distance: bytearray
    valid: bytearray
    build_seconds: float

    def outcome_of(self, key: int) -> str:
        return {WIN: "win", LOSS: "loss"}.get(self.value[key], "draw")


def solve(sudden_death: bool = False) -> SolvedTable:
    """Retrograde analysis: lost-now positions first, then back one move at a time."""
    started = time.perf_counter()
    value = bytearray(KEY_SPACE)
    distance = bytearray(KEY_SPACE)
    valid = bytearray(KEY_SPACE)
    undecided_replies = [0] * KEY_SPACE
    per_l_move = PAIR_COUNT if sudden_death else 0
    frontier: deque[int] = deque()
    for key in all_position_keys():
        valid[key] = 1
        mover, other, pair = split_key(key)
        moves = len(l_moves(mover, other, NEUTRAL_PAIRS[pair]))
        if moves == 0:
            value[key] = LOSS
            frontier.append(key)
        else:
            # Each L move combines with every neutral outcome, all distinct: 1 + 2 * 6
            # single-neutral moves, or the 28 pairs of the 8 cells the Ls leave free.
            undecided_replies[key] = moves * (28 if per_l_move else 13)
    while frontier:
        key = frontier.popleft()
        steps = distance[key] + 1
        if value[key] == LOSS:
            for before in predecessors(key, sudden_death):
                if value[before] == UNKNOWN:
                    value[before] = WIN
                    distance[before] = steps
                    frontier.append(before)
        else:
            for before in predecessors(key, sudden_death):
                if value[before] == UNKNOWN:
                    undecided_replies[before] -= 1
                    if undecided_replies[before] == 0:
                        value[before] = LOSS
                        distance[before] = steps
                        frontier.append(before)
    return SolvedTable(sudden_death, value, distance, valid, time.perf_counter() - started)


_tables: dict[bool, SolvedTable] = {}
_tables_lock = threading.Lock()


def solved_table(sudden_death: bool = False) -> SolvedTable:
    """The solved table for a rule set, built on first use and then kept in memory."""
    table = _tables.get(sudden_death)
    if table is None:
        with _tables_lock:
            table = _tables.get(sudden_death)
            if table is None:
                table = solve(sudden_death)
                _tables[sudden_death] = table
    return table


START_X = PLACEMENT_BY_CODE["c4SW"]
START_O = PLACEMENT_BY_CODE["b1NE"]
def _cell(text: str) -> int:
    cell = parse_cell(text)
    assert cell is not None
    return cell


START_NEUTRALS = (1 << _cell("a4")) | (1 << _cell("d1"))
START_KEY = position_key(START_X, START_O, PAIR_INDEX[START_NEUTRALS])


def solve_statistics(sudden_death: bool = False) -> JSON:
    """The figures ``python -m engines lgame solve`` prints."""
    table = solved_table(sudden_death)
    classes: dict[int, int] = {}
    for key in all_position_keys():
        canonical = canonical_key(key)
        classes[canonical] = classes.get(canonical, 0) + 1
    lost_now = lost_later = won = drawn = 0
    for key in classes:
        mover, other, pair = split_key(key)
        if table.value[key] == LOSS:
            if l_moves(mover, other, NEUTRAL_PAIRS[pair]):
                lost_later += 1
            else:
                lost_now += 1
        elif table.value[key] == WIN:
            won += 1
        else:
            drawn += 1
    return {
        "rules": "sudden_death" if sudden_death else "standard",
        "positions": sum(classes.values()),
        "positions_up_to_symmetry": len(classes),
        "lost_now": lost_now,
        "lost_later": lost_later,
        "not_lost": len(classes) - lost_now - lost_later,
        "won": won,
        "drawn": drawn,
        "longest_loss": max(table.distance[k] for k in classes if table.value[k] == LOSS),
        "start_value": table.outcome_of(START_KEY),
        "solve_seconds": round(table.build_seconds, 4),
    }


# --- notation -----------------------------------------------------------------------------

_PLACEMENT_RE = re.compile(r"([a-d])\s*([1-4])\s*([nesw])\s*([nesw])")
_NEUTRAL_RE = re.compile(r"([a-d][1-4])\s*(?:>|->|-|→|to)?\s*([a-d][1-4])")
_NO_NEUTRAL_WORDS = {"", "-", "pass", "none", "stay", "x"}

EXPECTED = Message("lgame.expected",
                   "a move like 'c4 S W d1>b3': the corner of your L, the direction of its "
                   "long leg, the side of its foot, then optionally a neutral piece 'from>to'")


@cache  # two neutrals on 16 cells: at most 120 x 120 pairs (about 3 MB)
def neutral_step_text(before: int, after: int) -> str:
    """Canonical neutral part: sources and destinations each in board order.

    Cached because ``legal_actions`` names every move it lists (a hundred or more a
    position), and naming the neutrals' step was most of its cost."""
    sources = mask_names(before & ~after)
    targets = mask_names(after & ~before)
    return " ".join(f"{s}{t}" for s, t in zip(sources, targets, strict=True))


# --- game state ---------------------------------------------------------------------------


class LGameState(GameState):
    game_name = NAME
    has_grid = True
    min_players = 2
    max_players = 2
    schema_version = 1

    def __init__(self, options: JSON, seed: int) -> None:
        self.options = validate_options(OPTIONS, options)
        self.seed = seed
        self.ls = [START_X, START_O]
        self.neutrals = START_NEUTRALS
        self.turn = 0
        self.plies = 0
        self.actions: list[Action] = []
        self.history: dict[int, int] = {self._absolute_key(): 1}
        self.last_move: JSON | None = None
        self._outcome: Outcome | None = None

    # -- helpers --
    @property
    def sudden_death(self) -> bool:
        return bool(self.options["sudden_death"])

    @property
    def max_neutral_steps(self) -> int:
        return 2 if self.sudden_death else 1

    def _absolute_key(self) -> int:
        return self.relative_key() * 2 + self.turn

    def relative_key(self) -> int:
        """This position as the solver indexes it: seen from the player to move."""
        return position_key(self.ls[self.turn], self.ls[1 - self.turn],
                            PAIR_INDEX[self.neutrals])

    def _occupied_by_other(self, player: int) -> int:
        return PLACEMENTS[self.ls[1 - player]].mask

    def _check_turn(self, player: int) -> None:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        if player != self.turn:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")

    def _encode(self, placement: int, neutrals_after: int) -> Action:
        step = neutral_step_text(self.neutrals, neutrals_after)
        code = PLACEMENTS[placement].code
        return f"{code} {step}" if step else code

    def _decode(self, player: int, action: Action) -> tuple[int, int]:
        """Parse notation into (placement, neutrals afterwards), checking every rule."""
        text = action.strip().lower()
        if not text:
            raise InvalidMove("error.empty_move", "Type {expected}.", expected=EXPECTED)
        match = _PLACEMENT_RE.match(text)
        if match is None:
            raise InvalidMove("lgame.bad_placement",
                              "Expected {expected}; '{got}' is not an L placement.",
                              expected=EXPECTED, got=action.strip()[:40])
        file, rank, leg, foot = match.groups()
        code = f"{file}{rank}{leg.upper()}{foot.upper()}"
        if (leg in "ns") == (foot in "ns"):
            raise InvalidMove("lgame.foot_parallel",
                              "The foot must point sideways from the leg: a north or south leg "
                              "takes an E or W foot, an east or west leg an N or S foot.")
        placement = PLACEMENT_BY_CODE.get(code)
        if placement is None:
            raise IllegalMove("lgame.off_board", "{placement} does not fit on the board.",
                              placement=f"{file}{rank} {leg.upper()} {foot.upper()}")
        rest = text[match.end():].strip().lstrip(",;").strip()
        steps = []
        while rest and rest not in _NO_NEUTRAL_WORDS:
            step = _NEUTRAL_RE.match(rest)
            if step is None:
                raise InvalidMove("lgame.bad_neutral",
                                  "After the L, expected a neutral move like 'd1>b3', "
                                  "not '{got}'.", got=rest[:20])
            steps.append((parse_cell(step.group(1)), parse_cell(step.group(2))))
            rest = rest[step.end():].strip().lstrip(",;").strip()
        self._check_placement(player, placement)
        return placement, self._apply_neutral_steps(placement, steps)

    def _check_placement(self, player: int, placement: int) -> None:
        p = PLACEMENTS[placement]
        if placement == self.ls[player]:
            raise IllegalMove("lgame.same_place",
                              "Your L must move: {placement} is where it stands now.",
                              placement=p.notation)
        if p.mask & self._occupied_by_other(player):
            raise IllegalMove("lgame.overlaps_l", "{placement} overlaps the other L at {cells}.",
                              placement=p.notation,
                              cells=" ".join(mask_names(p.mask & self._occupied_by_other(player))))
        if p.mask & self.neutrals:
            raise IllegalMove("lgame.overlaps_neutral",
                              "{placement} covers the neutral piece at {cells}.",
                              placement=p.notation,
                              cells=" ".join(mask_names(p.mask & self.neutrals)))

    def _apply_neutral_steps(self, placement: int,
                             steps: list[tuple[int | None, int | None]]) -> int:
        if len(steps) > self.max_neutral_steps:
            raise IllegalMove("lgame.too_many_neutrals",
                              "Only one neutral piece may move after the L "
                              "(both may in the sudden_death variant).")
        occupied = PLACEMENTS[self.ls[1 - self.turn]].mask | PLACEMENTS[placement].mask
        neutrals = self.neutrals
        moved_from: set[int] = set()
        for source, target in steps:
            assert source is not None and target is not None
            if source in moved_from:
                raise IllegalMove("lgame.neutral_moved_twice",
                                  "The neutral piece on {cell} has already moved this turn; "
                                  "each neutral piece moves at most once.", cell=cell_name(source))
            if not neutrals >> source & 1:
                raise IllegalMove("lgame.no_neutral_there", "There is no neutral piece on {cell}.",
                                  cell=cell_name(source))
            if (occupied | neutrals) >> target & 1:
                raise IllegalMove("lgame.target_not_empty",
                                  "{cell} is not empty after your L move.", cell=cell_name(target))
            neutrals = neutrals & ~(1 << source) | 1 << target
            moved_from.add(target)
        return neutrals

    # -- contract --
    def to_move(self) -> list[int]:
        return [] if self._outcome is not None else [self.turn]

    def legal_actions(self, player: int) -> list[Action]:
        if self._outcome is not None or player != self.turn:
            return []
        other = self._occupied_by_other(player)
        actions = []
        for target in l_moves(self.ls[player], self.ls[1 - player], self.neutrals):
            occupied = other | PLACEMENTS[target].mask
            for result in neutral_results(self.neutrals, occupied, self.sudden_death):
                actions.append(self._encode(target, result))
        return actions

    def parse_action(self, text: str, player: int) -> Action:
        self._check_turn(player)
        placement, neutrals_after = self._decode(player, text)
        return self._encode(placement, neutrals_after)

    def action_text(self, action: Action) -> str:
        parts = action.split()
        if not parts or parts[0] not in PLACEMENT_BY_CODE:
            return action
        text = PLACEMENTS[PLACEMENT_BY_CODE[parts[0]]].notation
        steps = [f"{step[:2]}>{step[2:]}" for step in parts[1:]]
        return f"{text}, {' '.join(steps)}" if steps else text

    def apply(self, player: int, action: Action) -> list[Event]:
        self._check_turn(player)
        placement, neutrals_after = self._decode(player, action)
        canonical = self._encode(placement, neutrals_after)
        before_l = PLACEMENTS[self.ls[player]].mask
        before_neutrals = self.neutrals
        self.ls[player] = placement
        self.neutrals = neutrals_after
        self.turn = 1 - player
        self.plies += 1
        self.actions.append(canonical)
        self.last_move = {
            "player": player,
            "action": canonical,
            "text": self.action_text(canonical),
            "l_from": mask_names(before_l),
            "l_to": list(PLACEMENTS[placement].cell_names),
            "neutral_from": mask_names(before_neutrals & ~neutrals_after),
            "neutral_to": mask_names(neutrals_after & ~before_neutrals),
        }
        events: list[Event] = [{"type": "moved", "player": player,
                                "text": self.action_text(canonical)}]
        key = self._absolute_key()
        self.history[key] = self.history.get(key, 0) + 1
        if not l_moves(self.ls[self.turn], self.ls[player], self.neutrals):
            self._outcome = Outcome((player,), "no_l_move", {"loser": self.turn})
        elif self.history[key] >= 3:
            self._outcome = Outcome((), "repetition")
        elif self.plies >= self.options["move_limit"]:
            self._outcome = Outcome((), "move_limit", {"limit": self.options["move_limit"]})
        if self._outcome is not None:
            events.append({"type": "game_over", **self._outcome.to_dict()})
        return events

    def resign(self, player: int) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        self._outcome = Outcome((1 - player,), "resigned", {"loser": player})
        return [{"type": "game_over", **self._outcome.to_dict()}]

    def abandon(self) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        self._outcome = Outcome((), "abandoned")
        return [{"type": "game_over", **self._outcome.to_dict()}]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        self._check_turn(player)
        if path[:1] == (GRID_TOKEN,):
            return lgame_grid.menu(self, player, path[1:])
        if not path:
            return [Choice(PLACEMENTS[p].code, PLACEMENTS[p].menu_label)
                    for p in l_moves(self.ls[player], self.ls[1 - player], self.neutrals)]
        placement = PLACEMENT_BY_CODE.get(path[0])
        if placement not in l_moves(self.ls[player], self.ls[1 - player], self.neutrals):
            raise InvalidMove("error.not_in_menu", "That option is not on the menu.")
        assert placement is not None
        occupied = self._occupied_by_other(player) | PLACEMENTS[placement].mask
        steps = path[1:]
        if len(steps) > self.max_neutral_steps or "-" in steps[:-1]:
            raise InvalidMove("error.not_in_menu", "That option is not on the menu.")
        neutrals = self.neutrals
        moved: list[tuple[int, int]] = []
        for step in steps:
            if step == "-":
                break
            source, target = parse_cell(step[:2]), parse_cell(step[2:])
            if len(step) != 4 or source is None or target is None:
                raise InvalidMove("error.not_in_menu", "That option is not on the menu.")
            try:
                neutrals = self._apply_neutral_steps(placement, [*moved, (source, target)])
            except GameError:
                raise InvalidMove("error.not_in_menu", "That option is not on the menu.") from None
            moved.append((source, target))
        finished = bool(steps) and (steps[-1] == "-" or len(moved) == self.max_neutral_steps)
        if finished:
            return []
        keep = (Message("lgame.menu.keep", "Neutrals stay") if not moved
                else Message("lgame.menu.keep_other", "Other neutral stays"))
        options = [Choice("-", keep, self._encode(placement, neutrals))]
        movable = [c for c in cells_of(neutrals) if c not in {t for _, t in moved}]
        empty = FULL_BOARD & ~occupied & ~neutrals
        for source in movable:
            for target in cells_of(empty):
                after = neutrals & ~(1 << source) | 1 << target
                last_step = len(moved) + 1 == self.max_neutral_steps
                options.append(Choice(f"{cell_name(source)}{cell_name(target)}",
                                      Message("lgame.menu.neutral",
                                              "Neutral {source}→{target}",
                                              source=cell_name(source),
                                              target=cell_name(target)),
                                      self._encode(placement, after) if last_step else None))
        return options

    def offers_grid(self) -> bool:
        return True  # the menu as the board's 16 squares (``engines.lgame_grid``)

    def menu_prompt(self, player: int, path: tuple[str, ...]) -> Message | None:
        if path[:1] == (GRID_TOKEN,):
            return lgame_grid.prompt(self, player, path[1:])
        return None

    def view(self, player: int | None) -> JSON:
        return {
            "game": NAME,
            "viewer": player,
            "pieces": {
                "X": list(PLACEMENTS[self.ls[0]].cell_names),
                "O": list(PLACEMENTS[self.ls[1]].cell_names),
                "neutral": mask_names(self.neutrals),
            },
            "placements": {"X": PLACEMENTS[self.ls[0]].notation,
                           "O": PLACEMENTS[self.ls[1]].notation},
            "to_move": self.turn if self._outcome is None else None,
            "plies": self.plies,
            "move_limit": self.options["move_limit"],
            "sudden_death": self.sudden_death,
            "last_move": self.last_move,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    # -- serialisation --
    def to_dict(self) -> JSON:
        return {
            "game": NAME,
            "schema": self.schema_version,
            "options": dict(self.options),
            "seed": self.seed,
            "ls": [PLACEMENTS[i].code for i in self.ls],
            "neutrals": mask_names(self.neutrals),
            "turn": self.turn,
            "plies": self.plies,
            "actions": list(self.actions),
            "history": [[key, count] for key, count in sorted(self.history.items())],
            "last_move": self.last_move,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        if not isinstance(data, dict):
            raise StateError(f"an L-game state is a JSON object, not {type(data).__name__}")
        try:
            if data.get("game") != NAME or data.get("schema") != cls.schema_version:
                raise StateError(f"not an L-game state of schema {cls.schema_version}")
            state = cls(dict(data["options"]), int(data["seed"]))
            ls = [PLACEMENT_BY_CODE[code] for code in data["ls"]]
            neutral_cells = [parse_cell(name) for name in data["neutrals"]]
            if len(ls) != 2 or len(neutral_cells) != 2 or None in neutral_cells:
                raise StateError("wrong number of pieces")
            neutrals = sum(1 << c for c in neutral_cells if c is not None)
            masks = [PLACEMENTS[ls[0]].mask, PLACEMENTS[ls[1]].mask, neutrals]
            if (masks[0] & masks[1] or (masks[0] | masks[1]) & neutrals
                    or bin(neutrals).count("1") != 2):
                raise StateError("pieces overlap")
            state.ls, state.neutrals = ls, neutrals
            state.turn = int(data["turn"])
            if state.turn not in (0, 1):
                raise StateError("turn must be 0 or 1")
            state.plies = int(data["plies"])
            state.actions = [str(a) for a in data["actions"]]
            if len(state.actions) != state.plies:
                raise StateError("action log does not match the move count")
            state.history = {int(k): int(v) for k, v in data["history"]}
            state.last_move = data.get("last_move")
            outcome = data.get("outcome")
            state._outcome = Outcome.from_dict(outcome) if outcome else None
            return state
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, GameError) as error:
            raise StateError(f"invalid L-game state: {error!r}") from error


State = LGameState


def new_game(options: JSON, players: int, seed: int) -> LGameState:
    if players != 2:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return LGameState(options, seed)


def replay(options: JSON, seed: int, actions: list[Action]) -> LGameState:
    return play_actions(new_game(options, 2, seed), actions)


# --- agents -------------------------------------------------------------------------------


def _scored_moves(state: LGameState) -> list[tuple[tuple[int, int], int, int]]:
    """Each legal move as (placement, neutrals after), with the value and distance of the
    position it leaves the opponent. Notation is built only for the move finally chosen."""
    table = solved_table(state.sudden_death)
    player = state.turn
    other = state.ls[1 - player]
    other_mask = PLACEMENTS[other].mask
    scored = []
    for target in l_moves(state.ls[player], other, state.neutrals):
        occupied = other_mask | PLACEMENTS[target].mask
        for result in neutral_results(state.neutrals, occupied, state.sudden_death):
            key = position_key(other, target, PAIR_INDEX[result])
            scored.append(((target, result), table.value[key], table.distance[key]))
    return scored


def perfect_preference(value: int, distance: int) -> tuple[int, int]:
    """Sort key over the opponent's resulting position: leave them lost (soonest), else drawn,
    else won for them as late as possible."""
    if value == LOSS:
        return (0, distance)
    if value == UNKNOWN:
        return (1, 0)
    return (2, -distance)


# For each placement, the masks of every other placement: where that L could go.
_ELSEWHERE = tuple(tuple(q.mask for q in PLACEMENTS if q.index != p.index) for p in PLACEMENTS)


@lru_cache(maxsize=1 << 16)
def _loses_in_one(other: int, target: int, result: int, sudden_death: bool) -> bool:
    """True when, after the mover's L goes to ``target`` and the neutrals to ``result``, the
    opponent (whose L is ``other``) has a move that leaves the mover stuck (no placement
    left for its L): a move that throws the game. Cached: positions recur across games."""
    for reply in l_moves(other, target, result):
        reply_mask = PLACEMENTS[reply].mask
        # The mover's placements the opponent's L leaves free; the neutrals must block all.
        open_to_mover = [mask for mask in _ELSEWHERE[target] if not mask & reply_mask]
        if not open_to_mover:
            return True
        occupied = PLACEMENTS[target].mask | reply_mask
        for after in neutral_results(result, occupied, sudden_death):
            if all(mask & after for mask in open_to_mover):
                return True
    return False


# For each cell, the placements (as bits of a 48-bit set) that cover it; for a piece's mask,
# the union over its cells. They let the squeeze count the opponent's free placements with a
# few integer operations per move instead of 47 mask tests, which keeps ``easy`` quick.
_COVERING = tuple(sum(1 << p.index for p in PLACEMENTS if p.mask >> cell & 1)
                  for cell in range(CELLS))


@cache
def _covered_placements(mask: int) -> int:
    """The placements that overlap ``mask``, as a set of placement bits."""
    covered = 0
    for cell in cells_of(mask):
        covered |= _COVERING[cell]
    return covered


_ALL_PLACEMENT_BITS = (1 << len(PLACEMENTS)) - 1


def placements_left(other: int, target: int, neutrals_after: int) -> int:
    """How many places the opponent's L (now on ``other``) can move to after the mover's L
    goes to ``target`` and the neutrals end on ``neutrals_after``; 0 means the move wins."""
    free = _ALL_PLACEMENT_BITS & ~(1 << other) & ~_covered_placements(
        PLACEMENTS[target].mask | neutrals_after)
    return free.bit_count()


def _all_moves(state: LGameState) -> list[tuple[int, int]]:
    player = state.turn
    other_mask = PLACEMENTS[state.ls[1 - player]].mask
    return [(target, result)
            for target in l_moves(state.ls[player], state.ls[1 - player], state.neutrals)
            for result in neutral_results(state.neutrals, other_mask | PLACEMENTS[target].mask,
                                          state.sudden_death)]


def sensible_move(state: LGameState, rng: random.Random) -> tuple[int, int]:
    """A random move that does not lose at once when some move avoids that: moves are tried
    in a random order and the first safe one is played (no solved table, so it costs about
    a millisecond on the event loop)."""
    moves = _all_moves(state)
    rng.shuffle(moves)
    for target, result in moves:
        if not _loses_in_one(state.ls[1 - state.turn], target, result, state.sudden_death):
            return target, result
    return moves[0]


def squeeze_moves(state: LGameState) -> list[tuple[int, int]]:
    """The moves that leave the opponent's L the fewest places to go, among the moves that
    do not lose at once (all moves when every one does): the plan a player without the
    solved table can see, to cramp the opponent until they are stuck. It takes a win in one
    (no place left) and is no table lookup, so ``easy`` stays quick.

    Moves are checked for safety in order of how few places they leave, so the costly check
    runs only until the fewest a safe move leaves is known."""
    other = state.ls[1 - state.turn]
    by_places: dict[int, list[tuple[int, int]]] = {}
    for target, result in _all_moves(state):
        by_places.setdefault(placements_left(other, target, result), []).append((target, result))
    for places in sorted(by_places):
        safe = [(target, result) for target, result in by_places[places]
                if not _loses_in_one(other, target, result, state.sudden_death)]
        if safe:
            return safe
    return by_places[min(by_places)]


def table_moves(state: LGameState) -> list[tuple[int, int]]:
    """The moves the solved table ranks best (``perfect_preference``)."""
    scored = _scored_moves(state)
    best = min(perfect_preference(value, distance) for _, value, distance in scored)
    return [move for move, value, distance in scored
            if perfect_preference(value, distance) == best]


class LGameAgent(Agent):
    """The ladder. Every move a level makes is one of three kinds, and the levels differ
    only in how often they use each:

    * the solved table's best move (``table_moves``): wins whenever the position allows,
      else holds the draw;
    * the squeeze (``squeeze_moves``): a safe move that leaves the opponent's L the fewest
      places, which is safe one move ahead and usually sound, but walks into deeper traps;
    * any safe move (``sensible_move``): random among the moves that do not lose at once.

    A move is the table's with probability ``TABLE_SHARES[level]``, else the squeeze with
    probability ``SQUEEZE_SHARES[level]``, else any safe move. ``easy`` never uses the table
    (it stays a quick level) and ``perfect`` always does; ``strong`` and ``medium`` blunder
    only through the squeeze or a safe move, never by a move that loses at once.
    """

    # Tuned with ``benchmarks/ladder.py lgame --deals 100`` (200 games a pair): with seed 1
    # medium vs easy 77.0%, strong vs medium 80.0%, perfect vs strong 76.2% (seed 2: 77.7%,
    # 79.2%, 77.5%; ``docs/ai.md``). Against ``perfect`` a level can only draw or lose, so
    # ``strong``'s 20% of squeezes set how often it survives the move limit (about half its
    # games). ``medium``'s table share moves its two steps in opposite directions: 0.35 gave
    # 82% above easy and 76% below strong (seed 1).
    TABLE_SHARES: ClassVar[Mapping[str, float]] = {
        "easy": 0.0, "medium": 0.3, "strong": 0.8, "perfect": 1.0}
    SQUEEZE_SHARES: ClassVar[Mapping[str, float]] = {
        "easy": 0.6, "medium": 0.9, "strong": 1.0, "perfect": 0.0}

    def choose(self, state: GameState, player: int) -> Action:
        assert isinstance(state, LGameState)
        if state.turn != player or state.outcome() is not None:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")
        table_share = self.TABLE_SHARES[self.level]
        # ``perfect`` draws nothing but its tie-break, so its games replay as they always did.
        if table_share >= 1.0 or (table_share > 0.0 and self.rng.random() < table_share):
            pool = table_moves(state)
        elif self.rng.random() < self.SQUEEZE_SHARES[self.level]:
            pool = squeeze_moves(state)
        else:
            return state._encode(*sensible_move(state, self.rng))
        placement, neutrals_after = self.rng.choice(pool)
        return state._encode(placement, neutrals_after)


def make_agent(level: str, rng: random.Random) -> LGameAgent:
    check_level(level, LEVELS)
    return LGameAgent(level, rng)
