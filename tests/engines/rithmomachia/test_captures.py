"""Boolean Rithmomachia captures: every example of the seed (NOT, and the five two-piece
equations by compiling and by filtering), removal and flipping, captures that do not chain,
pushes, the ``ops`` option, and perft counts of moves and captures against the plain
reference in ``tests/helpers/rithmomachia_reference.py``.

Small positions are built with ``position(...)`` from ``tests/helpers/rithmomachia_positions.py``:
pieces written out as ``{"2c1": (owner, value)}``, loaded through ``from_dict``. Each side also
gets a guard Pyramid far from the action (White's 1111 on 1a4, Black's 0000 on 4a4) so that
the game is not over; the scenes are played in levels 1–3, files c–d, ranks 1–2, where no
guard can reach nor be reached. What a test reads off a state (its pieces, the captures among
the events, a refusal that changes nothing) is in ``tests/helpers/rithmomachia_checks.py``.
"""

from __future__ import annotations

import pytest

from engines.base import InvalidMove
from engines.rithmomachia import RithmomachiaState, new_game
from engines.rithmomachia.board import bits, standard_board
from engines.rithmomachia.equations import OPS, Rules, rules_for
from engines.rithmomachia.moves import counts, generate_moves, make_move
from tests.helpers import rithmomachia_reference as ref
from tests.helpers.refusals import refusal
from tests.helpers.rithmomachia_checks import captures, pieces_of
from tests.helpers.rithmomachia_positions import BLACK, WHITE, Pieces, position


def step(a: str, b: str) -> int:
    """How many coordinates change between neighbouring cells, by the reference."""
    for kinds in (1, 2, 3):
        if b in ref.neighbours(a, frozenset({kinds})):
            return kinds
    return 0


# --- NOT: the seed's examples ---------------------------------------------------------------

@pytest.mark.parametrize(("source", "dest", "kind", "taken"), [
    ("3d1", "2d1", 1, True),    # orthogonal
    ("3d2", "2d2", 2, True),    # diagonal
    ("1d1", "1d2", 3, False),   # triagonal: a Circle does not step so
])
def test_circle_0001_takes_square_1110_orthogonally_or_diagonally(
        source: str, dest: str, kind: int, taken: bool) -> None:
    state = position({source: (WHITE, 0b0001), "2c1": (BLACK, 0b1110)})
    assert step(dest, "2c1") == kind
    events = state.apply(WHITE, f"{source}-{dest}")
    assert ("2c1" in captures(events)) is taken
    assert pieces_of(state)["2c1"] == ((WHITE if taken else BLACK), 0b1110)
    if taken:
        capture = captures(events)["2c1"]
        assert capture["equation"] == "NOT 0001 = 1110" and capture["form"] == "not"
        assert capture["flipped"] and not capture["removed"] and capture["owner"] == BLACK


@pytest.mark.parametrize(("source", "dest", "kind", "taken"), [
    ("3c2", "2d2", 2, True),    # diagonal
    ("2c2", "1d2", 3, True),    # triagonal
    ("3d2", "2d1", 1, False),   # orthogonal: a Triangle does not step so
])
def test_triangle_0110_takes_triangle_1001_diagonally_or_triagonally(
        source: str, dest: str, kind: int, taken: bool) -> None:
    state = position({source: (WHITE, 0b0110), "2c1": (BLACK, 0b1001)})
    assert step(dest, "2c1") == kind
    events = state.apply(WHITE, f"{source}-{dest}")
    assert ("2c1" in captures(events)) is taken
    if taken:
        assert captures(events)["2c1"]["equation"] == "NOT 0110 = 1001"


def test_the_square_takes_the_circle_by_its_own_steps() -> None:
    state = position({"3d1": (BLACK, 0b1110), "2c1": (WHITE, 0b0001)}, turn=BLACK)
    assert "2c1" in captures(state.apply(BLACK, "3d1-2d1"))  # orthogonal
    state = position({"3d2": (BLACK, 0b1110), "2c1": (WHITE, 0b0001)}, turn=BLACK)
    assert "2c1" not in captures(state.apply(BLACK, "3d2-2d2"))  # diagonal


# --- the two-piece equations: X = Circle 0100, Y = Triangle 1100 ----------------------------

SEED_EQUATIONS = [("AND", 0b0100), ("OR", 0b1100), ("XOR", 0b1000), ("NAND", 0b1011),
                  ("NOR", 0b0011)]
