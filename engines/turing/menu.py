"""The Turing Machine's menus: a code pad for the proposal, the verifiers to test, ending
the round and the guess's pad. A function of the rules' state; ``TuringState.menu`` calls
``choices``."""

from __future__ import annotations

from engines.base import Choice, IllegalMove, InvalidMove, Message, NotYourTurn
from engines.turing.rules import COLOUR_SYMBOLS, DIGITS, TuringRules


def choices(state: TuringRules, player: int, path: tuple[str, ...]) -> list[Choice]:
    """The options after ``path`` (``GameState.menu``): three digit pickers, then verifier
    buttons."""
    try:
        sheet = state._check_seat(player)
    except (IllegalMove, NotYourTurn):
        if path:
            raise InvalidMove("turing.error.not_available",
                              "That choice is not available now.") from None
        return []
    if not path:
        options: list[Choice] = []
        if sheet.current["proposal"] is None:
            # A code pad: the first two digits in one tap (▲ by row, ■ by column), the
            # third in the next, so a proposal takes two taps. ``p`` then one digit at
            # a time stays understood (older buttons, typed paths).
            options += [Choice(f"p{first}{second}",
                               f"{COLOUR_SYMBOLS[0]}{first}{COLOUR_SYMBOLS[1]}{second}",
                               group="pad")
                        for first in DIGITS for second in DIGITS]
        else:
            tested = {letter for letter, _ in sheet.current["tests"]}
            if sheet.tests_left(state.round) > 0:
                options += [Choice(f"t{letter}",
                                   Message("turing.menu.test", "Test {letter}",
                                           letter=letter),
                                   f"test {letter}")
                            for letter in state.puzzle.letters if letter not in tested]
        # Ending a round needs no test (turing.md, "A round"): waiting costs nothing.
        options.append(Choice("n", "End round", "next"))
        options.append(Choice("g", "Guess the code"))
        return options
    head = path[0]
    if len(head) == 3 and head[0] == "p" and head[1] in DIGITS and head[2] in DIGITS:
        verb: str | None = "propose"
        digits = (head[1], head[2], *path[1:])
    else:
        verb = {"p": "propose", "g": "guess"}.get(head)
        # A pad key ("24") is two digits in one token.
        digits = tuple("".join(path[1:]))
        if any(len(token) not in (1, 2) for token in path[1:]):
            verb = None
    if verb is None or len(digits) > 2 or any(d not in DIGITS for d in digits):
        raise InvalidMove("turing.error.not_available", "That choice is not available now.")
    if verb == "propose" and sheet.current["proposal"] is not None:
        raise InvalidMove("turing.error.not_available", "That choice is not available now.")
    if verb == "guess" and not digits:  # the same code pad: a guess in three taps
        return [Choice(f"{first}{second}",
                       f"{COLOUR_SYMBOLS[0]}{first}{COLOUR_SYMBOLS[1]}{second}",
                       group="pad")
                for first in DIGITS for second in DIGITS]
    symbol = COLOUR_SYMBOLS[len(digits)]
    last = len(digits) == 2
    return [Choice(str(d), f"{''.join(digits)}{d}" if last else f"{symbol}{d}",
                   f"{verb} {''.join(digits)}{d}" if last else None) for d in range(1, 6)]
