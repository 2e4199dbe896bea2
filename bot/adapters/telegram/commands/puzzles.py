"""The puzzle trainer (``bot/puzzles/trainer.py``) on Telegram, in the solver's private chat.

* ``/puzzle <game> [theme]``: a puzzle of that game; asked in a group, it goes to the
  asker's private chat (or the group is told how to open one), as lessons do. ``/puzzle``
  alone, and ``/puzzle`` with the Turing Machine's words, keep their meaning (a Turing
  puzzle here); in a private chat the Turing picker also offers the trainer's games.
* ``/daily <game>``: in a group, the game's puzzle of the day with the day's leaderboard
  so far and a Solve link (``?start=pz-<game>-<group>``) into the private chat, where the
  puzzle opens; in a private chat, the puzzle itself. ``/daily`` alone keeps its meaning.
* ``/daily <game> <HH:MM [zone]|off>`` (group admins): that post every day, with the
  puzzle drawn and yesterday's leaderboard (``bot.puzzles.daily``, ``bot.puzzles.posts``;
  one schedule per chat and game); ``/daily list``: what is posted here every day.
* The pages' buttons carry ``z:<attempt>:<step>[:<argument>]`` (``bot.puzzles.pages``),
  accepted only on the message that carries them; a press replaces the page, and a
  refusal (someone else's puzzle, a limit) is an alert that changes nothing.
"""

from __future__ import annotations

import datetime as dt
import html
import logging
import re

from telegram import CallbackQuery, Update
from telegram import Message as TgMessage
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.adapters.telegram.buttons import rows_of
from bot.adapters.telegram.chats import chat_of, is_private
from bot.adapters.telegram.client import TelegramBot
from bot.adapters.telegram.commands import Commands
from bot.adapters.telegram.commands.kit import Handler
from bot.adapters.telegram.layout import Key, Message, fit, menu_message, text_blocks
from bot.puzzles.daily import LIST_WORD, OFF_WORD, PostOutcome
from bot.puzzles.pages import PuzzlePage
from bot.puzzles.posts import scheduled_post_text
from bot.puzzles.trainer import puzzle_game, puzzle_list
from bot.replies import Place, User
from bot.store import DailySchedule
from engines.puzzles import puzzle_games
from engines.registry import get_game
from renderers.i18n import translate

log = logging.getLogger(__name__)

PUZZLE_PATTERN = r"^zs?:"
PREFIX = "z:"
# A trainer game's key in the private chat's list: ``zs:<game>``, a puzzle of that game.
START_PREFIX = "zs:"
# ``/start pz-<game>-<group>``: the Solve link of a group's puzzle of the day. A /start
# payload holds only letters, digits, _ and -: the group id's minus becomes "m".
LINK_PREFIX = "pz-"
_LINK_RE = re.compile(re.escape(LINK_PREFIX) + r"([a-z]{1,16})-(m?\d{1,20})?")


def page_message(page: PuzzlePage) -> Message:
    """The page with its options as keys and its navigation in the last row."""
    return menu_message(page.text, page.choices, page.navigation, PREFIX)


