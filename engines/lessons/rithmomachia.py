"""Boolean Rithmomachia's lesson on small positions of the standard rules (all six
equations, push on): how the shapes step, the three kinds of capture (NOT, compiling,
filtering) and taking the last Pyramid. The learner plays White (seat 0), to move."""

from __future__ import annotations

from engines.base import Action, Message
from engines.lessons import Lesson, LessonStep, accepted_where, after
from engines.rithmomachia import RithmomachiaState, new_game
from engines.rithmomachia.board import CELL_BY_NAME, CELLS, EMPTY, code_of, coords
from engines.rithmomachia.moves import position_key


def position(white: dict[str, int], black: dict[str, int]) -> RithmomachiaState:
    """White to move with these pieces (cell name: value) and no history before it."""
    data = new_game({}, 2, 0).to_dict()
    board = [EMPTY] * CELLS
    for owner, side in enumerate((white, black)):
        for cell, value in side.items():
            board[CELL_BY_NAME[cell]] = code_of(owner, value)
    pieces = [[cell, owner, value] for owner, side in enumerate((white, black))
              for cell, value in side.items()]
    data.update(pieces=pieces, history=[[position_key(board, 0), 1]])
    return RithmomachiaState.from_dict(data)


def capture_forms(state: RithmomachiaState, action: Action) -> set[str]:
    """How White's ``action`` captures: "not", "compiling" and/or "filtering"."""
    moved = after(state, [(0, action)])
    return {str(event["form"]) for event in moved.last_events if event["type"] == "capture"}


def is_triagonal(action: Action, source: str) -> bool:
    """Whether ``action`` moves the piece on ``source`` one step along all three axes."""
    start, _, rest = action.partition("-")
    if start != source or "-" in rest:
        return False
    before, now = coords(CELL_BY_NAME[start]), coords(CELL_BY_NAME[rest])
    return all(a != b for a, b in zip(before, now, strict=True))


def build() -> Lesson:
    stepping = position({"1d4": 0, "1b2": 0b0111}, {"4a1": 15, "4d4": 0b1000})
    by_not = position({"1a4": 0, "1b1": 0b0001}, {"4a1": 15, "2c3": 0b1110})
    compiling = position({"1a4": 0, "1b1": 0b0011, "3d4": 0b0101}, {"4a1": 15, "2c3": 0b0001})
    filtering = position({"1a4": 0, "1b1": 0b0011, "1d3": 0b0101}, {"4a1": 15, "2c4": 0b0001})
    last_pyramid = position({"1a1": 0, "1d4": 15, "1a4": 0b0110}, {"3b3": 15, "4d1": 0b1000})

    def capturing(state: RithmomachiaState, form: str) -> frozenset[Action]:
        return accepted_where(state, 0, lambda action: form in capture_forms(state, action))

    steps = (
        LessonStep(
            Message("lesson.rithmomachia.1",
                    "You are White. A piece steps to a neighbouring cell of the 4×4×4 field: "
                    "orthogonal (one of level, file and rank changes by one), diagonal "
                    "(exactly two change) or triagonal (all three change). The shape says "
                    "which: Circles step orthogonally or diagonally, Triangles diagonally or "
                    "triagonally, Squares orthogonally or triagonally, Pyramids any way. Move "
                    "your Square 0111 one triagonal step."),
            Message("lesson.rithmomachia.1.hint",
                    "A triagonal step changes the level, the file and the rank: from 1b2 the "
                    "Square goes up to level 2, one file and one rank over."),
            Message("lesson.rithmomachia.1.done",
                    "A triagonal step. The cells a piece could step to are the cells it "
                    "reaches: that is what captures are made of."),
            stepping, accepted_where(stepping, 0,
                                     lambda action: is_triagonal(action, "1b2"))),
        LessonStep(
            Message("lesson.rithmomachia.2",
                    "Captures happen by themselves after your move. The first kind is NOT: "
                    "when the piece you moved reaches an enemy piece whose value is its own "
                    "with every bit flipped, that piece is captured. NOT 0001 = 1110, so move "
                    "your Circle 0001 to reach Black's Square 1110 on 2c3."),
            Message("lesson.rithmomachia.2.hint",
                    "A Circle reaches the cells one orthogonal or diagonal step away: move it "
                    "to a cell from which 2c3 is such a step."),
            Message("lesson.rithmomachia.2.done",
                    "Captured: NOT 0001 = 1110. A captured piece turns over and is yours now; "
                    "a captured Pyramid is removed."),
            by_not, capturing(by_not, "not")),
        LessonStep(
            Message("lesson.rithmomachia.3",
                    "Compiling: the piece you moved and another of your pieces both reach an "
                    "enemy piece, and one of AND, OR, XOR, NAND or NOR of their values (bit by "
                    "bit) gives its value. 0011 AND 0101 = 0001, and your Triangle 0101 on 3d4 "
                    "already reaches Black's Circle 0001 on 2c3. Move your Triangle 0011 so "
                    "that it reaches the Circle too."),
            Message("lesson.rithmomachia.3.hint",
                    "A Triangle reaches the cells one diagonal or triagonal step away: move "
                    "0011 to a cell from which 2c3 is such a step."),
            Message("lesson.rithmomachia.3.done",
                    "Captured by compiling: 0011 AND 0101 = 0001, both reaching the target."),
            compiling, capturing(compiling, "compiling")),
        LessonStep(
            Message("lesson.rithmomachia.4",
                    "Filtering: the piece you moved reaches another of your pieces, and that "
                    "piece reaches an enemy piece whose value the two give with AND, OR, XOR, "
                    "NAND or NOR. Your Triangle 0101 on 1d3 reaches Black's Circle 0001 on "
                    "2c4, and 0011 AND 0101 = 0001. Move your Triangle 0011 so that it reaches "
                    "your 0101."),
            Message("lesson.rithmomachia.4.hint",
                    "Move 0011 to a cell from which 1d3 is one diagonal or triagonal step."),
            Message("lesson.rithmomachia.4.done",
                    "Captured by filtering: your 0011 reached your 0101, which reached the "
                    "target."),
            filtering, capturing(filtering, "filtering")),
        LessonStep(
            Message("lesson.rithmomachia.5",
                    "Pyramids are 0000 and 1111. A captured Pyramid is removed, and a side "
                    "with no Pyramid left ends the game. Then three victories are counted: "
                    "more Pyramids, more pieces, a higher sum of values; more victories wins. "
                    "Black's last Pyramid is 1111 on 3b3, and NOT 0000 = 1111: take it with "
                    "your Pyramid 0000."),
            Message("lesson.rithmomachia.5.hint",
                    "Your Pyramid 0000 on 1a1 steps any way: move it to a cell on level 2 from "
                    "which 3b3 is one step."),
            Message("lesson.rithmomachia.5.done",
                    "Black has no Pyramid left, so the game ends: you have more Pyramids, "
                    "more pieces and a higher sum of values, all three victories."),
            last_pyramid, capturing(last_pyramid, "not")),
    )
    return Lesson("rithmomachia", steps, Message(
        "lesson.rithmomachia.summary",
        "You know Boolean Rithmomachia: how each shape steps, the three captures (NOT, "
        "compiling, filtering), and the three victories counted at the end. Against the easy "
        "computer the board marks with ! your pieces it could take next; the teaching game "
        "(only NOT and NAND capture) lasts longer."))
