"""Boolean Rithmomachia rules: the field and its steps, the set-ups, the ways a game ends and
the victory labels, notation and refusals, the placement set-up, menus, views, corrupt states,
and the agents. The seed's capture examples, pushes, the ``ops`` option and the perft counts
are in ``test_captures.py``.

Small positions come from ``tests/helpers/rithmomachia_positions.py``, with the guard
Pyramids that ``test_captures.py`` describes; ``pieces_of``, ``captures`` and
``refusal`` from ``tests/helpers/rithmomachia_checks.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engines.base import GameError, IllegalMove, InvalidMove, NotYourTurn, StateError
from engines.rithmomachia import RithmomachiaState, board, new_game, replay
from engines.rithmomachia.agents import RithmomachiaAgent, make_agent
from engines.rithmomachia.board import (
    CELL_BY_NAME,
    CELL_NAMES,
    HOME_LEVEL,
    LAYOUT_SHAPES,
    PYRAMID,
    REACH,
    SHAPE_NAMES,
    SHAPE_OF,
    bits,
    cell_at,
    code_of,
)
from engines.rithmomachia.moves import victories
from tests.helpers import rithmomachia_reference as ref
from tests.helpers.refusals import refusal
from tests.helpers.rithmomachia_checks import captures, pieces_of
from tests.helpers.rithmomachia_positions import BLACK, WHITE, Pieces, position

# --- the field and the set-up ---------------------------------------------------------------

def test_cells_steps_and_shapes() -> None:
    assert CELL_NAMES[0] == "1a1" and CELL_NAMES[63] == "4d4" and len(CELL_NAMES) == 64
    corner, centre = CELL_BY_NAME["1a1"], CELL_BY_NAME["2b2"]
    assert len(REACH[board.CIRCLE][corner]) == 3 + 3
    assert len(REACH[board.SQUARE][corner]) == 3 + 1
    assert len(REACH[board.TRIANGLE][corner]) == 3 + 1 and len(REACH[PYRAMID][corner]) == 7
    assert len(REACH[board.CIRCLE][centre]) == 6 + 12
    assert len(REACH[board.TRIANGLE][centre]) == 20
    assert len(REACH[board.SQUARE][centre]) == 6 + 8 and len(REACH[PYRAMID][centre]) == 26
    assert [SHAPE_NAMES[SHAPE_OF[v]] for v in (0, 1, 3, 7, 15)] == [
        "Pyramid", "Circle", "Triangle", "Square", "Pyramid"]
    for value in range(16):
        for cell in range(64):
            mine = {CELL_NAMES[c] for c in REACH[SHAPE_OF[value]][cell]}
            assert mine == set(ref.reach_set(CELL_NAMES[cell], value))


def test_standard_setup_follows_the_seed_layout_mirrored_for_black() -> None:
    state = new_game({}, 2, 1)
    view = state.view(None)
    letters = {"square": "S", "circle": "C", "triangle": "T", "pyramid": "P"}
    for owner, level in ((WHITE, "1"), (BLACK, "4")):
        rows = []
        for rank in "4321":
            rows.append(" ".join(letters[p["shape"]] for f in "abcd" for p in view["board"]
                                 if p["cell"] == level + f + rank and p["owner"] == owner))
        assert rows == ["S C C S", "T T P T", "T P T T", "S C C S"]
        assert sorted(p["value"] for p in view["board"] if p["owner"] == owner) == list(range(16))
    assert pieces_of(state) == ref.standard_board()
    assert view["counts"] == [{"pyramids": 2, "pieces": 16, "value": 120}] * 2
    assert view["to_move"] == WHITE and view["phase"] == "play"


# --- the end of the game --------------------------------------------------------------------

def test_taking_the_last_pyramid_ends_the_game_and_the_victories_decide() -> None:
    # White takes Black's only Pyramid, but Black has more pieces and more value:
    # Black wins a Compound victory (piece, value) against White's Pyramid victory.
    state = position({"3d1": (WHITE, 0b1111), "2c1": (BLACK, 0b0000), "4b4": (BLACK, 0b1110),
                      "4c4": (BLACK, 0b1101), "4d4": (BLACK, 0b1011), "1a4": (WHITE, 0b0001)},
                     guards=False)
    events = state.apply(WHITE, "3d1-2d1")
    outcome = state.outcome()
    assert outcome is not None and events[-1]["type"] == "game_over"
    assert outcome.reason == "rithmomachia_no_pyramid" and outcome.winners == (BLACK,)
    assert outcome.detail["label"] == "compound"
    assert outcome.detail["victories"] == {"pyramid": WHITE, "piece": BLACK, "value": BLACK}
    assert outcome.detail["victory_counts"] == [1, 2] and outcome.detail["without"] == [BLACK]
    assert state.to_move() == [] and state.legal_actions(BLACK) == []
    assert ref.verdict(pieces_of(state)) == ([BLACK], "compound")


def test_no_legal_move_ends_the_game() -> None:
    # Black's only piece, its Pyramid in the corner 4a4, is walled in; pushing is off.
    walls = {cell: (WHITE, value) for cell, value in zip(
        ("3a4", "4b4", "4a3", "3b4", "3a3", "4b3"), (1, 2, 4, 8, 3, 5), strict=True)}
    state = position({**walls, "2b2": (WHITE, 0b0110)}, push=False, ops="not")
    state.apply(WHITE, "2b2-3b3")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "rithmomachia_no_moves"
    assert outcome.detail["stuck"] == BLACK and outcome.winners == (WHITE,)
    assert outcome.detail["label"] == "compound"  # a Pyramid each; more pieces and value


def test_threefold_repetition_draws() -> None:
    state = new_game({}, 2, 1)
    cycle = ["1b1-2b1", "4b1-3b1", "2b1-1b1", "3b1-4b1"]
    for action in cycle * 2:
        assert state.outcome() is None
        state.apply(state.turn, action)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "repetition" and outcome.is_draw
    assert state.plies == 8 and outcome.detail["label"] is None


def test_the_move_limit_ends_the_game() -> None:
    walk = ["1b1-2b1", "4c1-3c1", "2b1-2a1", "3c1-3d1", "2a1-2a2", "3d1-3d2", "2a2-2a3",
            "3d2-3d3", "2a3-2a4", "3d3-3d4"]
    state = replay({"move_limit": 10}, 1, walk[:9])
    assert state.outcome() is None and state.view(None)["ply"] == 9
    events = state.apply(BLACK, walk[9])
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "move_limit"
    assert outcome.detail["limit"] == 10 and outcome.is_draw
    assert events[-1] == {"type": "game_over", **outcome.to_dict()}


@pytest.mark.parametrize(("pieces", "winners", "label"), [
    ({"1a1": (WHITE, 0), "4a1": (BLACK, 15), "1b1": (WHITE, 1), "4b1": (BLACK, 2)},
     [BLACK], "simple"),
    ({"1a1": (WHITE, 15), "4a1": (BLACK, 0), "1b1": (WHITE, 1), "4b1": (BLACK, 2),
      "4c1": (BLACK, 4)}, [], None),
    ({"1a1": (WHITE, 15), "1a2": (WHITE, 0), "4a1": (BLACK, 0), "4b1": (BLACK, 8)},
     [WHITE], "compound"),
    ({"1a1": (WHITE, 15), "1a2": (WHITE, 0), "1a3": (WHITE, 1), "4a1": (BLACK, 0)},
     [WHITE], "perfect"),
    ({"1a1": (WHITE, 15), "4a1": (BLACK, 15)}, [], None),
])
def test_victory_labels(pieces: Pieces, winners: list[int], label: str | None) -> None:
    board = [0] * 64
    for cell, (owner, value) in pieces.items():
        board[CELL_BY_NAME[cell]] = code_of(owner, value)
    verdict = victories(board)
    assert list(verdict["winners"]) == winners and verdict["label"] == label
    assert ref.verdict(pieces) == (winners, label)


def test_resign_and_abandon() -> None:
    state = new_game({}, 2, 1)
    events = state.resign(WHITE)
    assert events == [{"type": "game_over", "winners": [BLACK], "reason": "resigned",
                       "detail": {"loser": WHITE}}]
    with pytest.raises(IllegalMove):
        state.resign(BLACK)
    with pytest.raises(IllegalMove):
        state.apply(BLACK, "4b1-3b1")
    state = new_game({}, 2, 1)
    outcome = state.abandon()[0]
    assert outcome["reason"] == "abandoned" and outcome["winners"] == []
    with pytest.raises(IllegalMove):
        state.abandon()
    with pytest.raises(NotYourTurn):
        new_game({}, 2, 1).resign(2)


# --- notation -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "canonical"), [
    ("1b1-2b1", "1b1-2b1"), ("1B1 2B1", "1b1-2b1"), (" 1b1x2b1 ", "1b1-2b1"),
    ("1b1 to 2b1", "1b1-2b1"), ("move 1b1>2b1", "1b1-2b1"), ("1 b 1 - 2 b 1", "1b1-2b1"),
    ("1b1→2b1", "1b1-2b1"), ("1B2 1A1 2A1", "1b2-1a1-2a1"),
])
def test_typed_moves(text: str, canonical: str) -> None:
    state = new_game({}, 2, 1)
    assert state.parse_action(text, WHITE) == canonical


@pytest.mark.parametrize(("text", "error", "key"), [
    ("", InvalidMove, "rithmomachia.error.empty"),
    ("hello", InvalidMove, "rithmomachia.error.bad_move"),
    ("1b1", InvalidMove, "rithmomachia.error.bad_move"),
    ("1b1-2b1-3b1-4b1", InvalidMove, "rithmomachia.error.bad_move"),
    ("5a1-2a1", InvalidMove, "rithmomachia.error.bad_cell"),
    ("1e1-2e1", InvalidMove, "rithmomachia.error.bad_cell"),
    ("2b1-3b1", IllegalMove, "rithmomachia.error.no_piece"),
    ("4b1-3b1", IllegalMove, "rithmomachia.error.not_yours"),
    ("1a1-2a2", IllegalMove, "rithmomachia.error.bad_step"),
    ("1b1-3b1", IllegalMove, "rithmomachia.error.bad_step"),
    ("1b1-1c1", IllegalMove, "rithmomachia.error.occupied"),
    ("place 0101 1b2", IllegalMove, "rithmomachia.error.placed"),
])
def test_refusals_say_what_was_expected(text: str, error: type[GameError], key: str) -> None:
    state = new_game({}, 2, 1)
    caught = refusal(state, WHITE, text)
    assert isinstance(caught, error) and caught.key == key
    assert caught.render()  # the English template fills in
    if key in ("rithmomachia.error.empty", "rithmomachia.error.bad_move"):
        assert "2b3-3c4" in str(caught)
    if text == "1a1-2a2":
        assert "Square" in str(caught) and "orthogonal or triagonal" in str(caught)


def test_turns_are_checked() -> None:
    state = new_game({}, 2, 1)
    with pytest.raises(NotYourTurn):
        state.parse_action("4b1-3b1", BLACK)
    with pytest.raises(NotYourTurn):
        state.apply(BLACK, "4b1-3b1")
    assert state.legal_actions(BLACK) == []


def test_action_text() -> None:
    state = new_game({}, 2, 1)
    assert state.action_text("1b1-2b1") == "1b1 → 2b1"
    assert state.action_text("1b2-1a1-2a1") == "1b2 → 1a1, pushing the piece there to 2a1"
    assert state.action_text("place 0101 1a2") == "place Triangle 0101 (5) on 1a2"
    assert state.action_text("nonsense") == "nonsense"


# --- the placement set-up -------------------------------------------------------------------

def test_placement_setup_alternates_and_then_play_starts() -> None:
    state = new_game({"setup": "placement"}, 2, 1)
    assert state.phase == "placement" and state.view(None)["board"] == []
    assert len(state.legal_actions(WHITE)) == sum(
        len([c for row in LAYOUT_SHAPES for c in row if c == SHAPE_OF[v]])
        for v in range(16))
    assert state.parse_action("place 5 1a2", WHITE) == "place 0101 1a2"
    assert state.parse_action("0101@1a2", WHITE) == "place 0101 1a2"
    assert state.parse_action("5 1A2", WHITE) == "place 0101 1a2"
    assert refusal(state, WHITE, "place 5 4a2").key == "rithmomachia.error.not_home"
    assert refusal(state, WHITE, "place 5 1a1").key == "rithmomachia.error.wrong_shape"
    assert refusal(state, WHITE, "place 16 1a1").key == "rithmomachia.error.bad_value"
    assert refusal(state, WHITE, "1b1-2b1").key == "rithmomachia.error.placing"
    state.apply(WHITE, "place 0101 1c2")
    assert refusal(state, BLACK, "place 5 1a2").key == "rithmomachia.error.not_home"
    state.apply(BLACK, "place 0101 4c2")
    assert refusal(state, WHITE, "place 0101 1a2").key == "rithmomachia.error.already_placed"
    assert refusal(state, WHITE, "place 0110 1c2").key == "rithmomachia.error.occupied_cell"
    # Both fill their levels with the standard values, in turn.
    while state.phase == "placement":
        seat = state.turn
        action = next(f"place {bits(board.STANDARD_LAYOUT[rank][f])} "
                      f"{CELL_NAMES[cell_at(HOME_LEVEL[seat], f, rank)]}"
                      for rank in range(4) for f in range(4)
                      if not state.board[cell_at(HOME_LEVEL[seat], f, rank)])
        events = state.apply(seat, action)
    assert state.phase == "play" and state.turn == WHITE and state.plies == 0
    assert events[-1] == {"type": "play_started"}
    assert len(state.actions) == 32 and state.view(None)["ply"] == 0
    assert RithmomachiaState.from_dict(state.to_dict()).to_dict() == state.to_dict()
    state.apply(WHITE, state.legal_actions(WHITE)[0])


def test_placement_menus() -> None:
    state = new_game({"setup": "placement"}, 2, 1)
    top = state.menu(WHITE, ())
    assert [c.token for c in top] == [bits(v) for v in range(16)]
    assert top[5].label == "△0101" and all(c.action is None for c in top)
    cells = state.menu(WHITE, ("0101",))
    assert [c.token for c in cells] == ["1a2", "1c2", "1d2", "1a3", "1b3", "1d3"]
    assert cells[0].action == "place 0101 1a2"
    with pytest.raises(InvalidMove):
        state.menu(WHITE, ("1111", "1a1"))
    with pytest.raises(InvalidMove):
        state.menu(WHITE, ("10101",))


# --- menus and views ------------------------------------------------------------------------

def test_menu_piece_then_destination_then_push() -> None:
    state = new_game({}, 2, 1)
    top = state.menu(WHITE, ())
    assert [c.token for c in top][:3] == ["1a1", "1a2", "1a3"]
    assert top[0].label == "□1110 1a1" and all(c.action is None for c in top)
    dests = state.menu(WHITE, ("1a1",))
    assert [(c.token, c.label, c.action) for c in dests] == [
        ("2a1", "→ 2a1", "1a1-2a1"), ("2b2", "→ 2b2", "1a1-2b2")]
    pyramid = state.menu(WHITE, ("1b2",))
    push = next(c for c in pyramid if c.token == "1a1")
    assert push.action is None and push.label == "→ 1a1 push □1110"
    targets = state.menu(WHITE, ("1b2", "1a1"))
    assert [c.action for c in targets] == [a for a in state.legal_actions(WHITE)
                                           if a.startswith("1b2-1a1-")]
    assert targets[0].label.startswith("push → ")
    for bad in [("4a1",), ("1a1", "3a1"), ("1a1", "2a1", "3a1"), ("1b2", "2b2", "3b3"), ("x",)]:
        with pytest.raises(InvalidMove):
            state.menu(WHITE, bad)
    with pytest.raises(NotYourTurn):
        state.menu(BLACK, ())


def test_menu_labels_preview_captures() -> None:
    state = position({"3d1": (WHITE, 0b0001), "2c1": (BLACK, 0b1110)})
    dest = next(c for c in state.menu(WHITE, ("3d1",)) if c.token == "2d1")
    assert dest.label == "→ 2d1 · takes 1"


def test_view_has_everything_a_renderer_needs() -> None:
    state = position({"3d1": (WHITE, 0b0001), "2c1": (BLACK, 0b1110)})
    state.apply(WHITE, "3d1-2d1")
    view = state.view(BLACK)
    assert json.loads(json.dumps(view)) == view
    assert set(view) >= {"board", "to_move", "ply", "move_limit", "options", "last_move",
                         "last_events", "counts", "outcome", "phase", "ops", "push", "layout",
                         "standing", "seat_names", "repetitions", "unplaced"}
    assert {"cell": "2c1", "value": 14, "bits": "1110", "shape": "square",
            "owner": WHITE} in view["board"]
    assert view["last_move"]["captured"] == ["2c1"] and view["to_move"] == BLACK
    capture = next(e for e in view["last_events"] if e["type"] == "capture")
    assert capture["equation"] == "NOT 0001 = 1110"
    assert view["counts"][WHITE] == {"pyramids": 1, "pieces": 3, "value": 30}
    assert view["standing"]["victories"] == {"pyramid": None, "piece": WHITE, "value": WHITE}
    assert view == state.view(WHITE) | {"viewer": BLACK}
    with pytest.raises(NotYourTurn):
        state.view(3)


# --- serialisation --------------------------------------------------------------------------

def test_round_trip_and_replay() -> None:
    state = new_game({"push": False}, 2, 3)
    for action in ["1b1-2b1", "4c1-3c1", "2b1-2a1"]:
        state.apply(state.turn, action)
        copy = RithmomachiaState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert copy.to_dict() == state.to_dict()
    assert replay({"push": False}, 3, state.actions).to_dict() == state.to_dict()


def corrupt(change: Any) -> dict[str, Any]:
    data = new_game({}, 2, 1).to_dict()
    change(data)
    return data


@pytest.mark.parametrize("change", [
    lambda d: d.update(game="chess"),
    lambda d: d.update(schema=2),
    lambda d: d.update(options={"push": True}),
    lambda d: d["options"].update(ops="nand,not"),
    lambda d: d["options"].update(ops="xor,foo"),
    lambda d: d.update(seed="1"),
    lambda d: d.update(phase="setup"),
    lambda d: d.update(phase="placement"),
    lambda d: d["pieces"].append(["2a1", 0, 1]),
    lambda d: d["pieces"].append(["1a1", 0, 3]),
    lambda d: d["pieces"].append(["9z9", 0, 3]),
    lambda d: d["pieces"].__setitem__(0, ["1a1", 2, 14]),
    lambda d: d["pieces"].__setitem__(0, ["1a1", 0, 16]),
    lambda d: d["pieces"].__setitem__(0, ["1a1", 0, True]),
    lambda d: d["pieces"].__setitem__(0, ["1a1", 0]),
    lambda d: d["pieces"].__setitem__(1, ["1a2", 0, 0]),
    lambda d: d.update(pieces=[p for p in d["pieces"] if p[1] == 0 or p[2] not in (0, 15)]),
    lambda d: d.update(turn=2),
    lambda d: d.update(turn=1),
    lambda d: d.update(plies=3),
    lambda d: d.update(plies=201),
    lambda d: d.update(actions=["1b1-2b1"]),
    lambda d: d.update(history=[]),
    lambda d: d.update(history=[[d["history"][0][0], 3]]),
    lambda d: d.update(history=[["0" + "x" * 64, 1]]),
    lambda d: d.update(history=[d["history"][0], d["history"][0]]),
    lambda d: d.update(last_move=[]),
    lambda d: d.update(last_events={}),
    lambda d: d.update(outcome={"winners": [3], "reason": "resigned", "detail": {}}),
    lambda d: d.update(outcome={"winners": [0], "reason": "resigned"}),
    lambda d: d.update(outcome="draw"),
    lambda d: d.pop("history"),
])
def test_corrupt_states_are_refused(change: Any) -> None:
    with pytest.raises(StateError):
        RithmomachiaState.from_dict(corrupt(change))


def test_corrupt_placement_states_are_refused() -> None:
    state = new_game({"setup": "placement"}, 2, 1)
    state.apply(WHITE, "place 0101 1a2")
    good = state.to_dict()
    RithmomachiaState.from_dict(good)
    for change in (
        lambda d: d["pieces"].__setitem__(0, ["4a2", 0, 5]),   # not White's level
        lambda d: d["pieces"].__setitem__(0, ["1a1", 0, 5]),   # a Square cell
        lambda d: d.update(turn=0),                            # Black places next
        lambda d: d.update(actions=[]),
        lambda d: d.update(plies=1),
        lambda d: d["pieces"].append(["4a2", 1, 5]),           # then White would place
    ):
        data = json.loads(json.dumps(good))
        change(data)
        with pytest.raises(StateError):
            RithmomachiaState.from_dict(data)
    with pytest.raises(StateError):
        RithmomachiaState.from_dict([])  # type: ignore[arg-type]


def test_new_game_checks_players_and_options() -> None:
    with pytest.raises(InvalidMove):
        new_game({}, 3, 1)
    with pytest.raises(InvalidMove):
        new_game({"setup": "random"}, 2, 1)
    with pytest.raises(InvalidMove):
        new_game({"move_limit": 5}, 2, 1)
    with pytest.raises(InvalidMove):
        new_game({"colour": "white"}, 2, 1)


# --- agents ---------------------------------------------------------------------------------

def test_make_agent_levels() -> None:
    assert isinstance(make_agent("easy", random.Random(1)), RithmomachiaAgent)
    with pytest.raises(InvalidMove):
        make_agent("perfect", random.Random(1))
    agent = make_agent("strong", random.Random(1))
    with pytest.raises(NotYourTurn):
        agent.choose(new_game({}, 2, 1), BLACK)


def test_easy_takes_a_capture_when_it_can() -> None:
    state = position({"3d1": (WHITE, 0b0001), "2c1": (BLACK, 0b1110), "3c2": (WHITE, 0b0110)})
    for seed in range(10):
        agent = RithmomachiaAgent("easy", random.Random(seed))
        action = agent.choose(state, WHITE)
        child = RithmomachiaState.from_dict(state.to_dict())
        assert captures(child.apply(WHITE, action))
    moves = {RithmomachiaAgent("easy", random.Random(s)).choose(new_game({}, 2, 1), WHITE)
             for s in range(20)}
    assert len(moves) > 5  # nothing to take: a random move


def test_strong_takes_the_winning_pyramid_and_is_deterministic_with_a_node_limit() -> None:
    state = position({"3d1": (WHITE, 0b1111), "2c1": (BLACK, 0b0000), "1c2": (WHITE, 0b0001),
                      "4d4": (BLACK, 0b0010)}, guards=False)
    agent = RithmomachiaAgent("strong", random.Random(1), budget_seconds=None, node_limit=500)
    action = agent.choose(state, WHITE)
    child = RithmomachiaState.from_dict(state.to_dict())
    child.apply(WHITE, action)
    outcome = child.outcome()
    assert outcome is not None and outcome.winners == (WHITE,)
    game = new_game({}, 2, 5)
    picks = {RithmomachiaAgent("strong", random.Random(3), budget_seconds=None,
                               node_limit=300).choose(game, WHITE) for _ in range(3)}
    assert len(picks) == 1


def test_strong_keeps_its_pyramid_out_of_reach() -> None:
    # Black's 0000 on 4d3 takes White's 1111 by NOT wherever it can step next to it: White's
    # Pyramid on 2c1 is safe only on level 1, three steps away.
    state = position({"2c1": (WHITE, 0b1111), "4d3": (BLACK, 0b0000), "4a4": (BLACK, 0b1111)},
                     guards=False, push=False)
    agent = RithmomachiaAgent("strong", random.Random(2), budget_seconds=None, node_limit=3000)
    action = agent.choose(state, WHITE)
    child = RithmomachiaState.from_dict(state.to_dict())
    child.apply(WHITE, action)
    reply = RithmomachiaAgent("strong", random.Random(2), budget_seconds=None, node_limit=3000)
    child.apply(BLACK, reply.choose(child, BLACK))
    assert child.view(None)["counts"][WHITE]["pyramids"] == 1


class SteppingClock:
    """A clock that moves on by ``step`` seconds each time it is read, so that a budget test
    does not depend on how busy the machine is."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


