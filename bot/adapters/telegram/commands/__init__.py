"""The commands, and the bot's own buttons (game setup, rules, settings).

Each command is a thin call into the service plus an answer. Everything a command can
take as an argument can also be chosen with buttons: ``/play`` alone offers the games and
then the opponents, ``/rules`` alone offers the games.

The bot's own callback data never looks like a service payload (``m:``, ``h:``, ``j:``):
``p:<user>:<game>[:<opponent>]`` sets up a game, ``r:<game>`` shows rules and
``s:<setting>:<value>`` changes a chat setting.
"""

from __future__ import annotations

import logging
import re

from telegram import Chat, Update
from telegram import Message as TgMessage
from telegram.constants import ChatMemberStatus
from telegram.ext import ContextTypes

from bot.adapters.telegram.chats import (
    DAILY_LINK_PREFIX,
    HAND_LINK_PREFIX,
    HINT_LINK,
    PLATFORM,
    chat_of,
    is_private,
)
from bot.adapters.telegram.commands.classroom import ClassroomCommands
from bot.adapters.telegram.commands.community import CommunityCommands
from bot.adapters.telegram.commands.games import GameCommands
from bot.adapters.telegram.commands.kit import Handler
from bot.service import Place, User
from renderers.i18n import translate

log = logging.getLogger(__name__)

_DAILY_LINK_RE = re.compile(re.escape(DAILY_LINK_PREFIX) + r"(m?\d{1,20})")
_HAND_LINK_RE = re.compile(re.escape(HAND_LINK_PREFIX) + r"(\d{1,12})")


class Commands(GameCommands, CommunityCommands, ClassroomCommands):
    """Every command, by topic (``games``, ``community``, ``classroom``; the steps they
    share in ``kit``), and the conversation's own entry points: ``/start`` and its deep
    links, ``/help``, plain text and unknown commands in a private chat, and the bot's
    removal from a group."""

    def handlers(self) -> dict[str, Handler]:
        return {"start": self.start, "help": self.help, "play": self.play,
                "puzzle": self.puzzle, "daily": self.daily, "leaderboard": self.leaderboard,
                "join": self.join,
                "board": self.board, "move": self.move, "hand": self.hand,
                "resign": self.resign, "abandon": self.abandon, "rules": self.rules,
                "settings": self.settings, "stats": self.stats, "rematch": self.rematch,
                "games": self.games, "forget_me": self.forget_me, "timer": self.timer,
                "cues": self.cues, "hint": self.hint, "replay": self.replay,
                "export": self.export, "classboard": self.class_board}

    # ------------------------------------------------------------------ /start, /help
    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The first message of a private chat, or a deep link to a hand."""
        message, place, user = await self._context(update)
        match = _HAND_LINK_RE.fullmatch(context.args[0]) if context.args else None
        if match is not None and is_private(place.channel):
            await self.hand_from_link(message, place, user, int(match.group(1)))
            return
        if context.args and context.args[0] == HINT_LINK and is_private(place.channel):
            # The link a hint pressed in a group answers with: the chat is open now.
            await self.client.reply_text(message, place, translate(
                place.language, "telegram.hint.opened",
                "Our chat is open: hints come here now. Press 💡 Hint again on the board."))
            return
        daily = _DAILY_LINK_RE.fullmatch(context.args[0]) if context.args else None
        if daily is not None and is_private(place.channel):
            await self.start_daily(message, place, user, daily.group(1).replace("m", "-"))
            return
        await self.client.reply_text(message, place, "\n\n".join([
            self.t(place, "telegram.welcome"),
            self.service.help_text(place, "telegram.help.commands")]))

    async def hand_from_link(self, message: TgMessage, place: Place, user: User,
                             game_id: int) -> None:
        record = await self.service.game_record(game_id)
        if record is None or record.platform != PLATFORM or not record.running:
            await self.client.reply_text(message, place, self.t(place, "telegram.hand.gone"))
            return
        game_place = self.client.place_of_record(record)
        reply = await self.service.hand(game_place, user)
        if reply.hand is None or not await self.client.send_hand(game_place, user.id,
                                                                 game_id, reply.hand):
            await self.client.reply_text(message, place, reply.notice or self.t(
                place, "telegram.hand.gone"))

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, _ = await self._context(update)
        await self.client.reply_text(message, place, self.service.help_text(
            place, "telegram.help.commands"))

    async def bot_membership(self, update: Update,
                             context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot was removed from a group (or the group was deleted): its games end, so
        that they stop counting toward their players' limits. Nothing is said there, as
        the bot can no longer write to it."""
        change = update.my_chat_member
        if change is None or change.chat.type == Chat.PRIVATE:
            return
        if change.new_chat_member.status not in (ChatMemberStatus.LEFT,
                                                  ChatMemberStatus.BANNED):
            return
        ended = await self.service.end_games_in(PLATFORM, str(change.chat.id))
        log.info("removed from %s: %d running games ended", change.chat.id, len(ended))
        await self.client.daily.drop_schedules_of(
            PLATFORM, str(change.chat.id),
            lambda channel: chat_of(channel)[0] == change.chat.id)

    async def private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Plain text in a private chat: a move when a game runs there, else help."""
        message, place, user = await self._context(update)
        if await self.service.running_record(place) is None:
            await self.client.reply_text(message, place, self.service.help_text(
                place, "telegram.help.commands"))
            return
        await self.typed_move(message, place, user, (message.text or "")[:200])

    async def unknown_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command the bot does not have, in a private chat, where everything is meant
        for the bot: the help, not silence. In groups such commands may be other bots'."""
        message, place, _ = await self._context(update)
        await self.client.reply_text(message, place, self.service.help_text(
            place, "telegram.help.commands"))
