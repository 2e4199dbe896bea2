"""Boolean Rithmomachia's storage: a state to JSON and back, with every stored field checked
and the whole checked against what the rules could have produced. Functions of the rules'
state; ``RithmomachiaState.to_dict`` and ``from_dict`` call them."""

from __future__ import annotations

from typing import TypeVar

from engines.base import (
    JSON,
    StateError,
)
from engines.json_copy import copy_json
from engines.rithmomachia.board import (
    CELL_BY_NAME,
    CELL_NAMES,
    CELLS,
    EMPTY,
    HOME_LEVEL,
    LAYOUT_SHAPES,
    SHAPE_OF,
    code_of,
    coords,
    is_pyramid,
    owner_of,
    value_of,
)
from engines.rithmomachia.moves import (
    _KEY_RE,
)
from engines.rithmomachia.rules import NAME, RithmomachiaRules
from engines.state_checks import check_header, checked_int, checked_outcome, load_checked

Loaded = TypeVar("Loaded", bound=RithmomachiaRules)


def to_dict(state: RithmomachiaRules) -> JSON:
    """The state as JSON (``GameState.to_dict``)."""
    # Every part is built fresh here except the options, last move and events the
    # state keeps, which alone need a deep copy (``engines.json_copy``).
    return {
        "game": NAME,
        "schema": state.schema_version,
        "options": copy_json(state.options),
        "seed": state.seed,
        "phase": state.phase,
        "pieces": [[CELL_NAMES[c], owner_of(code), value_of(code)]
                   for c, code in enumerate(state.board) if code],
        "turn": state.turn,
        "plies": state.plies,
        "actions": list(state.actions),
        "history": [[k, n] for k, n in sorted(state.history.items())],
        "last_move": copy_json(state.last_move),
        "last_events": copy_json(state.last_events),
        "outcome": copy_json(state._outcome.to_dict()) if state._outcome else None,
    }


def from_dict(cls: type[Loaded], data: JSON) -> Loaded:
    """A ``cls`` state from what ``to_dict`` wrote, every field checked
    (``GameState.from_dict``)."""
    return load_checked("Rithmomachia", data, lambda checked: _load(cls, checked))


def _load(cls: type[Loaded], data: JSON) -> Loaded:
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
    _validate(state)
    return state


def _validate(state: RithmomachiaRules) -> None:
    """A position the rules could produce: turns, counts and history that fit, no value more
    than twice and no side with two Pyramids of one value. Fewer pieces than a game could
    leave are allowed, so that studies and tests can set up small positions."""
    over = state._outcome is not None
    copies = [0] * 16
    pyramids: set[tuple[int, int]] = set()
    for c in state.board:
        if c:
            copies[value_of(c)] += 1
            if is_pyramid(value_of(c)):
                if (owner_of(c), value_of(c)) in pyramids:
                    raise StateError("a side has one Pyramid of each value")
                pyramids.add((owner_of(c), value_of(c)))
    if state.phase == "placement":
        _validate_placement(state)
        return
    if max(copies) > 2:
        raise StateError("no value is on the field more than twice")
    placed = 32 if state.options["setup"] == "placement" else 0
    if len(state.actions) != state.plies + placed:
        raise StateError("the action log does not match the ply count")
    key = state.key()
    if state.history.get(key, 0) < 1 or sum(state.history.values()) != state.plies + 1:
        raise StateError("the history does not hold every position once per visit")
    if not over:
        if len(pyramids & {(0, 0), (0, 15)}) == 0 or len(pyramids & {(1, 0), (1, 15)}) == 0:
            raise StateError("a side without a Pyramid has lost")
        if state.history[key] >= 3 or state.plies >= state.move_limit:
            raise StateError("the game should have ended")
        if not state.moves():
            raise StateError("the side to move has no move, so the game should have ended")


def _validate_placement(state: RithmomachiaRules) -> None:
    if state.options["setup"] != "placement":
        raise StateError("only the placement set-up has a placement phase")
    placed = [0, 0]
    for cell, c in enumerate(state.board):
        if not c:
            continue
        level, file, rank = coords(cell)
        if level != HOME_LEVEL[owner_of(c)] or LAYOUT_SHAPES[rank][file] != SHAPE_OF[
                value_of(c)]:
            raise StateError(f"{CELL_NAMES[cell]} cannot hold that piece while placing")
        placed[owner_of(c)] += 1
    if len(set(state.board) - {EMPTY}) != sum(placed):
        raise StateError("a side places each value once")
    if placed[0] - placed[1] != state.turn or sum(placed) >= 32:
        raise StateError("placements alternate, White first")
    if state.plies or state.history or len(state.actions) != sum(placed):
        raise StateError("nothing is played while placing")
    if state._outcome is not None and state._outcome.reason not in ("resigned", "abandoned"):
        raise StateError("a placement phase ends only by resigning or abandoning")
