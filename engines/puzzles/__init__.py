"""Generated, verified puzzles for solo play: "find the best move", one try.

Each game's generator lives in its own module here and is imported on first use, so that
a game's tables load only when its puzzles are asked for, and a module that is missing
(or being written) breaks only its own game. ``core`` holds the shared types and codes.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import cast

from engines.base import InvalidMove
from engines.puzzles.core import (
    THEME_NAMES,
    Puzzle,
    PuzzleGenerator,
    Verdict,
    bad_code,
    encode_puzzle_code,
    generator_version,
    split_code,
    theme_message,
)
from engines.registry import resolve_name

__all__ = ["THEME_NAMES", "Puzzle", "PuzzleGenerator", "Verdict", "decode_puzzle_code",
           "encode_puzzle_code", "generate_puzzle", "judge_answer", "puzzle_games",
           "puzzle_generator", "theme_message"]

# Game name -> (module holding ``GENERATOR``, its share-code prefix). The prefix is known
# here so a code finds its game without importing every generator.
_GENERATORS: dict[str, tuple[str, str]] = {
    "lgame": ("engines.lgame.puzzles", "LG"),
    "rithmomachia": ("engines.rithmomachia.puzzles", "RM"),
    "booleo": ("engines.booleo.puzzles", "BO"),
    "digitalo": ("engines.digitalo.puzzles", "DG"),
}
_loaded: dict[str, PuzzleGenerator] = {}
# A real code (tested to decode), shown to whoever mistypes one.
EXAMPLE_CODE = "LG-11-1Z89"


def _module_exists(path: str) -> bool:
    try:
        return importlib.util.find_spec(path) is not None
    except (ImportError, ValueError):
        return False


def puzzle_games() -> tuple[str, ...]:
    """The games that have a puzzle generator, in the order they are offered."""
    return tuple(name for name, (path, _) in _GENERATORS.items() if _module_exists(path))


def _no_puzzles(game: str) -> InvalidMove:
    return InvalidMove("puzzle.error.no_puzzles",
                       "{game} has no puzzles. Games with puzzles: {games}.",
                       game=game[:30], games=", ".join(puzzle_games()))


def puzzle_generator(game: str) -> PuzzleGenerator:
    """The generator of ``game`` (a registry name or alias), imported on first use."""
    name = resolve_name(game)
    generator = _loaded.get(name)
    if generator is None:
        if name not in _GENERATORS or not _module_exists(_GENERATORS[name][0]):
            raise _no_puzzles(name)
        module = importlib.import_module(_GENERATORS[name][0])
        generator = _loaded[name] = cast(PuzzleGenerator, module.GENERATOR)
    return generator


def generate_puzzle(game: str, seed: int, theme: str | None = None) -> Puzzle:
    """The puzzle of ``game`` for ``seed`` (and ``theme``, or one the seed picks)."""
    return puzzle_generator(game).generate(seed, theme)


def judge_answer(puzzle: Puzzle, action: str) -> Verdict:
    """The verdict on ``action`` as the answer to ``puzzle``."""
    return puzzle_generator(puzzle.game).judge(puzzle, action)


def decode_puzzle_code(code: str) -> Puzzle:
    """The puzzle a share code names, generated again; ``InvalidMove`` with the key
    ``puzzle.error.bad_code`` for any text that is not a valid code (never a crash)."""
    parts = split_code(code, EXAMPLE_CODE)
    game = next((name for name, (_, prefix) in _GENERATORS.items()
                 if prefix == parts.prefix), None)
    if game is None or game not in puzzle_games():
        raise bad_code(EXAMPLE_CODE)
    generator = puzzle_generator(game)
    if (parts.theme_index >= len(generator.themes)
            or parts.version != generator_version(generator)):
        raise bad_code(EXAMPLE_CODE)
    return generator.generate(parts.seed, generator.themes[parts.theme_index])
