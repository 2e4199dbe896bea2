"""Telegram's routing, in python-telegram-bot's own vocabulary: one ``CommandHandler`` per
command, one ``CallbackQueryHandler`` per kind of button, and the private-chat text and
unknown-command handlers. Nothing here decides anything; it only says which method of
the commands answers which update."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import CallbackQuery, Update
from telegram.ext import (
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.adapters.telegram.client import TelegramBot
from bot.adapters.telegram.commands import Commands
from bot.adapters.telegram.commands.assignments import AssignmentCommands
from bot.adapters.telegram.commands.learn import LESSON_PATTERN, LearnCommands
from bot.adapters.telegram.commands.puzzles import PUZZLE_PATTERN, PuzzleCommands
from bot.adapters.telegram.commands.tournament import SIGNUP_PATTERN, TournamentCommands

# The bot's own buttons: game set-up, rules, settings and replays (see buttons.py).
OWN_BUTTONS = r"^[prsv]:"
# A game's buttons, and an ended game's panel, carry a service payload (bot/payloads.py).
GAME_BUTTONS = r"^[mhjgei]:"

Callback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


def answered(client: TelegramBot,
             handle: Callable[[CallbackQuery], Awaitable[None]]) -> Callback:
    async def callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.callback_query is not None
        await client.answered_once(update.callback_query, handle)
    return callback


def install(client: TelegramBot) -> Commands:
    """Register every handler on the client's application; returns the commands."""
    commands = Commands(client)
    application = client.application
    # The puzzle trainer takes /puzzle <game>, /daily <game> and its /start links first.
    puzzles = PuzzleCommands(client, commands)
    for name, handler in puzzles.wrap(commands.handlers()).items():
        application.add_handler(CommandHandler(name, handler))
    assignments = AssignmentCommands(client, commands)
    application.add_handler(CommandHandler("assign", assignments.assign))
    application.add_handler(CommandHandler("progress", assignments.progress))
    tournaments = TournamentCommands(client, commands)
    application.add_handler(CommandHandler("tournament", tournaments.tournament))
    application.add_handler(CallbackQueryHandler(answered(client, tournaments.signup_pressed),
                                                 pattern=SIGNUP_PATTERN))
    learn = LearnCommands(client, commands)
    application.add_handler(CommandHandler("learn", learn.learn))
    application.add_handler(CallbackQueryHandler(answered(client, learn.lesson_pressed),
                                                 pattern=LESSON_PATTERN))
    application.add_handler(CallbackQueryHandler(answered(client, puzzles.pressed),
                                                 pattern=PUZZLE_PATTERN))
    application.add_handler(CallbackQueryHandler(answered(client, commands.own_button),
                                                 pattern=OWN_BUTTONS))
    application.add_handler(CallbackQueryHandler(answered(client, commands.game_button),
                                                 pattern=GAME_BUTTONS))
    # Anything else was forged or is from another bot: the service refuses it in words.
    application.add_handler(CallbackQueryHandler(answered(client, commands.game_button)))
    application.add_handler(ChatMemberHandler(commands.bot_membership,
                                              ChatMemberHandler.MY_CHAT_MEMBER))
    application.add_handler(MessageHandler(
        filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, commands.private_text))
    # After the command handlers, so only commands the bot does not have get here.
    application.add_handler(MessageHandler(
        filters.ChatType.PRIVATE & filters.COMMAND, commands.unknown_command))
    application.add_error_handler(client.on_error)
    return commands
