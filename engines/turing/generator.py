"""Random valid puzzles by difficulty, size and mode, reproducible from a seed.

A card set is drawn uniformly from the sets of the difficulty band, then one valid
assignment of that set at random; sets with no valid assignment are drawn again. Enumerating
every valid assignment of the drawn set costs little (the search prunes on redundancy), and
the same enumeration tells whether the puzzle could be solved with no test at all: that is
the case exactly when every valid assignment has the same code. Such puzzles are drawn
again, because a puzzle with nothing to test is no game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.base import InvalidMove
from engines.turing.cards import CARD_NUMBERS, CRITERIA, Code, secret_options
from engines.turing.puzzle import (
    DIFFICULTIES,
    MODES,
    SIZES,
    Puzzle,
    assignments,
    code_of,
    difficulty_of,
)

# The cards each band draws from; a drawn set outside the band is drawn again.
_BAND_POOLS: dict[str, range] = {
    "easy": range(1, 18),
    "standard": range(1, 23),
    "hard": CARD_NUMBERS,
}
MAX_DRAWS = 20_000


def check_settings(difficulty: str, size: int, mode: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise InvalidMove("turing.error.difficulty", "Difficulty is one of {choices}.",
                          choices=", ".join(DIFFICULTIES))
    if size not in SIZES:
        raise InvalidMove("turing.error.size", "A puzzle has {choices} verifiers.",
                          choices=", ".join(str(s) for s in SIZES))
    if mode not in MODES:
        raise InvalidMove("turing.error.mode", "Mode is one of {choices}.",
                          choices=", ".join(MODES))


def _draw_cards(rng: random.Random, difficulty: str, count: int) -> list[int]:
    pool = _BAND_POOLS[difficulty]
    while True:
        cards = rng.sample(pool, count)
        if difficulty_of(cards) == difficulty:
            return cards


def _valid_secrets(cards: Sequence[int]) -> list[tuple[str, ...]]:
    return [tuple(c.id for c in chosen)
            for chosen in assignments([secret_options(card) for card in cards])]


def _codes_of(secrets: Sequence[tuple[str, ...]]) -> set[Code]:
    return {code_of([CRITERIA[i] for i in secret]) for secret in secrets}


def _needs_a_test(puzzle: Puzzle, secrets: Sequence[tuple[str, ...]]) -> bool:
    """Whether the valid assignments the players could imagine have more than one code.

    Nightmare hides only the letters, which never changes a code, so the real cards'
    assignments decide, as in classic; extreme adds the decoys' assignments."""
    if puzzle.mode != "extreme":
        return len(_codes_of(secrets)) > 1
    return len({candidate.code for candidate in puzzle.candidates("optimal")}) > 1


def generate(difficulty: str, size: int, mode: str, seed: int) -> Puzzle:
    """A valid puzzle in the band that needs at least one test; the same for the same seed."""
    check_settings(difficulty, size, mode)
    rng = random.Random(f"turing:{difficulty}:{size}:{mode}:{seed}")
    for _ in range(MAX_DRAWS):
        if mode == "extreme":
            shown = _draw_cards(rng, difficulty, 2 * size)
            real, decoys = shown[:size], shown[size:]
        else:
            real, decoys = _draw_cards(rng, difficulty, size), []
        secrets = _valid_secrets(real)
        if not secrets:
            continue
        secret = rng.choice(secrets)
        verifiers: tuple[tuple[int, ...], ...]
        if mode == "extreme":
            verifiers = tuple((card, decoy) if rng.random() < 0.5 else (decoy, card)
                              for card, decoy in zip(real, decoys, strict=True))
        else:
            verifiers = tuple((card,) for card in real)
        puzzle = Puzzle(mode, verifiers, secret)
        if _needs_a_test(puzzle, secrets):
            return puzzle
    raise RuntimeError(f"no {difficulty} {mode} puzzle with {size} verifiers found")
