"""``/learn <game>`` on Telegram: a first-game lesson (``bot/learn/lessons.py``) in the learner's
private chat, where only they can press its buttons.

Asked in a group, the lesson goes to the asker's private chat and the group is told so (or
how to open that chat when the bot may not write there yet); a lesson is practice for one,
not something for the whole class to scroll past. Its buttons carry the page they lead to
(``l:<game>:<step>:<path>``), so they need no memory and survive restarts.
"""

from __future__ import annotations

from telegram import CallbackQuery, Update
from telegram.ext import ContextTypes

from bot.adapters.telegram.buttons import rows_of
from bot.adapters.telegram.chats import is_private
from bot.adapters.telegram.client import TelegramBot
from bot.adapters.telegram.commands import Commands
from bot.adapters.telegram.layout import Key, Message, menu_message
from bot.learn.lessons import (
    LessonPage,
    data,
    first_page,
    lesson_game,
    lesson_games,
    lesson_list,
    page_for,
)
from engines.registry import get_game
from renderers.i18n import translate

LESSON_PATTERN = r"^l:"
PREFIX = "l:"


def lesson_message(page: LessonPage) -> Message:
    """The page with the step's options as keys and the navigation in the last row."""
    return menu_message(page.text, page.choices, page.navigation, PREFIX)


class LearnCommands:
    def __init__(self, client: TelegramBot, commands: Commands) -> None:
        self.client = client
        self.commands = commands

    async def learn(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, person = update.effective_message, update.effective_user
        assert message is not None and person is not None
        place = await self.client.place_of_message(message, person)
        user = self.client.user_for(person)
        game = lesson_game(" ".join(context.args or []))
        if game is None:
            # In the private chat, a button per game opens its lesson in place; a group's
            # buttons would let anyone turn the answer into a lesson for all to see.
            keys = [Key(get_game(name).TITLE, PREFIX + data(name, 0)) for name in lesson_games()]
            await self.client.reply_text(message, place, lesson_list(place.language),
                                         rows_of(keys, 2) if is_private(place.channel) else ())
            return
        page = lesson_message(first_page(game, place.language, place.emoji))
        if is_private(place.channel):
            await self.client.send(place.channel, page)
            return
        if await self.commands.refused_for_speed(message, place, user):
            return  # a group's /learn posts twice; a private one only answers its asker
        if await self.client.send(user.id, page) is None:
            await self.client.reply_text(message, place, translate(
                place.language, "lesson.private_only",
                "Lessons are played in a private chat with me, where only you see them: "
                "open a chat with me (tap my name, then Start) and send /learn {game} there.",
                game=game))
            return
        await self.client.reply_text(message, place, translate(
            place.language, "lesson.sent", "I sent you the lesson in our private chat."))

    async def lesson_pressed(self, query: CallbackQuery) -> None:
        """A lesson's option or navigation: the page it leads to replaces the message. Only
        data that is on the pressed message counts, as for the bot's other own buttons."""
        pressed = await self.commands.own_press(query)
        if pressed is None:
            return
        source, place = pressed
        await self.client.answer(query)
        page = page_for((query.data or "").removeprefix(PREFIX), place.language, place.emoji)
        await self.client.edit(source.chat.id, source.message_id, lesson_message(page))
