"""The Telegram client: updates in, service calls, messages out.

It holds no game logic and knows no game: every game the service offers plays through the
same board, hand and menu handling.

* A game's public board is one message, edited in place. The store keeps a reference to
  it, so AI moves and commands can update it, and a restart can find it again.
* Inline buttons carry the service payload as callback data, so buttons on messages sent
  before a restart keep working.
* Telegram has no ephemeral messages: hands go to the player's private chat with the bot
  (``hands.py``). A player who never opened that chat gets a
  ``t.me/<bot>?start=hand-<game>`` link, and the hand arrives as soon as they press Start.
  In a private chat the hand is shown inside the board, as nobody else is there.
* Requests are paced by a click-friendly rate limiter, and a send Telegram's server failed
  is tried again (``pacing.py``).
* Every callback query is answered exactly once; refusals come as a short alert.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, ClassVar
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    CallbackQuery,
    Chat,
    LinkPreviewOptions,
    Update,
)
from telegram import Message as TgMessage
from telegram import User as TgUser
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import (
    BadRequest,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    TelegramError,
)
from telegram.ext import (
    Application,
    BaseRateLimiter,
    ContextTypes,
    Defaults,
)
from telegram.request import HTTPXRequest

from bot.adapters.base import ChatAdapter
from bot.adapters.common import (
    pick_language,
)
from bot.adapters.delivery import Drawn, Shown
from bot.adapters.telegram.chats import (
    DAILY_LINK_PREFIX,
    PLATFORM,
    api_base_url,
    channel_of,
    chat_of,
    is_private,
    topic_of,
)
from bot.adapters.telegram.hands import PrivateHands
from bot.adapters.telegram.layout import (
    Key,
    Message,
    ShownMessages,
    alert_text,
    board_message,
    neutral,
    split_text,
    text_message,
)
from bot.adapters.telegram.limits import (
    COMMAND_DESCRIPTION_LIMIT,
    COMMAND_NAME,
    COMMANDS_PER_MENU,
    TOPIC_NAME_LIMIT,
    command_problems,
    scope_name,
)
from bot.adapters.telegram.pacing import ClickFriendlyRateLimiter, retry_server_errors
from bot.adapters.telegram.updates import TolerantBot
from bot.adapters.telegram.webhook import WebhookServer, start_worker
from bot.app import App
from bot.names import clean_display_name
from bot.puzzles.daily import PostOutcome
from bot.service import Board, Hand, Opponent, Place, Reply, User
from bot.store import DailySchedule, GameRecord
from engines.registry import get_game
from renderers.i18n import lookup, normalise_language, supported_languages, translate

log = logging.getLogger(__name__)


# Commands shown in Telegram's menu, in order; settings only where it can be used.
COMMANDS = ("play", "puzzle", "daily", "leaderboard", "join", "board", "move", "hand", "hint",
            "resign", "abandon", "rematch", "replay", "learn", "progress", "games", "stats",
            "cues", "rules", "help", "forget_me")
# English menu texts of the commands added with results and ratings, until the catalogue
# has them (translate falls back to these).
COMMAND_DEFAULTS = {
    "rematch": "Play this chat's last game again, seats swapped",
    "games": "The games running in this group, with links",
    "stats": "Wins, losses, draws and ratings (reply to someone for theirs)",
    "forget_me": "Delete your results and ratings",
    "cues": "Whether you are pinged when it is your turn: /cues on or off",
    "hint": "A hint against the computer or in a puzzle (the game is then not counted)",
    "replay": "Step through a finished game: /replay or /replay 12",
    "learn": "A short guided lesson of a game, in a private chat: /learn lgame",
    "progress": "Where you stand on this class's assignments (sent privately)",
}
ADMIN_COMMANDS = (*COMMANDS, "settings")
# Moderator commands, in the admins' menu only. Kept out of the check that a language
# translates every command, so adding them cannot drop existing translated menus.
MODERATOR_COMMANDS = {
    "timer": "Turn timers here: /timer 5 15 forfeit (or ai, or off)",
    "export": "This group's results as a CSV file",
    "classboard": "One message listing every game here and whose turn it is: /classboard "
                  "(or off)",
    "tournament": "A tournament here: /tournament create <game>, then start, pause, resume "
                  "or end",
    "assign": "Work for the class: /assign win 3 lgame medium by 2026-12-01 (or list, "
              "close 2)",
}


# The 🎉 confetti message effect, from the effect ids Telegram's own clients send (Bot API
# 7.4, ``message_effect_id``; private chats only). Refused ids fall back to no effect.
CELEBRATION_EFFECT = "5046509860389126442"
# The end panel marks a winner's line with it (``Core._finale``).
WINNER_MARK = "🏆"
# Tries of Telegram's start-up calls (getMe, deleteWebhook, setWebhook), 1, 2, 4… s apart.
STARTUP_TRIES = 5


def delivery_outcome(error: TelegramError) -> Shown:
    """What a failed edit or post means for a board: the message deleted or too old to
    edit (post anew), the chat closed to the bot (try again rarely), or a passing fault:
    a flood wait, a timeout, a reset connection, a 5xx (try again soon)."""
    text = str(error).lower()
    if isinstance(error, Forbidden):
        return Shown.REFUSED
    if isinstance(error, BadRequest):
        if ("not found" in text and "message" in text) or "can't be edited" in text:
            return Shown.GONE
        return Shown.REFUSED
    return Shown.LATER


class CommandMenuRefused(TelegramError):
    """Telegram refused one command menu: which one (its scope and language), and the
    refusal itself, for the log line that says so."""

    def __init__(self, scope: dict[str, Any], language: str | None,
                 refusal: TelegramError) -> None:
        super().__init__(refusal.message)
        self.scope = scope
        self.language = language
        self.refusal = refusal


class TelegramBot(ChatAdapter):
    platform = PLATFORM
    # How python-telegram-bot reports a refusal (BadRequest, Forbidden, RetryAfter) or a
    # network that failed: a start-up step that meets one is skipped, not fatal.
    platform_errors: ClassVar[tuple[type[Exception], ...]] = (TelegramError,)

    def __init__(self, app: App, *, rate_limiter: BaseRateLimiter[Any] | None = None,
                 polling_timeout: int = 10) -> None:
        super().__init__(app)
        settings = app.settings
        self.polling_timeout = polling_timeout
        base_url, base_file_url = api_base_url(settings.telegram_base_url)
        builder = (
            Application.builder()
            .bot(TolerantBot(
                settings.telegram_token, base_url=base_url, base_file_url=base_file_url,
                # As PTB's builder sets them: many requests at once, one long poll.
                request=HTTPXRequest(connection_pool_size=256),
                get_updates_request=HTTPXRequest(),
                defaults=Defaults(parse_mode=ParseMode.HTML,
                                  link_preview_options=LinkPreviewOptions(is_disabled=True)),
                rate_limiter=rate_limiter or ClickFriendlyRateLimiter(max_retries=3)))
            .concurrent_updates(True))
        if settings.telegram_webhook_worker is not None:
            builder = builder.updater(None)  # a worker's own server takes the updates
        self.application: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self.webhook_worker: WebhookServer | None = None
        self._open_queries: dict[str, bool] = {}
        self._polling_errors: set[str] = set()
        self.shown = ShownMessages()
        self.hands = PrivateHands(self)  # hands in private chats (``hands.py``)
        self.synced_commands = 0

    @property
    def bot(self) -> Any:
        return self.application.bot

    @property
    def username(self) -> str:
        return str(self.bot.username or "")

    # ------------------------------------------------------------------ start-up
    async def start(self) -> None:
        """Connect, publish the command menu, start receiving updates, resume the AI.

        Telegram's own failures at start-up (a 502 on ``getMe``, a 500 on
        ``deleteWebhook``) are retried with backoff; a refused token is not."""
        for attempt in range(STARTUP_TRIES):
            try:
                await self.application.initialize()
                break
            except (InvalidToken, Forbidden):
                raise
            except NetworkError as error:
                if attempt == STARTUP_TRIES - 1:
                    raise
                log.warning("Telegram failed at start-up (%s); trying again in %d s", error,
                            2 ** attempt)
                await asyncio.sleep(2 ** attempt)
        # A menu of commands is a convenience: typed commands work without it, so a refusal
        # is logged and the bot starts anyway (``ChatAdapter.optional_start_step``).
        await self.sync_commands_if_changed()
        await self.application.start()
        # my_chat_member: told when the bot is removed from a group, to end its games.
        allowed = ["message", "callback_query", "my_chat_member"]
        updater = self.application.updater
        if self.settings.telegram_webhook_worker is not None:
            self.webhook_worker = await start_worker(self.application, self.settings,
                                                     self.app.store, allowed, STARTUP_TRIES)
        elif updater is None:
            raise AssertionError("an application without an updater is a webhook worker's")
        elif self.settings.telegram_webhook_url:
            url = self.settings.telegram_webhook_url
            await updater.start_webhook(
                listen=self.settings.telegram_webhook_listen,
                port=self.settings.telegram_webhook_port,
                url_path=urlparse(url).path.lstrip("/"), webhook_url=url,
                secret_token=self.settings.telegram_webhook_secret or None,
                allowed_updates=allowed, bootstrap_retries=STARTUP_TRIES)
        else:
            await updater.start_polling(poll_interval=0.0, timeout=self.polling_timeout,
                                        allowed_updates=allowed,
                                        bootstrap_retries=STARTUP_TRIES,
                                        error_callback=self.polling_failed)
        await self.resume_ai()
        await self.reconcile_boards()
        await self.app.tournaments.resume_all(PLATFORM)
        self.start_loops()

    def polling_failed(self, error: TelegramError) -> None:
        """Errors of the long poll, said once each kind instead of a traceback a second:
        above all a second process polling with the same token, which Telegram refuses
        (only one may poll; several processes need webhooks, docs/scaling.md)."""
        kind = "conflict" if isinstance(error, Conflict) else type(error).__name__
        if kind in self._polling_errors:
            return
        self._polling_errors.add(kind)
        if kind == "conflict":
            log.error("Another process is polling Telegram with this bot's token, so Telegram "
                      "sends each update to only one of them. Stop the other process, or run "
                      "several processes with webhooks (docs/scaling.md). (%s)", error)
        else:
            log.warning("polling Telegram failed: %s (said once; it keeps trying)", error)

    async def stop(self) -> None:
        await self.stop_loops()
        if self.webhook_worker is not None:
            await self.webhook_worker.stop()
            self.webhook_worker = None
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        await self.wait_for_background()
        await self.application.shutdown()

    async def run_forever(self) -> None:
        try:
            await self.start()
            await asyncio.Event().wait()
        finally:
            await self.stop()

    def command_menus(self) -> list[tuple[Any, str | None, list[BotCommand]]]:
        """(scope, language, commands) for every menu: English by default, and each
        language whose catalogue translates the menu."""
        menus = []
        languages: list[str | None] = [None]
        languages += [code for code in supported_languages()
                      if code != "en" and all(lookup(code, f"telegram.cmd.{name}")
                                              for name in ADMIN_COMMANDS)]
        for language in languages:
            def listed(names: tuple[str, ...], lang: str = language or "en") -> list[BotCommand]:
                return [BotCommand(name, translate(lang, f"telegram.cmd.{name}",
                                                   COMMAND_DEFAULTS.get(name)
                                                   or MODERATOR_COMMANDS.get(name)))
                        for name in names]
            menus += [(BotCommandScopeDefault(), language, listed(COMMANDS)),
                      (BotCommandScopeAllPrivateChats(), language, listed(ADMIN_COMMANDS)),
                      (BotCommandScopeAllChatAdministrators(), language,
                       listed((*ADMIN_COMMANDS, *MODERATOR_COMMANDS)))]
        return menus

    def menus_within_limits(self) -> list[tuple[Any, str | None, list[BotCommand]]]:
        """``command_menus``, checked against Telegram's documented limits before they are
        published, so that a limit is never learnt from a refused start-up. Whatever breaks
        one is logged at every start (the menu, the command, the field and its length, and
        the catalogue entry to fix) and published fitted: a description cut to the limit,
        a command Telegram cannot take left out, at most 100 commands."""
        menus = []
        for scope, language, commands in self.command_menus():
            menu = scope_name(scope.to_dict(), language)
            unusable = command_problems([], scope=scope.to_dict(), language_code=language)
            if unusable:
                log.error("telegram: the command menu for %s is not published: %s", menu,
                          "; ".join(map(str, unusable)))
                continue
            fitted = [command for command in (self._fitted_command(menu, language, command)
                                              for command in commands) if command]
            if len(fitted) > COMMANDS_PER_MENU:
                log.error("telegram: the command menu for %s has %d commands; Telegram allows "
                          "%d, so only the first %d are published", menu, len(fitted),
                          COMMANDS_PER_MENU, COMMANDS_PER_MENU)
                fitted = fitted[:COMMANDS_PER_MENU]
            menus.append((scope, language, fitted))
        return menus

    @staticmethod
    def _fitted_command(menu: str, language: str | None,
                        command: BotCommand) -> BotCommand | None:
        """``command`` within Telegram's limits, logged when it was not; None when its name
        is one Telegram refuses, which no text can mend."""
        problems = command_problems([command.to_dict()])
        if not problems:
            return command
        name, description = command.command, command.description.strip()
        fitted: BotCommand | None = None
        if not COMMAND_NAME.fullmatch(name):
            outcome = "it is left out of the menu"
        elif not description:
            fitted = BotCommand(name, name)
            outcome = "it is published with its name as its description"
        else:
            fitted = BotCommand(name, description[:COMMAND_DESCRIPTION_LIMIT - 1] + "…")
            outcome = f"it is published cut to {COMMAND_DESCRIPTION_LIMIT} characters"
        log.error("telegram: the command menu for %s breaks a limit of Telegram's "
                  "(https://core.telegram.org/bots/api#botcommand): %s; %s. Shorten "
                  "telegram.cmd.%s in renderers/locale/%s/LC_MESSAGES/logic_bot.po", menu,
                  "; ".join(map(str, problems)), outcome, name, language or "en")
        return fitted

    async def sync_commands_if_changed(self) -> bool:
        """Publish the command menus when they differ from the last ones published, as a
        restart changes nothing and Telegram rate-limits these calls too. A refusal names
        the menu it met (``explain_command_refusal``); the menus published before it stay."""
        menus = self.menus_within_limits()

        async def publish() -> None:
            for scope, language, commands in menus:
                try:
                    await self.bot.set_my_commands(commands, scope=scope,
                                                   language_code=language)
                except TelegramError as refusal:
                    raise CommandMenuRefused(scope.to_dict(), language, refusal) from refusal
            self.synced_commands += len(menus)

        return await self.publish_if_changed(
            f"commands:{self.bot.id}",
            [[scope.to_dict(), language, [c.to_dict() for c in commands]]
             for scope, language, commands in menus], publish)

    def explain_command_refusal(self, error: Exception, payload: Any) -> str:
        """Which menu Telegram refused and what it said, and what in that menu breaks a
        documented limit (``payload`` holds each menu as [scope, language, commands]). As
        the menus are checked before they are published, the usual finding is none: then
        Telegram refused something its documentation does not cover, or failed."""
        said = f"Telegram said \"{error}\""
        if not isinstance(error, CommandMenuRefused):
            return said
        commands: list[dict[str, Any]] = next(
            (listed for scope, language, listed in payload
             if scope == error.scope and language == error.language), [])
        problems = command_problems(commands, scope=error.scope, language_code=error.language)
        found = ("; ".join(map(str, problems)) if problems else
                 f"each of its {len(commands)} commands is within the documented limits "
                 "(bot/adapters/telegram/limits.py)")
        return f"the menu for {scope_name(error.scope, error.language)}: {said}; {found}"

    # ---------------------------------------------------------- daily challenge
    def daily_link(self, server: str) -> str:
        return f"https://t.me/{self.username}?start={DAILY_LINK_PREFIX}{server.replace('-', 'm')}"

    def daily_message(self, text: str, server: str, language: str) -> Message:
        play = Key(translate(language, "daily.play", "▶ Play"), url=self.daily_link(server))
        return text_message(text, ((play,),))

    # -------------------------------------------------------------------- cues
    async def post_text(self, channel: str, text: str) -> str | None:
        sent = await self.send(channel, text_message(text))
        return str(sent.message_id) if sent is not None else None

    async def edit_text(self, channel: str, message_id: str, text: str) -> Shown:
        chat_id, _ = chat_of(channel)
        self.shown.forget(chat_id, int(message_id))
        try:
            await self.bot.edit_message_text(text_message(text).html, chat_id=chat_id,
                                             message_id=int(message_id))
        except TelegramError as error:
            if isinstance(error, BadRequest) and "not modified" in str(error).lower():
                return Shown.SHOWN
            outcome = delivery_outcome(error)
            log.info("could not edit message %s in %s: %s; %s", message_id, channel, error,
                     outcome.value)
            return outcome
        return Shown.SHOWN

    def game_link(self, record: GameRecord) -> str:
        return self.board_link(record, translate(self.settings.language, "games.here"),
                               supergroup=True)

    def settings_scope(self, place: Place) -> str:
        return f"chat:{chat_of(place.channel)[0]}"

    async def send_cue(self, place: Place, people: list[dict[str, Any]],
                       board: Board) -> str | None:
        """A message that mentions ``people`` by their ids (a text mention notifies even a
        person without a username), never by a name anyone typed."""
        mentions = ", ".join(
            f'<a href="tg://user?id={int(str(p.get("id")))}">'
            f'{html.escape(neutral(str(p.get("name", "?"))), quote=False)}</a>'
            for p in people if str(p.get("id", "")).isdigit())
        if not mentions:
            return ""
        marker = "\x00"
        text = html.escape(neutral(self.cue_text(place, marker, board)), quote=False)
        chat_id, topic = chat_of(place.channel)
        try:
            sent = await retry_server_errors(lambda: self.bot.send_message(
                chat_id, text.replace(marker, mentions), message_thread_id=topic))
        except TelegramError as error:
            log.info("could not cue a turn in %s: %s", place.channel, error)
            return None
        return str(sent.message_id)

    async def delete_message(self, channel: str, message_id: str) -> None:
        try:
            await self.bot.delete_message(chat_of(channel)[0], int(message_id))
        except TelegramError as error:
            log.info("could not delete message %s in %s: %s", message_id, channel, error)

    async def post_daily(self, schedule: DailySchedule, day: str) -> PostOutcome:
        text = await self.daily.post_for(schedule, dt.date.fromisoformat(day))
        message = self.daily_message(text, schedule.server, schedule.language)
        chat_id, topic = chat_of(schedule.channel)
        try:
            await self.bot.send_message(chat_id, message.html, message_thread_id=topic,
                                        reply_markup=message.markup())
        except Forbidden as error:
            log.warning("daily post to %s refused: %s", schedule.channel, error)
            return "gone"  # the bot was removed from the group, or the chat closed to it
        except BadRequest as error:
            log.warning("daily post to %s refused: %s", schedule.channel, error)
            return "gone" if "not found" in str(error).lower() else "failed"
        except TelegramError as error:
            log.warning("daily post to %s failed: %s", schedule.channel, error)
            return "failed"
        return "posted"

    async def chat_setting(self, chat_id: int, key: str) -> str | None:
        """A chat setting, from memory after the first read: only /settings changes them."""
        return await self.setting(f"chat:{chat_id}", key)

    async def set_chat_setting(self, chat_id: int, key: str, value: str) -> None:
        await self.set_setting(f"chat:{chat_id}", key, value)

    async def place_for(self, chat: Chat, topic: int | None, person: TgUser | None) -> Place:
        """The chat (or forum topic) as a service place, in the language to answer in: the
        one the group's admins chose, else the person's own, else the bot's default."""
        chosen = await self.chat_setting(chat.id, "language")
        candidates: list[str | None] = [chosen] if chosen and chosen != "auto" else []
        candidates += [person.language_code if person else None, self.settings.language]
        style = await self.chat_setting(chat.id, "board")
        return Place(PLATFORM, channel_of(chat.id, topic), pick_language(candidates),
                     emoji=style != "text",
                     server="" if chat.type == Chat.PRIVATE else str(chat.id))

    async def new_game_place(self, message: TgMessage, place: Place, name: str) -> Place:
        """Where a game asked for by ``message`` is played: in a forum group's General
        topic, a topic of its own named ``name`` (so a whole class plays at once, each pair
        in its topic, as Discord's threads do); anywhere else, ``place``."""
        chat = message.chat
        if not chat.is_forum or topic_of(message) is not None:
            return place
        try:
            topic = await self.bot.create_forum_topic(chat.id, name[:TOPIC_NAME_LIMIT])
        except TelegramError as error:  # no right to manage topics: play in General
            log.info("could not open a topic in %s: %s", chat.id, error)
            return place
        return Place(PLATFORM, channel_of(chat.id, topic.message_thread_id), place.language,
                     place.emoji, place.server)

    @staticmethod
    def has_tables(place: Place) -> bool:
        """Groups have tables; a private chat or a forum topic holds one game, as a Discord
        channel does (``bot.tables``)."""
        return not is_private(place.channel) and chat_of(place.channel)[1] is None

    async def free_place(self, place: Place) -> Place:
        """Where a rematch goes: ``place``, or the room's free table."""
        return await self.service.free_place(place) if self.has_tables(place) else place

    async def place_for_new_game(self, place: Place, user: User, game: str,
                                 rival: Opponent) -> Place | str:
        """A group with a game running gets the next one at a table (``bot.tables``), so a
        class plays many games in one plain group; a private chat or a forum topic holds
        one game, as a Discord channel does. The sentence to answer instead when the
        same game against the same opponent already runs there (a repeated /play)."""
        if not self.has_tables(place):
            return place
        found = await self.service.table_for_new_game(place, user, game, rival)
        if isinstance(found, Place):
            return found
        return self.t(place, "telegram.tables.already", game=get_game(found.game).TITLE,
                      link=self.game_link(found))

    async def place_of_message(self, message: TgMessage, person: TgUser | None) -> Place:
        return await self.place_for(message.chat, topic_of(message), person)

    @staticmethod
    def user_for(person: TgUser, moderator: bool = False) -> User:
        name = clean_display_name(person.full_name, str(person.id))
        return User(PLATFORM, str(person.id), name, moderator)

    async def is_admin(self, chat: Chat, person: TgUser, sender_chat: Chat | None = None
                       ) -> bool:
        """Whether ``person`` may run this chat: its admins, or the user of a private chat."""
        if chat.type == Chat.PRIVATE or (sender_chat is not None and sender_chat.id == chat.id):
            return True  # a private chat's user, or an admin posting anonymously as the group
        try:
            member = await self.bot.get_chat_member(chat.id, person.id)
        except TelegramError:
            log.info("could not check admin rights of %s in %s", person.id, chat.id)
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    @staticmethod
    def board_link(record: GameRecord, here: str, supergroup: bool) -> str:
        """A t.me/c link to the game's board in a supergroup (the only chats whose
        messages have links a member can open; their ids are -100 and the internal id);
        ``here`` elsewhere."""
        chat_id, _ = chat_of(record.channel)
        message = str((record.board_ref or {}).get("message", ""))
        if supergroup and str(chat_id).startswith("-100") and message.isdigit():
            return f"https://t.me/c/{str(chat_id)[4:]}/{message}"
        return here

    # ------------------------------------------------------------------ messages
    async def send(self, channel: str, message: Message,
                   reply_to: int | None = None) -> TgMessage | None:
        """Post in a chat; best effort, since what it reports is already saved."""
        sent = await self.send_outcome(channel, message, reply_to)
        return None if isinstance(sent, Shown) else sent

    async def send_outcome(self, channel: str, message: Message,
                           reply_to: int | None = None) -> TgMessage | Shown:
        """Post in a chat: the message, or why Telegram did not take it (``Shown``)."""
        chat_id, topic = chat_of(channel)
        try:
            sent: TgMessage = await retry_server_errors(lambda: self.bot.send_message(
                chat_id, message.html, message_thread_id=topic, reply_markup=message.markup(),
                reply_to_message_id=reply_to, allow_sending_without_reply=True,
                message_effect_id=message.effect or None))
            self.shown.remember(chat_id, sent.message_id, message)
            return sent
        except TelegramError as error:
            if message.effect:  # an effect Telegram no longer knows: the words still go
                return await self.send_outcome(channel, replace(message, effect=""),
                                               reply_to)
            outcome = delivery_outcome(error)
            log.warning("could not send to %s: %s; %s", channel, error, outcome.value)
            return Shown.REFUSED if outcome is Shown.GONE else outcome

    async def reply_text(self, source: TgMessage, place: Place, text: str,
                         rows: tuple[tuple[Key, ...], ...] = ()) -> None:
        """Answer a command; text too long for one message is split, buttons go last."""
        pieces = split_text(text)
        for index, piece in enumerate(pieces):
            last = index == len(pieces) - 1
            await self.send(place.channel, Message(piece, rows if last else ()),
                            reply_to=source.message_id if index == 0 else None)

    async def edit(self, chat_id: int, message_id: int, message: Message) -> bool:
        """Edit a message; an unchanged one counts as edited (and is not sent when this
        process wrote it so). False when it is gone or could not be edited."""
        return await self.edit_outcome(chat_id, message_id, message) is Shown.SHOWN

    async def edit_outcome(self, chat_id: int, message_id: int, message: Message) -> Shown:
        """Edit a message and say what came of it (``delivery.Shown``)."""
        if self.shown.unchanged(chat_id, message_id, message):
            return Shown.SHOWN
        try:
            await self.bot.edit_message_text(message.html, chat_id=chat_id,
                                             message_id=message_id,
                                             reply_markup=message.markup())
        except TelegramError as error:
            if isinstance(error, BadRequest) and "not modified" in str(error).lower():
                self.shown.remember(chat_id, message_id, message)
                return Shown.SHOWN
            outcome = delivery_outcome(error)
            log.info("could not edit message %s in %s: %s; %s", message_id, chat_id, error,
                     outcome.value)
            return outcome
        self.shown.remember(chat_id, message_id, message)
        return Shown.SHOWN

    async def announce(self, channel: str, lines: list[str]) -> None:
        if lines:
            await self.send(channel, text_message("\n".join(lines)))

    async def deliver_private(self, reply: Reply) -> None:
        """Texts meant for one player each, to their private chats; never to the group."""
        for user_id, text in reply.private.items():
            if user_id.isdigit():
                await self.send(user_id, text_message(text))

    # -------------------------------------------------------------------- boards
    async def compose_board(self, place: Place, board: Board, *, ai_thinking: bool = False,
                            header: list[str] | None = None,
                            hand: Hand | None = None) -> Message:
        """The board message; in a private chat a game with hidden hands shows the chat
        owner's hand and menu inside it."""
        if hand is None and board.hand_button is not None and is_private(place.channel):
            owner = User(PLATFORM, str(chat_of(place.channel)[0]), "")
            hand = (await self.service.hand(place, owner)).hand
        return board_message(board, place.language, header=header, ai_thinking=ai_thinking,
                             hand=hand)

    async def remember_message(self, place: Place, game_id: int, message: TgMessage,
                               version: int) -> None:
        """Make ``message`` the game's board."""
        title = message.chat.title or message.chat.full_name or ""
        await self.remember_board(place, game_id, {
            "chat": str(message.chat.id), "message": str(message.message_id),
            "title": title}, version)

    async def edit_board(self, place: Place, message_id: int, board: Board,
                         ai_thinking: bool) -> Shown:
        message = await self.compose_board(place, board, ai_thinking=ai_thinking)
        return await self.edit_outcome(chat_of(place.channel)[0], message_id, message)

    async def send_board(self, place: Place, board: Board,
                         ai_thinking: bool) -> dict[str, str] | Shown:
        message = await self.compose_board(place, board, ai_thinking=ai_thinking)
        sent = await self.send_outcome(place.channel, message)
        if isinstance(sent, Shown):
            return sent
        return {"chat": str(sent.chat.id), "message": str(sent.message_id),
                "title": sent.chat.title or sent.chat.full_name or ""}

    async def forget_drawn(self, game_id: int) -> None:
        ref = await self.board_ref(game_id)
        chat, message = str(ref.get("chat", "")), str(ref.get("message", ""))
        if chat.lstrip("-").isdigit() and message.isdigit():
            self.shown.forget(int(chat), int(message))

    async def retire_old_board(self, place: Place, ref: dict[str, Any], board: Board) -> Shown:
        chat = str(ref.get("chat", ""))
        chat_id = int(chat) if chat.lstrip("-").isdigit() else chat_of(place.channel)[0]
        return await self.edit_outcome(chat_id, int(ref["message"]),
                                       text_message(self.t(place, "board.moved")))

    async def retire_message(self, place: Place, chat_id: int, message_id: int) -> None:
        """Strip the buttons from an old board, which a newer message replaces."""
        await self.edit(chat_id, message_id, text_message(self.t(place, "board.moved")))

    async def post_board(self, place: Place, reply: Reply, *,
                         reply_to: int | None = None) -> None:
        """Post the board at the bottom of the chat, with the reply's news above it, and
        make it the game's board; the rest of the change follows (``game_changed``)."""
        board = reply.board
        assert board is not None
        # Not posted (a fault, a refusal): the delivery path draws it where the game's
        # board is, and says the news on its own.
        drawn = Drawn.NOTHING
        try:
            async with self.boards.lock(board.game_id):
                message = await self.compose_board(place, board, ai_thinking=reply.ai_to_move,
                                                   header=reply.announcements)
                sent = await self.send(place.channel, message, reply_to=reply_to)
                if sent is None:
                    return
                old = await self.board_message_id(board.game_id)
                if old is not None and old != sent.message_id:
                    await self.retire_message(place, sent.chat.id, old)
                await self.remember_message(place, board.game_id, sent, board.version)
                drawn = Drawn.BOARD_AND_NEWS
        finally:
            await self.game_changed(place, reply, drawn=drawn)

    async def deliver_extras(self, place: Place, reply: Reply, *, actor: str | None) -> None:
        """Private texts to their players' chats, and the hands of those whose turn has
        just begun (everyone to move, in a new game): a player in the middle of a
        simultaneous round keeps the hand they are using."""
        await self.deliver_private(reply)
        if reply.board is None:
            return
        if reply.finished and is_private(place.channel) and WINNER_MARK in reply.board.prompt:
            # A game won against the computer or a puzzle solved, alone: a moment, with
            # Telegram's confetti (the final board is an edit, which takes no effect).
            await self.send(place.channel, Message(
                translate(place.language, "telegram.celebrate", "🎉 You won! Well played."),
                effect=CELEBRATION_EFFECT))
        if reply.started:
            await self.hands.push_hands(place, reply.board, reply.board.to_move, skip=actor)
        elif reply.moved:
            await self.hands.push_hands(place, reply.board, reply.turn_began, skip=actor)

    def forget_game(self, game_id: int) -> None:
        super().forget_game(game_id)
        self.hands.forget(game_id)

    async def send_hand(self, place: Place, user_id: str, game_id: int,
                        hand: Hand) -> bool | None:
        """``PrivateHands.send_hand``, kept here as the commands (``commands.py``) call it."""
        return await self.hands.send_hand(place, user_id, game_id, hand)

    def start_me(self, place: Place, name: str, game_id: int) -> Message:
        """``PrivateHands.start_me``, kept here as the commands (``commands.py``) call it."""
        return self.hands.start_me(place, name, game_id)

    # ----------------------------------------------------------------- callbacks
    async def answer(self, query: CallbackQuery, text: str | None = None, *,
                     alert: bool = False, url: str | None = None) -> None:
        """Answer a callback query, once: Telegram shows a spinner until it is answered."""
        if self._open_queries.get(query.id):
            return
        self._open_queries[query.id] = True
        try:
            await retry_server_errors(lambda: query.answer(
                alert_text(text) if text else None, show_alert=alert or None, url=url))
        except TelegramError as error:
            log.info("could not answer callback %s: %s", query.id, error)

    async def answered_once(self, query: CallbackQuery,
                            handle: Callable[[CallbackQuery], Awaitable[None]]) -> None:
        """Run a button's handler, then answer the query if the handler did not: Telegram
        shows a spinner until it is answered."""
        self._open_queries[query.id] = False
        await handle(query)
        # Reached only without an exception: the error handler answers otherwise.
        await self.answer(query)
        self._open_queries.pop(query.id, None)

    # -------------------------------------------------------------------- errors
    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log, tell the user briefly, and carry on: one bad update must not stop the bot."""
        log.error("update failed", exc_info=context.error)
        if not isinstance(update, Update):
            return
        person = update.effective_user
        text = translate(normalise_language(person.language_code if person else None),
                         "error.internal")
        query = update.callback_query
        try:
            if query is not None:
                await self.answer(query, text, alert=True)
                self._open_queries.pop(query.id, None)
            elif update.effective_message is not None:
                await update.effective_message.reply_text(text_message(text).html)
        except TelegramError:
            log.warning("could not apologise for update %s", update.update_id)