class PuzzleCommands:
    def __init__(self, client: TelegramBot, commands: Commands) -> None:
        self.client = client
        self.commands = commands
        self.trainer = client.app.trainer
        client.post_puzzle_daily = self.post_scheduled

    def wrap(self, handlers: dict[str, Handler]) -> dict[str, Handler]:
        """The commands' handlers with ``/puzzle``, ``/daily`` and ``/start`` taking the
        trainer's words first and leaving everything else to the commands as before."""
        turing_puzzle, daily, start = handlers["puzzle"], handlers["daily"], handlers["start"]

        async def puzzle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            words = list(context.args or [])
            if not await self.puzzle(update, words):
                await turing_puzzle(update, context)

        async def daily_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if not await self.daily(update, list(context.args or [])):
                await daily(update, context)

        async def start_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if not await self.start_link(update, list(context.args or [])):
                await start(update, context)

        return {**handlers, "puzzle": puzzle, "daily": daily_command, "start": start_command}

    async def _context(self, update: Update) -> tuple[TgMessage, Place, User]:
        message, person = update.effective_message, update.effective_user
        assert message is not None and person is not None
        return (message, await self.client.place_of_message(message, person),
                self.client.user_for(person))

    # ---------------------------------------------------------------- /puzzle
    async def puzzle(self, update: Update, words: list[str]) -> bool:
        """``/puzzle <game> [theme]``; False for the Turing Machine's ``/puzzle``."""
        if not words:
            return await self._offer_games(update)
        game = puzzle_game(words[0])
        if game is None:
            return False
        message, place, user = await self._context(update)
        theme = words[1].lower() if len(words) > 1 else None
        if is_private(place.channel):
            page = await self.trainer.start(place, user, game, theme)
            await self._send_page(message, place, page)
            return True
        if await self.commands.refused_for_speed(message, place, user):
            return True
        private = Place(place.platform, user.id, place.language, place.emoji, place.server)
        page = await self.trainer.start(private, user, game, theme)
        if not page.ok:
            await self.client.reply_text(message, place, page.text)
        elif await self.client.send(user.id, page_message(page)) is None:
            await self.client.reply_text(message, place, translate(
                place.language, "puzzle.private_only",
                "Puzzles are solved in a private chat with me, where only you see them: "
                "open a chat with me (tap my name, then Start) and send /puzzle {game} there.",
                game=game))
        else:
            await self.client.reply_text(message, place, translate(
                place.language, "puzzle.sent", "I sent you the puzzle in our private chat."))
        return True

    async def _offer_games(self, update: Update) -> bool:
        """``/puzzle`` alone in a private chat: the Turing picker, with a key per trainer
        game below it; False elsewhere (a group's keys would be anyone's), where the
        commands answer as before."""
        message, place, user = await self._context(update)
        if not is_private(place.channel) or not puzzle_games():
            return False
        picker = self.commands.puzzle_picker(place, user)
        keys = [Key(get_game(game).TITLE, START_PREFIX + game) for game in puzzle_games()]
        await self.client.send(place.channel, Message(
            picker.html + "\n\n" + html.escape(puzzle_list(place.language), quote=False),
            picker.rows + rows_of(keys, 2)), reply_to=message.message_id)
        return True

    # ----------------------------------------------------------------- /daily
    async def daily(self, update: Update, words: list[str]) -> bool:
        """``/daily <game>``, ``/daily <game> <HH:MM [zone]|off>`` (admins), ``/daily
        list``; False for the Turing challenge's ``/daily``."""
        if [word.lower() for word in words] == [LIST_WORD]:
            message, place, _ = await self._context(update)
            await self.client.reply_text(message, place,
                                         await self.client.daily.schedules_text(place))
            return True
        game = puzzle_game(words[0]) if words else None
        if game is None:
            return False
        if len(words) > 1:
            await self._schedule(update, game, words[1:])
            return True
        message, place, user = await self._context(update)
        if is_private(place.channel):
            await self._send_page(message, place,
                                  await self.trainer.start_daily(place, user, game))
            return True
        if await self.commands.refused_for_speed(message, place, user):
            return True
        day = self.trainer.today()
        board = await self.trainer.leaderboard_text(place.language, game, day,
                                                    str(message.chat.id))
        text = self.trainer.daily_post_text(place.language, game, day) + "\n\n" + board
        solve = self.solve_key(game, str(message.chat.id), place.language)
        await self.client.reply_text(message, place, text, ((solve,),))
        return True

    async def _schedule(self, update: Update, game: str, words: list[str]) -> None:
        """``/daily <game> 07:30 [zone]`` posts that game's puzzle of the day in this
        group (or topic) every day, ``/daily <game> off`` stops it: admins only, as the
        Turing challenge's schedule."""
        message, place, _ = await self._context(update)
        person = update.effective_user
        assert person is not None
        if is_private(place.channel):
            await self.client.reply_text(message, place, translate(
                place.language, "puzzle.schedule_in_groups",
                "A puzzle of the day is posted every day in a group: send this there."))
            return
        if not await self.client.is_admin(message.chat, person, message.sender_chat):
            await self.client.reply_text(message, place, translate(
                place.language, "telegram.settings.admins_only"))
            return
        daily = self.client.daily
        answer = (await daily.unschedule(place, game) if words[0].lower() == OFF_WORD
                  else await daily.schedule(place, str(message.chat.id), " ".join(words), game))
        await self.client.reply_text(message, place, answer)

    def solve_key(self, game: str, group: str, language: str) -> Key:
        """The Solve link of a group's puzzle of the day: the private chat, where the
        puzzle opens (``start_link``)."""
        link = (f"https://t.me/{self.client.username}?start={LINK_PREFIX}{game}-"
                f"{group.replace('-', 'm')}")
        return Key(translate(language, "puzzle.solve", "🧩 Solve"), url=link)

    async def post_scheduled(self, schedule: DailySchedule, day: str) -> PostOutcome:
        """A group's scheduled puzzle of the day (``bot.puzzles.daily``, one schedule per
        chat and game): the puzzle, yesterday's leaderboard of the group, the Solve link."""
        text = await scheduled_post_text(self.trainer, schedule, dt.date.fromisoformat(day))
        message = Message(fit(text_blocks(text)),
                          ((self.solve_key(schedule.game, schedule.server, schedule.language),),))
        chat_id, topic = chat_of(schedule.channel)
        try:
            await self.client.bot.send_message(chat_id, message.html, message_thread_id=topic,
                                               reply_markup=message.markup())
        except Forbidden as error:
            log.warning("%s puzzle of the day to %s refused: %s", schedule.game,
                        schedule.channel, error)
            return "gone"  # the bot was removed from the group, or the chat closed to it
        except BadRequest as error:
            log.warning("%s puzzle of the day to %s refused: %s", schedule.game,
                        schedule.channel, error)
            return "gone" if "not found" in str(error).lower() else "failed"
        except TelegramError as error:
            log.warning("%s puzzle of the day to %s failed: %s", schedule.game,
                        schedule.channel, error)
            return "failed"
        return "posted"

    async def start_link(self, update: Update, words: list[str]) -> bool:
        """``/start pz-<game>-<group>``: the group's puzzle of the day, here."""
        found = _LINK_RE.fullmatch(words[0]) if words else None
        game = puzzle_game(found.group(1)) if found else None
        if found is None or game is None:
            return False
        message, place, user = await self._context(update)
        if not is_private(place.channel):
            return False
        server = (found.group(2) or "").replace("m", "-")
        here = Place(place.platform, place.channel, place.language, place.emoji, server)
        await self._send_page(message, place, await self.trainer.start_daily(here, user, game))
        return True

    async def _send_page(self, message: TgMessage, place: Place, page: PuzzlePage) -> None:
        if page.ok:
            await self.client.send(place.channel, page_message(page),
                                   reply_to=message.message_id)
        else:
            await self.client.reply_text(message, place, page.text)

    # ---------------------------------------------------------------- presses
    async def pressed(self, query: CallbackQuery) -> None:
        """A trainer button: the page it leads to replaces the message. Only data that is
        on the pressed message counts, as for the bot's other own buttons."""
        pressed = await self.commands.own_press(query)
        if pressed is None:
            return
        source, place = pressed
        data = query.data or ""
        user = self.client.user_for(query.from_user)
        if data.startswith(START_PREFIX):
            game = puzzle_game(data.removeprefix(START_PREFIX))
            if game is None:
                await self.client.answer(query, translate(place.language,
                                                          "error.foreign_button"), alert=True)
                return
            page = await self.trainer.start(place, user, game)
        else:
            page = await self.trainer.press(place, user, data.removeprefix(PREFIX))
        if not page.ok:
            await self.client.answer(query, page.text, alert=True)
            return
        await self.client.answer(query)
        await self.client.edit(source.chat.id, source.message_id, page_message(page))
