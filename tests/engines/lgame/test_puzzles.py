"""L-game puzzles (``engines/lgame/puzzles.py``), each answer proven again independently:
every legal move of the puzzle is played by the game's own ``apply`` and the position it
leaves is looked up in the solved table, so accepted moves are exactly the best ones and
every refused move is worse (a later win, a draw or a loss)."""

from __future__ import annotations

import pytest

from engines.lgame import LGameState
from engines.lgame.board import PLACEMENT_BY_CODE
from engines.lgame.puzzles import GENERATOR, THEMES, WIN_THEMES
from engines.lgame.solver import LOSS, UNKNOWN, WIN, solved_table
from engines.puzzles import Puzzle, generate_puzzle
from tests.helpers.puzzle_verdicts import checked_verdicts

FAST_SEEDS = range(12)
SLOW_SEEDS = range(12, 400)


def played(puzzle: Puzzle, action: str) -> LGameState:
    state = LGameState.from_dict(puzzle.state)
    state.apply(puzzle.seat, action)
    return state


def results(puzzle: Puzzle) -> dict[str, tuple[int, int]]:
    """Every legal move's (value, distance) for the opponent, by the game and the table."""
    table = solved_table(False)
    position = puzzle.position()
    moves = {}
    for action in position.legal_actions(puzzle.seat):
        after = played(puzzle, action)
        key = after.relative_key()
        moves[action] = (table.value[key], table.distance[key])
        outcome = after.outcome()
        if outcome is not None:  # the other L is stuck: lost now, distance 0
            assert outcome.winners == (puzzle.seat,)
            assert moves[action] == (LOSS, 0)
    return moves


def check_puzzle(puzzle: Puzzle) -> None:
    position = puzzle.position()
    assert isinstance(position, LGameState)
    assert position.to_move() == [puzzle.seat]
    assert LGameState.from_dict(position.to_dict()).to_dict() == puzzle.state
    assert puzzle.themes[0] == puzzle.theme and 1 <= puzzle.level <= 5
    moves = results(puzzle)
    accepted = set(puzzle.accepted)
    assert accepted <= set(moves) and len(accepted) < len(moves)
    table = solved_table(False)
    key = position.relative_key()
    if puzzle.theme in WIN_THEMES:
        wins_in = int(puzzle.theme.removeprefix("win-in-"))
        assert (table.value[key], table.distance[key]) == (WIN, 2 * wins_in - 1)
        assert puzzle.level == wins_in
        for action, (value, distance) in moves.items():
            if action in accepted:
                assert (value, distance) == (LOSS, 2 * wins_in - 2)
            else:  # worse: a later win, a draw or a loss
                assert value != LOSS or distance > 2 * wins_in - 2
    else:
        assert table.value[key] == UNKNOWN
        for action, (value, _) in moves.items():
            assert (value != WIN) == (action in accepted), action
        places = {action.split()[0] for action in accepted}
        assert len(places) == 1 and next(iter(places)) in PLACEMENT_BY_CODE
    assert [a["move"] for a in puzzle.proof["accepted"]] == list(puzzle.accepted)
    assert sum(puzzle.proof["refused"]["counts"].values()) == len(moves) - len(accepted)
    check_verdicts(puzzle, moves)


def check_verdicts(puzzle: Puzzle, moves: dict[str, tuple[int, int]]) -> None:
    checked_verdicts(puzzle, list(moves), "puzzle.lgame.", puzzle.theme in WIN_THEMES)


@pytest.mark.parametrize("theme", THEMES)
def test_every_answer_is_proven_best(theme: str) -> None:
    for seed in FAST_SEEDS:
        check_puzzle(generate_puzzle("lgame", seed, theme))


@pytest.mark.slow
@pytest.mark.parametrize("theme", THEMES)
def test_every_answer_is_proven_best_over_many_seeds(theme: str) -> None:
    for seed in SLOW_SEEDS:
        check_puzzle(generate_puzzle("lgame", seed, theme))


def test_themes_vary_and_both_seats_solve() -> None:
    puzzles = [generate_puzzle("lgame", seed, "win-in-2") for seed in range(20)]
    assert {p.seat for p in puzzles} == {0, 1}
    assert len({p.share_code() for p in puzzles}) == 20
    assert len({str(p.state["ls"]) + str(p.state["neutrals"]) for p in puzzles}) > 15


def test_typed_notation_is_judged_like_the_canonical_move() -> None:
    puzzle = generate_puzzle("lgame", 4, "win-in-1")
    canonical = puzzle.accepted[0]
    typed = puzzle.position().action_text(canonical)
    assert GENERATOR.judge(puzzle, typed).correct
    nonsense = GENERATOR.judge(puzzle, "hello")
    assert not nonsense.correct and nonsense.line == ()
    assert nonsense.reason.key == "lgame.bad_placement"


def test_a_defence_with_one_move_is_tagged_only_move() -> None:
    tagged = [p for p in (generate_puzzle("lgame", seed, "defend") for seed in range(40))
              if "only-move" in p.themes]
    assert tagged and all(len(p.accepted) == 1 and p.level == 3 for p in tagged)
