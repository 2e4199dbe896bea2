"""The console adapter: play in a terminal by choosing numbered options.

Every choice is a number; typed notation (``d4 S W a4>a1``) works too, as do the words
``help``, ``rules``, ``board``, ``stats``, ``resign``, ``abandon`` and ``quit``. The game
lives in the database like any chat game, so quitting and starting again resumes it.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.community import Community
from bot.config import Settings
from bot.service import Board, Button, Hand, Opponent, Place, Reply, Service, User
from engines.registry import game_names, get_game
from renderers.i18n import normalise_language, translate

ReadLine = Callable[[str], Awaitable[str | None]]
Write = Callable[[str], None]

CHANNEL = "local"
PLAYER_ONE = User("console", "player-1", "Player 1")
PLAYER_TWO = User("console", "player-2", "Player 2")
YOU = User("console", "player-1", "You")


async def read_stdin(prompt: str) -> str | None:
    """One line from the terminal, read in a thread so the event loop keeps running."""
    def read() -> str | None:
        try:
            return input(prompt)
        except EOFError:
            return None
    return await asyncio.to_thread(read)


@dataclass
class MenuItem:
    label: str
    value: str


class ConsoleSession:
    def __init__(self, service: Service, read: ReadLine, write: Write,
                 language: str = "en") -> None:
        self.service = service
        self.read = read
        self.write = write
        self.place = Place("console", CHANNEL, normalise_language(language), emoji=False)
        self.last_board = ""
        self.last_hand = ""
        # Results against the computer are counted here too, so ``stats`` has something
        # to show; the console is one player, so it has no ratings or leaderboards.
        self.community = Community(service)

    def t(self, key: str, **params: object) -> str:
        return translate(self.place.language, key, None, **params)

    async def ask(self, title: str, items: Sequence[MenuItem]) -> str | None:
        """Numbered choice; returns the item's value, or None when input ends."""
        while True:
            self.write(title)
            for number, item in enumerate(items, 1):
                self.write(f"  {number}) {item.label}")
            line = await self.read("> ")
            if line is None:
                return None
            text = line.strip().lower()
            if text in {"quit", "exit", "q"}:
                return None
            if text.isdigit() and 1 <= int(text) <= len(items):
                return items[int(text) - 1].value
            self.write(self.t("console.pick_number", count=len(items)))

    # ------------------------------------------------------------------- flow
    async def run(self) -> None:
        self.write(self.t("console.welcome"))
        reply = await self.service.board(self.place)
        if reply.ok and reply.board is not None:
            self.write(self.t("console.resuming"))
            if not await self.play(reply):
                return
        while True:
            chosen = await self.main_menu()
            if chosen is None:
                self.write(self.t("console.bye"))
                return
            if not await self.play(chosen):
                return

    async def main_menu(self) -> Reply | None:
        while True:
            items = []
            for name in game_names():
                title = get_game(name).TITLE
                items += [MenuItem(self.t("console.play_ai", game=title), f"ai:{name}"),
                          MenuItem(self.t("console.play_local", game=title), f"local:{name}"),
                          MenuItem(self.t("console.read_rules", game=title), f"rules:{name}")]
            items += [MenuItem(self.t("console.help"), "help"),
                      MenuItem(self.t("console.quit"), "quit")]
            choice = await self.ask(self.t("console.main_menu"), items)
            if choice is None or choice == "quit":
                return None
            if choice == "help":
                self.write(self.help_text())
                continue
            kind, _, game = choice.partition(":")
            if kind == "rules":
                self.write(self.service.rules_text(self.place, game))
                continue
            reply = await self.setup_game(game, against_computer=kind == "ai")
            if reply is None:
                return None
            if reply.ok:
                return reply
            self.show(reply)

    async def setup_game(self, game: str, against_computer: bool) -> Reply | None:
        module = get_game(game)
        options: list[str] = []
        for spec in module.OPTIONS:
            if spec.kind is not bool:
                continue
            choice = await self.ask(
                self.t("console.option_question", option=spec.name.replace("_", " "),
                       help=spec.help),
                [MenuItem(self.t("console.option_off"), "off"),
                 MenuItem(self.t("console.option_on"), "on")])
            if choice is None:
                return None
            options.append(f"{spec.name}={choice}")
        if not against_computer:
            return await self.service.start_game(self.place, PLAYER_ONE, game,
                                                 Opponent("user", user=PLAYER_TWO),
                                                 " ".join(options))
        # The L-game lists "strong" as a synonym of "perfect"; one name for it is enough here.
        levels = [level for level in module.LEVELS
                  if not (level == "strong" and "perfect" in module.LEVELS)]
        level = await self.ask(self.t("console.level_question"),
                               [MenuItem(level, level) for level in levels])
        if level is None:
            return None
        first = await self.ask(self.t("console.first_question"),
                               [MenuItem(self.t("console.first_me"), "0"),
                                MenuItem(self.t("console.first_computer"), "1"),
                                MenuItem(self.t("console.first_random"), "random")])
        if first is None:
            return None
        return await self.service.start_game(self.place, YOU, game, Opponent("ai", level),
                                             " ".join(options),
                                             creator_seat=None if first == "random"
                                             else int(first))

    def help_text(self) -> str:
        return self.service.help_text(self.place) + "\n" + self.t("console.commands")

    def show(self, reply: Reply, force_board: bool = False) -> None:
        for line in reply.announcements:
            self.write(line)
        # Stepping through a move's menu does not change the board: printing it again would
        # push the options off a small terminal.
        if reply.board is not None and (force_board or reply.board.text != self.last_board):
            self.write("")
            self.write(reply.board.text)
            self.last_board = reply.board.text
        if reply.notice:
            self.write(f"! {reply.notice}")

    @staticmethod
    def actor(reply: Reply) -> User:
        """The local player who acts now: in a hot-seat game, whoever is to move."""
        if reply.board is not None:
            for player in reply.board.to_move:
                if player.get("kind") == "human":
                    return User("console", str(player["id"]), str(player["name"]))
        return PLAYER_ONE

    async def handle_word(self, word: str, user: User) -> Reply | None:
        """The console's command words; None when ``word`` is not one of them."""
        if word == "help":
            self.write(self.help_text())
        elif word == "rules":
            record = await self.service.store.running_game(self.place.platform, CHANNEL)
            self.write(self.service.rules_text(self.place,
                                               record.game if record else game_names()[0]))
        elif word == "stats":
            self.write(await self.community.stats_text(self.place, user.id, user.name))
        elif word == "resign":
            return await self.service.resign(self.place, user)
        elif word == "abandon":
            return await self.service.abandon(self.place, user)
        elif word not in {"board", ""}:
            return None
        return await self.service.board(self.place)

    async def play(self, reply: Reply) -> bool:
        """Play until the game ends (True) or the player quits (False)."""
        force_board = True
        while True:
            self.show(reply, force_board)
            force_board = False
            board = reply.board
            if reply.finished or board is None:
                self.write("")
                return True
            if reply.ai_to_move:
                self.write(self.t("console.thinking"))
                reply = await self.service.play_ai_turn(self.place)
                continue
            user = self.actor(reply)
            menu: Board | Hand = board
            if board.hand_button is not None:
                # Hidden information (a hand, a Turing notes sheet) shows at the prompt of
                # the player it belongs to, with that player's menu.
                hand = reply.hand or (await self.service.hand(self.place, user)).hand
                if hand is not None:
                    if hand.text != self.last_hand:
                        self.write("")
                        self.write(hand.text)
                        self.last_hand = hand.text
                    menu = hand
            if menu.prompt:
                self.write(f"{user.name}: {menu.prompt}")
            for number, button in enumerate(menu.buttons, 1):
                self.write(f"  {number:>2}) {button.label}")
            for button in menu.navigation:
                self.write(f"   0) {button.label}")
            line = await self.read("> ")
            word = line.strip().lower() if line is not None else "quit"
            if word in {"quit", "exit"}:
                self.write(self.t("console.saved"))
                return False
            if word.isdigit():
                number = int(word)
                if number == 0 and menu.navigation:
                    chosen: Button | None = menu.navigation[0]
                elif 1 <= number <= len(menu.buttons):
                    chosen = menu.buttons[number - 1]
                else:
                    chosen = None
                if chosen is None:
                    self.write(f"! {self.t('console.pick_number', count=len(menu.buttons))}")
                    continue
                reply = await self.service.press(self.place, user, chosen.payload)
                continue
            force_board = word == "board"
            answer = await self.handle_word(word, user)
            if answer is None:
                assert line is not None
                answer = await self.service.move(self.place, user, line.strip())
            reply = answer


async def run_console(service: Service, settings: Settings) -> None:
    def write(text: str) -> None:
        print(text, flush=True)
    if not sys.stdin.isatty():
        write(translate(settings.language, "console.not_a_terminal"))
    await ConsoleSession(service, read_stdin, write, settings.language).run()
