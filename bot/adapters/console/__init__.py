"""The console adapter: play in a terminal by choosing numbered options.

Every choice is a number, and Enter takes the marked default of a question (a move has
none: ``bot.adapters.console.moves`` is its prompt); typed notation (``d4 S W a4>a1``)
works too, as do the words ``help``, ``rules`` and ``stats`` at every question, and
``board``, ``resign``, ``abandon`` and ``quit`` in a game. The game lives in the database
like any chat game, so quitting (or Ctrl-C) and starting again resumes it.

Hot seat with hidden hands (bOOleO, Digitalo, the Turing Machine's notes): each prompt
shows the hand of the player it asks, and between two players' turns the screen is cleared
behind a "pass the device" page, so the next player does not see the last one's cards.

The console speaks to its player as "you" in its own lines ("You won!"); the boards and
announcements it shows are the chat bot's, in the third person, so its players have names.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import textwrap
from collections.abc import Awaitable, Callable

from bot.adapters.console.io import LineReader, OutputClosed, TerminalWriter
from bot.adapters.console.learn import run_lesson
from bot.adapters.console.moves import (
    LONGEST_LINE,
    QUIT_WORDS,
    MovePrompt,
    MoveStep,
    menu_number,
)
from bot.adapters.console.puzzles import run_puzzles
from bot.adapters.console.setup import (
    TYPED_MOVE,
    Question,
    after_game_question,
    first_question,
    game_question,
    is_solo,
    level_question,
    mode_question,
    option_questions,
    rules_game_question,
    rules_question,
    turing_puzzle_question,
    yes_no_question,
)
from bot.app import App
from bot.community import Community
from bot.events import GameFinished
from bot.hints import hint_voids_result
from bot.puzzles.trainer import PuzzleTrainer
from bot.service import Board, Hand, Opponent, Place, Reply, Service, User
from engines.base import GameError, GameModule, OptionSpec, parse_option_text
from engines.registry import game_names, get_game
from renderers.i18n import localise, normalise_language, translate

ReadLine = Callable[[str], Awaitable[str | None]]
Write = Callable[[str], None]

CHANNEL = "local"
STATS_WORDS = frozenset({"stats", "results"})
# Answers to a yes/no question typed as words, in the console's three languages.
YES_WORDS = frozenset({"y", "yes", "j", "ja"})
NO_WORDS = frozenset({"n", "no", "nee", "nein"})
# The mark of a question's default; a default item without it gets ``console.enter_mark``.
ENTER_MARK = "Enter)"
# A line of a hand that the board printed just above is not printed twice (bOOleO's
# pending NOT is in both); short lines (rows of a drawing) may well repeat.
SHORTEST_REPEATED_LINE = 30
# Chat renderers mark monospace blocks with Markdown fences; a terminal needs none.
FENCE = "```"
# Text wider than this is wrapped before it is paged, so that line counts are screen lines.
WIDTH = 79


class ConsoleSession(MovePrompt):
    def __init__(self, service: Service, read: ReadLine, write: Write,
                 language: str = "en", *, clear: Callable[[], None] | None = None,
                 page_lines: int | None = None, community: Community | None = None,
                 trainer: PuzzleTrainer | None = None) -> None:
        self.service = service
        self.read = read
        self.write = write
        self.clear = clear or (lambda: None)
        # Long texts (rules, help) pause after this many lines; None never pauses.
        self.page_lines = page_lines
        self.place = Place("console", CHANNEL, normalise_language(language), emoji=False)
        self.player_one = User("console", "player-1", self.t("console.player", n=1))
        self.player_two = User("console", "player-2", self.t("console.player", n=2))
        self.last_board = ""
        self.last_hand = ""
        # Whose hand ``Reply.hand`` is: the user of the command that produced the reply.
        self.hand_of = ""
        # The hot-seat player who last saw their hand: another one must be handed the device.
        self.seen_by = ""
        # Whether a game is on screen: Ctrl-C then says the game is saved, else goodbye.
        self.in_game = False
        # The game chosen or played now, whose rules the word ``rules`` shows.
        self.focus_game: str | None = None
        # Results against the computer are counted here too, so ``stats`` has something
        # to show; the console is one player, so it has no ratings or leaderboards.
        # The App's, which already records results; a session on a bare service (tests,
        # scripts) makes its own.
        self.community = community or Community(service)
        # The App's trainer; a session on a bare service makes its own, whose puzzle
        # ratings its own community's ``stats`` shows.
        self.trainer = trainer or PuzzleTrainer(service)
        if community is None:
            service.events.subscribe(GameFinished, self.community.game_finished)
            self.community.stats_sources.append(self.trainer.stats_lines)

    def t(self, key: str, **params: object) -> str:
        return translate(self.place.language, key, None, **params)

    # ------------------------------------------------------------- questions
    async def ask(self, question: Question) -> str | None:
        """A numbered choice: the item's value, the default on Enter, None to quit. The
        words help, rules and stats are answered at every question, which is then asked
        again; a ``typed`` question returns the line typed."""
        while True:
            self.write(question.title)
            if question.typed:
                self.write(f"     {question.default.label}")
            for number, item in enumerate(() if question.typed else question.items, 1):
                label = item.label
                if number == 1 and question.has_default and ENTER_MARK not in label:
                    label = self.t("console.enter_mark", label=label)
                self.write(f"  {number}) {label}")
            line = await self.read("> ")
            if line is None:
                return None
            text = line.strip()
            word = text.lower()
            if not word and question.has_default:
                return question.default.value
            if word in QUIT_WORDS:
                return None
            if len(text) > LONGEST_LINE:
                self.refuse(self.t("console.line_too_long", length=len(text)))
                continue
            if await self.answer_word(word):
                continue
            values = {item.value for item in question.items}
            if word == "back" and "back" in values:
                return "back"
            if {"yes", "no"} <= values and word in YES_WORDS | NO_WORDS:
                return "yes" if word in YES_WORDS else "no"
            if question.typed:
                return text
            picked = menu_number(word)
            if picked is not None and 1 <= picked <= len(question.items):
                return question.items[picked - 1].value
            if question.moves and word and picked is None:
                return TYPED_MOVE + text
            self.refuse(self.t("console.pick_move" if question.moves else "console.pick_number",
                               count=len(question.items)))

    async def confirm(self, title: str) -> bool:
        """Yes only when the player says so: Enter, no and the end of input keep things
        as they are."""
        return await self.ask(yes_no_question(title, self.t)) == "yes"

    async def answer_word(self, word: str, user: User | None = None) -> bool:
        """``help``, ``rules`` and ``stats``, answered wherever they are typed; False for
        any other word."""
        if word == "help":
            await self.show_paged(self.help_text())
        elif word == "rules":
            await self.show_rules()
        elif word in STATS_WORDS:
            await self.show_stats(user or self.player_one)
        else:
            return False
        return True

    async def show_rules(self) -> None:
        """The rules of the game in focus; where there is none yet, of the game asked for."""
        game = self.focus_game
        if game is None:
            choice = await self.ask(rules_game_question(self.t, self.games()))
            if choice is None or not choice.startswith("game:"):
                return
            game = choice.removeprefix("game:")
        await self.show_paged(self.rules_text(game))

    async def show_stats(self, user: User) -> None:
        self.write(await self.community.stats_text(self.place, user.id, user.name))

    def refuse(self, text: str) -> None:
        """A line that says what went wrong and what was expected."""
        self.write(f"! {text}")

    @staticmethod
    def games() -> list[tuple[str, str]]:
        return [(name, get_game(name).TITLE) for name in game_names()]

    async def show_paged(self, text: str) -> bool:
        """Write ``text``, pausing every screenful; False when the player stops reading."""
        lines = [wrapped for line in text.splitlines()
                 for wrapped in (textwrap.wrap(line, WIDTH, break_on_hyphens=False) or [""])]
        step = self.page_lines or len(lines) or 1
        for start in range(0, len(lines), step):
            for line in lines[start:start + step]:
                self.write(line)
            if self.page_lines and start + step < len(lines):
                answer = await self.read(self.t("console.more"))
                if answer is None or answer.strip().lower() in QUIT_WORDS:
                    return False
        return True

    # ------------------------------------------------------------------- flow
    async def run(self) -> None:
        self.write(self.t("console.welcome"))
        reply = await self.service.board(self.place)
        if reply.ok and reply.board is not None:
            self.write(self.t("console.resuming"))
            if not await self.play_and_after(reply):
                return
        while True:
            chosen = await self.main_menu()
            if chosen is None:
                self.write(self.t("console.bye"))
                return
            if not await self.play_and_after(chosen):
                return

    async def play_and_after(self, reply: Reply) -> bool:
        """Play a game, then offer it again; False when the player quits."""
        while True:
            if not await self.play(reply):
                return False
            choice = await self.ask(after_game_question(self.t))
            if choice is None or choice == "quit":
                self.write(self.t("console.bye"))
                return False
            if choice == "menu":
                return True
            reply = await self.service.rematch(self.place, self.player_one)
            if not reply.ok:
                self.show(reply)
                return True

    async def main_menu(self) -> Reply | None:
        """The games, the player's results and help; a started game, or None to quit."""
        while True:
            self.focus_game = None
            choice = await self.ask(game_question(self.t, self.games()))
            if choice is None or choice == "quit":
                return None
            if choice == "help":
                await self.show_paged(self.help_text())
                continue
            if choice == "stats":
                await self.show_stats(self.player_one)
                continue
            chosen = await self.game_menu(choice.removeprefix("game:"))
            if chosen == "quit":
                return None
            if isinstance(chosen, Reply):
                return chosen

    async def game_menu(self, game: str) -> Reply | str:
        """One game's menu until a game starts (its reply), ``back`` or ``quit``; the
        rules and the lesson come back to this menu, not to the main one."""
        self.focus_game = game
        module = get_game(game)
        while True:
            how = await self.ask(mode_question(self.t, module))
            if how is None:
                return "quit"
            if how == "back":
                return "back"
            if how == "rules":
                await self.show_paged(self.rules_text(game))
                continue
            if how == "learn":
                if not await run_lesson(self.ask, self.show_lesson_page,
                                        self.place.language, game):
                    return "quit"
                continue
            if how in ("puzzles", "daily-puzzle"):
                if not await run_puzzles(self.trainer, self.place, self.player_one, game,
                                         self.ask, self.show_lesson_page,
                                         daily=how == "daily-puzzle"):
                    return "quit"
                continue
            reply = await self.setup_game(game, how)
            if reply is None:
                return "quit"
            if reply.ok:
                return reply
            self.show(reply)

    async def choose_options(self, game: str, against_computer: bool) -> list[str] | None:
        """``name=value`` words for the options the player changes; None to quit."""
        module = get_game(game)
        options: list[str] = []
        questions = option_questions(self.t, game, module, against_computer=against_computer)
        if game == "turing":
            while True:
                source = await self.ask(turing_puzzle_question(self.t))
                if source is None:
                    return None
                if source == "new":
                    return options
                if source == "choose":
                    break
                code = await self.ask_puzzle_code()
                if code is None:
                    return None
                if code:
                    return [code]
        else:
            if not questions:
                return options
            presets = [(localise(self.place.language, preset.label), preset.options)
                       for preset in module.INFO.presets]
            which = await self.ask(rules_question(self.t, presets))
            if which is None:
                return None
            if which == "standard":
                return options
            if which.startswith("preset:"):
                return which.removeprefix("preset:").split()
        for spec, question in questions:
            value = await self.ask_option(spec, question, module)
            if value is None:
                return None
            # The default item of a learner's aid is "as the level decides": any other
            # answer is said explicitly, "off" included, for the level would switch it on.
            if value != question.default.value:
                options.append(f"{spec.name}={value}")
        return options

    async def ask_puzzle_code(self) -> str | None:
        """A shared puzzle code, asked again until it is one (checked before a puzzle is
        made of it); "" for an empty line, which goes back; None to quit."""
        while True:
            self.write(self.t("console.puzzle_code_prompt"))
            line = await self.read("> ")
            if line is None:
                return None
            if len(line.strip()) > LONGEST_LINE:
                self.refuse(self.t("console.line_too_long", length=len(line.strip())))
                continue
            # A pasted "puzzle=tm-c4e-…" is as good as the bare code.
            code = line.strip().rpartition("=")[2].strip().upper()
            refusal = code and self.service.check_start(self.place, self.player_one, "turing",
                                                        Opponent("ai"), code)
            if not refusal:
                return code
            self.refuse(refusal)

    async def ask_option(self, spec: OptionSpec, question: Question,
                         module: GameModule) -> str | None:
        """One option's value; a typed one is checked at once (by setting up a game with
        it, as the engine would), and a wrong one is asked again with the reason, before
        the answers to the other questions could be lost to it."""
        while True:
            value = await self.ask(question)
            if value is None or not question.typed or value == question.default.value:
                return value
            value = "".join(value.split())  # "not, nand" as "not,nand"
            try:
                parsed = parse_option_text(module.OPTIONS, f"{spec.name}={value}")
                if not module.INFO.costly_new_game:
                    module.new_game(parsed, 2, 0)
            except GameError as error:
                self.refuse(translate(self.place.language, error.key, error.default,
                                      **error.params))
                continue
            return value

    async def setup_game(self, game: str, how: str) -> Reply | None:
        module = get_game(game)
        options = await self.choose_options(game, against_computer=how == "ai")
        if options is None:
            return None
        if how == "local":
            return await self.service.start_game(self.place, self.player_one, game,
                                                 Opponent("user", user=self.player_two),
                                                 " ".join(options))
        if how == "solo" or is_solo(module):
            self.write(self.t("console.making_puzzle"))
            return await self.service.start_game(self.place, self.player_one, game,
                                                 Opponent("ai"), " ".join(options))
        level = await self.ask(level_question(self.t, module))
        if level is None:
            return None
        first = await self.ask(first_question(self.t))
        if first is None:
            return None
        return await self.service.start_game(self.place, self.player_one, game,
                                             Opponent("ai", level), " ".join(options),
                                             creator_seat=None if first == "random"
                                             else int(first))

    # ------------------------------------------------------------------ texts
    def help_text(self) -> str:
        return self.t("console.help_text")

    async def show_lesson_page(self, text: str) -> None:
        """A lesson's page as a terminal needs it: wrapped, paged, in the console's words."""
        await self.show_paged(plain(text))

    def rules_text(self, game: str) -> str:
        """The chat bot's rules, with its sentence about buttons told the console's way."""
        text = plain(self.service.rules_text(self.place, game))
        return text.replace(self.t("console.buttons_sentence"),
                            self.t("console.numbers_sentence"))

    def show(self, reply: Reply, force_board: bool = False) -> None:
        for line in reply.announcements:
            self.write(plain(line))
        # Stepping through a move's menu does not change the board: printing it again would
        # push the options off a small terminal.
        if reply.board is not None and (force_board or reply.board.text != self.last_board):
            self.write("")
            self.write(plain(reply.board.text))
            self.last_board = reply.board.text
        if reply.notice:
            # A refusal is marked; a hint or other news for the player is not an error.
            if reply.ok:
                self.write(plain(reply.notice))
            else:
                self.refuse(reply.notice)

    def show_hand(self, hand: Hand) -> None:
        """A private view, without the long lines the board above has just said."""
        said = {line for line in plain(self.last_board).splitlines()
                if len(line) >= SHORTEST_REPEATED_LINE}
        self.write("")
        self.write("\n".join(line for line in plain(hand.text).splitlines()
                             if line not in said))
        self.last_hand = hand.text

    def actor(self, reply: Reply) -> User:
        """The local player who acts now: in a hot-seat game, whoever is to move."""
        if reply.board is not None:
            for player in reply.board.to_move:
                if player.get("kind") == "human":
                    return User("console", str(player["id"]), str(player["name"]))
        return self.player_one

    # ------------------------------------------------------------------- play
    async def hot_seat(self) -> tuple[bool, bool]:
        """Whether two people share this keyboard, and whether each then has a private
        hand to hide from the other."""
        record = await self.service.running_record(self.place)
        if record is None:
            return False, False
        self.focus_game = record.game
        shared = sum(1 for p in record.players if p.get("kind") == "human") > 1
        return shared, shared and self.service.hides_hands(record)

    async def pass_device(self, user: User) -> bool:
        """A blank page between two players' turns; False when the player quits."""
        self.clear()
        self.last_hand = ""
        self.write(self.t("console.pass_device", name=user.name))
        line = await self.read(self.t("console.pass_ready", name=user.name))
        if line is None or line.strip().lower() in QUIT_WORDS:
            self.write(self.t("console.saved"))
            return False
        self.clear()
        self.seen_by = user.id
        return True

    async def hand_for(self, reply: Reply, user: User) -> Hand | None:
        """``user``'s private view and menu: the reply's when it is theirs, else asked for."""
        if reply.hand is not None and self.hand_of == user.id:
            return reply.hand
        self.hand_of = user.id
        # Kept in the reply, which the prompt may show again (a refused number, a word):
        # the reply's own hand is then the last player's, and must never come back.
        reply.hand = (await self.service.hand(self.place, user)).hand
        return reply.hand

    async def result_line(self, board: Board) -> str | None:
        """"You won!" and the like, for one person against the computer."""
        record = await self.service.game_record(board.game_id)
        if record is None or record.status == "abandoned":
            return None
        humans = [p for p in record.players if p.get("kind") == "human"]
        if len(humans) != 1 or len(record.players) < 2:
            return None  # hot seat names its winner; a solo puzzle has its own verdict
        seat = self.service.seat_of(record, self.player_one)
        state = get_game(record.game).State.from_dict(record.state)
        outcome = state.outcome()
        if seat is None or outcome is None:
            return None
        if not outcome.winners:
            return self.t("console.you_drew")
        return self.t("console.you_won" if seat in outcome.winners else "console.you_lost")

    async def play(self, reply: Reply) -> bool:
        """Play until the game ends (True) or the player quits (False)."""
        self.in_game = True
        # Not reset in a ``finally``: Ctrl-C (a cancellation) must still find it set.
        playing_on = await self._play(reply)
        self.in_game = False
        return playing_on

    async def _play(self, reply: Reply) -> bool:
        force_board = True
        shared, hidden_hot_seat = await self.hot_seat()
        self.seen_by = ""
        while True:
            board = reply.board
            waiting_for_person = (board is not None and not reply.finished
                                  and not reply.ai_to_move)
            user = self.actor(reply)
            if hidden_hot_seat and waiting_for_person and user.id != self.seen_by:
                if not await self.pass_device(user):
                    return False
                force_board = True
            self.show(reply, force_board)
            # Said once: a refused number or a word answered must not bring them back.
            reply.notice, reply.announcements = None, []
            force_board = False
            if reply.finished or board is None:
                if board is not None and reply.finished:
                    verdict = await self.result_line(board)
                    if verdict:
                        self.write(verdict)
                self.write("")
                return True
            if reply.ai_to_move:
                self.write(self.t("console.thinking"))
                reply = await self.service.play_ai_turn(self.place)
                continue
            menu: Board | Hand = board
            if board.hand_button is not None:
                # Hidden information (a hand, a Turing notes sheet) shows at the prompt of
                # the player it belongs to, with that player's menu.
                hand = await self.hand_for(reply, user)
                if hand is not None:
                    if hand.text != self.last_hand:
                        self.show_hand(hand)
                    menu = hand
            if menu.prompt:
                # At a shared keyboard the prompt names whom it asks; alone, it is "you".
                self.write(f"{user.name}: {menu.prompt}" if shared else menu.prompt)
            record = await self.service.running_record(self.place)
            step = MoveStep.of(menu, await self.refused_now(menu, user),
                               hinted=record is not None and not hint_voids_result(record))
            self.write_step(step)
            answer = await self.take_line(await self.read("> "), reply, step, user)
            if answer is None:
                return False
            reply = answer


