"""The Turing Machine's view: the puzzle's public side, every sheet's public part, and a
seat's own sheet; the solution and the machine's play once the game is over. A function of
the rules' state; ``TuringState.view`` calls ``view``."""

from __future__ import annotations

from engines.base import JSON
from engines.turing.cards import code_text
from engines.turing.rules import NAME, Sheet, TuringRules


def view(state: TuringRules, player: int | None) -> JSON:
    """What ``player`` (or the public, for None) sees (``GameState.view``)."""
    over = state._outcome is not None
    puzzle = state.puzzle
    view: JSON = {
        "game": NAME, "mode": puzzle.mode, "letters": puzzle.letters,
        "verifiers": [None if puzzle.mode == "nightmare" else list(cards)
                      for cards in puzzle.verifiers],
        "shown_cards": list(puzzle.shown_cards), "difficulty": puzzle.difficulty,
        # The code names the secret: shown only once the game is over.
        "share_code": puzzle.share_code() if over else "",
        "from_code": bool(state.options["puzzle"]),
        "daily": state.options["daily"], "round": state.round, "assist": state.options["assist"],
        "players": [_public_sheet(sheet, over) for sheet in state.sheets],
        "outcome": state._outcome.to_dict() if state._outcome else None,
    }
    if not over and state.players == 1 and state.machine:
        # Solo, the player plays against the machine's par: they see it from the start.
        view["par"] = list(state.machine["par"]["score"])
    if over:
        view["solution"] = {"code": code_text(puzzle.code), "criteria": list(puzzle.secret),
                            "verifiers": [list(cards) for cards in puzzle.verifiers]}
        view["guesses"] = [sheet.guess for sheet in state.sheets]
        view["scores"] = [list(state.score(seat)) for seat in range(state.players)]
        view["machine"] = state.machine
        view["sheets"] = [sheet.rounds for sheet in state.sheets]
    if player is not None and 0 <= player < state.players:
        sheet = state.sheets[player]
        view["me"] = player
        view["sheet"] = sheet.rounds
        view["my_guess"] = sheet.guess
        view["tests_left"] = sheet.tests_left(state.round) if not sheet.ended else 0
        view["handicap"] = sheet.handicap
        if state.options["assist"] and not over:
            view["possible"] = state.possible_criteria(player)
    return view


def _public_sheet(sheet: Sheet, over: bool) -> JSON:
    """Proposals and the letters tested are public; results are not. Readiness shows
    only once the game is over, because guesses are revealed together when the round
    ends, and an early "ready" would hurry the others."""
    return {"history": [{"proposal": r["proposal"],
                         "tested": [letter for letter, _ in r["tests"]]}
                        for r in sheet.rounds],
            "ended": sheet.ended, "ready": over and sheet.guess is not None,
            "eliminated": sheet.eliminated, "tests": sheet.tests_total,
            "handicap": sheet.handicap}
