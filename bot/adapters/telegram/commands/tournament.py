"""``/tournament`` on Telegram and its sign-up button (``t:<id>``), plus where its games
go: a topic each in a forum group, else a table of the group (``bot.tables``). What both
platforms share is ``bot.adapters.tournament_host``; the rules are ``bot.tournaments``.

Typed: ``/tournament create <game> [auto|swiss|round_robin] [rounds=N]
[timer=5,15,forfeit] [computer=<level>] [game options…]``, then ``/tournament start``,
``pause``, ``resume`` or ``end`` (group admins); ``/tournament`` alone shows it.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

from telegram import CallbackQuery, Update
from telegram import Message as TgMessage
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.adapters.telegram.chats import PLATFORM, callback_data_of, channel_of, chat_of
from bot.adapters.telegram.client import TelegramBot
from bot.adapters.telegram.commands import Commands
from bot.adapters.telegram.layout import Key, text_message
from bot.adapters.telegram.limits import TOPIC_NAME_LIMIT
from bot.adapters.tournament_host import (
    SIGNUP_PREFIX,
    ChatTournamentHost,
    signup_data,
    signup_label,
)
from bot.service import Place, User
from bot.store.tournament_rows import TournamentRecord
from bot.tournaments import AUTO, TournamentRefused
from bot.tournaments.pairings import FORMATS
from renderers.i18n import translate

log = logging.getLogger(__name__)

SIGNUP_PATTERN = rf"^{SIGNUP_PREFIX}"
_SIGNUP_DATA = re.compile(rf"{SIGNUP_PREFIX}([0-9]{{1,12}})")
STEPS = ("start", "pause", "resume", "end")


class TelegramTournamentPanel:
    """Telegram's part of a tournament: topics or tables for its games, its message."""

    def __init__(self, client: TelegramBot) -> None:
        self.client = client
        # Chats where a topic could not be made (a plain group, or no right to manage
        # topics): their games go to tables without asking Telegram again each game.
        self._no_topics: set[int] = set()

    async def open_game_place(self, tournament: TournamentRecord, title: str) -> Place:
        """A topic of its own in a forum group, as ``/play`` opens one; in a plain group
        (where a topic cannot be made) the group's lowest free table."""
        place = Place(PLATFORM, tournament.channel,
                      str(tournament.state.get("language") or "en"),
                      bool(tournament.state.get("emoji", True)), tournament.server)
        chat_id, _ = chat_of(tournament.channel)
        if chat_id in self._no_topics:
            return await self.client.service.free_place(place)
        try:
            topic = await self.client.bot.create_forum_topic(chat_id,
                                                             title[:TOPIC_NAME_LIMIT])
        except TelegramError:
            self._no_topics.add(chat_id)
            return await self.client.service.free_place(place)
        return replace(place, channel=channel_of(chat_id, topic.message_thread_id))

    @staticmethod
    def _rows(tournament: TournamentRecord, signup: bool) -> tuple[tuple[Key, ...], ...]:
        if not signup:
            return ()
        return ((Key(signup_label(tournament), signup_data(tournament.id)),),)

    async def post_tournament(self, tournament: TournamentRecord, text: str,
                              signup: bool) -> str | None:
        sent = await self.client.send(tournament.channel,
                                      text_message(text, self._rows(tournament, signup)))
        return str(sent.message_id) if sent is not None else None

    async def edit_tournament(self, tournament: TournamentRecord, message_id: str,
                              text: str, signup: bool) -> bool:
        chat_id, _ = chat_of(tournament.channel)
        return await self.client.edit(chat_id, int(message_id),
                                      text_message(text, self._rows(tournament, signup)))


class TournamentCommands:
    def __init__(self, client: TelegramBot, commands: Commands) -> None:
        self.client = client
        self.commands = commands
        self.tournaments = client.app.tournaments
        self.tournaments.attach(PLATFORM, ChatTournamentHost(
            client, self.tournaments, TelegramTournamentPanel(client)))

    async def tournament(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        person = update.effective_user
        assert message is not None and person is not None
        place = await self.client.place_of_message(message, person)
        words = list(context.args or [])
        step = words[0].lower() if words else ""
        if step not in ("create", *STEPS):
            await self._show(message, place)
            return
        if not await self.commands.moderator(update, place):
            return
        user = self.client.user_for(person, moderator=True)
        try:
            if step == "create":
                record = await self._create(place, user, words[1:])
                answer = self.tournaments.created_text(record)
            else:
                answer = await getattr(self.tournaments, step)(place, user)
        except TournamentRefused as refusal:
            answer = refusal.notice
        await self.client.reply_text(message, place, answer)

    async def _create(self, place: Place, user: User, words: list[str]) -> TournamentRecord:
        """``<game> [format] [rounds=N] [timer=a,b,action] [computer=level] [options…]``."""
        if not words:
            raise TournamentRefused(self.usage(place.language))
        game, rest = words[0], words[1:]
        format, rounds, timer, computer, options = AUTO, 0, "", "", []
        for word in rest:
            name, _, value = word.partition("=")
            lowered = name.lower()
            spelled = word.lower().replace("-", "_")  # a teacher types "round-robin"
            if spelled in (AUTO, *FORMATS):
                format = spelled
            elif lowered == "rounds" and value.isdigit():
                rounds = int(value)
            elif lowered == "timer" and value:
                timer = value.replace(",", " ")
            elif lowered == "computer" and value:
                computer = value.lower()
            else:
                options.append(word)
        return await self.tournaments.create(place, user, game, format=format, rounds=rounds,
                                             timer=timer, computer=computer,
                                             options=" ".join(options))

    async def _show(self, message: TgMessage, place: Place) -> None:
        record = await self.tournaments.open_here(place)
        text = (self.tournaments.text(record) if record is not None
                else self.usage(place.language))
        await self.client.reply_text(message, place, text)

    @staticmethod
    def usage(language: str) -> str:
        return translate(language, "telegram.tournament.usage",
                         "A moderator creates a tournament with /tournament create <game> "
                         "[swiss|round_robin] [rounds=3] [timer=5,15,forfeit] "
                         "[computer=easy] [options], then /tournament start; also pause, "
                         "resume and end.")

    async def signup_pressed(self, query: CallbackQuery) -> None:
        source = query.message
        found = _SIGNUP_DATA.fullmatch(query.data or "")
        if not isinstance(source, TgMessage):
            await self.commands.too_old(query)
            return
        place = await self.client.place_of_message(source, query.from_user)
        if found is None or query.data not in callback_data_of(source):
            await self.commands.foreign(query, place)  # forged onto another message
            return
        try:
            notice = await self.tournaments.sign_up(int(found[1]),
                                                    self.client.user_for(query.from_user),
                                                    place)
        except TournamentRefused as refusal:
            notice = refusal.notice
        await self.client.answer(query, notice, alert=True)
