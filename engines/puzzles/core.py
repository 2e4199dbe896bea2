"""The shared core of generated puzzles: the puzzle, the verdict on an answer, the
generator's contract, and shareable puzzle codes.

A puzzle is a position of a game, the seat that solves it, and every answer accepted,
with the proof that those answers are best and the others worse. It is made from a seed
alone: the same game, seed and theme give the same puzzle in any process, so a share
code needs to carry only those (``<prefix>-<theme><version>-<base32 seed><check>``,
``LG-32-7Q4``), and a generator's ``version`` changes whenever its output for a seed
would change, so an old code is refused instead of opening another puzzle.

Engines are pure: nothing here reads a clock, a file or the process's hash seed.
Randomness comes from ``random.Random`` seeded with text, which Python hashes with
SHA-512, the same in every process whatever ``PYTHONHASHSEED`` says.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engines.base import JSON, GameError, GameState, InvalidMove, Message
from engines.registry import get_game

# Crockford's base32 alphabet (no I, L, O, U): what a person reads aloud or retypes.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# Seeds stay below 2**60 so a code stays short (at most 12 seed digits) and a pasted
# page of digits is refused before any arithmetic on it.
MAX_SEED = (1 << 60) - 1
MAX_SEED_DIGITS = 12
# How many seed-derived attempts a generator makes before it gives up on a seed: each
# generator is built so that a handful suffice, and the bound keeps a bad one finite.
MAX_ATTEMPTS = 64
# Levels run from 1 (easiest) to 5; the ratings they start from, on the Glicko scale
# where 1500 is an average player.
LEVELS = (1, 2, 3, 4, 5)
LEVEL_RATINGS = {1: 900, 2: 1200, 3: 1500, 4: 1800, 5: 2100}


@dataclass(frozen=True)
class Puzzle:
    """One generated puzzle: the position, who solves it, and every accepted answer."""

    game: str                  # registry name: "lgame" | "rithmomachia" | "booleo" | "digitalo"
    seed: int
    theme: str                 # the primary theme id: "win-in-2", "defend", "capture", ...
    themes: tuple[str, ...]    # every theme that applies, the primary one first
    level: int                 # 1 (easiest) .. 5
    rating: int                # the starting rating on the Glicko scale (1500 = average)
    state: JSON                # GameState.to_dict() at the puzzle's position, `seat` to move
    seat: int                  # the seat the solver plays
    accepted: tuple[str, ...]  # every accepted action, in the game's canonical notation
    proof: JSON                # game-specific: why accepted answers are best, others worse

    def share_code(self) -> str:
        """The code that regenerates this puzzle (``decode_puzzle_code``)."""
        from engines.puzzles import puzzle_generator
        generator = puzzle_generator(self.game)
        return encode_puzzle_code(generator.code_prefix, generator.themes.index(self.theme),
                                  self.seed, generator_version(generator))

    def position(self) -> GameState:
        """The game's state at the puzzle's position, rebuilt through the registry."""
        return get_game(self.game).State.from_dict(self.state)

    def to_dict(self) -> JSON:
        return {"game": self.game, "seed": self.seed, "theme": self.theme,
                "themes": list(self.themes), "level": self.level, "rating": self.rating,
                "state": self.state, "seat": self.seat, "accepted": list(self.accepted),
                "proof": self.proof}

    @classmethod
    def from_dict(cls, data: JSON) -> Puzzle:
        return cls(game=str(data["game"]), seed=int(data["seed"]), theme=str(data["theme"]),
                   themes=tuple(str(t) for t in data["themes"]), level=int(data["level"]),
                   rating=int(data["rating"]), state=dict(data["state"]),
                   seat=int(data["seat"]), accepted=tuple(str(a) for a in data["accepted"]),
                   proof=dict(data["proof"]))


@dataclass(frozen=True)
class Verdict:
    """The answer to one try at a puzzle."""

    correct: bool
    reason: Message            # translatable: "Lf3 wins in 2: ..." or why the move fails
    line: tuple[str, ...]      # after a right answer the winning line, else the refutation

    def to_dict(self) -> JSON:
        """The verdict as JSON; the reason as its English text and its catalogue key."""
        return {"correct": self.correct, "reason": str(self.reason),
                "reason_key": self.reason.key, "line": list(self.line)}


class PuzzleGenerator(Protocol):
    """What each game's puzzle module exposes as ``GENERATOR``.

    A generator may also have ``version: int`` (1 when absent; ``generator_version``):
    raise it whenever a seed would give another puzzle than before.
    """

    game: str
    code_prefix: str           # two letters: "LG", "RM", "BO", "DG"
    themes: tuple[str, ...]
    # Every other tag a puzzle's ``themes`` may hold ("only-move", "xor", ...): with the
    # themes, all a puzzle can be labelled with, each named in ``THEME_NAMES``.
    tags: tuple[str, ...]

    def generate(self, seed: int, theme: str | None = None) -> Puzzle: ...

    def judge(self, puzzle: Puzzle, action: str) -> Verdict: ...


# The name of every theme and tag a generator declares (``themes``, ``tags``), as the
# trainer shows it. One table for all games: a tag such as "only-move" means the same in
# each; an id a generator gives that is missing here reads as itself (``theme_message``),
# which the tests refuse.
THEME_NAMES: dict[str, Message] = {
    # the L-game
    "win-in-1": Message("puzzle.theme.win-in-1", "win in 1"),
    "win-in-2": Message("puzzle.theme.win-in-2", "win in 2"),
    "win-in-3": Message("puzzle.theme.win-in-3", "win in 3"),
    "win-in-4": Message("puzzle.theme.win-in-4", "win in 4"),
    "win-in-5": Message("puzzle.theme.win-in-5", "win in 5"),
    "defend": Message("puzzle.theme.defend", "hold the draw"),
    "only-move": Message("puzzle.theme.only-move", "the only move"),
    "neutral": Message("puzzle.theme.neutral", "a neutral's step"),
    "l-only": Message("puzzle.theme.l-only", "the L alone"),
    # Rithmomachia
    "capture": Message("puzzle.theme.capture", "the best capture"),
    "equation": Message("puzzle.theme.equation", "spot the equation"),
    "teaching": Message("puzzle.theme.teaching", "a beginner's capture (NOT, NAND)"),
    "victory-in-1": Message("puzzle.theme.victory-in-1", "victory in 1"),
    "victory-in-2": Message("puzzle.theme.victory-in-2", "victory in 2"),
    "not": Message("puzzle.theme.not", "NOT"),
    "and": Message("puzzle.theme.and", "AND"),
    "or": Message("puzzle.theme.or", "OR"),
    "xor": Message("puzzle.theme.xor", "XOR"),
    "nand": Message("puzzle.theme.nand", "NAND"),
    "nor": Message("puzzle.theme.nor", "NOR"),
    "filtering": Message("puzzle.theme.filtering", "filtering"),
    "pyramid": Message("puzzle.theme.pyramid", "a Pyramid taken"),
    "double": Message("puzzle.theme.double", "two pieces at once"),
    "push": Message("puzzle.theme.push", "a push"),
    # bOOleO and Digitalo
    "complete": Message("puzzle.theme.complete", "complete your pyramid"),
    "survive": Message("puzzle.theme.survive", "survive a flip"),
    "break": Message("puzzle.theme.break", "stop their pyramid"),
    "pending-flip": Message("puzzle.theme.pending-flip", "a flip pending"),
    "cancel": Message("puzzle.theme.cancel", "cancel the NOT"),
    "replace": Message("puzzle.theme.replace", "replace a gate"),
    "slot-bit": Message("puzzle.theme.slot-bit", "your slot bit"),
    "counter": Message("puzzle.theme.counter", "counter the inverter"),
    "last-move": Message("puzzle.theme.last-move", "the last move"),
}


def theme_message(theme: str) -> Message:
    """The name of a theme or tag (``THEME_NAMES``); an unknown one reads as its id."""
    return THEME_NAMES.get(theme) or Message(f"puzzle.theme.{theme}", theme.replace("-", " "))


def generator_version(generator: PuzzleGenerator) -> int:
    """The generator's ``version`` attribute, 1 for one that declares none."""
    version = getattr(generator, "version", 1)
    return version if isinstance(version, int) and 0 <= version < 32 else 1


