"""Boolean Rithmomachia puzzles (``engines/rithmomachia/puzzles.py``), each answer proven
again by the game's own rules, not by the generator's tactics: every legal move is played
by ``apply`` (its capture events, its outcome) or by the rules' ``make_move`` and the
victories, so accepted moves are exactly the best ones and every refused move is worse.
For a win in two, every reply to an accepted move is played and a winning answer found,
and each refused move is shown a defence after which no move wins; the slow variant also
asks the computer player's search."""

from __future__ import annotations

import pytest

from engines.base import Event
from engines.puzzles import Puzzle, generate_puzzle
from engines.rithmomachia import RithmomachiaState
from engines.rithmomachia.agents import WIN, Search, material
from engines.rithmomachia.equations import Rules, occupancy
from engines.rithmomachia.moves import (
    counts,
    encode_move,
    generate_moves,
    make_move,
    move_text,
    victories,
)
from engines.rithmomachia.notation import parse_move_cells
from engines.rithmomachia.puzzle_positions import StepCaptures, node_of
from engines.rithmomachia.puzzle_tactics import Tactics
from engines.rithmomachia.puzzles import (
    GENERATOR,
    HARD_OPS,
    MOST_ACCEPTED,
    MOST_WINS,
    TEACHING_OPTIONS,
    THEMES,
)
from tests.helpers import rithmomachia_positions as scenes
from tests.helpers.puzzle_verdicts import checked_verdicts

CAPTURE_THEMES = ("capture", "equation", "teaching")
FAST_SEEDS = {"capture": range(8), "equation": range(8), "teaching": range(8),
              "victory-in-1": range(8), "victory-in-2": range(3)}
SLOW_SEEDS = range(8, 60)


def move_of(action: str) -> int:
    return encode_move(*parse_move_cells(action))


def played(puzzle: Puzzle, action: str) -> tuple[RithmomachiaState, list[Event]]:
    state = RithmomachiaState.from_dict(puzzle.state)
    events = state.apply(puzzle.seat, action)
    return state, events


def winners_if_over(board: list[int]) -> tuple[int, ...] | None:
    """The winners when a side has no Pyramid left (the only ending a puzzle's short line
    can reach with push on and a fresh history), else None."""
    if any(side["pyramids"] == 0 for side in counts(board)):
        return tuple(victories(board)["winners"])
    return None


def a_win_at_once(board: list[int], seat: int, rules: Rules) -> int | None:
    """A move of ``seat`` that ends the game with ``seat`` winning, by the rules alone."""
    for move in generate_moves(board, seat, True):
        after, _ = make_move(board, move, seat, rules)
        if winners_if_over(after) == (seat,):
            return move
    return None


def check_common(puzzle: Puzzle) -> RithmomachiaState:
    position = puzzle.position()
    assert isinstance(position, RithmomachiaState)
    assert position.to_move() == [puzzle.seat]
    assert RithmomachiaState.from_dict(position.to_dict()).to_dict() == puzzle.state
    assert puzzle.themes[0] == puzzle.theme and 1 <= puzzle.level <= 5
    assert set(puzzle.accepted) <= set(position.legal_actions(puzzle.seat))
    assert [a["move"] for a in puzzle.proof["accepted"]] == list(puzzle.accepted)
    return position


