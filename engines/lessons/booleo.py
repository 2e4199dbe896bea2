"""bOOleO's lesson on a short game of 4 start cards (a pyramid of 6 gates): place a gate on
the first row, one on the second, break the teacher's pyramid with a NOT, cancel the
teacher's NOT, and win with the top gate. The learner plays South (seat 0), referee on."""

from __future__ import annotations

from collections import Counter

from engines.base import Action, Message
from engines.booleo import BooleoState, new_game
from engines.booleo.cards import NOT_CARD, deck_cards, sort_cards
from engines.lessons import Lesson, LessonStep, accepted_where, after, fixed

OPTIONS = {"bits": 4}
# The start cards as South reads them: South's slot bit is the last (1); North reads
# them reversed and flipped (0 1 0 0), so North's slot bit is 0.
START = [1, 1, 0, 1]
# South's gates, each valid on South's reading: row 1 on the start bits, row 2 on the
# outputs below (1 0 and 0 1).
SOUTH_ROW_1 = {"1.1": "AND1", "1.2": "AND0", "1.3": "OR1"}
SOUTH_ROWS_1_2 = {**SOUTH_ROW_1, "2.1": "XOR1", "2.2": "OR1"}
# The teacher's pyramid, one gate (XOR→0 on top) short of a win.
NORTH_ALMOST = {"1.1": "XOR1", "1.2": "OR1", "1.3": "AND0", "2.1": "AND1", "2.2": "XOR1"}


def position(south_hand: list[str], north_hand: list[str], south: dict[str, str],
             north: dict[str, str], turn: int = 0) -> BooleoState:
    """``turn``'s seat to move, having drawn (so holding 5 cards), the other holding 4; the
    rest of the deck is the draw pile, its NOTs at the bottom (so no one draws a NOT the
    lesson did not plan), no flip pending."""
    data = new_game(OPTIONS, 2, 0).to_dict()
    used = Counter(south_hand) + Counter(north_hand) + Counter(south.values()) \
        + Counter(north.values())
    rest = Counter(deck_cards(False)) - used
    data.update(start=list(START), nots=[0] * len(START),
                hands=[sort_cards(south_hand), sort_cards(north_hand)],
                draw=[NOT_CARD] * rest.pop(NOT_CARD, 0) + sort_cards(rest.elements()),
                discard=[], pyramids=[south, north],
                first=0, turn=turn, turns=8)
    return BooleoState.from_dict(data)


def breaks_only_the_teachers(state: BooleoState, action: Action) -> bool:
    """Whether South's NOT ``action`` would remove gates of North's pyramid and none of
    South's."""
    _, removes = after(state, [(0, action)]).resolved_pyramids()
    return bool(removes[1]) and not removes[0]