# ------------------------------------------------------------------ seeds and themes
def check_seed(seed: int) -> int:
    """``seed`` itself when a share code can carry it, else the player's error."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidMove("puzzle.error.bad_seed",
                          "A puzzle seed is a whole number from 0 to {maximum}.",
                          maximum=MAX_SEED)
    return seed


def choose_theme(game: str, themes: tuple[str, ...], seed: int, theme: str | None) -> str:
    """The theme asked for, checked, or for ``None`` one picked from the seed alone."""
    if theme is None:
        return themes[random.Random(f"theme:{game}:{seed}").randrange(len(themes))]
    if theme not in themes:
        raise InvalidMove("puzzle.error.unknown_theme",
                          "Unknown puzzle theme '{theme}'. Themes: {themes}.",
                          theme=str(theme)[:30], themes=", ".join(themes))
    return theme


def attempt_random(game: str, theme: str, seed: int, attempt: int) -> random.Random:
    """The random source of one attempt at a puzzle: text-seeded, so the same in every
    process, and a different stream for every attempt, theme and game."""
    return random.Random(f"puzzle:{game}:{theme}:{seed}:{attempt}")


def first_suitable(game: str, theme: str, seed: int,
                   attempt: Callable[[random.Random], Puzzle | None],
                   attempts: int = MAX_ATTEMPTS) -> Puzzle:
    """The first puzzle ``attempt`` makes from the seed's attempts in order (it returns
    None for an unsuitable position); a seed with no suitable attempt is refused rather
    than searched for ever."""
    for number in range(attempts):
        puzzle = attempt(attempt_random(game, theme, seed, number))
        if puzzle is not None:
            return puzzle
    raise GameError("puzzle.error.none_found",
                    "No {theme} puzzle was found for seed {seed}; try another seed.",
                    theme=theme, seed=seed)


def generate_by_attempts(game: str, themes: tuple[str, ...], seed: int, theme: str | None,
                         attempt: Callable[[int, str, random.Random], Puzzle | None]) -> Puzzle:
    """A generator's ``generate`` when it makes its puzzle from the seed's attempts: the
    seed checked, the theme chosen (``choose_theme``), and the first puzzle ``attempt``
    makes from the seed, the theme and an attempt's random source (``first_suitable``)."""
    seed = check_seed(seed)
    chosen = choose_theme(game, themes, seed, theme)
    return first_suitable(game, chosen, seed, lambda rng: attempt(seed, chosen, rng))


