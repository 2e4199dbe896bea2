"""The L-game's rules of play: the options, the notation of a move (an L placement and a
neutral step), the state and its checks, legal actions and applying a move, the ending.
The menus (``menu.py``, ``grid.py``), view (``views.py``) and storage (``serial.py``) are
functions over this class; ``state.py``'s ``LGameState`` answers the engine contract with
them."""

from __future__ import annotations

import re
from functools import cache

from engines.base import (
    JSON,
    Action,
    Event,
    GameState,
    IllegalMove,
    InvalidMove,
    Message,
    NotYourTurn,
    OptionSpec,
    Outcome,
    validate_options,
)
from engines.lgame.board import (
    PLACEMENT_BY_CODE,
    PLACEMENTS,
    cell_name,
    l_moves,
    mask_names,
    parse_cell,
)
from engines.lgame.solver import (
    PAIR_INDEX,
    START_NEUTRALS,
    START_O,
    START_X,
    neutral_results,
    position_key,
)

NAME = "lgame"
OPTIONS = (
    OptionSpec("sudden_death", bool, False,
               "after the L move, both neutral pieces may be moved"),
    OptionSpec("move_limit", int, 200,
               "the game is drawn after this many single moves", minimum=10, maximum=2000),
    # A learner's aid the rules ignore: under the board, how many of the moves of the player
    # to move let the opponent trap their L at once, and where the L is safe (issue 27's
    # danger marks, ``engines.lgame.analysis.trap_threats``).
    OptionSpec("danger", bool, False,
               "say which of your moves let the opponent trap your L next turn (on against "
               "easy)"),
)

# Options added after games were first stored: a stored game without them loads with their
# defaults (``validate_options`` fills them in ``from_dict``; none changes the rules).
LATER_OPTIONS = frozenset({"danger"})


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


class LGameRules(GameState):
    """An L-game's state and its rules of play."""


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
