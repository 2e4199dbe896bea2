"""Issue 40: the console keeps its word. One meaning for each key, a marked default or a
"please choose" at every question, the words help, rules and stats everywhere, nothing
undone or voided without a word."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.adapters.console import ConsoleSession
from bot.adapters.console.io import TerminalWriter
from bot.hints import hinted
from bot.replies import Button, Hand, Reply
from bot.service import Service
from bot.store import SQLiteStore
from engines.registry import get_game, make_agent
from tests.helpers.console_script import Script, listed_options, number_of, run_session


async def running_options(store: SQLiteStore) -> dict[str, Any]:
    record = await store.running_game("console", "local")
    assert record is not None
    state: Any = get_game(record.game).State.from_dict(record.state)
    return dict(state.options)


def last_menu_prompt(output: list[str]) -> str:
    """The prompt printed above the last move menu."""
    lines = "\n".join(output).splitlines()
    for line in reversed(lines):
        if "Choose your move" in line or "Your move so far" in line:
            return line
    raise AssertionError("no move menu was printed")


# ------------------------------------------------ defect 2: 0 is back, h is the hint
async def test_zero_never_takes_a_hint_and_the_hint_asks_first(store: SQLiteStore) -> None:
    """0 at a move's first step took a hint at once (voiding the game's result) while the
    help said 0 is Back."""
    script = Script(["1", "", "", "", "",    # L-game against easy, standard, I move first
                     "0",                     # 0 at the first step: nothing to go back to
                     "1", "0",                # a step, then 0: back to the first step
                     "h", "",                 # a hint? Enter is no
                     "quit"])
    await run_session(store, script)
    text = script.text
    record = await store.running_game("console", "local")
    assert record is not None and not hinted(record), "no hint was taken"
    assert "Take a hint? The computer suggests a move" in text
    assert "Nothing changed: the game goes on." in text
    assert "took a hint" not in text
    assert "   0) 💡" not in text, "0 is never the hint"
    assert "   h) 💡 Hint" in text
    assert text.count("Choose your move.") >= 3, "0 at the second step went back"


async def test_a_hint_taken_after_yes_is_told_without_the_error_mark(
        store: SQLiteStore) -> None:
    script = Script(["1", "", "", "", "", "hint", "yes", "quit"])
    await run_session(store, script)
    record = await store.running_game("console", "local")
    assert record is not None and hinted(record)
    hint_line = next(line for line in script.output if "took a hint" in line)
    after = script.output[script.output.index(hint_line):]
    assert not any(line.startswith("! ") for line in after[:12]), \
        "a hint is news for the player, not an error"
    assert "h) 💡 Hint: the computer suggests a move (this game counts for nothing already)" \
        in "\n".join(after), "the next hint is not said to ask first"


# --------------------------------------- defect 3: danger's real default, and "off"
async def test_danger_shows_its_real_default_and_off_is_respected(
        store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "bOOleO")
        yield ""                                      # against the computer
        yield number_of(output, "Choose the options")
        while not any(line.startswith("Rules option 'danger'") for line in output[-6:]):
            yield ""                                  # every other option: standard
        yield number_of(output, "off")                # danger: off
        yield ""                                      # easy
        yield ""                                      # I move first
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    danger = script.text[script.text.index("Rules option 'danger'"):]
    assert danger.splitlines()[1].strip() == \
        "1) on against easy, off against the other levels (Enter)"
    assert (await running_options(store))["danger"] is False


async def test_danger_on_by_enter_against_easy(store: SQLiteStore) -> None:
    script = Script([number_of_title("bOOleO"), "", "", "", "", "quit"])
    await run_session(store, script)
    assert (await running_options(store))["danger"] is True


def number_of_title(title: str) -> str:
    games = ["L-game", "Turing Machine", "bOOleO", "Digitalo", "Boolean Rithmomachia"]
    return str(games.index(title) + 1)


# --------------------------------------- defect 4: help, rules and stats everywhere
async def test_stats_and_rules_work_at_the_main_menu_which_offers_my_results(
        store: SQLiteStore) -> None:
    script = Script(["stats",            # at the main menu
                     "rules", "1",       # which game? the L-game
                     "6",                # My results, from the menu
                     "quit"])
    await run_session(store, script)
    text = script.text
    assert "  6) My results" in text
    assert text.count("Player 1 has no finished games yet.") == 2
    assert "The rules of which game?" in text
    assert "L-game (Edward de Bono)" in text
    assert "! Please type" not in text


async def test_stats_after_a_game_and_rules_in_a_games_menu(store: SQLiteStore) -> None:
    script = Script(["1", "2", "",        # L-game hot seat, standard rules
                     "resign", "yes",     # Player 1 resigns
                     "stats",             # at "What next?"
                     "2",                 # back to the main menu
                     "1", "rules",        # the L-game's menu: its rules
                     "quit"])
    await run_session(store, script)
    text = script.text
    assert "L-game: 0 won, 1 lost" in text
    assert text.count("L-game (Edward de Bono)") == 1
    assert text.count("L-game: what would you like to do?") == 3


# ------------------------------- defect 5: only what can be taken now is numbered
async def test_options_that_cannot_be_taken_now_are_shown_without_a_number(
        store: SQLiteStore) -> None:
    hand = Hand("", [Button("AND→1", "m:1:1:A1"),
                     Button("✖ OR→0", "m:1:1:O0", disabled=True),
                     Button("XOR→1", "m:1:1:X1")],
                [Button("💡 Hint", "i:1:1:")], "Choose your move.")
    from bot.adapters.console.moves import MoveStep
    step = MoveStep.of(hand)
    assert [b.label for b in step.options] == ["AND→1", "XOR→1"]
    assert [b.label for b in step.unavailable] == ["✖ OR→0"]
    assert step.back is None and step.hint is not None
    output: list[str] = []
    session = ConsoleSession(Service(store), _no_input, output.append)
    session.write_step(step)
    assert output[:3] == ["   1) AND→1", "   2) XOR→1", "      ✖ OR→0"]


async def _no_input(prompt: str) -> str | None:
    return None


# -------------------------------------- defect 6: Enter at a step undoes nothing
async def test_enter_at_a_moves_second_step_keeps_the_first_and_says_why(
        store: SQLiteStore) -> None:
    script = Script(["1", "2", "",       # L-game hot seat, standard rules
                     "1",                # the first step of a move
                     "",                 # Enter: no default here
                     "quit"])
    await run_session(store, script)
    text = script.text
    assert "! Enter alone chooses nothing while you build a move. Please type a number " \
           "from 0 to" in text
    assert last_menu_prompt(script.output).startswith("Player 1: Your move so far")


# ------------------------------------------------------------- defect 10: scrollback
class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_clearing_the_screen_clears_the_scrollback_too() -> None:
    terminal = FakeTerminal()
    TerminalWriter(terminal).clear()
    assert "\x1b[3J" in terminal.getvalue(), "the last player's hand stayed in scrollback"
    assert "\x1b[2J" in terminal.getvalue()


# ------------------------------------------------------------ defect 13: the smaller
async def test_a_value_called_standard_is_not_marked_standard_twice(
        store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "Rithmomachia")
        yield number_of(output, "with a friend")
        yield number_of(output, "Choose the options")
        for _ in range(10):
            if any("Rithmomachia started" in line for line in output[-40:]):
                break
            yield ""
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    assert "standard (standard, Enter)" not in script.text
    assert "1) standard (Enter)" in script.text


async def test_a_pasted_flood_is_refused_without_being_echoed(store: SQLiteStore) -> None:
    flood = "x" * 100_000
    script = Script([flood, "1", "2", "", flood, "quit"])
    await run_session(store, script)
    assert flood[:1000] not in script.text
    assert script.text.count("That line is 100000 characters long") == 2
    assert len(script.text) < 20_000


async def test_a_number_out_of_range_names_the_range_with_zero(store: SQLiteStore) -> None:
    script = Script(["1", "2", "", "1", "99", "quit"])
    await run_session(store, script)
    assert re.search(r"! Please type a number from 0 to \d+ \(0 goes back\)", script.text)


async def test_resign_and_abandon_ask_first(store: SQLiteStore) -> None:
    script = Script(["1", "2", "",
                     "abandon", "",     # Enter: no
                     "resign", "no",
                     "abandon", "2",    # yes, by number
                     "quit"])
    await run_session(store, script)
    text = script.text
    assert "Abandon this game? It ends now without a result" in text
    assert "Resign this game? It ends now and counts as a loss." in text
    assert text.count("Nothing changed: the game goes on.") == 2
    assert await store.running_game("console", "local") is None
    assert "resigned" not in text


async def test_a_line_the_board_just_said_is_not_repeated_in_the_hand(
        store: SQLiteStore) -> None:
    output: list[str] = []
    session = ConsoleSession(Service(store), _no_input, output.append)
    pending = "! A NOT on start card 5 (Player 1 reads it as card 2) is pending."
    session.last_board = f"row 1\n{pending}\nPlayer 1 to play."
    session.show_hand(Hand(f"Your hand (South):\n• AND→0\n{pending}", [], [], ""))
    assert "\n".join(output).count(pending) == 0
    assert "• AND→0" in "\n".join(output)


async def test_read_the_rules_comes_back_to_the_games_menu(store: SQLiteStore) -> None:
    script = Script(["1", "3", "quit"])  # the L-game, its rules, then quit
    await run_session(store, script)
    assert script.text.count("L-game: what would you like to do?") == 2


# ------------------------- defect 7: the presets and every option, as on the platforms
async def test_rithmomachia_offers_the_teaching_game_first(store: SQLiteStore) -> None:
    script = Script([number_of_title("Boolean Rithmomachia"), "", "", "", "", "quit"])
    await run_session(store, script)
    assert "  1) Teaching game: only NOT and NAND capture, longer games (Enter)" in script.text
    assert (await running_options(store))["ops"] == "not,nand"


async def test_typed_options_are_offered_and_checked_at_once(store: SQLiteStore) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, "Rithmomachia")
        yield number_of(output, "with a friend")
        yield number_of(output, "Choose the options")
        yield ""                   # setup: standard
        yield ""                   # push: on
        yield "nand,foo"           # ops: refused with the reason, asked again
        yield "not, nand"
        yield "100"                # move limit
        yield ""                   # danger: off
        yield "quit"

    script = Script(answers)
    await run_session(store, script)
    text = script.text
    assert "Rules option 'ops'" in text and "Rules option 'move limit'" in text
    assert "! Option 'ops' is a non-empty list of not,and,or,xor,nand,nor, not 'nand,foo'." \
        in text
    options = await running_options(store)
    assert (options["ops"], options["move_limit"]) == ("not,nand", 100)


# ------------------ defect 5: a number never leads to a placement the referee refuses
@pytest.mark.parametrize("title", ["bOOleO", "Digitalo"])
async def test_every_numbered_placement_is_one_the_rules_allow(
        store: SQLiteStore, title: str) -> None:
    def answers(output: list[str]) -> Iterator[str]:
        yield number_of(output, title)
        for _ in range(10):  # Enter at every setup question: the standard game, referee on
            if any("Your hand" in line for line in output[-12:]):
                break
            yield ""
        rng = random.Random(3)
        for _ in range(80):
            yield rng.choice(listed_options(output))
        yield "quit"

    script = Script(answers)
    # A fixed deal: a random one drew, about a run in three, a card shown "✖" for a
    # reason other than "fits nowhere now", which this test does not look at.
    await run_session(store, script, seed=5)
    played = script.text[script.text.index(f"{title} started"):]
    refusals = [line for line in played.splitlines() if line.startswith("! ")
                and "pending" not in line]
    assert refusals == [], "a numbered option was refused"
    assert re.search(r"^      ✖ ", played, re.MULTILINE), \
        "the placements that do not fit are shown, without a number"
    for line in re.findall(r"^ +\d+\) ✖.*$", played, re.MULTILINE):
        assert "fits nowhere now: only its discard" in line, line


class OneStepRefused:
    """A service whose move menu refuses the second step of a move and answers its
    first step again when asked."""

    def __init__(self) -> None:
        self.pressed: list[str] = []

    async def press(self, place: object, user: object, payload: str) -> Reply:
        self.pressed.append(payload)
        if payload == "m:1:1:A.B":
            return Reply(ok=False, notice="That does not fit here.")
        return Reply(notice=None, board=None)


async def test_a_refused_step_goes_back_to_the_step_it_was_taken_at(
        store: SQLiteStore) -> None:
    service = OneStepRefused()
    session = ConsoleSession(Service(store), _no_input, [].append)
    session.service = service  # type: ignore[assignment]
    answer = await session.press(session.player_one, Button("B", "m:1:1:A.B"))
    assert service.pressed == ["m:1:1:A.B", "m:1:1:A"], "the first step was asked again"
    assert not answer.ok and answer.notice == "That does not fit here."


# ------------------------------------- defect 10: the last player's hand stays hidden
@pytest.mark.parametrize(("game", "title"), [("booleo", "bOOleO"), ("digitalo", "Digitalo")])
async def test_a_refused_answer_after_the_pass_screen_shows_the_new_players_hand(
        store: SQLiteStore, game: str, title: str) -> None:
    """After "pass the keyboard", a refused number (or a word) asked the prompt again with
    the reply of the last player's move, whose hand was the last player's: it was shown."""
    module = get_game(game)
    agents = [make_agent(game, "strong", random.Random(seat)) for seat in (0, 1)]
    setup = iter(["title", "local", ""])
    moved: list[int] = []

    async def brain(script: Script, prompt: str) -> str | None:
        out = script.output
        step = next(setup, None)
        if step == "title":
            return number_of(out, title)
        if step == "local":
            return number_of(out, "with a friend")
        if step is not None:
            return step
        if "press Enter when you are ready" in prompt:
            return ""
        record = await store.running_game("console", "local")
        assert record is not None
        state = module.State.from_dict(record.state)
        seat = state.to_move()[0]
        if not moved:
            moved.append(seat)  # the first player moves
            return agents[seat].choose(state, seat)
        if seat != moved[0] and not any(line.startswith("! ") for line in out[-40:]):
            return "99"  # the next player's first answer is refused
        return "quit"

    script = Script(brain=brain)
    await run_session(store, script)
    sides = dict(re.findall(r"^(Player [12]) \((South|North)\)", script.text, re.MULTILINE))
    second = f"Player {2 - moved[0]}"
    after_pass = script.text[script.text.rindex(f"{second}, press Enter"):]
    assert "! Please type" in after_pass
    hands = re.findall(r"^Your hand \((South|North)", after_pass, re.MULTILINE)
    assert hands, f"{second} was shown a hand"
    assert set(hands) == {sides[second]}, f"only {second}'s hand after the pass screen"


# ----------------- a mistyped puzzle code is asked for again (the console's part of 1)
async def test_a_mistyped_puzzle_code_is_asked_for_again(store: SQLiteStore) -> None:
    script = Script([number_of_title("Turing Machine"), "", "3",
                     "TM-C4E-218SCG7X",        # one character off the README's example
                     "TM-C4E-218SCG7G", "quit"])
    await run_session(store, script)
    text = script.text
    assert "! That is not a valid puzzle code; codes look like TM-C4E-218SCG7G." in text
    assert text.count("Type or paste the puzzle code") == 2
    assert "from a shared code" in text
