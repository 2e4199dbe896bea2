from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.adapters.console import ConsoleSession
from bot.service import Service
from bot.store import SQLiteStore
from tests.helpers.paths import REPO_ROOT

REPO = REPO_ROOT


class Script:
    """Feeds scripted lines to the console and records what it prints."""

    def __init__(self, lines: list[str] | Callable[[list[str]], Iterator[str]]) -> None:
        self.output: list[str] = []
        self._lines = iter(lines) if isinstance(lines, list) else lines(self.output)

    async def read(self, prompt: str) -> str | None:
        return next(self._lines, None)

    def write(self, text: str) -> None:
        self.output.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.output)


async def run_session(store: SQLiteStore, script: Script) -> None:
    await ConsoleSession(Service(store), script.read, script.write).run()


async def test_play_against_perfect_to_the_end_by_numbers(store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield from ["1", "1", "3", "1"]  # L-game vs computer, standard rules, perfect, me first
        while not any("Game over" in line for line in output):
            yield "1"  # always the first option: a move step or "keep the neutral pieces"
        yield "quit"  # back at the main menu

    script = Script(answers)
    await run_session(store, script)
    assert "Game over: Computer · perfect wins (You had no legal L move)." in script.text
    assert script.output[-1] == "Goodbye!"
    assert await store.running_game("console", "local") is None


async def test_quit_and_restart_resumes_the_game(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    first = Script(["2", "1", "1", "1", "quit"])  # hot-seat, standard, one move, quit
    await run_session(store, first)
    assert "Game saved" in first.output[-1]
    await store.close()

    store = await SQLiteStore.open(db_path)
    second = Script(["board", "quit"])
    await run_session(store, second)
    assert "Welcome back: resuming your unfinished game." in second.text
    assert "Last move by Player 1 (X)" in second.text
    assert "To move: Player 2 (O)." in second.text
    await store.close()


async def test_hot_seat_typed_moves_commands_and_bad_input(store: SQLiteStore) -> None:
    script = Script(["2", "1",          # hot-seat, standard rules
                     "99", "banana",    # out of range, then garbage notation
                     "d4 S W a4>a1",    # Player 1 types a move
                     "rules", "help",
                     "b1 n e",          # Player 2's L is already there: refused
                     "resign",          # Player 2 resigns
                     "quit"])
    await run_session(store, script)
    text = script.text
    assert "Please type a number from the list" in text
    assert "'banana' is not an L placement" in text
    assert "Last move by Player 1 (X): d4 S W, a4>a1" in text
    assert "Typed moves name the corner of the L" in text
    assert "Words: help, rules, board, stats, resign, abandon, quit." in text
    assert "is where it stands now" in text
    assert "Game over: Player 1 wins (Player 2 resigned)." in text


def test_python_m_bot_without_token_starts_the_console(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DISCORD_TOKEN", "TELEGRAM_TOKEN"}}
    env["DATABASE_PATH"] = str(tmp_path / "console.sqlite3")
    result = subprocess.run([sys.executable, "-m", "bot"], input="3\n5\n", text=True,
                            capture_output=True, cwd=tmp_path, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Play the L-game against the computer" in result.stdout
    assert "L-game (Edward de Bono)" in result.stdout
    assert "Goodbye!" in result.stdout
    assert Path(env["DATABASE_PATH"]).exists()


async def test_a_turing_puzzle_shows_the_private_sheet_at_the_prompt(
        store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        menu = "\n".join(output)
        number = next(line.split(")")[0].strip() for line in menu.splitlines()
                      if "Turing" in line and "computer" in line.lower())
        yield number
        for _ in range(40):  # answer setup questions with their first choice
            if any("Propose a code" in line for line in output[-12:]):
                break
            yield "1"
        yield from ["propose 111", "test a"]
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    assert "Propose a code" in script.text
    assert "A ✅" in script.text or "A ❌" in script.text or "A=yes" in script.text \
        or "A=no" in script.text, "the result of the test shows on the player's sheet"


def listed_options(output: list[str]) -> list[str]:
    """The numbers of the menu printed last, without its "back" entry."""
    numbers: list[str] = []
    for line in reversed("\n".join(output[-30:]).splitlines()):
        found = re.match(r"\s*([1-9]\d*)\) ", line)
        if found is None:
            if numbers:
                break
            continue
        numbers.append(found.group(1))
    return numbers or ["1"]


@pytest.mark.parametrize("title, moved", [
    ("bOOleO", r"\bYou (placed|replaced|discarded|played|challenged)\b"),
    ("Digitalo", r"\bYou (placed|discarded|played|countered|accepted)\b"),
])
async def test_card_game_against_the_computer_shows_the_hand_and_plays_by_numbers(
        store: SQLiteStore, title: str, moved: str) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        menu = "\n".join(output)
        number = next(line.split(")")[0].strip() for line in menu.splitlines()
                      if f"the {title} against" in line)
        yield number
        for _ in range(40):  # answer setup questions with their first choice
            if any("Your hand" in line for line in output[-12:]):
                break
            yield "1"
        rng = random.Random(5)
        for _ in range(40):  # a random listed option at every step; a refusal just asks again
            yield rng.choice(listed_options(output))
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    assert f"{title} started" in script.text
    assert "Your hand (South" in script.text or "Your hand (North" in script.text
    assert "∧ AND" in script.text, "the board and its legend were printed"
    assert re.search(moved, script.text)


async def test_rithmomachia_against_the_computer_by_numbers_and_typed_moves(
        store: SQLiteStore, fast_rithmomachia_agent: None) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        menu = "\n".join(output)
        yield next(line.split(")")[0].strip() for line in menu.splitlines()
                   if "the Boolean Rithmomachia against" in line)
        for _ in range(10):  # setup questions: their first choice
            if any("Boolean Rithmomachia started" in line for line in output):
                break
            yield "1"
        yield "9z9-1a1"  # nonsense: refused with what was expected
        yield "1b1-2b1"  # a typed move
        rng = random.Random(2)
        for _ in range(60):
            if any("Game over" in line for line in output):
                break
            yield rng.choice(listed_options(output))
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    assert "Level 1 (White's home)      Level 2" in script.text, "levels side by side"
    assert "You moved ○0001 1b1 → 2b1." in script.text
    assert "There is no cell 9z9: levels are 1–4, files a–d, ranks 1–4" in script.text
    assert "Game over" in script.text


async def test_stats_word_shows_the_results_so_far(store: SQLiteStore) -> None:
    script = Script(["2", "1", "resign",   # hot-seat; Player 1 resigns at once
                     "2", "1", "stats",    # a new hot-seat game; Player 1 asks
                     "quit"])
    await run_session(store, script)
    assert "L-game: 0 won, 1 lost, 0 drawn against people · rating 1184" in script.text