def plain(text: str) -> str:
    """A renderer's text for a terminal: the fences that mark monospace blocks for chat
    platforms are dropped (the terminal is monospace throughout)."""
    if FENCE not in text:
        return text
    return "\n".join(line for line in text.split("\n") if not line.startswith(FENCE))


# When the console's input ends before its first answer, nobody is there to play: the
# process was started without a token and without a terminal (as under Docker, where a
# quiet exit 0 would be restarted in a loop). Said on stderr, in the host's words.
NO_PLATFORM = ("logic-bot: no DISCORD_TOKEN or TELEGRAM_TOKEN set, and standard input "
               "ended before the console's first answer: there is nobody to play with. Set a "
               "token to run on Discord or Telegram, or start the console in a terminal.")


async def run_console(app: App) -> int:
    """The console on this process's terminal, until the player quits, input ends, the
    output is closed, or Ctrl-C (which cancels this task: the game is already saved).
    The exit status: 0, or 1 when the input ended before the first answer."""
    writer = TerminalWriter()
    reader = LineReader()
    height = shutil.get_terminal_size((80, 24)).lines
    service, settings = app.service, app.settings
    session = ConsoleSession(service, reader.read, writer.write, settings.language,
                             community=app.community, trainer=app.trainer,
                             clear=writer.clear,
                             page_lines=max(height - 3, 5)
                             if sys.stdout.isatty() and sys.stdin.isatty() else None)
    try:
        if not sys.stdin.isatty():
            writer.write(translate(settings.language, "console.not_a_terminal"))
        await session.run()
    except OutputClosed:
        return 0
    except asyncio.CancelledError:
        try:
            writer.write("")
            writer.write(session.t("console.saved" if session.in_game else "console.bye"))
        except OutputClosed:
            pass
        raise
    if reader.ended and reader.lines_read == 0:
        print(NO_PLATFORM, file=sys.stderr, flush=True)
        return 1
    return 0
