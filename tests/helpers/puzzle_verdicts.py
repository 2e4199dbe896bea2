"""The verdicts of a board game's puzzle checked by the game's own rules (the L-game's and
Boolean Rithmomachia's puzzle tests)."""

from __future__ import annotations

from engines.puzzles import Puzzle, Verdict, judge_answer


def checked_verdicts(puzzle: Puzzle, legal: list[str], key_prefix: str,
                     wins: bool) -> list[Verdict]:
    """The verdicts on the first two accepted answers and the first three refused moves:
    each right iff accepted, its reason's key under ``key_prefix``, its line starting with
    the move and legal move after move; after a right answer of a puzzle that ``wins``,
    the line ends in the solver's win."""
    refused = [action for action in legal if action not in puzzle.accepted]
    verdicts = []
    for action in (*puzzle.accepted[:2], *refused[:3]):
        verdict = judge_answer(puzzle, action)
        assert verdict.correct == (action in puzzle.accepted)
        assert verdict.reason.key.startswith(key_prefix)
        assert verdict.line[0] == action
        state = puzzle.position()
        for move in verdict.line:  # the line is legal, move after move
            (seat,) = state.to_move()
            state.apply(seat, move)
        if verdict.correct and wins:
            outcome = state.outcome()
            assert outcome is not None and outcome.winners == (puzzle.seat,)
        verdicts.append(verdict)
    return verdicts