def build() -> Lesson:
    first_row = position(["AND1", "OR0", "OR1", "XOR0", "XOR1"], ["AND0", "OR0", "OR0", "XOR0"],
                         {}, {})
    second_row = position(["AND0", "OR0", "XOR1", "XOR1", "NOT"], ["AND0", "OR0", "OR0", "XOR0"],
                          dict(SOUTH_ROW_1), {})
    attack = position(["AND1", "OR0", "XOR0", "XOR1", "NOT"], ["AND1", "OR0", "OR0", "XOR1"],
                      {"1.1": "AND1"}, dict(NORTH_ALMOST))
    # The teacher has just played a NOT on start card 1 (its own position 4), which would
    # remove South's first gate and everything above it.
    attacked = after(position(["AND1", "OR0", "XOR1", "NOT"],
                              ["AND0", "OR0", "OR0", "XOR1", "NOT"],
                              dict(SOUTH_ROWS_1_2), {"1.1": "OR1"}, turn=1),
                     [(1, "NOT 4")])
    top = position(["AND1", "OR0", "XOR0", "XOR1", "NOT"], ["AND0", "OR0", "OR0", "XOR1"],
                   dict(SOUTH_ROWS_1_2), {"1.1": "OR1"})
    steps = (
        LessonStep(
            Message("lesson.booleo.1",
                    "You are South. Your pyramid stands on the start cards as you read them, "
                    "left to right. Each slot of row 1 takes the two start bits below it as "
                    "inputs. A gate card names a gate and the output it must give: AND→1 fits "
                    "only where both inputs are 1. Place your AND→1 card."),
            Message("lesson.booleo.1.hint",
                    "AND gives 1 only when both inputs are 1: choose AND→1, then the slot "
                    "whose inputs are 1 1."),
            Message("lesson.booleo.1.done",
                    "Placed: AND of 1 and 1 is 1, as the card says."),
            first_row, fixed("AND1 1.1")),
        LessonStep(
            Message("lesson.booleo.2",
                    "Row 1 is full. A slot of row 2 takes the outputs of the two gates below "
                    "it as inputs (the number printed on each card). Place your XOR→1 card on "
                    "row 2."),
            Message("lesson.booleo.2.hint",
                    "XOR gives 1 when its two inputs differ. Choose XOR→1 and a row-2 slot "
                    "whose inputs are 1 0 or 0 1."),
            Message("lesson.booleo.2.done",
                    "Right: the inputs differ, so XOR gives 1."),
            second_row, accepted_where(second_row, 0,
                                       lambda action: action.startswith("XOR1 2."))),
        LessonStep(
            Message("lesson.booleo.3",
                    "The teacher (North) needs only the top gate to win. A NOT flips one start "
                    "card, for both players. Unless the teacher cancels it, their next move "
                    "first removes every gate that no longer fits its inputs, in both "
                    "pyramids, with the gates above it. Play your NOT on a start card that "
                    "breaks the teacher's pyramid and leaves your gate standing."),
            Message("lesson.booleo.3.hint",
                    "Your gate on slot 1.1 stands on start cards 1 and 2, so flip card 3 or "
                    "4: the teacher's gates stand on the same cards, read from the other "
                    "side."),
            Message("lesson.booleo.3.done",
                    "Flipped. The teacher has no NOT to cancel it, so their next move lets the "
                    "flip stand: their gates that no longer fit are removed, with the gates "
                    "above them."),
            attack, accepted_where(attack, 0,
                                   lambda action: action.startswith("NOT ")
                                   and breaks_only_the_teachers(attack, action)),
            reply="discard OR0"),
        LessonStep(
            Message("lesson.booleo.4",
                    "Now the teacher has played a NOT on your start card 1: when you make any "
                    "other move, your gates that no longer fit are removed. The player after "
                    "a NOT may cancel it by playing a NOT on the same start card: the card "
                    "turns back and nothing is removed. Cancel the teacher's flip."),
            Message("lesson.booleo.4.hint",
                    "Choose your NOT, then start card 1 (the menu says \"cancel the flip\")."),
            Message("lesson.booleo.4.done",
                    "Cancelled: the start card is back as it was, both NOTs are discarded and "
                    "your pyramid stands."),
            attacked, fixed("NOT 1")),
        LessonStep(
            Message("lesson.booleo.5",
                    "One gate to go. The top gate must fit its inputs and also give your slot "
                    "bit: the last start card as you read it (here 1). Complete your pyramid "
                    "to win."),
            Message("lesson.booleo.5.hint",
                    "The top's inputs are 1 and 1, and it must give 1: which of your cards "
                    "gives 1 from 1 and 1?"),
            Message("lesson.booleo.5.done",
                    "Your pyramid is complete and valid, and its top gives your slot bit: you "
                    "win!"),
            top, fixed("AND1 3.1")),
    )
    return Lesson("booleo", steps, Message(
        "lesson.booleo.summary",
        "You know bOOleO: gates that fit their inputs, row by row; a top that gives your slot "
        "bit; NOTs that flip a start card for both players, and the NOT that cancels one."))
