"""What both card games' puzzles (``engines/booleo/puzzles.py``,
``engines/digitalo/puzzles.py``) must do alike: the same seed gives the same puzzle (in
any process), the seed picks a theme when none is asked, the puzzle round-trips and is
judged in every language, nothing hidden from the solver shapes it, and the screening
keeps what the full analysis accepts. Each game's own measures are tested in
``tests/engines/booleo/test_puzzles.py`` and ``tests/engines/digitalo/test_puzzles.py``."""

from __future__ import annotations

import json
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import InvalidMove
from engines.booleo import puzzles as booleo_puzzles
from engines.digitalo import puzzles as digitalo_puzzles
from engines.puzzles import generate_puzzle
from engines.puzzles.core import choose_theme
from tests.helpers.puzzles.card_cases import (
    check_hidden_cards_do_not_matter,
    check_round_trips,
    check_verdicts,
    puzzle_json_elsewhere,
)

MODULES: dict[str, ModuleType] = {"booleo": booleo_puzzles, "digitalo": digitalo_puzzles}
GAME_THEMES = [(game, theme) for game, module in MODULES.items() for theme in module.THEMES]
# The theme each game's puzzle is made again in other processes with.
ELSEWHERE = {"booleo": "survive", "digitalo": "break"}
SEEDS = range(4)


@pytest.mark.parametrize(("game", "theme"), GAME_THEMES)
def test_the_same_seed_gives_the_same_puzzle(game: str, theme: str) -> None:
    generator = MODULES[game].GENERATOR
    for seed in SEEDS:
        assert generator.generate(seed, theme).to_dict() == generator.generate(seed,
                                                                               theme).to_dict()
    assert generator.generate(0, theme).state != generator.generate(1, theme).state


@pytest.mark.parametrize("game", MODULES)
def test_the_same_seed_gives_the_same_puzzle_in_another_process(game: str) -> None:
    theme = ELSEWHERE[game]
    mine = json.dumps(generate_puzzle(game, 3, theme).to_dict(), sort_keys=True)
    assert puzzle_json_elsewhere(game, 3, theme, "1") == mine
    assert puzzle_json_elsewhere(game, 3, theme, "2") == mine


@pytest.mark.parametrize("game", MODULES)
def test_without_a_theme_the_seed_picks_one(game: str) -> None:
    module = MODULES[game]
    for seed in SEEDS:
        puzzle = module.GENERATOR.generate(seed)
        assert puzzle.theme == choose_theme(game, module.THEMES, seed, None)
        assert puzzle == module.GENERATOR.generate(seed, puzzle.theme)


@pytest.mark.parametrize("game", MODULES)
def test_an_unknown_theme_is_refused(game: str) -> None:
    with pytest.raises(InvalidMove) as refused:
        MODULES[game].GENERATOR.generate(1, "checkmate")
    assert refused.value.key == "puzzle.error.unknown_theme"


@pytest.mark.parametrize(("game", "theme"), GAME_THEMES)
def test_a_puzzle_round_trips_and_is_judged(game: str, theme: str) -> None:
    for seed in SEEDS:
        puzzle = MODULES[game].GENERATOR.generate(seed, theme)
        check_round_trips(puzzle)
        check_verdicts(puzzle)


@pytest.mark.parametrize(("game", "theme"), GAME_THEMES)
def test_the_hidden_cards_do_not_shape_the_puzzle(game: str, theme: str) -> None:
    check_hidden_cards_do_not_matter(MODULES[game].GENERATOR.generate(2, theme))


@pytest.mark.parametrize("game", MODULES)
def test_the_screening_keeps_what_the_full_analysis_accepts(game: str) -> None:
    module = MODULES[game]
    for theme in module.THEMES:
        puzzle = module.GENERATOR.generate(6, theme)
        state = puzzle.position()
        quick = module.analyse(state, puzzle.seat, exact=False)
        assert tuple(j.action for j in quick.accepted) == puzzle.accepted


@pytest.mark.parametrize("game", MODULES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_any_seed_gives_a_judged_puzzle(game: str, seed: int) -> None:
    generator = MODULES[game].GENERATOR
    puzzle = generator.generate(seed)
    check_round_trips(puzzle)
    assert generator.judge(puzzle, puzzle.accepted[0]).correct
    assert 0 < len(puzzle.accepted) < puzzle.proof["legal"]
