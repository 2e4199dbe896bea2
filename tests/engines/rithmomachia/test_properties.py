"""Boolean Rithmomachia property tests: random play over many seeds and option sets (both
set-ups, push on and off, every non-empty set of equations, move limits), checking at every
step that

* the legal actions are exactly the plain reference's (``tests/helpers/rithmomachia_reference.py``),
  and the position after each move, with its captures and their equations, is the
  reference's;
* the number of pieces falls only through Pyramid captures, and owners change only through
  the captures the events announce;
* the state survives to_dict → JSON → from_dict, the view is JSON, and the game replays from
  (options, seed, actions);
* typed text is either refused without any change or names a legal action;
* the menu's paths enumerate exactly the legal actions;
* a finished game names the reason the reference sees, and the reference's verdict;
* every game ends, at the latest at the move limit.

Random positions (any pieces, anywhere) are checked against the reference too.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engines.base import StateError
from engines.rithmomachia import RithmomachiaState, new_game, replay
from engines.rithmomachia.agents import Search
from engines.rithmomachia.board import CELL_BY_NAME, CELL_NAMES, code_of, owner_of, value_of
from engines.rithmomachia.equations import OPS, iter_cells, occupancy
from engines.rithmomachia.moves import generate_moves, make_move, move_text, position_key
from tests.helpers import rithmomachia_reference as ref
from tests.helpers.engine_checks import check_typed_text, round_trip

MAX_PLIES = 60
move_like_text = st.one_of(
    st.text(max_size=16),
    st.text(alphabet="1234abcdeABx- >0place", max_size=14),
    st.from_regex(r"\A[0-5][a-e][0-5] ?[-x]? ?[0-5][a-e][0-5]( ?-? ?[0-5][a-e][0-5])?\Z",
                  fullmatch=True),
)


@st.composite
def option_sets(draw: st.DrawFn) -> dict[str, Any]:
    ops = draw(st.sets(st.sampled_from(OPS), min_size=1), label="ops")
    return {
        "setup": draw(st.sampled_from(["standard", "placement"]), label="setup"),
        "push": draw(st.booleans(), label="push"),
        "ops": ",".join(sorted(ops)),
        "move_limit": draw(st.sampled_from([10, 30, 200]), label="move_limit"),
    }


def ref_ops(state: RithmomachiaState) -> tuple[str, ...]:
    return tuple(op.upper() for op in state.options["ops"].split(","))


def menu_actions(state: RithmomachiaState, player: int,
                 path: tuple[str, ...] = ()) -> list[str]:
    """Every action the menu leads to, each once, in the order first reached (a push is
    reached from its Pyramid and again from the first step's push pairs)."""
    found = []
    for choice in state.menu(player, path):
        assert choice.label and len(choice.token) <= 8  # a payload token's limit
        if choice.action is not None:
            found.append(choice.action)
        else:
            found += menu_actions(state, player, (*path, choice.token))
    return list(dict.fromkeys(found))


def check_move(state: RithmomachiaState, action: str, events: list[dict[str, Any]],
               before: ref.Board) -> None:
    """The move's result, captures and equations are the reference's; pieces and owners
    change only as the capture events say."""
    player = events[0]["player"]
    expected, found = ref.play(before, action, player, ref_ops(state))
    after = ref.board_of(state.to_dict())
    assert after == expected
    taken = {e["target"]: e for e in events if e["type"] == "capture"}
    assert set(taken) == set(found)
    for cell, event in taken.items():
        mine = {(q["form"], q["op"], q["operands"][1]["cell"] if len(q["operands"]) > 1
                 else None) for q in event["equations"]}
        assert mine == set(found[cell])
        assert event["equation"] == event["equations"][0]["equation"]
        assert event["removed"] == (event["shape"] == "pyramid") != event["flipped"]
    removed = sum(1 for e in taken.values() if e["removed"])
    assert len(after) == len(before) - removed
    change = Counter(before.values())
    change.subtract(after.values())
    expected_change: Counter[tuple[int, int]] = Counter()
    for event in taken.values():
        expected_change[(event["owner"], event["value"])] += 1
        if event["flipped"]:
            expected_change[(1 - event["owner"], event["value"])] -= 1
    assert +change == +expected_change and -change == -expected_change


def check_outcome(state: RithmomachiaState) -> None:
    outcome = state.outcome()
    if outcome is None or outcome.reason in ("resigned", "abandoned"):
        return
    board = ref.board_of(state.to_dict())
    winners, label = ref.verdict(board)
    assert list(outcome.winners) == winners and outcome.detail["label"] == label
    sides = ref.tally(board)
    no_pyramid = any(side["pyramids"] == 0 for side in sides)
    stuck = not ref.legal_moves(board, state.turn, state.push)
    if outcome.reason == "rithmomachia_no_pyramid":
        assert no_pyramid
    elif outcome.reason == "rithmomachia_no_moves":
        assert stuck and not no_pyramid
    elif outcome.reason == "repetition":
        assert state.history[state.key()] == 3 and not no_pyramid and not stuck
    else:
        assert outcome.reason == "move_limit" and state.plies == state.move_limit
        assert not no_pyramid and not stuck


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=option_sets(), data=st.data())
def test_random_play_keeps_every_invariant(seed: int, options: dict[str, Any],
                                           data: st.DataObject) -> None:
    state = new_game(options, 2, seed)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="rng"))
    greed = data.draw(st.floats(0, 1), label="greed")
    for _ in range(MAX_PLIES + 32):
        assert round_trip(state).to_dict() == state.to_dict()
        view = state.view(None)
        assert json.loads(json.dumps(view)) == view
        if state.outcome() is not None:
            assert state.to_move() == [] and view["to_move"] is None
            break
        seat = state.turn
        legal = state.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        if state.phase == "play":
            board = ref.board_of(state.to_dict())
            assert legal == ref.legal_moves(board, seat, state.push)
        if rng.random() < 0.15:
            assert menu_actions(state, seat) == legal
        check_typed_text(state, legal, data.draw(move_like_text, label="typed"))
        action = rng.choice(legal)
        if state.phase == "play" and rng.random() < greed:  # steer towards captures
            taking = [move for move in state.moves()
                      if make_move(state.board, move, seat, state.rules)[1]]
            action = move_text(rng.choice(taking)) if taking else action
        before = ref.board_of(state.to_dict())
        plies = state.plies
        events = state.apply(seat, action)
        if events[0]["type"] == "moved":
            assert state.plies == plies + 1
            check_move(state, action, events, before)
        check_outcome(state)
    assert replay(options, seed, state.actions).to_dict() == state.to_dict()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=option_sets(),
       limit=st.integers(10, 40))
