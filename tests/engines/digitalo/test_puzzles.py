"""Digitalo's puzzles (``engines/digitalo/puzzles.py``), theme by theme: complete scores
what the proof says, break answers with an inverter, survive has few answers. The rest is
in ``tests/engines/cards/test_puzzles.py`` (alike for both card games) and
``tests/engines/cards/test_puzzle_proofs.py`` (every proof replayed under every deal)."""

from __future__ import annotations

from engines.digitalo import DigitaloState
from engines.digitalo.notation import parse_move
from engines.digitalo.puzzles import GENERATOR

SEEDS = range(4)


def test_complete_puzzles_score_what_the_proof_says() -> None:
    """Each answer completes the pyramid; when the round ends at once it scores the
    proof's points, and no other action ends it."""
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "complete")
        assert set(puzzle.accepted) <= set(puzzle.proof["completions"])
        for action in puzzle.accepted:
            state = puzzle.position()
            events = state.apply(puzzle.seat, action)
            ended = [e for e in events if e["type"] == "round_over"]
            if puzzle.proof["last_move"]:
                assert isinstance(state, DigitaloState) and state.phase == "last move"
            else:
                assert ended and ended[0]["winner"] == puzzle.seat
                assert ended[0]["points"] == puzzle.proof["best"][0]
        for entry in puzzle.proof["refused"]:
            if entry["action"] not in puzzle.proof["completions"]:
                events = puzzle.position().apply(puzzle.seat, entry["action"])
                assert not any(e["type"] == "round_over" for e in events)


def test_break_puzzles_answer_with_an_inverter_against_a_real_threat() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "break")
        assert all(parse_move(a).kind in ("inverter", "counter") for a in puzzle.accepted)
        quiet = [e for e in puzzle.proof["refused"]
                 if parse_move(e["action"]).kind in ("gate", "discard")]
        assert quiet and all(e["value"][1] == 0 and e["reply_kind"] == "complete"
                             for e in quiet)


def test_survive_puzzles_have_few_answers_and_a_refusal_that_looks_as_good() -> None:
    for seed in SEEDS:
        puzzle = GENERATOR.generate(seed, "survive")
        assert 1 <= len(puzzle.accepted) <= 3 and puzzle.proof["decoys"] >= 1
        assert puzzle.proof["unseen"]["kinds"].get("INV", 0) > 0
        assert puzzle.proof["best"][2] >= 2
        assert any(e["reply_kind"] == "flip" for e in puzzle.proof["refused"])