# Compiling: X (3d1-2d1) and Y (3c2) both reach the target on 2c1; X does not reach Y.
COMPILING = ("3d1-2d1", {"3d1": (WHITE, 0b0100), "3c2": (WHITE, 0b1100)}, "2c1", "3c2")
# Filtering: X (3d1-3d2) reaches Y (2d2), which reaches the target on 1c1; X does not.
FILTERING = ("3d1-3d2", {"3d1": (WHITE, 0b0100), "2d2": (WHITE, 0b1100)}, "1c1", "2d2")


@pytest.mark.parametrize("scene", [COMPILING, FILTERING], ids=["compiling", "filtering"])
@pytest.mark.parametrize(("op", "target_value"), SEED_EQUATIONS)
def test_the_seed_equations(scene: tuple[str, Pieces, str, str], op: str,
                            target_value: int) -> None:
    action, pieces, target, helper = scene
    form = "compiling" if scene is COMPILING else "filtering"
    state = position({**pieces, target: (BLACK, target_value)})
    found = captures(state.apply(WHITE, action))
    assert list(found) == [target]
    equations = {(e["form"], e["op"], e["equation"]) for e in found[target]["equations"]}
    assert (form, op, f"0100 {op} 1100 = {bits(target_value)}") in equations
    if op == "NAND" and form == "compiling":  # X reaches the target, and NOT 0100 = 1011
        assert ("not", "NOT", "NOT 0100 = 1011") in equations
    else:
        assert len(equations) == 1
    operands = next(e for e in found[target]["equations"] if e["op"] == op)["operands"]
    assert operands == [{"cell": action[-3:], "value": 0b0100, "bits": "0100"},
                        {"cell": helper, "value": 0b1100, "bits": "1100"}]
    assert pieces_of(state)[target] == (WHITE, target_value)
    # Only this equation enabled: still taken; everything but it: left alone.
    alone = position({**pieces, target: (BLACK, target_value)}, ops=op.lower())
    assert target in captures(alone.apply(WHITE, action))
    others = ",".join(o for o in OPS if o not in (op.lower(), "not"))
    without = position({**pieces, target: (BLACK, target_value)}, ops=others)
    assert captures(without.apply(WHITE, action)) == {}


def test_y_must_be_the_movers_own_piece() -> None:
    action, pieces, target, helper = COMPILING
    state = position({**pieces, helper: (BLACK, 0b1100), target: (BLACK, 0b0100)})
    assert captures(state.apply(WHITE, action)) == {}


def test_several_targets_are_taken_at_once_and_not_chained() -> None:
    # X 0001 takes the Square 1110 by NOT. Flipped, that Square would make 0001 OR 1110 = 1111
    # with X against Black's Pyramid on 1d1, which both reach: captures do not chain.
    state = position({"3c1": (WHITE, 0b0001), "2d1": (BLACK, 0b1110), "1d1": (BLACK, 0b1111),
                      "1c2": (BLACK, 0b1110)})
    found = captures(state.apply(WHITE, "3c1-2c1"))
    assert sorted(found) == ["1c2", "2d1"]  # both NOT 0001 = 1110, at once
    assert pieces_of(state)["1d1"] == (BLACK, 0b1111)


def test_a_captured_pyramid_is_removed_and_others_flip() -> None:
    # White's Pyramid 1111 takes Black's Pyramid 0000 by NOT; with Y = 0101 (reaching 1c1)
    # 1111 XOR 0101 = 1010 flips Black's 1010 on 1c1.
    state = position({"3d1": (WHITE, 0b1111), "2c2": (WHITE, 0b0101), "2c1": (BLACK, 0b0000),
                      "1c1": (BLACK, 0b1010), "4a4": (BLACK, 0b1111)}, guards=False)
    events = state.apply(WHITE, "3d1-2d1")
    found = captures(events)
    assert found["2c1"]["removed"] and not found["2c1"]["flipped"]
    assert found["2c1"]["shape"] == "pyramid"
    assert found["1c1"]["flipped"] and not found["1c1"]["removed"]
    after = pieces_of(state)
    assert "2c1" not in after and after["1c1"] == (WHITE, 0b1010)
    assert state.outcome() is None  # Black still has its 1111
    assert state.view(None)["counts"][BLACK] == {"pyramids": 1, "pieces": 1, "value": 15}


