"""Puzzles: the daily Turing Machine challenge (``daily``) and the puzzle trainer of
issue 41 (``trainer``, its ``pages``, ``ratings`` and the pool's ``jobs``).

Imports nothing: the worker processes import ``bot.puzzles.jobs`` by its path, and
with it this package."""
