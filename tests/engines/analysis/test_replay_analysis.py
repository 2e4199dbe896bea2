"""Replays (``engines.replay``) and the analysis behind hints and replays
(``engines.analysis`` and each game's analysis module), on the real engines."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import booleo, digitalo, lgame, rithmomachia
from engines.analysis import hint, replay
from engines.analysis.card_hints import hint as card_hint
from engines.base import GameState, Message
from engines.booleo import cards as booleo_cards
from engines.digitalo import cards as digitalo_cards
from engines.lgame.analysis import RANK, mistakes, move_results, verdict
from engines.registry import get_game
from engines.replay import FinishedOnly, replay_frames
from engines.rithmomachia.analysis import threats
from engines.rithmomachia.board import CELL_NAMES, owner_of
from engines.rithmomachia.equations import iter_cells
from engines.rithmomachia.moves import generate_moves, make_move, move_parts
from engines.turing.analysis import code_count, consistent, sheet_results
from engines.turing.analysis import hint as turing_hint
from engines.turing.puzzle import Puzzle
from engines.turing.state import TuringState
from engines.turing.state import new_game as new_turing
from renderers.i18n import CATALOGUE

GAMES = ("lgame", "rithmomachia", "booleo", "digitalo", "turing")


def played(game: str, seed: int, limit: int = 400) -> GameState:
    """A game of random legal moves to its end (a resignation if it runs long). Turing:
    one player proposes and tests for a few rounds, then guesses."""
    module = get_game(game)
    players = 1 if game == "turing" else 2
    state = module.new_game({}, players, seed)
    rng = random.Random(seed)
    for number in range(limit):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        if game == "turing":
            guessing = number >= 9
            actions = [a for a in actions if a.startswith("guess") == guessing]
        state.apply(seat, rng.choice(actions))
    if state.outcome() is None:
        state.resign(state.to_move()[0])
    return state


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_steps_from_the_start_to_the_stored_end(game: str) -> None:
    final = played(game, 11)
    players = 1 if game == "turing" else 2
    frames = replay_frames(game, final.to_dict(), players)
    start = get_game(game).new_game({}, players, 11).view(None) if game != "turing" else None
    assert frames[0].kind == "start"
    if start is not None:
        assert frames[0].public == start
    # Every logged action is one frame, and the last frame is the stored end exactly.
    actions = final.to_dict()["actions"]
    assert len(frames) in (len(actions) + 1, len(actions) + 2)
    assert frames[-1].public == final.view(None)
    assert all(f.kind in ("action", "resign") for f in frames[1:-1])


def test_a_resigned_game_ends_with_its_stored_end() -> None:
    state = lgame.new_game({}, 2, 3)
    for _ in range(4):
        state.apply(state.turn, state.legal_actions(state.turn)[0])
    state.resign(0)
    frames = replay_frames("lgame", state.to_dict(), 2)
    assert [f.kind for f in frames] == ["start", *["action"] * 4, "resign"]
    assert frames[-1].seat == 0 and frames[-1].public == state.view(None)
    assert frames[-2].public["outcome"] is None


@pytest.mark.parametrize("game", ["booleo", "digitalo", "rithmomachia"])
def test_a_game_resigned_or_abandoned_mid_way_replays_to_that_end(game: str) -> None:
    for ending in ("resign", "abandon"):
        state = get_game(game).new_game({}, 2, 12)
        rng = random.Random(12)
        for _ in range(7):
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if ending == "resign":
            state.resign(1)
        else:
            state.abandon()
        frames = replay_frames(game, state.to_dict(), 2)
        assert len(frames) == 9
        assert frames[-1].public == state.view(None)
        assert frames[-1].kind == ("resign" if ending == "resign" else "end")


def test_a_running_game_has_no_replay() -> None:
    state = booleo.new_game({}, 2, 5)
    state.apply(state.to_move()[0], state.legal_actions(state.to_move()[0])[0])
    with pytest.raises(FinishedOnly):
        replay_frames("booleo", state.to_dict(), 2)


@pytest.mark.parametrize("game", ["booleo", "digitalo"])
def test_card_game_frames_hold_both_hands_as_the_game_dealt_them(game: str) -> None:
    final = played(game, 4)
    frames = replay_frames(game, final.to_dict(), 2)
    again = get_game(game).new_game({}, 2, 4)
    assert [v["hand"] for v in frames[0].private] == [again.view(s)["hand"] for s in (0, 1)]
    assert [v["hand"] for v in frames[-1].private] == [final.view(s)["hand"] for s in (0, 1)]
    # The public frames carry no hand: only the private ones do.
    assert all("hand" not in frame.public for frame in frames)


def test_rithmomachia_frames_carry_each_capture_with_its_equation() -> None:
    final = played("rithmomachia", 7)
    frames = replay_frames("rithmomachia", final.to_dict(), 2)
    captures = [e for f in frames for e in f.events if e["type"] == "capture"]
    assert captures, "seed 7 captures pieces"
    for capture in captures:
        left, _, result = str(capture["equation"]).partition(" = ")
        assert result == capture["bits"] and left


# --- L-game ---------------------------------------------------------------------------


def test_the_l_game_start_is_a_draw_under_perfect_play() -> None:
    # Published fact (de Bono; Winning Ways): neither player can force a win.
    state = lgame.new_game({}, 2, 1)
    assert verdict(state).result == "draw"
    found = hint("lgame", state.to_dict(), 0, 1)
    assert found["result"] == "draw" and found["action"] in state.legal_actions(0)
    assert move_results(state)[found["action"]] == "draw"


def test_a_move_that_throws_the_draw_away_is_marked_with_a_better_one() -> None:
    state = lgame.new_game({}, 2, 1)
    losing = next(a for a, r in move_results(state).items() if r == "loss")
    (found,) = mistakes(lgame.new_game({}, 2, 1), [losing])
    assert found is not None
    assert found == {"seat": 0, "before": "draw", "after": "loss",
                     "better": found["better"], "better_text": found["better_text"]}
    assert move_results(state)[found["better"]] == "draw"


def test_perfect_play_makes_no_mistakes_and_every_marked_move_lost_ground() -> None:
    perfect = lgame.new_game({}, 2, 2)
    actions = []
    agent = lgame.make_agent("perfect", random.Random(2))
    for _ in range(12):
        action = agent.choose(perfect, perfect.turn)
        actions.append(action)
        perfect.apply(perfect.turn, action)
    assert mistakes(lgame.new_game({}, 2, 2), actions) == [None] * 12
    final = played("lgame", 5)
    analysed = replay("lgame", final.to_dict(), 2)
    frames = analysed["frames"]
    for index, mistake in enumerate(analysed["mistakes"]):
        if mistake is None or index == 0:
            continue
        before = lgame.replay({}, 5, [f["action"] for f in frames[1:index]])
        assert RANK[mistake["after"]] < RANK[mistake["before"]] == RANK[verdict(before).result]


# --- Turing Machine -------------------------------------------------------------------


def with_secret(state: TuringState, puzzle: Puzzle) -> TuringState:
    data = state.to_dict()
    data["puzzle"] = puzzle.to_dict()
    return TuringState.from_dict(data)


def test_a_turing_hint_reads_only_the_players_results_never_the_secret() -> None:
    state = new_turing({}, 1, 21)
    state.apply(0, "propose 123")
    state.apply(0, "test A")
    puzzle = state.puzzle
    results = sheet_results(state.sheets[0].rounds)
    remaining = consistent(state.candidates(), puzzle.letters, results)
    others = [c for c in remaining if c.code != puzzle.code and c.ids != puzzle.secret]
    assert others, "seed 21 leaves more than one code after one test"
    # The same results with another secret that fits them: the same hint.
    other = Puzzle(puzzle.mode, puzzle.verifiers, others[0].ids)
    assert turing_hint(with_secret(state, other), 0) == turing_hint(state, 0)
    found = turing_hint(state, 0)
    assert found["kind"] == "test" and found["codes"] == code_count(remaining)
    # Codes of candidates on both sides count on both; a test worth making splits.
    assert found["yes"] + found["no"] >= found["codes"]
    assert found["yes"] >= 1 and found["no"] >= 1


def test_each_turing_test_is_told_what_it_ruled_out() -> None:
    final = played("turing", 8)
    assert isinstance(final, TuringState) and final.machine is not None
    analysed = replay("turing", final.to_dict(), 1)
    effects = [e for e in analysed["tests"] if e]
    results = sheet_results(final.sheets[0].rounds)
    assert len(effects) == len(results)
    for effect, (proposal, letter, answer) in zip(effects, results, strict=True):
        assert (effect["proposal"], effect["letter"], effect["answer"]) == (proposal, letter,
                                                                            answer)
        assert effect["before"] >= effect["after"] >= 1
    tree = analysed["machine"]["tree"]
    assert tree["kind"] in ("round", "code")
    assert analysed["machine"]["worst"] == final.machine["optimal"]["worst"]


# --- Rithmomachia ---------------------------------------------------------------------


def captured_by_some_move(state: rithmomachia.RithmomachiaState, seat: int) -> set[str]:
    """Independent check: play every opponent move on a copy and see which of ``seat``'s
    pieces are gone or turned."""
    found: set[str] = set()
    enemy = 1 - seat
    mine_before = {c for c in range(64) if state.board[c]
                   and owner_of(state.board[c]) == seat}
    for move in generate_moves(state.board, enemy, state.push):
        _, captured = make_move(state.board, move, enemy, state.rules)
        _, dest, push = move_parts(move)
        for cell in iter_cells(captured):
            origin = dest if cell == push else cell
            if origin in mine_before:
                found.add(CELL_NAMES[origin])
    return found


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_rithmomachia_threats_are_exactly_the_pieces_some_reply_captures(seed: int) -> None:
    state = rithmomachia.new_game({}, 2, seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(24):
        if state.outcome() is not None:
            break
        seat = state.turn
        found = threats(state, seat)
        assert {t["target"] for t in found} == captured_by_some_move(state, seat)
        checked += bool(found)
        for threat in found:
            assert threat["equation"].endswith(threat["piece"])
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked, "some position of the game has a threat"


# --- card games -----------------------------------------------------------------------


@pytest.mark.parametrize("module", [booleo, digitalo])
def test_a_card_hint_is_legal_explained_and_blind_to_the_other_hand(module: Any) -> None:
    state = module.new_game({}, 2, 9)
    rng = random.Random(9)
    for _ in range(12):
        seat = state.to_move()[0]
        found = card_hint(state, seat, 3)
        assert found["action"] in state.legal_actions(seat)
        reason = found["reason"]
        assert isinstance(reason, Message) and reason.key in CATALOGUE["nl"]
        # Another hand for the opponent (same size, from the draw pile): the same hint.
        data = state.to_dict()
        other = 1 - seat
        size = len(data["hands"][other])
        swapped = list(data["draw"][:size])
        if len(swapped) == size:
            data["draw"] = data["draw"][size:] + data["hands"][other]
            cards = booleo_cards if module is booleo else digitalo_cards
            data["hands"][other] = cards.sort_cards(swapped)
            assert card_hint(module.State.from_dict(data), seat, 3)["action"] == found["action"]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_a_cut_machine_tree_keeps_its_first_nodes_and_counts_the_rest() -> None:
    from engines.turing.analysis import machine_tree, prune, tree_size

    whole = machine_tree(new_turing({"difficulty": "hard"}, 1, 3).puzzle)["tree"]
    size = tree_size(whole)
    assert size > 5

    def kept_and_cut(node: dict[str, Any]) -> tuple[int, int]:
        if node["kind"] == "cut":
            return 0, int(node["nodes"])
        parts = [kept_and_cut(node[k]) for k in ("next", "yes", "no") if k in node]
        return 1 + sum(k for k, _ in parts), sum(c for _, c in parts)

    for budget in (1, 2, size // 2, size, size + 3):
        kept, cut = kept_and_cut(prune(whole, [budget]))
        assert (kept, kept + cut) == (min(budget, size), size)


@pytest.mark.parametrize("game", ["booleo", "digitalo"])
def test_hints_and_replays_cross_to_a_worker_process_with_their_words(game: str) -> None:
    """The pool may run these in another process: what comes back must still translate."""
    import pickle

    final = played(game, 5)
    frames = pickle.loads(pickle.dumps(replay(game, final.to_dict(), 2)))["frames"]
    texts = [f["text"] for f in frames if f["kind"] == "action"]
    assert texts and all(isinstance(t, Message) and t.key for t in texts)
    state = get_game(game).new_game({}, 2, 5)
    found = pickle.loads(pickle.dumps(hint(game, state.to_dict(), state.to_move()[0], 1)))
    assert isinstance(found["reason"], Message) and found["reason"].key.startswith("hint.card.")


def test_a_turing_hint_names_the_test_whose_worst_answer_leaves_fewest_codes() -> None:
    """Checked by brute force over the candidates: the counts, and that no untested letter
    would leave fewer codes in the worst case."""
    state = new_turing({"difficulty": "hard", "verifiers": 5}, 1, 4)
    letters = state.puzzle.letters
    for action in ("propose 123", "test A", "next", "propose 241"):
        state.apply(0, action)
    found = turing_hint(state, 0)
    assert found["kind"] == "test" and found["proposal"] == "241"
    remaining = consistent(state.candidates(), letters, sheet_results(state.sheets[0].rounds))

    def brute(letter: str) -> tuple[int, int]:
        index = letters.index(letter)
        code = (2, 4, 1)
        return (len({c.code for c in remaining if c.criteria[index].accepts(code)}),
                len({c.code for c in remaining if not c.criteria[index].accepts(code)}))

    assert brute(found["letter"]) == (found["yes"], found["no"])
    assert all(max(brute(letter)) >= max(found["yes"], found["no"]) for letter in letters)
