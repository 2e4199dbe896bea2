"""Telegram webhook workers: several bot processes behind a reverse proxy share one bot.

Long polling allows one reader per token, so a bot spread over several processes receives
its updates by webhook (docs/scaling.md). Each worker process runs a :class:`WebhookServer`
(tornado, which python-telegram-bot's ``webhooks`` extra installs) in front of a PTB
``Application`` built with ``.updater(None)``, and hands every update to
``Application.process_update`` itself:

* ``POST <path of TELEGRAM_WEBHOOK_URL>``: an update. The ``X-Telegram-Bot-Api-Secret-Token``
  header must equal ``TELEGRAM_WEBHOOK_SECRET`` (403 otherwise, compared in constant time).
  A body that is not an update object is refused with 400; an update PTB cannot read is
  logged and confirmed with 200, as ``updates.TolerantBot`` does when polling: refusing it
  would make Telegram send it again and again and hold the chat's later updates behind it.
  An ``update_id`` this worker has already taken is confirmed and dropped.
* ``GET /healthz``: 200 while the application runs and the database answers, 503 otherwise
  (and from the moment the worker starts stopping), for the proxy's health checks.

Order: updates of one chat are handled one after another, in the order they arrived, while
different chats run side by side (:class:`ChatLanes`). The answer to Telegram waits until
the update is handled, up to ``ANSWER_WITHIN`` seconds: Telegram's Bot API server sends a
chat's next update only once the previous one is answered (its ``WebhookActor`` keeps a
queue per chat), so as long as handling takes less than that, a chat's updates stay in
order even when the proxy sends them to different workers. A slower update is answered
anyway, so that Telegram does not time out and send it again; the game's lock in the
database then still keeps each move correct (a move is made on the game as saved).

Redelivery: the ``update_id``s a worker took are remembered per process (the latest
``REMEMBERED_UPDATES``), not across processes. Telegram sends an update again only when it
got no 2xx answer, that is when a worker died or stopped mid-update; such a repeat may reach
another worker, where the service's own checks apply (a press carries the game version it
was made on, so a repeated move is refused as out of date; a repeated ``/play`` does not
start a second game).

Worker 0 registers the webhook with Telegram (``setWebhook``) when it starts; the others
only serve, so that restarts do not compete over the registration. No worker deletes the
webhook when it stops: the others go on receiving.
"""

from __future__ import annotations

import asyncio
import collections
import hmac
import json
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Hashable
from typing import Any
from urllib.parse import urlparse

import tornado.httpserver
import tornado.netutil
import tornado.web
from telegram import Update
from telegram.error import Forbidden, InvalidToken, NetworkError
from telegram.ext import Application

from bot.adapters.telegram.chats import PLATFORM
from bot.config import Settings
from bot.store import SettingsStore

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
HEALTH_PATH = "/healthz"
# How long an answer to Telegram waits for its update to be handled. Within it, a chat's
# next update is not sent before this one is done (see the module's docstring); after it
# Telegram gets its 200 and the update is finished in the background.
ANSWER_WITHIN = 5.0
# update_ids remembered per worker to drop a redelivered update: over an hour at five
# updates a second.
REMEMBERED_UPDATES = 20_000
# A health check that the database does not answer within this counts as failed.
HEALTH_TIMEOUT = 2.0
# How long a stopping worker lets the updates it has taken finish before cancelling them.
DRAIN_SECONDS = 10.0
# Telegram's updates are a few kilobytes; anything much larger is not from Telegram.
MAX_BODY_BYTES = 1_000_000

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


class RecentIds:
    """The latest ``size`` update ids seen, to drop an update delivered a second time."""

    def __init__(self, size: int = REMEMBERED_UPDATES) -> None:
        self._order: collections.deque[int] = collections.deque()
        self._seen: set[int] = set()
        self._size = size

    def first_time(self, update_id: int) -> bool:
        """True, and remembered, if ``update_id`` is new; False for a repeat."""
        if update_id in self._seen:
            return False
        self._seen.add(update_id)
        self._order.append(update_id)
        if len(self._order) > self._size:
            self._seen.discard(self._order.popleft())
        return True


