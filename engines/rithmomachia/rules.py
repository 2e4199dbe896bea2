"""Boolean Rithmomachia's rules of play: the options, the state and its legal moves (cached
per position), refusals with the rule they break, placing, moving with its captures, and
the ending. The menus (``menu.py``), view (``views.py``) and storage (``serial.py``) are
functions over this class; ``state.py``'s ``RithmomachiaState`` answers the engine contract
with them."""

from __future__ import annotations

import re

from engines.base import (
    JSON,
    Action,
    Event,
    GameError,
    GamePreset,
    GameState,
    IllegalMove,
    Message,
    NotYourTurn,
    OptionSpec,
    Outcome,
    validate_options,
)
from engines.json_copy import copy_json
from engines.rithmomachia.board import (
    CELL_NAMES,
    CELLS,
    EMPTY,
    HOME_LEVEL,
    LAYOUT_SHAPES,
    PYRAMID,
    REACH,
    SHAPE_NAMES,
    SHAPE_OF,
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
from engines.rithmomachia.equations import (
    OPS,
    capture_equations,
    normalise_ops,
    rules_for,
)
from engines.rithmomachia.moves import (
    SEATS,
    counts,
    encode_move,
    generate_moves,
    make_move,
    move_parts,
    move_text,
    position_key,
    victories,
)
from engines.rithmomachia.notation import (
    _MOVE_RE,
    EXPECTED,
    EXPECTED_PLACE,
    _steps_text,
    parse_move_cells,
    parse_placement,
    placement_text,
)

NAME = "rithmomachia"
# The computer's levels: here rather than in the package's __init__ so that the players
# (``agents.py``) read them without importing the package that lists them.
LEVELS = ("easy", "medium", "strong", "expert")
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
# Names that reach players inside error texts, so translatable (the renderer's keys).
SEAT_NAMES = (Message("rithmo.side.0", "White"), Message("rithmo.side.1", "Black"))


class RithmomachiaRules(GameState):
    """A Boolean Rithmomachia game's state and its rules of play."""


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


# The ready-made option sets a new game offers (the teaching game for beginners).
PRESETS = (
    GamePreset("teaching", "ops=not,nand",
               Message("rithmo.preset.teaching",
                       "Teaching game: only NOT and NAND capture, longer games")),
    GamePreset("standard", "",
               Message("rithmo.preset.standard", "Standard game: all six equations")),
)
