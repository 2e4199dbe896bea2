"""The console, driven through its own input and output as a player at the keyboard."""

from __future__ import annotations

import itertools
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.console import ConsoleSession
from bot.service import Service
from bot.store import SQLiteStore
from engines.registry import get_game, make_agent
from renderers.i18n import translate
from tests.helpers.console_script import Script, listed_options, number_of, run_session
from tests.helpers.paths import REPO_ROOT

REPO = REPO_ROOT


def console_env(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DISCORD_TOKEN", "TELEGRAM_TOKEN"}}
    env["DATABASE_PATH"] = str(tmp_path / "console.sqlite3")
    return env


# ------------------------------------------------------------------ whole games
async def test_play_against_perfect_to_the_end_by_numbers(store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield "1"   # the L-game
        yield ""    # Enter: against the computer
        yield ""    # Enter: the standard rules
        yield number_of(output, "perfect")
        yield ""    # Enter: I move first
        while not any("Game over" in line for line in output):
            yield "1"  # always the first option: a move step or "keep the neutral pieces"
        yield number_of(output, "Quit")

    script = Script(answers)
    await run_session(store, script)
    assert "Game over: Computer · perfect wins (Player 1 had no legal L move)." in script.text
    assert "You lost." in script.text, "the console speaks to its player as 'you'"
    assert script.output[-1] == "Goodbye!"
    assert await store.running_game("console", "local") is None


async def test_quit_and_restart_resumes_the_game(db_path: Path) -> None:
    store = await SQLiteStore.open(db_path)
    first = Script(["1", "2", "", "1", "1", "quit"])  # L-game hot seat, standard, one move
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
    script = Script(["1", "2", "",      # L-game, hot seat, standard rules
                     "99", "banana",    # out of range, then garbage notation
                     "d4 S W a4>a1",    # Player 1 types a move
                     "rules", "help",
                     "b1 n e",          # Player 2's L is already there: refused
                     "resign", "yes",   # Player 2 resigns, and says so when asked
                     "quit"])
    await run_session(store, script)
    text = script.text
    assert "! Please type a number from the list (1–" in text
    assert "Last move by Player 1 (X): d4 S W, a4>a1" in text
    assert "Typed moves name the corner of the L" in text
    assert "Words, at every question: help, rules" in text
    assert "is where it stands now" in text
    assert "Game over: Player 1 wins (Player 2 resigned)." in text


def test_python_m_bot_without_token_starts_the_console(tmp_path: Path) -> None:
    env = console_env(tmp_path)
    # The L-game, its rules, then quit from the main menu.
    result = subprocess.run([sys.executable, "-m", "bot"], input="1\n3\nquit\n", text=True,
                            capture_output=True, cwd=tmp_path, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "L-game: what would you like to do?" in result.stdout
    assert "L-game (Edward de Bono)" in result.stdout
    assert "Goodbye!" in result.stdout
    assert Path(env["DATABASE_PATH"]).exists()


@pytest.mark.parametrize("title, moved", [
    ("bOOleO", r"\bPlayer 1 (placed|replaced|discarded|played|challenged)\b"),
    ("Digitalo", r"\bPlayer 1 (placed|discarded|played|countered|accepted)\b"),
])
async def test_card_game_against_the_computer_shows_the_hand_and_plays_by_numbers(
        store: SQLiteStore, title: str, moved: str) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, title)
        for _ in range(10):  # Enter at every setup question: the standard game
            if any("Your hand" in line for line in output[-12:]):
                break
            yield ""
        rng = random.Random(5)
        for _ in range(40):  # a random listed option at every step; a refusal just asks again
            yield rng.choice(listed_options(output))
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    assert f"{title} started" in script.text
    assert "Your hand (South" in script.text or "Your hand (North" in script.text
    assert "∧ AND" in script.text, "the board and its legend were printed"
    assert "```" not in script.text, "chat fences are not printed in a terminal"
    assert re.search(moved, script.text)


async def test_rithmomachia_against_the_computer_by_numbers_and_typed_moves(
        store: SQLiteStore, fast_rithmomachia_agent: None) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "Rithmomachia")
        for _ in range(10):  # Enter at every setup question
            if any("Boolean Rithmomachia started" in line for line in output):
                break
            yield ""
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
    assert "Player 1 moved ○0001 1b1 → 2b1." in script.text
    assert "There is no cell 9z9: levels are 1–4, files a–d, ranks 1–4" in script.text


async def test_stats_word_shows_the_results_so_far(store: SQLiteStore) -> None:
    script = Script(["1", "2", "", "resign",   # L-game hot seat; Player 1 resigns at once
                     "yes",                    # ... and says so when asked
                     "",                       # Enter after the game: play again
                     "stats",                  # Player 1 asks in the rematch
                     "quit"])
    await run_session(store, script)
    assert "What next?" in script.text
    # The rematch swapped the seats: Player 2, who won, moves first and asks.
    assert "L-game: 1 won, 0 lost, 0 drawn against people · rating 1216" in script.text


# -------------------------------------------------- B1: hot seat with hidden hands
SIDE = re.compile(r"^(Player [12]) \((South|North)\)", re.MULTILINE)


@pytest.mark.parametrize(("game", "title", "most_prompts"), [
    ("booleo", "bOOleO", 1000),   # to the end
    ("digitalo", "Digitalo", 40),  # a match of rounds to 1000: its first turns
])
async def test_hot_seat_each_prompt_shows_its_players_hand_behind_a_pass_screen(
        store: SQLiteStore, game: str, title: str, most_prompts: int) -> None:
    module = get_game(game)
    agents = [make_agent(game, "strong", random.Random(seat)) for seat in (0, 1)]
    prompts: list[tuple[str, str]] = []  # (the player asked, the hand shown above)
    passes: list[str] = []
    setup = iter([number_of, "local", ""])  # the game, hot seat, standard rules

    async def brain(script: Script, prompt: str) -> str | None:
        out = script.output
        step = next(setup, None)
        if step is number_of:
            return number_of(out, title)
        if step == "local":
            return number_of(out, "with a friend")
        if step is not None:
            return str(step)
        if "What next?" in out[-5:] or len(prompts) >= most_prompts:
            return "quit"
        if "press Enter when you are ready" in prompt:
            passes.append(prompt.split(",")[0])
            return ""
        record = await store.running_game("console", "local")
        assert record is not None, "a move prompt without a running game"
        state = module.State.from_dict(record.state)
        seat = state.to_move()[0]
        asked = next(line.split(":")[0] for line in reversed(out) if re.match(
            r"^Player [12]: ", line))
        # The hand shown since the screen was last cleared: never one from before.
        shown = out[max(i for i, line in enumerate(out) if line == "<clear>"):]
        hand = next(line for line in reversed(shown) if line.startswith("Your hand ("))
        prompts.append((asked, hand))
        assert asked == f"Player {seat + 1}", "the prompt names the player to move"
        return agents[seat].choose(state, seat)

    script = Script(brain=brain)
    await run_session(store, script)
    text = script.text
    if most_prompts > len(prompts):
        assert "Game over" in text and "What next?" in text, "played to the end"
    sides = dict(SIDE.findall(text))
    assert len(prompts) > 10
    for asked, hand in prompts:
        assert hand.startswith(f"Your hand ({sides[asked]}"), (asked, hand)
    # The device is passed between turns, and the screen is cleared before each hand.
    changes = [asked for index, (asked, _) in enumerate(prompts)
               if index == 0 or prompts[index - 1][0] != asked]
    assert passes == changes
    assert script.clears >= 2 * len(passes)
    assert "from the list (1–0)" not in text


async def test_hot_seat_turing_keeps_each_players_answers_to_themselves(
        store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "Turing")
        yield number_of(output, "with a friend")
        yield ""                                   # a new standard puzzle
        yield ""                                   # pass screen: Player 1 ready
        yield from ["propose 111", "test a", "test b", "next"]
        yield ""                                   # pass screen: Player 2 ready
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    text = script.text
    player_two = text[text.index("Player 2, press Enter"):]
    assert "Your notes: Player 2" in player_two
    assert not re.search(r"\b[AB]=(yes|no)\b", player_two), "Player 1's answers stay hidden"
    assert re.search(r"\bA=(yes|no)\b", text[:text.index("Player 2, press Enter")])


# -------------------------------------------------------- B2: options and defaults
async def test_each_option_offers_its_real_default_first_and_enter_takes_it(
        store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "bOOleO")
        yield number_of(output, "with a friend")
        yield number_of(output, "Choose the options")
        for _ in range(8):  # Enter at every option
            if any("bOOleO started" in line for line in output):
                break
            yield ""
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    text = script.text
    referee = text[text.index("Rules option 'referee'"):]
    assert referee.splitlines()[1].strip() == "1) on (standard, Enter)"
    extended = text[text.index("Rules option 'extended'"):]
    assert extended.splitlines()[1].strip() == "1) off (standard, Enter)"
    assert "standard rules)" not in text
    record = await store.running_game("console", "local")
    assert record is not None
    state: Any = get_game("booleo").State.from_dict(record.state)
    assert state.options["referee"] is True


# ---------------------------------------------------------- B3 and B6: the terminal
def test_ctrl_c_saves_and_quits_at_once(tmp_path: Path) -> None:
    env = console_env(tmp_path)
    process = subprocess.Popen([sys.executable, "-m", "bot"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=tmp_path, env=env)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("1\n2\n\n")  # an L-game at the keyboard, then wait at its prompt
    process.stdin.flush()
    for line in process.stdout:
        if "To move" in line:
            break
    process.send_signal(2)  # SIGINT, as Ctrl-C sends; stdin stays open
    try:
        out, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("Ctrl-C did not end the console") from None
    assert "Game saved" in out
    assert "Traceback" not in err


def test_a_closed_output_pipe_ends_quietly(tmp_path: Path) -> None:
    env = console_env(tmp_path)
    process = subprocess.Popen([sys.executable, "-m", "bot"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
                               env=env)
    assert process.stdin is not None and process.stdout is not None
    process.stdout.readline()   # `./start | head -1`: one line, then the reader is gone
    process.stdout.close()
    process.stdin.write(b"help\n" * 50 + b"quit\n")
    process.stdin.close()
    process.wait(timeout=30)
    assert process.stderr is not None
    err = process.stderr.read().decode()
    assert "BrokenPipeError" not in err and "Traceback" not in err, err


async def test_help_works_in_menus_and_strange_digits_and_old_errors(
        store: SQLiteStore) -> None:
    script = Script(["help",            # in the main menu
                     "²",               # a superscript two: a digit to Python, not an option
                     "1", "2", "",      # L-game, hot seat, standard rules
                     "banana",          # refused with an explanation
                     "99",              # out of range: that old explanation is not repeated
                     "quit"])
    await run_session(store, script)
    text = script.text
    assert "How the console works" in text.split("L-game: what would")[0]
    assert text.count("! Please type a number from the list (1–8)") == 1  # the ²
    refusal = next(line for line in script.output if "banana" in line and line.startswith("!"))
    assert script.output.count(refusal) == 1
    assert "Traceback" not in text


# --------------------------------------------- B7: the Turing Machine's own questions
async def test_a_solo_puzzle_asks_no_computer_questions_and_reaches_every_mode(
        store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "Turing")
        yield ""                                   # Enter: alone, against the machine
        yield number_of(output, "choose difficulty")
        yield number_of(output, "easy")
        yield ""                                   # Enter: 4 verifiers
        yield number_of(output, "extreme")
        yield ""                                   # assist: off
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    text = script.text
    assert "How strong" not in text and "Who moves first" not in text
    assert "Turing Machine · extreme · easy · round 1" in text
    assert "verifiers" in text and "nightmare" in text, "every mode is offered"


async def test_a_puzzle_code_starts_that_puzzle_and_says_so(store: SQLiteStore) -> None:
    from engines.turing.puzzle import puzzle_from_cards
    code = puzzle_from_cards([4, 9, 11, 14], code=(2, 4, 1))[0].share_code()

    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "Turing")
        yield ""
        yield number_of(output, "puzzle code")
        yield ""                                   # an empty line goes back to the question
        yield number_of(output, "puzzle code")
        yield f"puzzle={code.lower()}"
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    assert script.text.count("Which puzzle?") == 2
    assert "Turing Machine · classic · easy · round 1 · from a shared code" in script.text
    assert code not in script.text.replace(code.lower(), ""), "the code is not shown back"


# ----------------------------------------------------- B9: the console's own texts
@pytest.mark.parametrize("language", ["en", "nl", "de"])
async def test_help_and_rules_speak_of_numbers_not_chat_buttons(
        store: SQLiteStore, language: str) -> None:
    script = Script(["help", "quit"])
    await run_session(store, script, language)
    session = ConsoleSession(Service(store), script.read, script.write, language)
    for game in ("lgame", "turing", "booleo", "digitalo", "rithmomachia"):
        rules = session.rules_text(game)
        assert translate(language, "console.buttons_sentence") not in rules, game
        assert translate(language, "console.numbers_sentence") in rules, game
    assert "join" not in script.text and "play <game>" not in script.text


async def test_long_rules_pause_every_screenful(store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "Rithmomachia")
        yield number_of(output, "Read the rules")
        while output[-1].startswith("-- more"):
            yield ""
        yield "quit"

    script = Script(answers)
    await run_session(store, script, page_lines=10)
    pauses = [index for index, line in enumerate(script.output) if line.startswith("-- more")]
    assert len(pauses) >= 2
    assert all(len(line) <= 79 for line in script.output), "wrapped for 80 columns"
    assert all(later - earlier == 11 for earlier, later in itertools.pairwise(pauses))


def test_the_console_offers_every_level_weakest_first() -> None:
    """The L-game's ``strong`` is a level of its own below ``perfect`` now (issue 24's
    ladder), so the console lists all four, the easiest marked as the default."""
    from bot.adapters.console.setup import level_question
    from engines.registry import get_game
    question = level_question(lambda key, **params: params.get("label", key),
                              get_game("lgame"))
    assert [item.value for item in question.items] == ["easy", "medium", "strong", "perfect"]
