"""bOOleO's puzzles (``engines/booleo/puzzles.py``), theme by theme: complete wins at once,
break answers with a NOT, survive has few answers. The rest is in
``tests/engines/cards/test_puzzles.py`` (alike for both card games) and
``tests/engines/cards/test_puzzle_proofs.py``
(every proof replayed under every deal)."""

from __future__ import annotations

from engines.booleo.notation import parse_move
from engines.booleo.puzzles import GENERATOR

SEEDS = range(4)


def test_complete_puzzles_win_at_once_with_every_answer() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "complete")
        for action in puzzle.accepted:
            state = puzzle.position()
            state.apply(puzzle.seat, action)
            outcome = state.outcome()
            assert outcome is not None and outcome.winners == (puzzle.seat,)
        for entry in puzzle.proof["refused"]:
            state = puzzle.position()
            state.apply(puzzle.seat, entry["action"])
            assert state.outcome() is None


def test_break_puzzles_answer_with_a_not_against_a_real_threat() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "break")
        assert all(parse_move(a).kind == "not" for a in puzzle.accepted)
        assert puzzle.proof["best"][1] == 1
        quiet = [e for e in puzzle.proof["refused"] if parse_move(e["action"]).kind != "not"]
        assert quiet and all(e["value"][1] == 0 and e["reply_kind"] == "complete"
                             for e in quiet)


def test_survive_puzzles_have_few_answers_and_a_refusal_that_looks_as_good() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "survive")
        assert 1 <= len(puzzle.accepted) <= 3 and puzzle.proof["decoys"] >= 1
        assert puzzle.proof["unseen"]["kinds"].get("NOT", 0) > 0
        answers = [e["value"] for e in puzzle.proof["accepted"]]
        assert all(e["value"] < answers[0] for e in puzzle.proof["refused"])
        assert any(e["reply_kind"] == "flip" for e in puzzle.proof["refused"])