def rating_for(level: int, nudge: float = 0.0) -> int:
    """The starting rating of a puzzle of ``level``, moved by up to ±150 points by
    ``nudge`` in [-1, 1] (how much harder or easier it is than its level's middle)."""
    bounded = max(-1.0, min(1.0, nudge))
    return round(LEVEL_RATINGS[max(1, min(5, level))] + 150 * bounded)


# ----------------------------------------------------------------------- share codes
def _code_value(char: str) -> int:
    return CODE_ALPHABET.index(char)


def code_checksum(text: str) -> str:
    """One base32 character over the code's text: a mixing walk modulo a prime, so a
    changed or swapped character changes it (but one time in 32)."""
    total = 17
    for char in text:
        value = _code_value(char) if char in CODE_ALPHABET else ord(char) % 64
        total = (total * 43 + value + 1) % 1019
    return CODE_ALPHABET[(total * 7) % 32]


def seed_digits(seed: int) -> str:
    digits = ""
    while True:
        seed, rest = divmod(seed, 32)
        digits = CODE_ALPHABET[rest] + digits
        if not seed:
            return digits


def encode_puzzle_code(prefix: str, theme_index: int, seed: int, version: int = 1) -> str:
    """``<prefix>-<theme><version>-<base32 seed><check>``: theme and version one base32
    character each, the checksum over everything before it."""
    if not 0 <= theme_index < 32 or not 0 <= version < 32:
        raise ValueError("a theme index and a generator version fit one base32 character")
    head = CODE_ALPHABET[theme_index] + CODE_ALPHABET[version]
    digits = seed_digits(check_seed(seed))
    body = f"{prefix.upper()}-{head}-{digits}"
    return f"{body}{code_checksum(body)}"


@dataclass(frozen=True)
class CodeParts:
    """What a share code holds, once its checksum is right."""

    prefix: str
    theme_index: int
    version: int
    seed: int


def bad_code(example: str) -> InvalidMove:
    # The typed text is not repeated: it may be anything, up to a whole pasted message.
    return InvalidMove("puzzle.error.bad_code",
                       "That is not a valid puzzle code; codes look like {example}.",
                       example=example)


def normalise_code(text: str) -> str:
    """Upper case, spaces dropped, and the letters Crockford reads as digits replaced
    (O as 0, I and L as 1) after the prefix, whose letters are the game's own."""
    cleaned = "".join(str(text).split()).upper().replace("_", "-")
    prefix, dash, rest = cleaned.partition("-")
    return prefix + dash + rest.replace("O", "0").replace("I", "1").replace("L", "1")


def split_code(text: str, example: str) -> CodeParts:
    """The parts of a share code, or ``bad_code`` for anything that is not one."""
    if not isinstance(text, str) or len(text) > 40:
        raise bad_code(example)
    parts = normalise_code(text).split("-")
    if len(parts) != 3:
        raise bad_code(example)
    prefix, head, body = parts
    if (len(prefix) != 2 or not prefix.isalpha() or not prefix.isascii() or len(head) != 2
            or not 2 <= len(body) <= MAX_SEED_DIGITS + 1
            or any(char not in CODE_ALPHABET for char in head + body)):
        raise bad_code(example)
    digits, check = body[:-1], body[-1]
    if code_checksum(f"{prefix}-{head}-{digits}") != check:
        raise bad_code(example)
    seed = 0
    for char in digits:
        seed = seed * 32 + _code_value(char)
    if seed > MAX_SEED:
        raise bad_code(example)
    return CodeParts(prefix, _code_value(head[0]), _code_value(head[1]), seed)