@pytest.mark.parametrize("budget", [0.05, 0.3, 2.0])
def test_strong_stops_within_its_budget(budget: float) -> None:
    clock = SteppingClock(0.0005)
    agent = RithmomachiaAgent("strong", random.Random(1), budget_seconds=budget, clock=clock)
    action = agent.choose(new_game({}, 2, 9), WHITE)
    assert action in new_game({}, 2, 9).legal_actions(WHITE)
    assert clock.now <= budget * 1.1
    assert agent.last_depth >= 1, "a whole iteration finished"


def test_agents_place_pieces() -> None:
    state = new_game({"setup": "placement"}, 2, 1)
    strong = RithmomachiaAgent("strong", random.Random(1))
    easy = RithmomachiaAgent("easy", random.Random(1))
    while state.phase == "placement":
        agent = strong if state.turn == WHITE else easy
        action = agent.choose(state, state.turn)
        assert action in state.legal_actions(state.turn)
        state.apply(state.turn, action)
    white = {cell: v for cell, (o, v) in pieces_of(state).items() if o == WHITE}
    assert white == {cell: v for cell, (o, v) in ref.standard_board().items() if o == WHITE}


def test_a_push_takes_two_menu_steps_from_its_pair_on_the_first_step() -> None:
    """Issue 23's two taps per move: the first step offers each push as a pair (the Pyramid
    and the cell it steps onto), and the second where the pushed piece goes; the same
    moves as through the Pyramid's own three steps."""
    state = None
    for seed in range(40):
        candidate = new_game({}, 2, seed)
        rng = random.Random(seed)
        while candidate.outcome() is None and not any(
                len(a.split("-")) == 3 for a in candidate.legal_actions(candidate.turn)):
            candidate.apply(candidate.turn, rng.choice(candidate.legal_actions(candidate.turn)))
        if candidate.outcome() is None:
            state = candidate
            break
    assert state is not None, "no seed reached a position with a push"
    seat = state.turn
    pushes = [a for a in state.legal_actions(seat) if len(a.split("-")) == 3]
    pairs = [c for c in state.menu(seat, ()) if len(c.token) == 6]
    assert {p.token for p in pairs} == {a.split("-")[0] + a.split("-")[1] for a in pushes}
    via_pairs = [c.action for p in pairs for c in state.menu(seat, (p.token,))]
    via_pyramid = [c.action for p in pairs
                   for c in state.menu(seat, (p.token[:3], p.token[3:]))]
    assert via_pairs == via_pyramid and sorted(via_pairs) == sorted(pushes)
    with pytest.raises(InvalidMove):
        state.menu(seat, (pairs[0].token, "1a1"))
    with pytest.raises(InvalidMove):
        state.menu(seat, ("9z99z9",))
