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
import logging
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar
from urllib.parse import urlparse

from telegram import (
    CallbackQuery,
    LinkPreviewOptions,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import (
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

from bot.adapters.telegram.boards import TelegramBoards
from bot.adapters.telegram.chats import PLATFORM, OpenChats, api_base_url
from bot.adapters.telegram.command_sync import CommandSync
from bot.adapters.telegram.hands import PrivateHands
from bot.adapters.telegram.layout import (
    ShownMessages,
    alert_text,
    text_message,
)
from bot.adapters.telegram.pacing import ClickFriendlyRateLimiter, retry_server_errors
from bot.adapters.telegram.transport import AiohttpRequest
from bot.adapters.telegram.updates import TolerantBot
from bot.adapters.telegram.webhook import WebhookServer, start_worker
from bot.app import App
from renderers.i18n import normalise_language, translate

log = logging.getLogger(__name__)

# Tries of Telegram's start-up calls (getMe, deleteWebhook, setWebhook), 1, 2, 4… s apart.
STARTUP_TRIES = 5


class TelegramBot(CommandSync, TelegramBoards):
    """The Telegram adapter: its start-up and shutdown, callback queries answered once,
    and its errors; the rest comes from its parts (``command_sync``, ``messages``,
    ``places``, ``boards``)."""

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
                # Many requests at once, one long poll, over aiohttp (``transport.py``).
                request=AiohttpRequest(connections=256),
                get_updates_request=AiohttpRequest(connections=1),
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
        self.open_chats = OpenChats()  # private chats known to be open (``chats.py``)
        self.hands = PrivateHands(self)  # hands in private chats (``hands.py``)
        self.synced_commands = 0

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
