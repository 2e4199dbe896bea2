"""Checks both card games' puzzle tests run (``test_puzzles.py`` in tests/engines/booleo/ and
tests/engines/digitalo/): a puzzle's round trips, its verdicts in three languages, and that
nothing hidden from the solver shapes it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import ModuleType

from engines.puzzles import Puzzle, decode_puzzle_code, puzzle_generator
from engines.puzzles.core import LEVELS
from renderers.i18n import CATALOGUE, LANGUAGES, localise
from tests.helpers.paths import REPO_ROOT
from tests.helpers.puzzles.card_checker import booleo_deals, digitalo_deals


def check_round_trips(puzzle: Puzzle) -> None:
    """The puzzle through JSON, its position through the game's storage, its share code
    back to the same puzzle; the solver is to move and every answer is legal."""
    again = Puzzle.from_dict(json.loads(json.dumps(puzzle.to_dict())))
    assert again == puzzle
    state = puzzle.position()
    assert state.to_dict() == puzzle.state
    assert type(state).from_dict(state.to_dict()).to_dict() == puzzle.state
    assert state.to_move() == [puzzle.seat]
    legal = state.legal_actions(puzzle.seat)
    assert puzzle.accepted and set(puzzle.accepted) < set(legal) and len(legal) >= 3
    assert puzzle.proof["legal"] == len(legal)
    assert decode_puzzle_code(puzzle.share_code()) == puzzle
    assert puzzle.level in LEVELS and 500 <= puzzle.rating <= 2500
    assert puzzle.themes[0] == puzzle.theme


def check_verdicts(puzzle: Puzzle) -> None:
    """Every accepted answer is right, every refused legal action wrong with the reply
    that shows it (in the line), each reason in every language, no placeholder left."""
    generator = puzzle_generator(puzzle.game)
    prefix = f"puzzle.{puzzle.game}.{puzzle.theme}."
    for action in puzzle.accepted:
        verdict = generator.judge(puzzle, action)
        assert verdict.correct and verdict.line == (action,)
        assert verdict.reason.key == prefix + "right"
        _readable(verdict.reason)
    for entry in puzzle.proof["refused"]:
        verdict = generator.judge(puzzle, entry["action"])
        assert not verdict.correct and verdict.line[0] == entry["action"]
        if entry["reply"] and verdict.reason.key != f"puzzle.{puzzle.game}.complete.wrong":
            assert verdict.line == (entry["action"], entry["reply"])
        assert verdict.reason.key.startswith(prefix)
        _readable(verdict.reason)
    typed = generator.judge(puzzle, f"  {puzzle.accepted[0].lower()} ")
    assert typed.correct and typed.line == (puzzle.accepted[0],)
    nonsense = generator.judge(puzzle, "fly away")
    assert not nonsense.correct and nonsense.line == ()
    assert nonsense.reason.key == f"{puzzle.game}.error.bad_move"


def _readable(reason: object) -> None:
    from engines.base import Message
    assert isinstance(reason, Message)
    for language in LANGUAGES:
        assert reason.key in CATALOGUE[language], (language, reason.key)
        text = localise(language, reason)
        assert "{" not in text and "}" not in text, text


def redealt(puzzle: Puzzle, count: int) -> list[Puzzle]:
    """The puzzle made again from positions whose hidden cards are dealt otherwise (as
    the checker deals them), with the same seed and theme."""
    module: ModuleType
    if puzzle.game == "booleo":
        from engines.booleo import puzzles as module
        deals = booleo_deals(puzzle)
    else:
        from engines.digitalo import puzzles as module
        deals = digitalo_deals(puzzle, with_next_card=False)
    cls = type(puzzle.position())
    made = []
    step = max(1, len(deals) // count)
    for deal in deals[::step][:count]:
        state = cls.from_dict(deal.data)
        assert state.view(puzzle.seat) == puzzle.position().view(puzzle.seat)
        assert state.to_dict() != puzzle.state or len(deals) == 1
        made.append(module.make_puzzle(puzzle.seed, puzzle.theme, state,
                                       module.analyse(state, puzzle.seat)))
    return made


def check_hidden_cards_do_not_matter(puzzle: Puzzle) -> None:
    """Dealt otherwise, the hidden cards leave the answers, the proof, the themes and the
    level as they were: the puzzle is made from what the solver sees."""
    for other in redealt(puzzle, 3):
        assert other.accepted == puzzle.accepted
        assert other.proof == puzzle.proof
        assert (other.themes, other.level, other.rating) == (puzzle.themes, puzzle.level,
                                                             puzzle.rating)


def puzzle_json_elsewhere(game: str, seed: int, theme: str, hash_seed: str) -> str:
    """The puzzle as JSON, made by a fresh Python with another hash seed."""
    code = ("import json, sys; from engines.puzzles import generate_puzzle; "
            f"print(json.dumps(generate_puzzle({game!r}, {seed}, {theme!r}).to_dict(), "
            "sort_keys=True))")
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, check=True, timeout=120)
    return done.stdout.strip()
