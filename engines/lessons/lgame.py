"""The L-game's lesson: move the L, move a neutral piece, trap the other L with the L and
with a neutral piece, and look one move ahead. The learner plays X (seat 0)."""

from __future__ import annotations

from engines.base import Action, Message
from engines.lessons import Lesson, LessonStep, accepted_where
from engines.lgame import LGameState, new_game
from engines.lgame.board import l_moves


def position(x: str, o: str, neutrals: tuple[str, str]) -> LGameState:
    """X to move with the L's at ``x`` and ``o`` (placement codes) and the neutral pieces
    on ``neutrals``; no history, so no repetition counts from before the lesson."""
    data = new_game({}, 2, 0).to_dict()
    data.update(ls=[x, o], neutrals=list(neutrals), history=[])
    return LGameState.from_dict(data)


def moves_no_neutral(action: Action) -> bool:
    return " " not in action  # a neutral step follows the placement after a space


def moves_a_neutral(action: Action) -> bool:
    return " " in action


def traps(state: LGameState, action: Action) -> bool:
    """Whether X's ``action`` leaves O's L no place to go: it wins at once."""
    placement, neutrals = state._decode(0, action)
    return not l_moves(state.ls[1], placement, neutrals)


def is_safe(state: LGameState, action: Action) -> bool:
    """Whether after X's ``action`` no answer of O leaves X's L without a place: the
    check of one move ahead (every answer of O, then whether X could still move)."""
    placement, neutrals = state._decode(0, action)
    after_x = LGameState.from_dict(state.to_dict())
    after_x.ls, after_x.neutrals, after_x.turn = [placement, state.ls[1]], neutrals, 1
    for answer in after_x.legal_actions(1):
        o_placement, o_neutrals = after_x._decode(1, answer)
        if not l_moves(placement, o_placement, o_neutrals):
            return False
    return True


def build() -> Lesson:
    start = new_game({}, 2, 0)
    trap_with_l = position("a2ES", "d4WS", ("d2", "c3"))
    trap_with_neutral = position("a1EN", "d4SW", ("c2", "c3"))
    look_ahead = position("d2NW", "b1EN", ("c3", "b4"))
    steps = (
        LessonStep(
            Message("lesson.lgame.1",
                    "You are X (red in emoji boards). Each turn starts with moving your L: "
                    "lift it, turn or flip it if you like, and put it down where it fits. It "
                    "must cover at least one square it did not cover before, and may not "
                    "overlap the other L or a neutral piece. Move your L now, and then "
                    "choose to leave both neutral pieces where they are."),
            Message("lesson.lgame.1.hint",
                    "This time leave the neutral pieces alone: after your L, choose that "
                    "the neutrals stay."),
            Message("lesson.lgame.1.done",
                    "Your L moved. The teacher (O) moves their L too: that was a whole turn."),
            start, accepted_where(start, 0, moves_no_neutral), reply="a3SE"),
        LessonStep(
            Message("lesson.lgame.2",
                    "Back at the start. After moving your L you may also move one neutral "
                    "piece (N, a black dot in emoji boards) to any empty square. Move your "
                    "L, then move a neutral piece."),
            Message("lesson.lgame.2.hint",
                    "After your L, pick one of the neutral moves instead of keeping the "
                    "neutrals where they are."),
            Message("lesson.lgame.2.done",
                    "Well done. A neutral piece is a wall for both players: put it where it "
                    "hinders your opponent's L."),
            start, accepted_where(start, 0, moves_a_neutral)),
        LessonStep(
            Message("lesson.lgame.3",
                    "You lose when your L cannot move on your turn, so you win by leaving "
                    "the other L no place to go. Here one placement of your L traps O's L. "
                    "Find it."),
            Message("lesson.lgame.3.hint",
                    "O's L can still move along the top row, with its foot on a3 or on "
                    "b3. Cover both a3 and b3 with your L."),
            Message("lesson.lgame.3.done",
                    "Trapped! O's L has no place left to go, so you win."),
            trap_with_l, accepted_where(trap_with_l, 0,
                                        lambda action: traps(trap_with_l, action))),
        LessonStep(
            Message("lesson.lgame.4",
                    "Sometimes your L alone is not enough and a neutral piece must close "
                    "the last gap. Trap O's L again, this time with your L and a neutral "
                    "piece."),
            Message("lesson.lgame.4.hint",
                    "Find the one placement of your L that leaves O's L only places that "
                    "use d1, then block d1 with the neutral piece from c3."),
            Message("lesson.lgame.4.done",
                    "Trapped with the help of a neutral piece: you win."),
            trap_with_neutral, accepted_where(trap_with_neutral, 0,
                                              lambda action: traps(trap_with_neutral,
                                                                   action))),
        LessonStep(
            Message("lesson.lgame.5",
                    "Look one move ahead: after your move, could O move so that your L has "
                    "no place left? Here most moves allow exactly that. Choose a move that "
                    "keeps your L safe whatever O does."),
            Message("lesson.lgame.5.hint",
                    "After that move O could trap your L. Every safe move here ends with a "
                    "neutral piece on c2 or d2."),
            Message("lesson.lgame.5.done",
                    "Safe: whatever O does, your L will still have a place to go. Strong "
                    "players check this before every move."),
            look_ahead, accepted_where(look_ahead, 0,
                                       lambda action: is_safe(look_ahead, action))),
    )
    return Lesson("lgame", steps, Message(
        "lesson.lgame.summary",
        "You know the L-game: move your L, then maybe a neutral piece; trap the other L to "
        "win, and keep your own L a way out."))
