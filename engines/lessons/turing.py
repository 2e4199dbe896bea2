"""The Turing Machine's lesson, solo on one fixed easy puzzle: the code and the verifiers'
criteria, a proposal, a test and what its answer means, the end of a round, and the final
guess from the notes of two rounds. The learner is the only seat (0)."""

from __future__ import annotations

from engines.base import Message
from engines.lessons import Lesson, LessonStep, accepted_where, after, fixed
from engines.turing.puzzle import Puzzle
from engines.turing.state import TuringState

# Card 6 (■ even | ■ odd), card 12 (▲ < ● | ▲ = ● | ▲ > ●), card 14 (which digit is the
# smallest) and card 10 (how many 4s); the secret criteria are ■ even, ▲ < ●, ■ smallest
# and no 4, so the code is 325. Spelled out rather than generated, so that the texts below
# stay true whatever the generator makes of a seed.
PUZZLE = {"mode": "classic", "verifiers": [[6], [12], [14], [10]],
          "secret": ["6.0", "12.0", "14.1", "10.0"]}
ROUND_1 = [(0, "propose 241"), (0, "test A"), (0, "test B"), (0, "test D")]
ROUND_2 = [(0, "next"), (0, "propose 315"), (0, "test B"), (0, "test C"), (0, "test D"),
           (0, "next")]


def build() -> Lesson:
    start = TuringState({}, 1, 0, Puzzle.from_dict(PUZZLE), None)
    proposed = after(start, ROUND_1[:1])
    tested_a = after(start, ROUND_1[:2])
    three_tests = after(start, ROUND_1)
    two_rounds = after(start, ROUND_1 + ROUND_2)
    steps = (
        LessonStep(
            Message("lesson.turing.1",
                    "The machine hides a code of three digits from 1 to 5: ▲ (blue triangle), "
                    "■ (yellow square) and ● (purple circle). Each verifier, A to D, shows a "
                    "card of criteria and secretly checks exactly one of them. A round "
                    "starts with your proposal, a code you will test. Choose any proposal."),
            Message("lesson.turing.1.hint",
                    "Tap a key of the pad for ▲ and ■, then a digit for ●."),
            Message("lesson.turing.1.done",
                    "That is your proposal for this round: it stays the same for every test "
                    "of the round."),
            start, accepted_where(start, 0, lambda action: action.startswith("propose "))),
        LessonStep(
            Message("lesson.turing.2",
                    "Your proposal is 241: ▲2 ■4 ●1. Verifier A's card 6 reads \"■ even | ■ "
                    "odd\": A checks one of the two. Test your proposal on A: it answers ✅ "
                    "when the proposal meets A's secret criterion, ❌ when not."),
            Message("lesson.turing.2.hint", "Choose \"Test A\"."),
            Message("lesson.turing.2.done",
                    "A answered ✅. Your ■ is 4, which is even, so A checks \"■ even\": the "
                    "code's ■ is 2 or 4."),
            proposed, fixed("test A")),
        LessonStep(
            Message("lesson.turing.3",
                    "One proposal may be tested on up to 3 verifiers in a round. Card 12 on "
                    "B compares ▲ with ●; in 241, ▲2 is more than ●1. Test B."),
            Message("lesson.turing.3.hint", "Choose \"Test B\"."),
            Message("lesson.turing.3.done",
                    "B answered ❌: B does not check \"▲ > ●\", so in the code ▲ is less than "
                    "or equal to ●."),
            tested_a, fixed("test B")),
        LessonStep(
            Message("lesson.turing.4",
                    "You also tested D, whose card 10 counts the 4s in the code: 241 has one "
                    "4, and D answered ❌, so the code does not have exactly one 4. That was "
                    "your third test, the most a round allows. End the round: the next one "
                    "starts with a new proposal. Fewer tests make a better score."),
            Message("lesson.turing.4.hint",
                    "Choose \"End round\"; guess only when you are sure, as a wrong guess "
                    "ends your game."),
            Message("lesson.turing.4.done", "Round 1 is over; round 2 begins."),
            three_tests, fixed("next")),
        LessonStep(
            Message("lesson.turing.5",
                    "Round 2 is played too: with 315, B, C and D all answered ✅. So ▲ < ● "
                    "(B), ■ is the smallest digit (C) and the code has no 4 (D); from round 1, "
                    "■ is even (A). Only one code fits all of that: guess it."),
            Message("lesson.turing.5.hint",
                    "■ is even and not 4, so ■ is 2; ▲ and ● are bigger than 2 and not 4, "
                    "and ▲ < ●."),
            Message("lesson.turing.5.done",
                    "Right, the code is 325! Your score is the rounds you played and the "
                    "tests you used; in solo games the machine's score is the one to beat."),
            two_rounds, fixed("guess 325")),
    )
    return Lesson("turing", steps, Message(
        "lesson.turing.summary",
        "You know the Turing Machine: a proposal a round, up to 3 tests of it, what each ✅ and "
        "❌ rules out, and a guess once only one code fits. Try a puzzle of your own with "
        "/puzzle."))
