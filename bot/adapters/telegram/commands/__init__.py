"""The commands, and the bot's own buttons (game setup, rules, settings).

Each command is a thin call into the service plus an answer. Everything a command can
take as an argument can also be chosen with buttons: ``/play`` alone offers the games and
then the opponents, ``/rules`` alone offers the games.

The bot's own callback data never looks like a service payload (``m:``, ``h:``, ``j:``):
``p:<user>:<game>[:<opponent>]`` sets up a game, ``r:<game>`` shows rules and
``s:<setting>:<value>`` changes a chat setting.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from telegram import CallbackQuery, Chat, Update
from telegram import Message as TgMessage
from telegram.constants import ChatMemberStatus
from telegram.ext import ContextTypes

from bot.adapters.answers import leaderboard_answer
from bot.adapters.base import TURN_CUES
from bot.adapters.delivery import Drawn
from bot.adapters.telegram.buttons import SetupButtons, replay_message, rows_of
from bot.adapters.telegram.chats import (
    DAILY_LINK_PREFIX,
    HAND_LINK_PREFIX,
    PLATFORM,
    callback_data_of,
    chat_of,
    is_private,
)
from bot.adapters.telegram.layout import Key, hand_message, text_message, yes_key
from bot.classroom import parse_policy
from bot.service import Opponent, Place, Reply, User
from engines.base import GameError
from engines.registry import game_names, get_game, resolve_name
from renderers.i18n import translate

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)
Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]
FIRST_SEATS = {"me": 0, "opponent": 1, "random": None}
AI_WORDS = {"ai", "bot", "computer", "cpu"}
_DAILY_LINK_RE = re.compile(re.escape(DAILY_LINK_PREFIX) + r"(m?\d{1,20})")
_HAND_LINK_RE = re.compile(re.escape(HAND_LINK_PREFIX) + r"(\d{1,12})")


class Commands(SetupButtons):
    """The commands; the bot's own buttons come from ``SetupButtons``."""


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

    async def _context(self, update: Update) -> tuple[TgMessage, Place, User]:
        message = update.effective_message
        person = update.effective_user
        assert message is not None and person is not None
        return message, await self.client.place_of_message(message, person), \
            self.client.user_for(person)


    async def _game_context(self, update: Update
                            ) -> tuple[TgMessage, Place, User] | None:
        """Like ``_context``, for a command about "my game": in a group with several games
        at its tables (``bot.tables``), the place of the one game its sender sits in. With
        several, the sender is asked which (links to their boards) and None returned."""
        message, place, user = await self._context(update)
        if is_private(place.channel):
            return message, place, user
        seated = await self.service.seated_games(place, user)
        if len(seated) == 1:
            return message, replace(place, channel=seated[0].channel), user
        if len(seated) > 1:
            games = "\n".join(self.t(place, "telegram.tables.game", number=record.id,
                                     game=get_game(record.game).TITLE,
                                     link=self.client.game_link(record))
                               for record in seated)
            await self.client.reply_text(message, place, self.t(
                place, "telegram.tables.which", games=games))
            return None
        return message, place, user

    async def anonymous(self, message: TgMessage, place: Place) -> bool:
        """Messages sent as the group or a channel all come from one shared account, which
        must not take a seat; say so instead."""
        if message.sender_chat is None:
            return False
        await self.client.reply_text(message, place, self.t(place, "telegram.anonymous"))
        return True


    # ------------------------------------------------------------------ /start, /help
    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The first message of a private chat, or a deep link to a hand."""
        message, place, user = await self._context(update)
        match = _HAND_LINK_RE.fullmatch(context.args[0]) if context.args else None
        if match is not None and is_private(place.channel):
            await self.hand_from_link(message, place, user, int(match.group(1)))
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

    # ------------------------------------------------------------------------ /play
    async def play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/play`` offers buttons; ``/play <game> [level] [options] [first=…]`` starts
        at once. Sent as a reply to someone's message, it invites that person."""
        message, place, user = await self._context(update)
        if await self.anonymous(message, place):
            return
        words = list(context.args or [])
        if not words:
            await self.client.send(place.channel, self.game_picker(place, user),
                                   reply_to=message.message_id)
            return
        try:
            game = resolve_name(words[0])
        except GameError as error:
            await self.client.reply_text(message, place, self.error_text(place, error))
            return
        module = get_game(game)
        level = ""
        first = "me"
        options: list[str] = []
        for word in words[1:]:
            lowered = word.lower()
            if lowered in module.LEVELS:
                level = lowered
            elif lowered in AI_WORDS:
                level = level or "strong"
            elif lowered.startswith("first="):
                first = lowered.partition("=")[2]
            else:
                options.append(word)
        if first not in FIRST_SEATS:
            await self.client.reply_text(message, place, self.t(place, "telegram.play.first"))
            return
        rival = self.invited(message) if not level else Opponent("ai", level)
        if rival is None:
            if not options and first == "me":
                await self.client.send(place.channel, self.opponent_picker(place, user, game),
                                       reply_to=message.message_id)
                return
            rival = Opponent("ai", "strong") if is_private(place.channel) else Opponent("open")
        await self.start_game(message, place, user, game, rival, " ".join(options),
                              FIRST_SEATS[first])

    async def puzzle(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A solo Turing Machine puzzle here: ``/puzzle hard 6 extreme``, or a puzzle code."""
        message, place, user = await self._context(update)
        if await self.anonymous(message, place):
            return
        words = list(context.args or [])
        if not words:
            await self.client.send(place.channel, self.puzzle_picker(place, user),
                                   reply_to=message.message_id)
            return
        options = " ".join(f"verifiers={w}" if w.isdigit() and len(w) == 1 else w
                           for w in words)
        await self.start_game(message, place, user, "turing", Opponent("ai"), options, 0)


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
            person = update.effective_user
            assert person is not None
            if not await self.client.is_admin(message.chat, person, message.sender_chat):
                await self.client.reply_text(message, place, self.t(
                    place, "telegram.settings.admins_only"))
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
        if not reply.ok or reply.board is None:
            await self.client.reply_text(message, place,
                                         reply.notice or self.t(place, "error.internal"))
            return
        await self.client.post_board(place, reply, reply_to=message.message_id)

    async def own_press(self, query: CallbackQuery) -> tuple[TgMessage, Place] | None:
        """The message pressed and its place, when the press's data is on that message (as
        for the bot's other own buttons); else the presser is told the button is not
        theirs, and None."""
        source = query.message
        if not isinstance(source, TgMessage) or (query.data or "") not in callback_data_of(
                source):
            place = (await self.client.place_of_message(source, query.from_user)
                     if isinstance(source, TgMessage) else None)
            language = place.language if place else self.client.settings.language
            await self.client.answer(query, translate(language, "error.foreign_button"),
                                     alert=True)
            return None
        return source, await self.client.place_of_message(source, query.from_user)

    async def refused_for_speed(self, message: TgMessage, place: Place, user: User) -> bool:
        """For commands that only read: past the person's rate limit, say so instead."""
        refusal = await self.service.rate_refusal(place, user)
        if refusal is not None:
            await self.client.reply_text(message, place, refusal)
        return refusal is not None

    async def leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/leaderboard <game>``: that game's rankings; alone, the daily challenge's."""
        message, place, user = await self._context(update)
        if await self.refused_for_speed(message, place, user):
            return
        game = " ".join(context.args) if context.args else None
        await self.client.reply_text(message, place,
                                     await leaderboard_answer(self.client.app, place, game))

    # -------------------------------------------------- results, rematch, privacy
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

    async def rematch(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, user = await self._context(update)
        if await self.anonymous(message, place):
            return
        await self.post_new_game(message, place, await self.service.rematch(place, user))

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

    # ------------------------------------------------------------ moderator tools
    async def moderator(self, update: Update, place: Place) -> bool:
        """Group admins moderate (a private chat has no class to moderate); anyone else is
        told so."""
        message = update.effective_message
        person = update.effective_user
        assert message is not None and person is not None
        if not is_private(place.channel) and await self.client.is_admin(
                message.chat, person, message.sender_chat):
            return True
        await self.client.reply_text(message, place, translate(
            place.language, "moderation.only_admins",
            "Only this group's admins can do that."))
        return False

    async def timer(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/timer`` shows the policy; ``/timer 5 15 forfeit|ai`` or ``/timer off`` (admins)
        sets it."""
        message, place, _ = await self._context(update)
        classroom = self.client.classroom
        words = [w.lower() for w in context.args or []]
        if not words:
            policy = await classroom.policy(PLATFORM, place.channel)
            await self.client.reply_text(message, place,
                                         classroom.describe(place.language, policy))
            return
        if not await self.moderator(update, place):
            return
        if words[0] == "off":
            await self.client.reply_text(message, place, await classroom.set_policy(place, None))
            return
        policy = parse_policy(words)
        if policy is None:
            await self.client.reply_text(message, place, classroom.usage(place.language))
            return
        await self.client.reply_text(message, place, await classroom.set_policy(place, policy))

    async def class_board(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/classboard``: one message here listing every game of this group and whose
        turn it is, kept up to date in place; ``/classboard off`` stops it (admins)."""
        message, place, _ = await self._context(update)
        if not place.server:
            await self.client.reply_text(message, place, self.t(place,
                                                                "classboard.servers_only"))
            return
        if not await self.moderator(update, place):
            return
        if [w.lower() for w in context.args or []][:1] == ["off"]:
            closed = await self.client.close_class_board(place)
            await self.client.reply_text(message, place, self.t(
                place, "classboard.closed" if closed else "classboard.none"))
            return
        if not await self.client.open_class_board(place):
            await self.client.reply_text(message, place, self.t(place, "error.internal"))

    async def export(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The group's results as a CSV document (admins)."""
        message, place, user = await self._context(update)
        if await self.refused_for_speed(message, place, user):
            return
        if not await self.moderator(update, place):
            return
        classroom = self.client.classroom
        data = await classroom.export_csv(PLATFORM, place.server)
        chat_id, topic = message.chat.id, message.message_thread_id
        await self.client.bot.send_document(
            chat_id, io.BytesIO(data.encode("utf-8")),
            filename=classroom.export_name(place.server, self.client.daily.today()),
            caption=translate(place.language, "export.ready_group",
                              "The results of this group, as CSV."),
            message_thread_id=topic if message.is_topic_message else None,
            reply_to_message_id=message.message_id, allow_sending_without_reply=True)
        # The final standings of the group's tournaments, when it has had any.
        tournaments = self.client.app.tournaments
        standings = await tournaments.standings_csv(PLATFORM, place.server)
        if standings is not None:
            await self.client.bot.send_document(
                chat_id, io.BytesIO(standings.encode("utf-8")),
                filename=tournaments.export_name(place.server, self.client.daily.today()),
                caption=translate(place.language, "export.tournaments",
                                  "The final standings of this group's tournaments, as CSV."),
                message_thread_id=topic if message.is_topic_message else None)

    def invited(self, message: TgMessage) -> Opponent | None:
        """The opponent named by replying to their message: the bot itself means the
        computer; other bots cannot play."""
        replied = message.reply_to_message
        person = replied.from_user if replied is not None else None
        if person is None or (message.is_topic_message and replied is not None
                              and replied.message_id == message.message_thread_id):
            return None  # in a forum topic every message "replies" to the topic's start
        if person.id == self.client.bot.id:
            return Opponent("ai", "")
        if person.is_bot:
            return None
        return Opponent("user", user=self.client.user_for(person))

    async def start_game(self, message: TgMessage, place: Place, user: User, game: str,
                         rival: Opponent, options: str, creator_seat: int | None) -> None:
        in_topic = await self.game_in_topic(message, place, user, game, rival, options,
                                            creator_seat)
        if in_topic is not None:
            await self.client.reply_text(message, place, in_topic)
            return
        table = await self.client.place_for_new_game(place, user, game, rival)
        if isinstance(table, str):
            await self.client.reply_text(message, place, table)
            return
        await self.post_new_game(message, table, await self.service.start_game(
            table, user, game, rival, options, creator_seat))

    async def post_new_game(self, message: TgMessage, place: Place, reply: Reply) -> None:
        """A new game (/play, /rematch): its board in reply to the command, or why it did
        not start."""
        if not reply.ok or reply.board is None:
            await self.client.reply_text(message, place, reply.notice or self.t(
                place, "error.internal"))
            return
        await self.client.post_board(place, reply, reply_to=message.message_id)


    # -------------------------------------------------------- changes away from the board
    async def _change(self, update: Update,
                      action: Callable[[Place, User], Awaitable[Reply]],
                      anonymous_allowed: bool = False, own_game: bool = False) -> None:
        """Join, resign or abandon: announced in the chat; the board is edited in place.
        ``own_game``: the game the sender sits in, at whichever table of the group."""
        context = await (self._game_context(update) if own_game else self._context(update))
        if context is None:
            return
        message, place, user = context
        if not anonymous_allowed and await self.anonymous(message, place):
            return
        reply = await action(place, user)
        if not reply.ok:
            await self.client.reply_text(message, place, reply.notice or self.t(
                place, "error.internal"))
            return
        await self.client.reply_text(message, place, "\n".join(reply.announcements) or
                                     self.t(place, "telegram.done"))
        await self.client.game_changed(place, reply, drawn=Drawn.NEWS)

    async def join(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._change(update, self.service.join)

    async def resign(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._change(update, self.service.resign, own_game=True)

    async def abandon(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        person = update.effective_user
        assert message is not None and person is not None
        moderator = await self.client.is_admin(message.chat, person, message.sender_chat)

        async def abandon_as(place: Place, user: User) -> Reply:
            return await self.service.abandon(place, User(user.platform, user.id, user.name,
                                                          moderator))
        await self._change(update, abandon_as, anonymous_allowed=True)

    # --------------------------------------------------------------- board and moves
    async def board(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The board again, at the bottom of the chat."""
        found = await self._game_context(update)
        if found is None:
            return
        message, place, user = found
        reply = await self.service.board(place, user)
        if not reply.ok or reply.board is None:
            await self.client.reply_text(message, place, reply.notice or self.t(
                place, "error.no_game"))
            return
        await self.client.post_board(place, reply, reply_to=message.message_id)

    async def move(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        found = await self._game_context(update)
        if found is None:
            return
        message, place, user = found
        if await self.anonymous(message, place):
            return
        notation = " ".join(context.args or [])[:200]
        if not notation:
            suggestions = await self.service.move_suggestions(place, user, "", 8)
            key = "telegram.move.usage_with" if suggestions else "telegram.move.usage"
            await self.client.reply_text(message, place, self.t(
                place, key, moves=", ".join(suggestions)))
            return
        await self.typed_move(message, place, user, notation)

    async def typed_move(self, message: TgMessage, place: Place, user: User,
                         notation: str) -> None:
        """A move in notation: the board is posted again below it, as the typed message
        pushed the old one up."""
        reply = await self.service.move(place, user, notation)
        if not reply.ok or reply.board is None:
            await self.client.reply_text(message, place, reply.notice or self.t(
                place, "error.internal"))
            return
        await self.client.post_board(place, reply, reply_to=message.message_id)

    async def hint(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/hint``: a hint for your move against the computer or in a puzzle, in your
        private chat (it may name your cards); the group is told a hint was taken."""
        found = await self._game_context(update)
        if found is None:
            return
        message, place, user = found
        reply = await self.service.hint(place, user)
        if reply.confirm is not None:
            # It would void the game's result: asked first, with the yes under the
            # reply (in a group everyone sees it; the service takes it from the player
            # only, and a press of it goes the way of the board's hint button).
            await self.client.reply_text(message, place, reply.notice or "",
                                         rows=((yes_key(reply.confirm),),))
            return
        text = reply.notice or self.t(place, "error.internal")
        if not reply.ok or is_private(place.channel):
            await self.client.reply_text(message, place, text)
        elif await self.client.send(user.id, text_message(text)) is None:
            # Never opened a chat with the bot: the hint would show the whole group.
            await self.client.reply_text(message, place, self.t(place, "hint.private_only"))
        if reply.ok:
            await self.client.game_changed(place, reply)

    async def replay(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/replay [number]``: step through a finished game (this chat's last one)."""
        message, place, user = await self._context(update)
        typed = (context.args or [""])[0].lstrip("#")
        game_id = int(typed) if typed.isdigit() and len(typed) <= 12 else \
            await self.client.app.replays.last_game(place)
        if game_id is None:
            await self.client.reply_text(message, place, self.t(place, "replay.none_here"))
            return
        step = await self.client.app.replays.step(game_id, 0, place.language, place.emoji,
                                                  place=place, user=user)
        await self.client.send(place.channel, replay_message(step),
                               reply_to=message.message_id)

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

    async def hand(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Your hand: in a group it goes to your private chat with the bot."""
        found = await self._game_context(update)
        if found is None:
            return
        message, place, user = found
        if await self.anonymous(message, place):
            return
        reply = await self.service.hand(place, user)
        if reply.hand is None:
            await self.client.reply_text(message, place, reply.notice or self.t(
                place, "error.internal"))
            return
        running = await self.service.board(place)
        game_id = running.board.game_id if running.board is not None else 0
        if is_private(place.channel):
            await self.client.send(place.channel, hand_message(reply.hand, place.language))
        elif (sent := await self.client.send_hand(place, user.id, game_id, reply.hand)) is None:
            await self.client.reply_text(message, place, self.t(place, "error.internal"))
        elif sent:
            await self.client.reply_text(message, place, self.t(place, "telegram.hand.sent"))
        else:
            await self.client.send(place.channel, self.client.start_me(place, user.name,
                                                                       game_id),
                                   reply_to=message.message_id)

    # ------------------------------------------------------------------------ /rules
    async def rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, _ = await self._context(update)
        if not context.args:
            keys = [Key(get_game(name).TITLE, f"r:{name}") for name in game_names()]
            await self.client.send(place.channel, text_message(
                self.t(place, "telegram.rules.choose"), rows_of(keys, 2)),
                reply_to=message.message_id)
            return
        await self.client.reply_text(message, place, self.rules_text(place, context.args[0]))


    # --------------------------------------------------------------------- /settings
    async def settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, place, _ = await self._context(update)
        person = update.effective_user
        assert person is not None
        if not await self.client.is_admin(message.chat, person, message.sender_chat):
            await self.client.reply_text(message, place, self.t(
                place, "telegram.settings.admins_only"))
            return
        await self.client.send(place.channel, await self.settings_panel(place, message.chat.id),
                               reply_to=message.message_id)