def check_capture(puzzle: Puzzle) -> None:
    position = check_common(puzzle)
    if puzzle.theme == "teaching":
        assert position.options["ops"] == TEACHING_OPTIONS["ops"] == "not,nand"
    taken: dict[str, tuple[int, int, int]] = {}
    hard: dict[str, bool] = {}
    for action in position.legal_actions(puzzle.seat):
        state, events = played(puzzle, action)
        assert state.outcome() is None  # no move ends the game: a capture, not a victory
        captures = [e for e in events if e["type"] == "capture"]
        taken[action] = (sum(1 for e in captures if e["removed"]), len(captures),
                         sum(e["value"] for e in captures))
        hard[action] = any({q["op"] for q in e["equations"]} <= HARD_OPS for e in captures)
    best = max(taken.values())
    assert best[1] > 0
    assert set(puzzle.accepted) == {a for a, t in taken.items() if t == best}
    assert len(puzzle.accepted) <= MOST_ACCEPTED
    for action in puzzle.accepted:
        state, _ = played(puzzle, action)
        # the capture does not hand the opponent a win at once
        assert a_win_at_once(state.board, 1 - puzzle.seat, state.rules) is None
        if puzzle.theme == "equation":
            assert hard[action]
    counted = puzzle.proof["refused"]["counts"]
    assert counted["smaller_capture"] + counted["no_capture"] == len(taken) - len(
        puzzle.accepted)
    check_verdicts(puzzle, list(taken))


def check_victory_in_one(puzzle: Puzzle) -> None:
    position = check_common(puzzle)
    legal = position.legal_actions(puzzle.seat)
    winning = set()
    for action in legal:
        state, _ = played(puzzle, action)
        outcome = state.outcome()
        if outcome is not None and outcome.winners == (puzzle.seat,):
            winning.add(action)
    assert winning == set(puzzle.accepted)
    assert 1 <= len(winning) <= MOST_WINS
    check_verdicts(puzzle, legal)


def check_victory_in_two(puzzle: Puzzle) -> None:
    position = check_common(puzzle)
    seat, rules = puzzle.seat, position.rules
    legal = position.legal_actions(seat)
    assert a_win_at_once(position.board, seat, rules) is None
    tactics = Tactics(rules)
    node = node_of(position.board, seat)
    for action in legal:
        state, _ = played(puzzle, action)
        outcome = state.outcome()
        assert outcome is None or outcome.winners != (seat,)
        if action in puzzle.accepted:  # every reply loses
            for reply in generate_moves(state.board, 1 - seat, True):
                after, _ = make_move(state.board, reply, 1 - seat, rules)
                over = winners_if_over(after)
                assert over == (seat,) if over is not None else (
                    a_win_at_once(after, seat, rules) is not None), (action, move_text(reply))
        elif outcome is not None:  # it ends the game, but not as a win
            assert outcome.winners != (seat,)
        else:  # a defence the generator names holds, by the rules alone
            wins, line = tactics.forced_line(node, move_of(action))
            assert not wins and len(line) == 2
            after, _ = make_move(state.board, line[1], 1 - seat, rules)
            over = winners_if_over(after)
            assert over != (seat,) if over is not None else (
                a_win_at_once(after, seat, rules) is None), action
    assert sum(puzzle.proof["refused"]["counts"].values()) == len(legal) - len(puzzle.accepted)
    check_verdicts(puzzle, legal)


def check_verdicts(puzzle: Puzzle, legal: list[str]) -> None:
    for verdict in checked_verdicts(puzzle, legal, "puzzle.rithmo.",
                                    puzzle.theme.startswith("victory")):
        if puzzle.theme in CAPTURE_THEMES or verdict.correct:
            assert "=" in str(verdict.reason) or puzzle.theme == "victory-in-2"


def check(puzzle: Puzzle) -> None:
    if puzzle.theme in CAPTURE_THEMES:
        check_capture(puzzle)
    elif puzzle.theme == "victory-in-1":
        check_victory_in_one(puzzle)
    else:
        check_victory_in_two(puzzle)


@pytest.mark.parametrize("theme", THEMES)
def test_every_answer_is_proven_best(theme: str) -> None:
    for seed in FAST_SEEDS[theme]:
        check(generate_puzzle("rithmomachia", seed, theme))


@pytest.mark.slow
@pytest.mark.parametrize("theme", THEMES)
def test_every_answer_is_proven_best_over_many_seeds(theme: str) -> None:
    for seed in SLOW_SEEDS:
        check(generate_puzzle("rithmomachia", seed, theme))