class ChatLanes:
    """One lane per chat: a chat's updates are handled one at a time in arrival order,
    different chats concurrently. A lane's task exists only while it has updates."""

    def __init__(self, handle: Callable[[Update], Awaitable[None]]) -> None:
        self._handle = handle
        self._lanes: dict[Hashable, collections.deque[tuple[Update, asyncio.Future[bool]]]] = {}
        self._runners: set[asyncio.Task[None]] = set()

    def submit(self, key: Hashable, update: Update) -> asyncio.Future[bool]:
        """Queue ``update`` behind the chat's earlier ones; the future says True once it
        has been handled, False if it was dropped unfinished as the worker stopped."""
        handled: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = collections.deque()
            runner = asyncio.ensure_future(self._run(key, lane))
            self._runners.add(runner)
            runner.add_done_callback(self._runners.discard)
        lane.append((update, handled))
        return handled

    async def _run(self, key: Hashable,
                   lane: collections.deque[tuple[Update, asyncio.Future[bool]]]) -> None:
        try:
            while lane:
                update, handled = lane[0]
                try:
                    await self._handle(update)
                except Exception:
                    # PTB's process_update gives handler errors to the bot's error handler;
                    # this is for anything else, which must not stall the chat's lane.
                    log.exception("update %s failed", update.update_id)
                lane.popleft()
                if not handled.done():
                    handled.set_result(True)
        finally:
            # No await between the loop's last check and here: an update submitted for
            # this chat meanwhile is impossible, so none is stranded in a removed lane.
            if self._lanes.get(key) is lane:
                del self._lanes[key]
            for _, handled in lane:  # cancelled as the worker stops: these are unfinished
                if not handled.done():
                    handled.set_result(False)

    async def drain(self, timeout: float) -> None:
        """Let the queued updates finish for up to ``timeout`` seconds, then cancel."""
        if self._runners:
            await asyncio.wait(set(self._runners), timeout=timeout)
        for runner in list(self._runners):
            runner.cancel()
        if self._runners:
            await asyncio.wait(set(self._runners))


def chat_key(update: Update) -> Hashable:
    """What orders an update: its chat; else its sender; else nothing (its own id)."""
    if update.effective_chat is not None:
        return ("chat", update.effective_chat.id)
    if update.effective_user is not None:
        return ("user", update.effective_user.id)
    return ("update", update.update_id)


def webhook_path(url: str) -> str:
    """The path Telegram posts to, from the public URL: the proxy passes it on unchanged."""
    return urlparse(url).path or "/"


class WebhookServer:
    """One worker's HTTP server: updates in, handed to ``application.process_update``."""

    def __init__(self, application: AnyApplication, *, path: str, secret: str,
                 database_answers: Callable[[], Awaitable[object]],
                 answer_within: float = ANSWER_WITHIN,
                 remembered: int = REMEMBERED_UPDATES) -> None:
        self.application = application
        self.path = path
        self._secret = secret.encode()
        self._database_answers = database_answers
        self.answer_within = answer_within
        self._recent = RecentIds(remembered)
        self._lanes = ChatLanes(self._process)
        self._server: tornado.httpserver.HTTPServer | None = None
        self._accepting = False
        self.port = 0
        # Counts for logs and tests: taken, dropped as repeats, refused (403, 400).
        self.taken = 0
        self.repeats = 0
        self.refused = 0

    async def start(self, listen: str, port: int) -> int:
        """Listen on ``listen:port`` (0: any free port); returns the port."""
        routes: list[Any] = [(re.escape(HEALTH_PATH), _HealthEndpoint, {"server": self}),
                             (re.escape(self.path), _UpdateEndpoint, {"server": self})]
        web_app = tornado.web.Application(routes, log_function=_log_request)
        self._server = tornado.httpserver.HTTPServer(web_app, max_body_size=MAX_BODY_BYTES)
        sockets = tornado.netutil.bind_sockets(port, listen or None, family=socket.AF_UNSPEC)
        self._server.add_sockets(sockets)
        self.port = int(sockets[0].getsockname()[1])
        self._accepting = True
        log.info("webhook worker listening on %s:%d%s", listen, self.port, self.path)
        return self.port

    async def stop(self) -> None:
        """Stop taking updates (the proxy sees 503 and sends them elsewhere), let those
        taken finish, then close the connections."""
        self._accepting = False
        if self._server is None:
            return
        self._server.stop()
        await self._lanes.drain(DRAIN_SECONDS)
        await self._server.close_all_connections()
        self._server = None

    # ------------------------------------------------------------------ requests
    async def receive(self, secret: str | None, body: bytes) -> int:
        """Take one POSTed update; returns the HTTP status to answer with."""
        if not hmac.compare_digest((secret or "").encode(), self._secret):
            self.refused += 1
            return 403
        if not self._accepting:
            return 503  # Telegram sends it again, through the proxy to a running worker
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            self.refused += 1
            return 400
        if not (isinstance(data, dict) and type(data.get("update_id")) is int):
            self.refused += 1
            return 400
        update_id = int(data["update_id"])
        kinds = sorted(key for key in data if key != "update_id")
        if not self._recent.first_time(update_id):
            self.repeats += 1
            log.info("update %d came again; dropped", update_id)
            return 200
        try:
            update = Update.de_json(data, self.application.bot)
        except Exception as error:
            log.error("skipped update %s, which could not be read (%s: %s); its kinds: %s",
                      update_id, type(error).__name__, error, kinds)
            return 200
        self.taken += 1
        handled = self._lanes.submit(chat_key(update), update)
        await asyncio.wait({handled}, timeout=self.answer_within)
        if handled.done() and not handled.result():
            # Dropped unfinished as this worker stops: Telegram is to send it again, and
            # the proxy will send it to a running worker.
            return 503
        return 200

    async def _process(self, update: Update) -> None:
        await self.application.process_update(update)

    async def healthy(self) -> bool:
        """Running, taking updates, and the database answered within HEALTH_TIMEOUT."""
        if not (self._accepting and self.application.running):
            return False
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT):
                await self._database_answers()
        except Exception as error:  # a timeout, a closed pool, a refused connection
            log.warning("health check failed: the database did not answer (%s)",
                        type(error).__name__)
            return False
        return True


