"""The L-game rules as the engine applies them: move generation checked against the
independent reference, notation, refusals, the ways a game ends, serialisation, the menu."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from engines import lgame
from engines.base import (
    GameError,
    IllegalMove,
    InvalidMove,
    NotYourTurn,
    StateError,
)
from engines.lgame import LGameState
from tests.helpers import lgame_reference as ref
from tests.helpers.lgame_positions import random_states

VARIANTS = [pytest.param(False, id="standard"), pytest.param(True, id="sudden_death")]

# The start position exactly as the spec draws it, rank 4 at the top.
SPEC_DIAGRAM = """
n X X .
. O X .
. O X .
. O O n
"""


# --- helpers --------------------------------------------------------------------------------


def clone(state: LGameState) -> LGameState:
    return LGameState.from_dict(state.to_dict())


def position_of(state: LGameState, turn: int) -> ref.Position:
    return ref.position_from_pieces(state.view(None)["pieces"], turn)


def engine_children(state: LGameState) -> list[ref.Position]:
    """The position each legal action leads to, one entry per action."""
    mover = state.to_move()[0]
    children = []
    for action in state.legal_actions(mover):
        child = clone(state)
        child.apply(mover, action)
        children.append(position_of(child, 1 - mover))
    return children


def state_at(pos: ref.Position, **options: Any) -> LGameState:
    """A fresh game (empty history) standing in ``pos``, built through from_dict."""
    data = lgame.new_game(options, 2, 0).to_dict()
    data.update(ls=[ref.placement_code(pos.x), ref.placement_code(pos.o)],
                neutrals=ref.names(pos.neutrals), turn=pos.turn, history=[])
    return LGameState.from_dict(data)


def engine_perft(state: LGameState, depth: int) -> int:
    if state.outcome() is not None:
        return 0
    mover = state.to_move()[0]
    actions = state.legal_actions(mover)
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = LGameState.from_dict(state.to_dict())
        child.apply(mover, action)
        total += engine_perft(child, depth - 1)
    return total


def midgame(**options: Any) -> LGameState:
    """X at d4 d3 d2 c4, O at a1 a2 a3 b1, neutrals a4 d1, X to move.

    From here 'c4 S W' (b4 c4 c3 c2) is free and b3 is empty."""
    state = lgame.replay(options, 0, ["d4SW", "a1NE"])
    assert position_of(state, 0) == ref.Position(
        ref.cells(["d4", "d3", "d2", "c4"]), ref.cells(["a1", "a2", "a3", "b1"]),
        ref.cells(["a4", "d1"]), 0)
    return state


# --- the start position ---------------------------------------------------------------------


def test_start_matches_the_spec_diagram() -> None:
    rows = [row.split() for row in SPEC_DIAGRAM.strip().splitlines()]
    found: dict[str, set[str]] = {"X": set(), "O": set(), "n": set()}
    for top_down, row in enumerate(rows):
        for file, mark in enumerate(row):
            if mark != ".":
                found[mark].add(f"{'abcd'[file]}{4 - top_down}")
    assert found == {"X": {"b4", "c4", "c3", "c2"}, "O": {"b3", "b2", "b1", "c1"},
                     "n": {"a4", "d1"}}
    state = lgame.new_game({}, 2, 0)
    pieces = state.view(None)["pieces"]
    assert set(pieces["X"]) == found["X"]
    assert set(pieces["O"]) == found["O"]
    assert set(pieces["neutral"]) == found["n"]
    assert state.to_move() == [0]
    assert state.outcome() is None
    assert state.legal_actions(1) == []
    assert position_of(state, 0) == ref.START


# --- 2. move generation against the reference ---------------------------------------------


@pytest.mark.parametrize("sudden_death", VARIANTS)
def test_start_moves_match_the_reference(sudden_death: bool) -> None:
    state = lgame.new_game({"sudden_death": sudden_death}, 2, 0)
    children = engine_children(state)
    expected = ref.moves(ref.START, sudden_death)
    assert len(children) == len(set(children)), "two actions lead to the same position"
    assert set(children) == expected
    # 5 L moves; 1 + 2 * 6 neutral choices each, or any 2 of 8 free cells in sudden death.
    assert len(expected) == 5 * (28 if sudden_death else 13)


@pytest.mark.parametrize("sudden_death", VARIANTS)
def test_random_positions_moves_match_the_reference(sudden_death: bool) -> None:
    count = 0
    for state in random_states(sudden_death, 150, seed=21 + sudden_death):
        pos = position_of(state, state.turn)
        children = engine_children(state)
        assert len(children) == len(set(children)), state.actions
        assert set(children) == ref.moves(pos, sudden_death), state.actions
        count += 1
    assert count == 150


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_from_the_start_standard(depth: int) -> None:
    state = lgame.new_game({}, 2, 0)
    expected = ref.perft(ref.START, depth, False)
    assert engine_perft(state, depth) == expected
    if depth == 1:
        assert expected == 65


@pytest.mark.parametrize("depth", [1, 2])
def test_perft_from_the_start_sudden_death(depth: int) -> None:
    state = lgame.new_game({"sudden_death": True}, 2, 0)
    assert engine_perft(state, depth) == ref.perft(ref.START, depth, True)


@pytest.mark.slow
def test_perft_depth_3_sudden_death() -> None:
    state = lgame.new_game({"sudden_death": True}, 2, 0)
    assert engine_perft(state, 3) == ref.perft(ref.START, 3, True)


# --- 5. notation ----------------------------------------------------------------------------

C4SW = ref.cells(["b4", "c4", "c3", "c2"])


@pytest.mark.parametrize("text", ["c4 S W", "c4SW", "C4 s w", "  c4  s  w  ", "c4sw"])
def test_l_only_notation(text: str) -> None:
    state = midgame()
    before = state.to_dict()
    action = state.parse_action(text, 0)
    assert state.to_dict() == before, "parsing changed the state"
    assert action == "c4SW"
    assert action in state.legal_actions(0)
    state.apply(0, text)
    assert position_of(state, 1) == ref.Position(C4SW, ref.cells(["a1", "a2", "a3", "b1"]),
                                                 ref.cells(["a4", "d1"]), 1)


@pytest.mark.parametrize("text", [
    "c4 S W d1>b3", "c4 S W d1-b3", "c4 S W d1b3", "c4 S W d1 b3", "c4SWd1b3", "c4SW d1>b3",
    "C4 s w D1>B3", "c4 S W, d1>b3", "c4 S W d1->b3",
])
def test_neutral_notation(text: str) -> None:
    state = midgame()
    action = state.parse_action(text, 0)
    assert action == state.parse_action("c4 S W d1>b3", 0)
    assert action in state.legal_actions(0)
    state.apply(0, text)
    assert position_of(state, 1).neutrals == ref.cells(["a4", "b3"])
    assert position_of(state, 1).x == C4SW


def test_action_text_reads_back() -> None:
    state = midgame()
    for action in state.legal_actions(0):
        text = state.action_text(action)
        assert state.parse_action(text, 0) == action
    assert state.action_text("c4SW d1b3") == "c4 S W, d1>b3"


def test_sudden_death_two_neutrals_in_any_order() -> None:
    state = midgame(sudden_death=True)
    one = state.parse_action("c4 S W d1>b3 a4>d4", 0)
    other = state.parse_action("c4 S W a4>d4 d1>b3", 0)
    assert one == other
    assert one in state.legal_actions(0)
    state.apply(0, one)
    assert position_of(state, 1).neutrals == ref.cells(["b3", "d4"])


def test_sudden_death_neutral_may_take_the_cell_the_other_left() -> None:
    state = midgame(sudden_death=True)
    action = state.parse_action("c4 S W a4>b3 d1>a4", 0)
    assert action in state.legal_actions(0)
    state.apply(0, action)
    assert position_of(state, 1).neutrals == ref.cells(["a4", "b3"])


# --- 5. refusals ----------------------------------------------------------------------------

REFUSALS: list[tuple[str, bool, str, type[GameError], list[str]]] = [
    # (case, sudden_death, text, error class, words the message must contain)
    ("empty", False, "", InvalidMove, ["c4 S W"]),
    ("blank", False, "   ", InvalidMove, ["c4 S W"]),
    ("garbage", False, "hello there", InvalidMove, ["c4 S W"]),
    ("half a placement", False, "c4 S", InvalidMove, ["c4 S W"]),
    ("foot parallel to leg", False, "a1 N S", InvalidMove, ["foot"]),
    ("garbage after the L", False, "c4 S W zz", InvalidMove, ["d1>b3"]),
    ("off the board", False, "a1 S E", IllegalMove, ["a1 S E"]),
    ("own placement", False, "d4 S W", IllegalMove, ["d4 S W"]),
    ("overlaps the other L", False, "b1 N E", IllegalMove, ["b1"]),
    ("covers a neutral", False, "d1 N W", IllegalMove, ["d1"]),
    ("neutral from an empty cell", False, "c4 S W c1>b3", IllegalMove, ["c1"]),
    ("neutral onto the other L", False, "c4 S W d1>a1", IllegalMove, ["a1"]),
    ("neutral onto the new L", False, "c4 S W d1>c3", IllegalMove, ["c3"]),
    ("neutral onto a neutral", False, "c4 S W d1>a4", IllegalMove, ["a4"]),
    ("neutral onto its own cell", False, "c4 S W d1>d1", IllegalMove, ["d1"]),
    ("two neutrals in standard", False, "c4 S W d1>b3 a4>d4", IllegalMove, ["one"]),
    ("three neutrals in sudden death", True, "c4 S W d1>b3 a4>d4 b3>c1", IllegalMove, []),
    ("neutral onto the other L, sudden death", True, "c4 S W d1>b3 a4>a2", IllegalMove,
     ["a2"]),
]


@pytest.mark.parametrize(("case", "sudden_death", "text", "error", "words"), REFUSALS,
                         ids=[r[0] for r in REFUSALS])
def test_refused_moves(case: str, sudden_death: bool, text: str, error: type[GameError],
                       words: list[str]) -> None:
    state = midgame(sudden_death=sudden_death)
    before = state.to_dict()
    attempts: list[Callable[[], object]] = [lambda: state.parse_action(text, 0),
                                            lambda: state.apply(0, text)]
    for attempt in attempts:
        with pytest.raises(GameError) as caught:
            attempt()
        assert type(caught.value) is error, (case, caught.value)
        message = str(caught.value)
        for word in words:
            assert word in message, (case, message)
        assert state.to_dict() == before, f"{case}: a refused move changed the state"
    legal_texts = {state.action_text(a) for a in state.legal_actions(0)}
    assert text not in legal_texts


def test_moving_one_neutral_twice_is_explained_truthfully() -> None:
    state = midgame(sudden_death=True)
    with pytest.raises(IllegalMove) as caught:
        state.apply(0, "c4 S W d1>b3 b3>c1")
    assert "no neutral piece on b3" not in str(caught.value)


@pytest.mark.parametrize("seat", [1, 2, -1])
def test_wrong_seat_is_not_your_turn(seat: int) -> None:
    state = midgame()
    before = state.to_dict()
    for text in ("c4 S W", "a1 N E", "garbage"):
        with pytest.raises(NotYourTurn):
            state.apply(seat, text)
        with pytest.raises(NotYourTurn):
            state.parse_action(text, seat)
    with pytest.raises(NotYourTurn):
        state.menu(seat, ())
    assert state.legal_actions(seat) == []
    assert state.to_dict() == before


def test_no_move_after_the_game_is_over() -> None:
    state = midgame()
    state.resign(0)
    before = state.to_dict()
    for seat in (0, 1):
        for text in ("c4 S W", "garbage"):
            with pytest.raises((IllegalMove, NotYourTurn)):
                state.apply(seat, text)
        assert state.legal_actions(seat) == []
        with pytest.raises((IllegalMove, NotYourTurn)):
            state.menu(seat, ())
    with pytest.raises(GameError):
        state.resign(1)
    with pytest.raises(GameError):
        state.abandon()
    assert state.to_dict() == before


# --- 5. how games end -----------------------------------------------------------------------

SHUFFLE = ["c4SE", "b1NW", "c4SW", "b1NE"]  # both Ls step aside and come back


def test_threefold_repetition_draws() -> None:
    state = lgame.new_game({}, 2, 0)
    seen = [position_of(state, 0)]
    for ply, action in enumerate(SHUFFLE * 2, start=1):
        assert state.outcome() is None
        state.apply(state.turn, action)
        seen.append(position_of(state, state.turn))
        if ply == 4:  # survive a save and load in the middle
            state = LGameState.from_dict(json.loads(json.dumps(state.to_dict())))
    # The start position stood on the board after plies 0, 4 and 8, and nothing else thrice.
    assert [i for i, p in enumerate(seen) if p == ref.START] == [0, 4, 8]
    assert all(seen.count(p) < 3 for p in seen if p != ref.START)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.is_draw
    assert outcome.reason == "repetition"
    assert state.to_move() == []


def test_twofold_repetition_does_not_end_the_game() -> None:
    state = lgame.replay({}, 0, SHUFFLE + SHUFFLE[:3])
    assert state.outcome() is None
    assert state.to_move() == [1]


def test_move_limit_draws() -> None:
    limited = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = lgame.new_game({"move_limit": 10}, 2, seed)
        while state.outcome() is None:
            assert state.plies < 10
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
        outcome = state.outcome()
        assert outcome is not None
        if outcome.reason == "move_limit":
            assert state.plies == 10
            assert outcome.is_draw
            limited += 1
        else:
            assert state.plies <= 10
    assert limited > 0


def test_move_limit_is_counted_in_single_moves() -> None:
    # The shuffle again, but a neutral step at ply 4 starts a second cycle, so that no
    # position stands on the board three times within 10 single moves.
    actions = [*SHUFFLE[:3], "b1NE a4a3", *SHUFFLE, *SHUFFLE[:2]]
    state = lgame.new_game({"move_limit": 10}, 2, 0)
    seen = [position_of(state, 0)]
    for ply, action in enumerate(actions, start=1):
        assert state.outcome() is None, ply
        state.apply(state.turn, action)
        seen.append(position_of(state, state.turn))
    assert max(seen.count(p) for p in seen) == 2
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.winners) == ("move_limit", ())
    assert state.to_move() == []
    unlimited = lgame.replay({}, 0, actions)
    assert unlimited.outcome() is None


def find_winning_setup() -> tuple[ref.Position, ref.Position]:
    """A position with X to move in which a plain L move leaves O with no L move at all."""
    for lost in ref.all_relatives():
        if ref.l_targets(lost.mover, lost.other, lost.neutrals):
            continue
        # X's L came to ``lost.other`` from some other placement, neutrals untouched.
        for before in ref.l_targets(lost.other, lost.mover, lost.neutrals):
            setup = ref.Relative(before, lost.mover, lost.neutrals)
            assert lost in ref.relative_moves(setup, False)
            return (ref.Position(before, lost.mover, lost.neutrals, 0),
                    ref.Position(lost.other, lost.mover, lost.neutrals, 1))
    raise AssertionError("the reference knows no lost position")


def test_a_player_without_an_l_move_loses() -> None:
    setup, lost = find_winning_setup()
    state = state_at(setup)
    assert position_of(state, 0) == setup
    wins = 0
    for action in state.legal_actions(0):
        child = clone(state)
        events = child.apply(0, action)
        after = position_of(child, 1)
        trapped = not ref.l_targets(after.o, after.x, after.neutrals)
        outcome = child.outcome()
        if trapped:
            wins += 1
            assert outcome is not None
            assert outcome.winners == (0,)
            assert outcome.reason == "no_l_move"
            assert child.to_move() == []
            assert child.legal_actions(1) == [] and child.legal_actions(0) == []
            assert events[-1]["type"] == "game_over"
            with pytest.raises(GameError):
                child.apply(1, "a1 N E")
        else:
            assert outcome is None
            assert child.to_move() == [1]
    assert wins >= 1
    assert lost in {position_of(_applied(state, a), 1) for a in state.legal_actions(0)}


def _applied(state: LGameState, action: str) -> LGameState:
    child = clone(state)
    child.apply(child.turn, action)
    return child


def test_resign() -> None:
    state = midgame()
    events = state.resign(1)  # resigning out of turn is allowed
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.reason == "resigned"
    assert events and events[-1]["type"] == "game_over"
    assert state.to_move() == []
    assert state.view(None)["outcome"]["winners"] == [0]


def test_abandon() -> None:
    state = midgame()
    events = state.abandon()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == ()
    assert outcome.reason == "abandoned"
    assert events and events[-1]["type"] == "game_over"
    assert state.to_move() == []


def test_resign_by_a_non_player_is_refused() -> None:
    state = midgame()
    before = state.to_dict()
    with pytest.raises(GameError):
        state.resign(5)
    assert state.to_dict() == before


# --- 5. options -----------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"bogus": True},
    {"move_limit": 9},
    {"move_limit": 2001},
    {"move_limit": -5},
    {"move_limit": "50"},
    {"move_limit": True},
    {"sudden_death": 1},
    {"sudden_death": "yes"},
])
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidMove):
        lgame.new_game(options, 2, 0)


@pytest.mark.parametrize("options", [{}, {"move_limit": 10}, {"move_limit": 2000},
                                     {"sudden_death": True, "move_limit": 50}])
def test_good_options_are_kept(options: dict[str, Any]) -> None:
    state = lgame.new_game(options, 2, 0)
    for name, value in options.items():
        assert state.options[name] == value


@pytest.mark.parametrize("players", [0, 1, 3])
def test_the_game_is_for_two(players: int) -> None:
    with pytest.raises(InvalidMove):
        lgame.new_game({}, players, 0)


def test_unknown_agent_level() -> None:
    with pytest.raises(InvalidMove):
        lgame.make_agent("grandmaster", random.Random(0))


# --- 5. serialisation -----------------------------------------------------------------------


def test_round_trip_mid_game() -> None:
    state = midgame(sudden_death=True, move_limit=99)
    data = json.loads(json.dumps(state.to_dict()))
    again = LGameState.from_dict(data)
    assert again.to_dict() == state.to_dict()
    assert again.legal_actions(0) == state.legal_actions(0)


CORRUPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("wrong game", {"game": "chess"}),
    ("no game", {"game": None}),
    ("wrong schema", {"schema": 99}),
    ("Ls overlap", {"ls": ["c4SW", "c2NE"]}),
    ("same L twice", {"ls": ["c4SW", "c4SW"]}),
    ("L on a neutral", {"neutrals": ["b4", "d1"]}),
    ("neutrals on one cell", {"neutrals": ["a4", "a4"]}),
    ("three neutrals", {"neutrals": ["a4", "d1", "d4"]}),
    ("one neutral", {"neutrals": ["a4"]}),
    ("bad neutral name", {"neutrals": ["a4", "e9"]}),
    ("unknown placement", {"ls": ["c4SW", "z9NE"]}),
    ("off-board placement", {"ls": ["a1SE", "b1NE"]}),
    ("three Ls", {"ls": ["c4SW", "b1NE", "a1NE"]}),
    ("ls not a list", {"ls": 7}),
    ("turn 2", {"turn": 2}),
    ("turn -1", {"turn": -1}),
    ("turn not a number", {"turn": "x"}),
    ("plies do not match actions", {"plies": 5}),
    ("bad options", {"options": {"move_limit": 3}}),
    ("unknown option", {"options": {"bogus": 1}}),
    ("history garbage", {"history": [[1]]}),
    ("missing seed", {"seed": None}),
]


@pytest.mark.parametrize(("case", "change"), CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_corrupt_states_are_refused(case: str, change: dict[str, Any]) -> None:
    data = lgame.new_game({}, 2, 0).to_dict()
    assert LGameState.from_dict(dict(data)).to_dict() == data  # the untouched one loads
    data.update(change)
    with pytest.raises(StateError):
        LGameState.from_dict(data)


def test_missing_keys_are_refused() -> None:
    data = lgame.new_game({}, 2, 0).to_dict()
    for key in ("ls", "neutrals", "turn", "plies", "actions", "history", "options"):
        broken = {k: v for k, v in data.items() if k != key}
        with pytest.raises(StateError):
            LGameState.from_dict(broken)


@pytest.mark.parametrize("data", [[], "lgame", 3, None])
def test_non_object_states_are_refused(data: Any) -> None:
    with pytest.raises(StateError):
        LGameState.from_dict(data)


# --- 6. the menu ----------------------------------------------------------------------------

TOKEN = re.compile(r"^[A-Za-z0-9-]{1,6}$")


def menu_actions(state: LGameState) -> list[str]:
    """Every action the menu offers, walking each branch to its end."""
    seat = state.to_move()[0]
    found: list[str] = []
    paths: list[tuple[str, ...]] = [()]
    while paths:
        path = paths.pop()
        choices = state.menu(seat, path)
        assert choices, f"dead end at {path}"
        tokens = [c.token for c in choices]
        assert len(tokens) == len(set(tokens)), f"repeated token at {path}"
        for choice in choices:
            assert TOKEN.match(choice.token), choice
            assert choice.label
            if choice.action is not None:
                found.append(choice.action)
            else:
                paths.append((*path, choice.token))
    return found


@pytest.mark.parametrize("sudden_death", VARIANTS)
def test_menu_offers_exactly_the_legal_actions(sudden_death: bool) -> None:
    states = [lgame.new_game({"sudden_death": sudden_death}, 2, 0),
              *random_states(sudden_death, 60, seed=31)]
    for state in states:
        before = state.to_dict()
        offered = menu_actions(state)
        legal = state.legal_actions(state.turn)
        assert set(offered) == set(legal), state.actions
        assert state.to_dict() == before


def test_menu_paths_of_a_legal_move_apply() -> None:
    state = midgame()
    choices = state.menu(0, ("c4SW",))
    keep = [c for c in choices if c.token == "-"]
    assert len(keep) == 1 and keep[0].action == "c4SW"
    step = [c for c in choices if c.token == "d1b3"]
    assert len(step) == 1 and step[0].action == state.parse_action("c4 S W d1>b3", 0)


INVALID_PATHS: list[tuple[str, bool, tuple[str, ...]]] = [
    ("unknown placement", False, ("zz",)),
    ("lower-case code", False, ("c4sw",)),
    ("current placement", False, ("d4SW",)),
    ("bad neutral token", False, ("c4SW", "q9q9")),
    ("neutral from an empty cell", False, ("c4SW", "c1b3")),
    ("neutral onto the other L", False, ("c4SW", "d1a1")),
    ("long neutral token", False, ("c4SW", "d1b3x")),
    ("two neutral steps in standard", False, ("c4SW", "d1b3", "a4d4")),
    ("step after keep", False, ("c4SW", "-", "d1b3")),
    ("three steps in sudden death", True, ("c4SW", "d1b3", "a4d4", "b3c1")),
    ("same neutral twice", True, ("c4SW", "d1b3", "b3c1")),
]


@pytest.mark.parametrize(("case", "sudden_death", "path"), INVALID_PATHS,
                         ids=[p[0] for p in INVALID_PATHS])
def test_invalid_menu_paths(case: str, sudden_death: bool, path: tuple[str, ...]) -> None:
    state = midgame(sudden_death=sudden_death)
    before = state.to_dict()
    with pytest.raises(InvalidMove):
        state.menu(0, path)
    assert state.to_dict() == before


@pytest.mark.parametrize("path", [("b1NE",), ("d1NW",)], ids=["overlaps L", "covers neutral"])
def test_menu_blocked_placement_is_invalid(path: tuple[str, ...]) -> None:
    state = midgame()
    assert path[0] not in {c.token for c in state.menu(0, ())}
    with pytest.raises(InvalidMove):
        state.menu(0, path)