# --- pushes ---------------------------------------------------------------------------------

def test_a_pyramid_pushes_a_piece_of_either_side_where_the_mover_chooses() -> None:
    state = position({"3d1": (WHITE, 0b0000), "2d1": (BLACK, 0b0010), "2c2": (WHITE, 0b0110)},
                     ops="not")
    pushes = [a for a in state.legal_actions(WHITE) if a.startswith("3d1-2d1-")]
    expected = {c for c in ref.neighbours("2d1", ref.STEPS["pyramid"])
                if c not in ("2c2",)}
    assert {a[-3:] for a in pushes} == expected and "3d1-2d1-3d1" in pushes
    events = state.apply(WHITE, "3d1-2d1-1d1")
    moved = events[0]
    assert moved["push"] == {"from": "2d1", "to": "1d1", "value": 2, "bits": "0010",
                             "shape": "circle", "owner": BLACK}
    assert pieces_of(state)["1d1"] == (BLACK, 0b0010)  # a push changes no owner
    assert pieces_of(state)["2d1"] == (WHITE, 0b0000)


def test_the_pushed_piece_may_take_the_pyramids_old_cell() -> None:
    state = position({"3d1": (WHITE, 0b0000), "2d1": (WHITE, 0b0010)})
    state.apply(WHITE, "3d1-2d1-3d1")
    assert pieces_of(state)["3d1"] == (WHITE, 0b0010)
    assert pieces_of(state)["2d1"] == (WHITE, 0b0000)


def test_the_pushed_piece_serves_as_y_and_as_target() -> None:
    # White's Pyramid 0000 lands on its own 1010 and pushes it to 1d1; there it reaches
    # Black's 1010 on 1c2 by a triagonal step: 0000 XOR 1010 = 1010 by filtering.
    state = position({"3d2": (WHITE, 0b0000), "2d2": (WHITE, 0b1010), "1c2": (BLACK, 0b1010)},
                     ops="xor")
    found = captures(state.apply(WHITE, "3d2-2d2-1d1"))
    assert {(e["form"], e["operands"][1]["cell"]) for e in found["1c2"]["equations"]} == {
        ("compiling", "1d1"), ("filtering", "1d1")}
    # Black's 0101 is pushed from 2d1 to 1d1, next to White's 0101 on 2c2 (a triagonal
    # step): 0000 XOR 0101 = 0101 by compiling, the target on its new cell.
    state = position({"3d1": (WHITE, 0b0000), "2c2": (WHITE, 0b0101), "2d1": (BLACK, 0b0101)},
                     ops="xor")
    found = captures(state.apply(WHITE, "3d1-2d1-1d1"))
    assert list(found) == ["1d1"] and pieces_of(state)["1d1"] == (WHITE, 0b0101)


def test_pushing_can_be_switched_off() -> None:
    state = position({"3d1": (WHITE, 0b0000), "2d1": (BLACK, 0b0010)}, push=False)
    assert not [a for a in state.legal_actions(WHITE) if a.count("-") == 2]
    assert "3d1-2d1" not in state.legal_actions(WHITE)
    assert refusal(state, WHITE, "3d1-2d1-1d1").key == "rithmomachia.error.push_off"


def test_push_refusals() -> None:
    state = position({"3d1": (WHITE, 0b0000), "2d1": (BLACK, 0b0010), "3c1": (WHITE, 0b0001),
                      "3c2": (WHITE, 0b0110)})
    assert refusal(state, WHITE, "3c1-2d1").key == "rithmomachia.error.occupied"
    error = refusal(state, WHITE, "3d1-2d1")
    assert error.key == "rithmomachia.error.push_where" and "3d1" in str(error)
    assert refusal(state, WHITE, "3d1-2d1-3c2").key == "rithmomachia.error.bad_push"
    assert refusal(state, WHITE, "3d1-2d1-1b1").key == "rithmomachia.error.bad_push"
    assert refusal(state, WHITE, "3d1-3d2-2d2").key == "rithmomachia.error.nothing_to_push"


# --- the ops option -------------------------------------------------------------------------