def test_every_game_ends_by_the_move_limit(seed: int, options: dict[str, Any],
                                           limit: int) -> None:
    state = new_game({**options, "move_limit": limit}, 2, seed)
    rng = random.Random(seed)
    for _ in range(32 + limit):
        if state.outcome() is not None:
            break
        state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
    outcome = state.outcome()
    assert outcome is not None and state.plies <= limit
    assert outcome.reason != "move_limit" or state.plies == limit


@st.composite
def random_positions(draw: st.DrawFn) -> RithmomachiaState:
    """Any pieces anywhere: both sides keep at least one Pyramid."""
    options = draw(option_sets())
    options["setup"] = "standard"
    cells = draw(st.permutations(ref.ALL_CELLS), label="cells")
    count = draw(st.integers(2, 32), label="pieces")
    pieces: list[tuple[int, int]] = [(0, draw(st.sampled_from([0, 15]))),
                                     (1, draw(st.sampled_from([0, 15])))]
    pool = [(owner, v) for owner in (0, 1) for v in (0, 15) if (owner, v) not in pieces]
    pool += [(draw(st.integers(0, 1)), v) for v in range(1, 15) for _ in range(2)]
    rest = draw(st.permutations(pool), label="rest")
    pieces += rest[:count - 2]
    data = new_game(options, 2, 1).to_dict()
    data["pieces"] = sorted([cell, owner, value] for cell, (owner, value)
                            in zip(cells, pieces, strict=False))
    turn = draw(st.integers(0, 1), label="turn")
    data["turn"] = turn
    board = [0] * 64
    for cell, owner, value in data["pieces"]:
        board[CELL_BY_NAME[cell]] = code_of(owner, value)
    data["history"] = [[position_key(board, turn), 1]]
    try:
        return RithmomachiaState.from_dict(data)
    except StateError:  # the side to move happens to have no move
        assume(False)
        raise


@settings(max_examples=60, deadline=None)
@given(state=random_positions())
def test_random_positions_agree_with_the_reference(state: RithmomachiaState) -> None:
    seat = state.turn
    board = ref.board_of(state.to_dict())
    legal = state.legal_actions(seat)
    assert legal == ref.legal_moves(board, seat, state.push)
    assert menu_actions(state, seat) == legal
    ops = ref_ops(state)
    for action in legal:
        move = generate_moves(state.board, seat, state.push)[legal.index(action)]
        after, captured = make_move(state.board, move, seat, state.rules)
        expected, found = ref.play(board, action, seat, ops)
        assert {CELL_NAMES[c] for c in iter_cells(captured)} == set(found)
        assert {CELL_NAMES[c]: (owner_of(v), value_of(v))
                for c, v in enumerate(after) if v} == expected
    action = random.Random(len(legal)).choice(legal)
    events = state.apply(seat, action)
    check_move(state, action, events, board)
    check_outcome(state)


@settings(max_examples=60, deadline=None)
@given(state=random_positions())
def test_the_search_sees_what_the_reference_sees(state: RithmomachiaState) -> None:
    """The strong agent's shortcuts (occupancy masks, looking for captures only where they
    can happen, the Pyramid threat) find exactly the reference's captures."""
    seat = state.turn
    board = ref.board_of(state.to_dict())
    search = Search(state.rules, state.push, 100, None, None)
    masks = occupancy(state.board)
    scored = search.ordered(state.board, masks[seat], masks[1 - seat], seat, 0, 0)
    assert sorted(move_text(m) for m, _, _, _ in scored) == sorted(state.legal_actions(seat))
    threatened = False
    for move, captured, worth, taken in scored:
        action = move_text(move)
        after_move, _ = ref.moved(board, action)
        found = ref.equations(after_move, seat, action.split("-")[1], ref_ops(state))
        assert {CELL_NAMES[c] for c in iter_cells(captured)} == set(found)
        pyramids = sum(1 for cell in found if ref.shape(after_move[cell][1]) == "pyramid")
        assert taken == pyramids and (worth > 0) == bool(found)
        threatened = threatened or pyramids > 0
    assert search.pyramid_threatened(state.board, seat, masks[seat], masks[1 - seat]) == threatened