@pytest.mark.slow
def test_the_search_agrees_on_wins_in_two() -> None:
    """The computer player's own alpha-beta search, two plies deep after each first
    move, finds no defence against an accepted move and one against every refused."""
    for seed in range(2):
        puzzle = generate_puzzle("rithmomachia", seed, "victory-in-2")
        position = puzzle.position()
        assert isinstance(position, RithmomachiaState)
        seat = puzzle.seat
        for action in position.legal_actions(seat):
            state, _ = played(puzzle, action)
            search = Search(state.rules, True, 200, None, None)
            masks = occupancy(state.board)
            score = search.negamax(state.board, masks[1 - seat], masks[seat], 1 - seat, 2,
                                   -2 * WIN, 2 * WIN, 1, material(state.board))
            forced = score <= -WIN // 2  # the defender's value: negamax's own side
            assert forced == (action in puzzle.accepted), action


def test_a_push_captures_what_its_step_does_and_what_the_pushed_piece_adds() -> None:
    """``StepCaptures`` (a push's captures from its Pyramid's step's, with what the pushed
    piece adds where it lands), on which the wins in two and the playouts rest, agrees
    with the computer player's ``gain`` on every move of both sides in the positions of
    a few wins in two: the captures and their worth, for pushes of own and of enemy
    pieces among them; and in a scene where a Pyramid pushes the other side's Pyramid of
    the opposite value, which NOT then captures where it lands."""
    pushed = {"own": 0, "enemy": 0}
    scene = scenes.position({"2c1": (scenes.WHITE, 0b0000), "2d1": (scenes.BLACK, 0b1111)})
    states = [generate_puzzle("rithmomachia", seed, "victory-in-2").position()
              for seed in range(3)]
    for state in (*states, scene):
        assert isinstance(state, RithmomachiaState)
        board = state.board
        search = Search(state.rules, True, 200, None, None)
        for seat in (0, 1):
            node = node_of(board, seat)
            steps = StepCaptures(state.rules, node)
            for move in generate_moves(board, seat, True):
                captured, worth, _ = search.gain(board, node.mine, node.theirs, move, seat)
                assert (steps.captures(move), steps.worth(move)) == (captured, worth), (
                    move_text(move))
                if move >> 12 and captured:
                    pushed["own" if node.mine >> ((move >> 6) & 63) & 1 else "enemy"] += 1
    assert pushed["own"] and pushed["enemy"]
    push = move_of("2c1-2d1-2d2")
    steps = StepCaptures(scene.rules, node_of(scene.board, scenes.WHITE))
    assert steps.captures(push) == 1 << (push >> 12) - 1


def test_capture_answers_name_their_equation() -> None:
    puzzle = generate_puzzle("rithmomachia", 2, "equation")
    verdict = GENERATOR.judge(puzzle, puzzle.accepted[0])
    details = puzzle.proof["accepted"][0]["captures"]
    assert verdict.correct and details[0]["equations"][0] in str(verdict.reason)
    assert any(set(d["ops"]) <= HARD_OPS for d in details)


def test_typed_moves_and_nonsense_are_judged() -> None:
    puzzle = generate_puzzle("rithmomachia", 1, "capture")
    typed = puzzle.accepted[0].replace("-", " to ", 1).upper()
    assert GENERATOR.judge(puzzle, typed).correct
    nonsense = GENERATOR.judge(puzzle, "castle")
    assert not nonsense.correct and nonsense.line == ()
    assert nonsense.reason.key == "rithmomachia.error.bad_move"


def test_puzzles_vary_over_seeds_and_seats() -> None:
    puzzles = [generate_puzzle("rithmomachia", seed, "capture") for seed in range(16)]
    assert {p.seat for p in puzzles} == {0, 1}
    assert len({str(p.state["pieces"]) for p in puzzles}) == 16


def test_the_board_is_drawn_within_32_columns() -> None:
    for theme in THEMES:
        lines = GENERATOR.picture(generate_puzzle("rithmomachia", 4, theme))
        assert lines and all(len(line) <= 32 for line in lines)