class _UpdateEndpoint(tornado.web.RequestHandler):
    def initialize(self, server: WebhookServer) -> None:
        self.server = server

    async def post(self) -> None:
        status = await self.server.receive(self.request.headers.get(SECRET_HEADER),
                                           self.request.body)
        self.set_status(status)
        # Not awaited: when Telegram has given up waiting and closed the connection, there
        # is nobody to tell, and awaiting would raise StreamClosedError.
        self.finish()


class _HealthEndpoint(tornado.web.RequestHandler):
    def initialize(self, server: WebhookServer) -> None:
        self.server = server

    async def get(self) -> None:
        healthy = await self.server.healthy()
        self.set_status(200 if healthy else 503)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish("ok\n" if healthy else "unavailable\n")


def _log_request(handler: tornado.web.RequestHandler) -> None:
    """Tornado's access log at DEBUG; refusals (someone without the secret, a proxy that
    mangles bodies) at INFO, which is worth a line but not a warning per request."""
    status = handler.get_status()
    level = logging.DEBUG if status < 400 or status == 503 else logging.INFO
    log.log(level, "%d %s %s %.1f ms", status, handler.request.method,
            handler.request.path, 1000 * handler.request.request_time())


# ---------------------------------------------------------------------- start-up
async def register_webhook(application: AnyApplication, settings: Settings,
                           allowed_updates: list[str], tries: int) -> None:
    """Worker 0's ``setWebhook``, retried on Telegram's own failures, 1, 2, 4… s apart."""
    for attempt in range(tries):
        try:
            await application.bot.set_webhook(
                settings.telegram_webhook_url, allowed_updates=allowed_updates,
                secret_token=settings.telegram_webhook_secret or None)
            return
        except (InvalidToken, Forbidden):
            raise
        except NetworkError as error:
            if attempt == tries - 1:
                raise
            log.warning("Telegram failed to set the webhook (%s); trying again in %d s",
                        error, 2 ** attempt)
            await asyncio.sleep(2 ** attempt)


async def start_worker(application: AnyApplication, settings: Settings, store: SettingsStore,
                       allowed_updates: list[str], tries: int) -> WebhookServer:
    """Serve this worker's port; worker 0 then registers the webhook (after listening, so
    that Telegram's first delivery finds it)."""
    server = WebhookServer(
        application, path=webhook_path(settings.telegram_webhook_url),
        secret=settings.telegram_webhook_secret,
        # A read of one settings row: cheap, and it goes through the same pool as moves.
        database_answers=lambda: store.get_setting(PLATFORM, "-", "webhook-health"))
    await server.start(settings.telegram_webhook_listen, settings.telegram_webhook_port)
    if settings.telegram_webhook_worker == 0:
        try:
            await register_webhook(application, settings, allowed_updates, tries)
        except BaseException:
            await server.stop()
            raise
    return server
