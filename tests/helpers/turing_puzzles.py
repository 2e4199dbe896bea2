"""A Turing Machine puzzle the service tests share: the rulebook's first challenge, and the
game options that start a game on it (a known puzzle instead of a generated one)."""

from __future__ import annotations

from engines.turing.puzzle import Puzzle

CHALLENGE_ONE = Puzzle("classic", ((4,), (9,), (11,), (14,)), ("4.1", "9.0", "11.0", "14.2"))
OPTIONS = f"puzzle={CHALLENGE_ONE.share_code()}"
