"""The console adapter: play in a terminal by choosing numbered options.

Every choice is a number, and Enter takes the marked default of a question; typed notation
(``d4 S W a4>a1``) works too, as do the words ``help``, ``rules``, ``board``, ``stats``,
``resign``, ``abandon`` and ``quit``. The game lives in the database like any chat game,
so quitting (or Ctrl-C) and starting again resumes it.

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

from bot.adapters.console_io import LineReader, OutputClosed, TerminalWriter
from bot.adapters.console_learn import run_lesson
from bot.adapters.console_setup import (
    Question,
    after_game_question,
    first_question,
    game_question,
    is_solo,
    level_question,
    mode_question,
    option_questions,
    rules_question,
    turing_puzzle_question,
)
from bot.app import App
from bot.community import Community
from bot.payloads import Payload
from bot.service import Board, Button, Hand, Opponent, Place, Reply, Service, User
from engines.base import GRID_TOKEN
from engines.registry import game_names, get_game
from renderers.i18n import normalise_language, translate

ReadLine = Callable[[str], Awaitable[str | None]]
Write = Callable[[str], None]

CHANNEL = "local"
QUIT_WORDS = frozenset({"quit", "exit", "q"})
# Chat renderers mark monospace blocks with Markdown fences; a terminal needs none.
FENCE = "```"
# Text wider than this is wrapped before it is paged, so that line counts are screen lines.
WIDTH = 79


class ConsoleSession:
    def __init__(self, service: Service, read: ReadLine, write: Write,
                 language: str = "en", *, clear: Callable[[], None] | None = None,
                 page_lines: int | None = None, community: Community | None = None) -> None:
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
        # Results against the computer are counted here too, so ``stats`` has something
        # to show; the console is one player, so it has no ratings or leaderboards.
        # The App's, which already records results; a session on a bare service (tests,
        # scripts) makes its own.
        self.community = community or Community(service)

    def t(self, key: str, **params: object) -> str:
        return translate(self.place.language, key, None, **params)

    # ------------------------------------------------------------- questions
    async def ask(self, question: Question) -> str | None:
        """A numbered choice: the item's value, the default on Enter, None to quit."""
        while True:
            self.write(question.title)
            for number, item in enumerate(question.items, 1):
                self.write(f"  {number}) {item.label}")
            line = await self.read("> ")
            if line is None:
                return None
            text = line.strip().lower()
            if not text:
                return question.default.value
            if text in QUIT_WORDS:
                return None
            if text == "help":
                await self.show_paged(self.help_text())
                continue
            if text == "back" and any(item.value == "back" for item in question.items):
                return "back"
            picked = menu_number(text)
            if picked is not None and 1 <= picked <= len(question.items):
                return question.items[picked - 1].value
            self.write(f"! {self.t('console.pick_number', count=len(question.items))}")

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
        games = [(name, get_game(name).TITLE) for name in game_names()]
        while True:
            choice = await self.ask(game_question(self.t, games))
            if choice is None or choice == "quit":
                return None
            if choice == "help":
                await self.show_paged(self.help_text())
                continue
            game = choice.removeprefix("game:")
            module = get_game(game)
            how = await self.ask(mode_question(self.t, module))
            if how is None:
                return None
            if how == "back":
                continue
            if how == "rules":
                await self.show_paged(self.rules_text(game))
                continue
            if how == "learn":
                if not await run_lesson(self.ask, lambda text: self.write(plain(text)),
                                        self.place.language, game):
                    return None
                continue
            reply = await self.setup_game(game, how)
            if reply is None:
                return None
            if reply.ok:
                return reply
            self.show(reply)

    async def choose_options(self, game: str) -> list[str] | None:
        """``name=value`` words for the options the player changes; None to quit."""
        module = get_game(game)
        options: list[str] = []
        if game == "turing":
            while True:
                source = await self.ask(turing_puzzle_question(self.t))
                if source is None:
                    return None
                if source == "new":
                    return options
                if source == "choose":
                    break
                self.write(self.t("console.puzzle_code_prompt"))
                line = await self.read("> ")
                if line is None:
                    return None
                # A pasted "puzzle=tm-c4e-…" is as good as the bare code.
                code = line.strip().rpartition("=")[2].strip().upper()
                if code:
                    return [code]
        else:
            questions = option_questions(self.t, game, module)
            if not questions:
                return options
            which = await self.ask(rules_question(self.t))
            if which is None:
                return None
            if which == "standard":
                return options
        for spec, question in option_questions(self.t, game, module):
            value = await self.ask(question)
            if value is None:
                return None
            if value != question.default.value:
                options.append(f"{spec.name}={value}")
        return options

    async def setup_game(self, game: str, how: str) -> Reply | None:
        module = get_game(game)
        options = await self.choose_options(game)
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
            self.write(f"! {reply.notice}")

    def actor(self, reply: Reply) -> User:
        """The local player who acts now: in a hot-seat game, whoever is to move."""
        if reply.board is not None:
            for player in reply.board.to_move:
                if player.get("kind") == "human":
                    return User("console", str(player["id"]), str(player["name"]))
        return self.player_one

    async def handle_word(self, word: str, user: User) -> Reply | None:
        """The console's command words; None when ``word`` is not one of them."""
        if word == "help":
            await self.show_paged(self.help_text())
        elif word == "rules":
            record = await self.service.running_record(self.place)
            await self.show_paged(self.rules_text(record.game if record
                                                  else game_names()[0]))
        elif word == "stats":
            self.write(await self.community.stats_text(self.place, user.id, user.name))
        elif word == "resign":
            return await self.service.resign(self.place, user)
        elif word == "abandon":
            return await self.service.abandon(self.place, user)
        elif word not in {"board", ""}:
            return None
        return await self.service.board(self.place)

    # ------------------------------------------------------------------- play
    async def hot_seat(self) -> tuple[bool, bool]:
        """Whether two people share this keyboard, and whether each then has a private
        hand to hide from the other."""
        record = await self.service.running_record(self.place)
        if record is None:
            return False, False
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
        return (await self.service.hand(self.place, user)).hand

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
            reply.notice = None  # said once: a refused number must not bring it back
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
                        self.write("")
                        self.write(plain(hand.text))
                        self.last_hand = hand.text
                    menu = hand
            if menu.prompt:
                # At a shared keyboard the prompt names whom it asks; alone, it is "you".
                self.write(f"{user.name}: {menu.prompt}" if shared else menu.prompt)
            # The board's grid is for tapping; at a keyboard the numbered list (or a typed
            # move) is quicker, and 0 stays the one way back or to the hint.
            navigation = [b for b in menu.navigation if not opens_grid(b)]
            for number, button in enumerate(menu.buttons, 1):
                self.write(f"  {number:>2}) {button.label}")
            for button in navigation[:1]:
                self.write(f"   0) {button.label}")
            line = await self.read("> ")
            word = line.strip().lower() if line is not None else "quit"
            if word in QUIT_WORDS:
                self.write(self.t("console.saved"))
                return False
            picked = menu_number(word)
            if picked is not None:
                chosen: Button | None = None
                if picked == 0 and navigation:
                    chosen = navigation[0]
                elif 1 <= picked <= len(menu.buttons):
                    chosen = menu.buttons[picked - 1]
                if chosen is None:
                    self.write(f"! {self.t('console.pick_number', count=len(menu.buttons))}")
                    continue
                self.hand_of = user.id
                reply = await self.service.press(self.place, user, chosen.payload)
                continue
            force_board = word == "board"
            answer = await self.handle_word(word, user)
            if answer is None:
                assert line is not None
                self.hand_of = user.id
                answer = await self.service.move(self.place, user, line.strip())
            reply = answer


def opens_grid(button: Button) -> bool:
    payload = Payload.parse(button.payload)
    return payload is not None and payload.path == (GRID_TOKEN,)


def plain(text: str) -> str:
    """A renderer's text for a terminal: the fences that mark monospace blocks for chat
    platforms are dropped (the terminal is monospace throughout)."""
    if FENCE not in text:
        return text
    return "\n".join(line for line in text.split("\n") if not line.startswith(FENCE))


def menu_number(text: str) -> int | None:
    """A typed option number; only ASCII digits count (``²`` is a digit to Python)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None


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
                             community=app.community,
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
