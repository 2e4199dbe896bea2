"""A computer player for Turing Machine, for self-play and tests.

It reads only its own view, as a person would: the shown cards and its own results. It
keeps the valid assignments that agree with them. ``easy`` proposes a random code still
possible and tests random verifiers; ``strong`` asks the machine for the worst-case best
step.
"""

from __future__ import annotations

from engines.base import Action, Agent, GameState
from engines.turing.cards import code_text
from engines.turing.puzzle import Candidate
from engines.turing.rules import parse_code
from engines.turing.state import TuringState


def consistent(state: TuringState, seat: int) -> list[Candidate]:
    """The candidates that agree with every result on ``seat``'s sheet."""
    letters = state.puzzle.letters
    results = [(parse_code(r["proposal"]), letters.index(letter), answer)
               for r in state.sheets[seat].rounds if r["proposal"]
               for letter, answer in r["tests"]]
    return [candidate for candidate in state.candidates()
            if all(candidate.criteria[index].accepts(code) == answer
                   for code, index, answer in results)]


class TuringAgent(Agent):
    def choose(self, state: GameState, player: int) -> Action:
        assert isinstance(state, TuringState)
        remaining = consistent(state, player)
        codes = sorted({candidate.code for candidate in remaining})
        if len(codes) == 1:
            return f"guess {code_text(codes[0])}"
        sheet = state.sheets[player]
        if self.level == "strong":
            from engines.turing.machine import next_step
            proposal = sheet.current["proposal"]
            letters = state.puzzle.letters
            step = next_step(remaining, parse_code(proposal) if proposal else None,
                             [letters.index(letter) for letter, _ in sheet.current["tests"]],
                             sheet.tests_left(state.round))
            return "next" if step.kind == "end_round" else step.text()
        if sheet.current["proposal"] is None:
            return f"propose {code_text(self.rng.choice(codes))}"
        tested = {letter for letter, _ in sheet.current["tests"]}
        untested = [letter for letter in state.puzzle.letters if letter not in tested]
        if untested and sheet.tests_left(state.round) > 0:
            return f"test {self.rng.choice(untested)}"
        return "next"
