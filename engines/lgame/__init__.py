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

from typing import Self

from engines.base import (
    GRID_TOKEN,
    JSON,
    Action,
    Choice,
    GameError,
    GameInfo,
    InvalidMove,
    Message,
    Outcome,
    StateError,
    play_actions,
)
from engines.lgame import grid as lgame_grid
from engines.lgame.agents import (
    LEVELS,
    LGameAgent,
    _loses_in_one,
    _scored_moves,
    make_agent,
    perfect_preference,
    placements_left,
    sensible_move,
    squeeze_moves,
    table_moves,
)
from engines.lgame.board import (
    FULL_BOARD,
    PLACEMENT_BY_CODE,
    PLACEMENTS,
    cell_name,
    cells_of,
    l_moves,
    mask_names,
    parse_cell,
)
from engines.lgame.rules import (
    EXPECTED,
    LATER_OPTIONS,
    NAME,
    OPTIONS,
    LGameRules,
    neutral_step_text,
)
from engines.lgame.solver import (
    KEY_SPACE,
    LOSS,
    NEUTRAL_PAIRS,
    PAIR_COUNT,
    PAIR_INDEX,
    PAIR_SYMMETRY,
    PLACEMENT_SYMMETRY,
    START_KEY,
    START_NEUTRALS,
    START_O,
    START_X,
    UNKNOWN,
    WIN,
    SolvedTable,
    all_position_keys,
    canonical_key,
    neutral_results,
    position_key,
    predecessors,
    solve,
    solve_statistics,
    solved_table,
    split_key,
    successors,
)

ALIASES = ("l", "l-game", "lgame", "l_game")
TITLE = "L-game"
# Levels whose move takes a millisecond or so (``easy``: a safe move or the squeeze, both
# without the solved table): the bot plays them on its event loop, where handing them to a
# worker process would cost more than the move (``benchmarks/quick_levels.py`` times them).
QUICK_LEVELS = frozenset({"easy"})
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                beginner_options="danger=on")
MARKS = ("X", "O")

# What this module offers the others: its own names and those of its parts (so that every
# ``from engines.lgame import ...`` and ``engines.lgame.X`` keeps working).
__all__ = [
    "ALIASES",
    "EXPECTED",
    "INFO",
    "KEY_SPACE",
    "LATER_OPTIONS",
    "LEVELS",
    "LOSS",
    "MARKS",
    "NAME",
    "NEUTRAL_PAIRS",
    "OPTIONS",
    "PAIR_COUNT",
    "PAIR_INDEX",
    "PAIR_SYMMETRY",
    "PLACEMENTS",
    "PLACEMENT_BY_CODE",
    "PLACEMENT_SYMMETRY",
    "QUICK_LEVELS",
    "START_KEY",
    "START_NEUTRALS",
    "START_O",
    "START_X",
    "TITLE",
    "UNKNOWN",
    "WIN",
    "LGameAgent",
    "LGameState",
    "SolvedTable",
    "State",
    "_loses_in_one",
    "_scored_moves",
    "all_position_keys",
    "canonical_key",
    "l_moves",
    "make_agent",
    "neutral_results",
    "neutral_step_text",
    "new_game",
    "perfect_preference",
    "placements_left",
    "position_key",
    "predecessors",
    "replay",
    "sensible_move",
    "solve",
    "solve_statistics",
    "solved_table",
    "split_key",
    "squeeze_moves",
    "successors",
    "table_moves",
]


class LGameState(LGameRules):
    """An L-game: its rules (``engines/lgame/rules.py``) with its menus, view and storage."""

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
        return True  # the menu as the board's 16 squares (``engines.lgame.grid``)

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
