"""Digitalo's lesson on 4 bit cards (a pyramid of 6 gates, positions 1–6): place a NAND,
discard when nothing fits, break the teacher's gates with an inverter, counter the
teacher's inverter, and complete the pyramid to score the round. The learner plays South
(seat 0)."""

from __future__ import annotations

from collections import Counter

from engines.base import Action, Message
from engines.digitalo import DigitaloState, new_game
from engines.digitalo.cards import INVERTER, deck_cards, sort_cards
from engines.lessons import Lesson, LessonStep, accepted_where, after

# The bit cards as South reads them; North reads them reversed and flipped (0 1 0 0).
BITS = [1, 1, 0, 1]


def position(south_hand: list[str], north_hand: list[str], south: dict[int, str],
             north: dict[int, str], *, starter: int = 0, moves: tuple[int, int] = (3, 3),
             turn: int = 0) -> DigitaloState:
    """Round 1 with these hands (4 cards each) and pyramids (position: card); the rest of
    the deck is the draw pile, its inverters at the bottom (so no one draws one the
    lesson did not plan)."""
    data = new_game({}, 2, 0).to_dict()
    used = Counter(south_hand) + Counter(north_hand) + Counter(south.values()) \
        + Counter(north.values())
    rest = Counter(deck_cards(data["options"])) - used
    data.update(bits=list(BITS), hands=[sort_cards(south_hand), sort_cards(north_hand)],
                draw=[INVERTER] * rest.pop(INVERTER, 0) + sort_cards(rest.elements()),
                discard=[], pyramids=[{str(k): v for k, v in p.items()} for p in (south, north)],
                first=starter, starter=starter, moves=list(moves), turn=turn)
    return DigitaloState.from_dict(data)


def breaks_only_the_teachers(state: DigitaloState, action: Action) -> bool:
    """Whether South's inverter ``action`` would discard gates of North's pyramid and none
    of South's."""
    _, removed = after(state, [(0, action)]).resolved_pyramids()
    return bool(removed[1]) and not removed[0]


def build() -> Lesson:
    nand = position(["AND0", "NAND0", "OR0", "XOR0"], ["AND1", "OR1", "XOR0", "XOR1"], {}, {})
    stuck = position(["AND1", "INV", "OR0", "XOR0"], ["AND1", "OR1", "XOR0", "XOR1"],
                     {1: "XOR0"}, {})
    attack = position(["AND1", "INV", "OR1", "XOR0"], ["AND1", "OR1", "XOR0", "XOR1"],
                      {1: "XOR0"}, {2: "XOR1", 3: "OR0", 5: "NAND1"})
    # The teacher, who started the round, has just played an inverter on the bit card
    # South calls 1, under South's gates on positions 1 and 4.
    attacked = after(position(["AND1", "INV", "OR1", "XOR0"], ["AND1", "INV", "OR1", "XOR0"],
                              {1: "XOR0", 2: "AND0", 4: "OR0"}, {3: "OR0"}, starter=1,
                              turn=1), [(1, "INV 4")])
    last_gate = position(["AND1", "INV", "NAND1", "XOR0"], ["AND1", "OR1", "XOR0", "XOR1"],
                         {1: "XOR0", 2: "AND0", 3: "XOR1", 4: "OR0", 5: "OR1"}, {3: "OR0"},
                         starter=1, moves=(5, 6))
    steps = (
        LessonStep(
            Message("lesson.digitalo.1",
                    "You are South. Your pyramid stands on the bit cards as you read them: "
                    "positions 1–3 take two bits each, 4 and 5 the outputs of two gates, 6 is "
                    "the top. A gate card fits only where its gate of the two inputs gives "
                    "the output printed on it. NAND gives 0 only when both inputs are 1: "
                    "place your NAND→0."),
            Message("lesson.digitalo.1.hint",
                    "Choose NAND→0, then the position whose inputs are 1 1."),
            Message("lesson.digitalo.1.done",
                    "Placed: NAND of 1 and 1 is 0. After each action you draw a card, so you "
                    "keep 4."),
            nand, frozenset({"NAND0 1"})),
        LessonStep(
            Message("lesson.digitalo.2",
                    "You may discard a card only when none of your cards can be placed. None "
                    "of your gates fits now: keep your inverter for later and discard a gate "
                    "card."),
            Message("lesson.digitalo.2.hint",
                    "Choose one of your gate cards, then \"Discard\"."),
            Message("lesson.digitalo.2.done",
                    "Discarded, and you draw a new card."),
            stuck, accepted_where(stuck, 0, lambda action: action.startswith("discard ")
                                  and INVERTER not in action)),
        LessonStep(
            Message("lesson.digitalo.3",
                    "An inverter flips one bit card, for both players. Unless the teacher "
                    "counters it, before their next action every first-row gate that no "
                    "longer fits is discarded, and a gate that lost one input becomes "
                    "inactive (~): nothing may be placed above it until the input is back. "
                    "Play your inverter on a bit card that breaks the teacher's gates and not "
                    "yours."),
            Message("lesson.digitalo.3.hint",
                    "Your gate on position 1 stands on your bit cards 1 and 2, so leave "
                    "those; of cards 3 and 4, one lies under the teacher's gates."),
            Message("lesson.digitalo.3.done",
                    "Flipped. If the teacher does not counter it, their gate on their "
                    "position 2 is discarded and the gate above it becomes inactive."),
            attack, accepted_where(attack, 0,
                                   lambda action: action.startswith(f"{INVERTER} ")
                                   and breaks_only_the_teachers(attack, action))),
        LessonStep(
            Message("lesson.digitalo.4",
                    "Now the teacher has played an inverter on your bit card 1, under your "
                    "gates. Your very next action may be a counter with your own inverter: "
                    "the flip is undone, both inverters are discarded, and the teacher takes "
                    "their turn again. Counter it."),
            Message("lesson.digitalo.4.hint",
                    "Choose your inverter, then \"1: undo the flip\"."),
            Message("lesson.digitalo.4.done",
                    "Countered: the bit card is back and your gates stand."),
            attacked, frozenset({"counter"})),
        LessonStep(
            Message("lesson.digitalo.5",
                    "A round ends when a player places the last gate of their pyramid and "
                    "all its gates are active (the other player first gets one last move if "
                    "they have moved once less; here they have not). Then the one who "
                    "completed scores a point for each empty or inactive slot of the other "
                    "pyramid. Complete your pyramid."),
            Message("lesson.digitalo.5.hint",
                    "The top's inputs are 0 and 1: which of your gates gives its printed "
                    "output from 0 and 1?"),
            Message("lesson.digitalo.5.done",
                    "Round won: the teacher's pyramid has 5 empty slots, so you score 5, "
                    "written 101 in binary. The first to reach 1000 (8) wins the match."),
            last_gate, frozenset({"NAND1 6"})),
    )
    return Lesson("digitalo", steps, Message(
        "lesson.digitalo.summary",
        "You know Digitalo: gates that give their printed output, discarding only when "
        "nothing fits, inverters and the counter, and a round scored in binary by the empty "
        "or inactive slots of the other pyramid."))
