"""Commands of the community: ``/daily`` (the daily challenge), ``/leaderboard``,
``/stats``, ``/games`` (the group's running games), ``/cues`` and ``/forget_me``."""

from __future__ import annotations

from telegram import Chat, Update
from telegram import Message as TgMessage
from telegram.ext import ContextTypes

from bot.adapters.answers import leaderboard_answer
from bot.adapters.base import TURN_CUES
from bot.adapters.telegram.chats import is_private
from bot.adapters.telegram.commands.kit import CommandKit
from bot.service import Place, User
from renderers.i18n import translate


class CommunityCommands(CommandKit):
    """The commands about results, rankings and the daily challenge."""

    # ------------------------------------------------------------------- /daily
    async def daily(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Groups: ``/daily`` posts today's challenge, ``/daily 07:30`` (admins) posts it
        every day, ``/daily off`` stops. Private chats: ``/daily`` plays today's."""
        message, place, user = await self._context(update)
        words = [w.lower() for w in context.args or []]
        if is_private(place.channel):
            await self.start_daily(message, place, user, "")
            return
        if words:
            if not await self.settings_admin(update, message, place):
                return
            # The whole text: a time may be followed by its zone (07:30 Europe/Brussels).
            answer = (await self.client.daily.unschedule(place) if words[0] == "off"
                      else await self.client.daily.schedule(place, str(message.chat.id),
                                                            " ".join(words)))
            await self.client.reply_text(message, place, answer)
            return
        day = self.client.daily.today()
        text = self.client.daily.post_text(place.language, day)
        await self.client.send(place.channel, self.client.daily_message(
            text, str(message.chat.id), place.language), reply_to=message.message_id)

    async def start_daily(self, message: TgMessage, place: Place, user: User,
                          server: str) -> None:
        reply = await self.client.daily.start_attempt(place, user, server)
        await self.post_board_reply(message, place, reply)

    async def leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/leaderboard <game>``: that game's rankings; alone, the daily challenge's."""
        message, place, user = await self._context(update)
        if await self.refused_for_speed(message, place, user):
            return
        game = " ".join(context.args) if context.args else None
        await self.client.reply_text(message, place,
                                     await leaderboard_answer(self.client.app, place, game))

    # ------------------------------------------------------ results and privacy
    async def stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Your own results, or, replying to someone's message, theirs."""
        message, place, user = await self._context(update)
        if await self.refused_for_speed(message, place, user):
            return
        replied = message.reply_to_message
        person = replied.from_user if replied is not None else None
        if (person is not None and not person.is_bot
                and not (message.is_topic_message and replied is not None
                         and replied.message_id == message.message_thread_id)):
            user = self.client.user_for(person)
        await self.client.reply_text(message, place, await self.client.community.stats_text(
            place, user.id, user.name))

    async def games(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, user = await self._context(update)
        if await self.refused_for_speed(message, place, user):
            return
        here = translate(place.language, "games.here", "in this chat")
        supergroup = message.chat.type == Chat.SUPERGROUP
        await self.client.reply_text(message, place, await self.client.community.games_text(
            place, lambda record: self.client.board_link(record, here, supergroup)))

    async def forget_me(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, user = await self._context(update)
        if await self.anonymous(message, place):
            return
        result = await self.client.community.forget_me(place, user)
        await self.client.reply_text(message, place, result.notice)
        for game_place, reply in result.ended:
            await self.client.game_changed(game_place, reply)

    async def cues(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/cues on|off``: whether the bot mentions you when it is your turn."""
        message, place, user = await self._context(update)
        choice = (context.args or [""])[0].lower()
        if choice in ("on", "off"):
            await self.client.set_setting(f"user:{user.id}", TURN_CUES, choice)
        else:
            choice = "off" if await self.client.setting(f"user:{user.id}",
                                                        TURN_CUES) == "off" else "on"
        await self.client.reply_text(message, place, self.t(
            place, "turn.cues_on" if choice == "on" else "turn.cues_off"))
