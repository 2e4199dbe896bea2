"""Puzzle themes and tags (``engines.puzzles.THEME_NAMES``): every generator declares what
it may label a puzzle with (``themes`` and ``tags``), labels its puzzles within that over
many seeds, and each label has a name in the catalogue of every language, so that the
trainer never shows a raw id."""

from __future__ import annotations

import pytest

from engines.puzzles import THEME_NAMES, puzzle_games, puzzle_generator, theme_message
from renderers.i18n import CATALOGUE, LANGUAGES

SEEDS = {"lgame": range(60), "rithmomachia": range(30), "booleo": range(40),
         "digitalo": range(40)}


def declared(game: str) -> set[str]:
    generator = puzzle_generator(game)
    return {*generator.themes, *generator.tags}


def test_every_game_with_puzzles_is_tested() -> None:
    assert set(puzzle_games()) == set(SEEDS)


@pytest.mark.parametrize("game", sorted(SEEDS))
def test_a_generator_labels_its_puzzles_only_as_it_declares(game: str) -> None:
    generator = puzzle_generator(game)
    allowed = declared(game)
    assert not set(generator.themes) & set(generator.tags), "a tag is not also a theme"
    for theme in generator.themes:
        for seed in SEEDS[game]:
            puzzle = generator.generate(seed, theme)
            assert puzzle.themes[0] == theme
            assert set(puzzle.themes) <= allowed, (theme, seed, puzzle.themes)


@pytest.mark.parametrize("game", sorted(SEEDS))
def test_every_declared_label_has_a_name_in_every_language(game: str) -> None:
    for label in sorted(declared(game)):
        assert label in THEME_NAMES, f"{game}'s {label} has no name"
        name = theme_message(label)
        assert name.key == f"puzzle.theme.{label}"
        for language in LANGUAGES:
            assert CATALOGUE[language].get(name.key), (language, name.key)


def test_every_name_belongs_to_a_declared_label() -> None:
    labels = set().union(*(declared(game) for game in puzzle_games()))
    assert set(THEME_NAMES) == labels


def test_an_unknown_label_reads_as_itself() -> None:
    name = theme_message("some-new-tag")
    assert (name.key, name.default) == ("puzzle.theme.some-new-tag", "some new tag")