def test_ops_option_is_a_validated_non_empty_subset() -> None:
    assert new_game({}, 2, 1).options["ops"] == "not,and,or,xor,nand,nor"
    assert new_game({"ops": "NAND not"}, 2, 1).options["ops"] == "not,nand"
    assert new_game({"ops": "or+xor+nor"}, 2, 1).options["ops"] == "or,xor,nor"
    assert new_game({"ops": "all"}, 2, 1).options["ops"] == ",".join(OPS)
    for bad in ("", " , ", "and,nope", "not,all"):
        with pytest.raises(InvalidMove) as caught:
            new_game({"ops": bad}, 2, 1)
        assert caught.value.key == "rithmomachia.error.ops"
    assert new_game({"ops": "not,nand"}, 2, 1).view(None)["ops"] == ["NOT", "NAND"]


def test_not_off_means_no_not_capture() -> None:
    state = position({"3d1": (WHITE, 0b0001), "2c1": (BLACK, 0b1110)}, ops="and,or")
    assert captures(state.apply(WHITE, "3d1-2d1")) == {}


# --- perft: the engine against the reference ------------------------------------------------

def engine_perft(state: RithmomachiaState, depth: int) -> tuple[int, int]:
    """Move sequences and how many last plies capture, through the public API."""
    player = state.turn
    actions = state.legal_actions(player)
    if depth == 1:
        taking = 0
        for action in actions:
            child = RithmomachiaState.from_dict(state.to_dict())
            taking += any(e["type"] == "capture" for e in child.apply(player, action))
        return len(actions), taking
    total = taking = 0
    for action in actions:
        child = RithmomachiaState.from_dict(state.to_dict())
        child.apply(player, action)
        if child.outcome() is None:
            count, caps = engine_perft(child, depth - 1)
            total += count
            taking += caps
    return total, taking


def fast_perft(board: list[int], player: int, depth: int, push: bool,
               rules: Rules) -> tuple[int, int]:
    moves = generate_moves(board, player, push)
    if depth == 1:
        return len(moves), sum(1 for m in moves if make_move(board, m, player, rules)[1])
    total = taking = 0
    for move in moves:
        after = make_move(board, move, player, rules)[0]
        if all(side["pyramids"] for side in counts(after)):
            count, caps = fast_perft(after, 1 - player, depth - 1, push, rules)
            total += count
            taking += caps
    return total, taking


PERFT = {  # (push, depth): (move sequences, last plies that capture)
    (True, 1): (204, 0), (True, 2): (41616, 3312), (True, 3): (8147552, 1176395),
    (False, 1): (78, 0), (False, 2): (6084, 186), (False, 3): (496030, 48221),
}


@pytest.mark.parametrize("push", [True, False], ids=["push", "no_push"])
def test_perft_from_the_standard_setup(push: bool) -> None:
    state = new_game({"push": push}, 2, 1)
    board = ref.standard_board()
    assert len(state.legal_actions(WHITE)) == PERFT[(push, 1)][0]
    assert sorted(state.legal_actions(WHITE)) == sorted(ref.legal_moves(board, WHITE, push))
    # Depth 2 move counts through the public API and the reference.
    total = 0
    for action in state.legal_actions(WHITE):
        child = RithmomachiaState.from_dict(state.to_dict())
        child.apply(WHITE, action)
        after, _ = ref.play(board, action, WHITE, ref.ALL_OPS)
        assert pieces_of(child) == after
        assert sorted(child.legal_actions(BLACK)) == sorted(ref.legal_moves(after, BLACK, push))
        total += len(child.legal_actions(BLACK))
    assert total == PERFT[(push, 2)][0]
    rules = rules_for(OPS)
    for depth in (1, 2):
        assert fast_perft(standard_board(), WHITE, depth, push, rules) == PERFT[(push, depth)]
    if not push:  # the reference's capture count is quick enough without pushes
        assert ref.perft(board, WHITE, 2, push) == PERFT[(push, 2)]
        assert engine_perft(state, 2) == PERFT[(push, 2)]


@pytest.mark.slow
def test_perft_captures_with_push_agree_with_the_reference() -> None:
    assert ref.perft(ref.standard_board(), WHITE, 2, True) == PERFT[(True, 2)]


@pytest.mark.slow
@pytest.mark.parametrize("push", [True, False], ids=["push", "no_push"])
def test_perft_depth_3(push: bool) -> None:
    rules = rules_for(OPS)
    assert fast_perft(standard_board(), WHITE, 3, push, rules) == PERFT[(push, 3)]
    if not push:
        assert ref.perft(ref.standard_board(), WHITE, 3, push) == PERFT[(push, 3)]
