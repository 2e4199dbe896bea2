"""The puzzle trainer in the console (issue 41): ten puzzles in a row by numbers alone
from a game's menu, the rating moving after each; a typed answer; retry and show me; the
puzzle of the day; the puzzle lines of ``stats``; and a puzzle left open resumed by a new
session (a restart)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.store import SQLiteStore
from engines.puzzles import Puzzle, puzzle_games
from engines.registry import get_game
from renderers.i18n import localise
from tests.helpers.console_script import Script, number_of, run_session
from tests.helpers.puzzle_trainer import menu_tokens, right_action, wrong_action

PLAYER = ("console", "player-1")


def labels(puzzle: Puzzle, right: bool) -> list[str]:
    """The labels of the options to pick, one per menu step, for the right (or a wrong)
    answer."""
    state = puzzle.position()
    tokens = menu_tokens(puzzle, right_action(puzzle) if right else wrong_action(puzzle))
    found = []
    for end in range(len(tokens)):
        choice = next(c for c in state.menu(puzzle.seat, tokens[:end]) if c.token == tokens[end])
        found.append(localise("en", choice.label, f"{puzzle.game}.choice.{choice.label}"))
    return found


def listed(output: list[str], label: str) -> str:
    """The number of the option labelled exactly ``label`` in the menu printed last."""
    for line in reversed("\n".join(output).splitlines()):
        found = re.match(r"\s*(\d+)\) (.*)", line)
        if found and found.group(2) == label:
            return found.group(1)
    raise AssertionError(f"no option {label!r} listed")


@pytest.mark.parametrize("game", puzzle_games())
async def test_ten_puzzles_in_a_row_by_numbers(store: SQLiteStore, game: str) -> None:
    title = get_game(game).TITLE
    setup = iter([title, "Solve puzzles"])
    ratings: list[float] = []
    pending: list[str] = []
    state = {"answered": 0}

    async def brain(script: Script, prompt: str) -> str | None:
        out = script.output
        step = next(setup, None)
        if step is not None:
            return number_of(out, step)
        if pending:
            return listed(out, pending.pop(0))
        page = "\n".join(out[-60:])
        if "Leave the puzzles" not in page or len(ratings) == 10:
            return "quit"
        if "Find the best move" in page.rsplit("🧩", 1)[-1]:
            attempt = await store.open_puzzle(*PLAYER, game)
            assert attempt is not None
            right = state["answered"] % 4 != 3
            pending.extend(labels(Puzzle.from_dict(attempt.puzzle), right))
            state["answered"] += 1
            return listed(out, pending.pop(0))
        player = await store.puzzle_player(*PLAYER, game)
        assert player is not None and player.tried == state["answered"]
        ratings.append(player.rating)
        return number_of(out, "Leave the puzzles" if state["answered"] == 10 else "Next ▶")

    script = Script(brain=brain)
    await run_session(store, script)
    text = script.text
    assert text.count("✅ Right!") == 8 and text.count("❌ Not this one.") == 2
    assert len(ratings) == 10 and len(set(ratings)) == 10, "the rating moved after each"
    assert "```" not in text
    assert f"{title}: what would you like to do?" in text.rsplit("Leave the puzzles", 1)[-1]


async def test_typed_answer_retry_show_me_stats_and_a_resumed_puzzle(
        store: SQLiteStore) -> None:
    game = puzzle_games()[0]
    title = get_game(game).TITLE
    # A first session opens a puzzle and leaves it unanswered (as a restart would).
    def leave_open(out: list[str]) -> Iterator[str]:
        yield number_of(out, title)
        yield number_of(out, "Solve puzzles")
        yield "quit"

    await run_session(store, Script(leave_open))
    attempt = await store.open_puzzle(*PLAYER, game)
    assert attempt is not None
    puzzle = Puzzle.from_dict(attempt.puzzle)
    wrong = puzzle.position().action_text(wrong_action(puzzle))

    def answers(out: list[str]) -> Iterator[str]:
        yield number_of(out, title)
        yield number_of(out, "Solve puzzles")
        yield "nonsense move"  # refused, the same puzzle asked again
        yield str(wrong)
        yield number_of(out, "Retry")
        for label in labels(puzzle, True):
            yield listed(out, label)
        yield number_of(out, "Show me")
        yield number_of(out, "Leave the puzzles")
        yield "stats"
        yield number_of(out, "Today's puzzle")
        yield number_of(out, "Leave the puzzles")
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    text = script.text
    assert "still open" in text and attempt.code in text, "the open puzzle is resumed"
    assert "❌ Not this one." in text
    assert "✅ Right (practice: not rated)." in text
    assert "👁 The answer:" in text
    assert f"{title} puzzles: rating" in text and "0 of 1 solved" in text
    assert "puzzle of the day" in text
    player = await store.puzzle_player(*PLAYER, game)
    assert player is not None and player.tried == 1, "retry and show me are not rated"
