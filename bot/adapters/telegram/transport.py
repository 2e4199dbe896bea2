"""How python-telegram-bot's requests reach the Bot API: over aiohttp, not httpx.

python-telegram-bot sends every request through a ``BaseRequest``; its own,
``HTTPXRequest``, costs more CPU than the bot's whole move. On the benchmark machine httpx
took 0.95–1.15 ms of CPU a request against a server in another process, aiohttp
0.21–0.29 ms; a press makes two requests (the answer and the edit), and a move about 2.5
presses (``docs/scaling.md``, *Beyond one machine*). Through the fake Bot API
(``benchmarks/telegram_latency.py``) a press cost python-telegram-bot and its transport
5.0 ms with httpx, 1.9 ms with this (py-spy), and the whole process's CPU a press fell
from 9.9–11.3 to 7.4–7.7 ms; the run's cyclic garbage fell from 178,494 objects to 21,637
(``bot/runtime.py``). aiohttp is already installed, as discord.py's client.

Only the transport is here. python-telegram-bot's ``BaseRequest`` still turns the status
and body into its errors (``BadRequest``, ``RetryAfter``, ``NetworkError`` for a 5xx …);
this class turns aiohttp's own failures into the two python-telegram-bot expects from a
transport: ``TimedOut`` and ``NetworkError``.
"""

from __future__ import annotations

import ssl
import urllib.request
from urllib.parse import urlsplit

import aiohttp
import certifi
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

# python-telegram-bot's defaults for its own request class, kept: a request that cannot
# get a connection within a second is refused rather than queued behind a flood.
CONNECT_SECONDS = 5.0
READ_SECONDS = 5.0
WRITE_SECONDS = 5.0
POOL_SECONDS = 1.0
# A file upload (a puzzle's or a replay's document) may take longer to send.
MEDIA_WRITE_SECONDS = 20.0

Timeout = float | None


class AiohttpRequest(BaseRequest):
    """A ``BaseRequest`` over one ``aiohttp.ClientSession`` with ``connections`` at most
    open at once."""

    def __init__(self, connections: int = 256, *, read_seconds: Timeout = READ_SECONDS,
                 write_seconds: Timeout = WRITE_SECONDS,
                 connect_seconds: Timeout = CONNECT_SECONDS,
                 pool_seconds: Timeout = POOL_SECONDS) -> None:
        self.connections = connections
        self.read_seconds = read_seconds
        self.write_seconds = write_seconds
        self.connect_seconds = connect_seconds
        self.pool_seconds = pool_seconds
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], str | None] = {}

    @property
    def read_timeout(self) -> float | None:
        return self.read_seconds

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            # As python-telegram-bot's httpx transport did: certifi's certificate
            # authorities, so that an install whose Python has none of its own
            # (python.org's macOS build) still reaches Telegram; and the environment's
            # proxy (``_proxy_for``).
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(
                    limit=self.connections,
                    ssl=ssl.create_default_context(cafile=certifi.where())),
                headers={"User-Agent": self.USER_AGENT})
            self._proxies = {}

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    def _proxy_for(self, url: str) -> str | None:
        """The proxy the environment names for ``url`` (``HTTPS_PROXY``, ``HTTP_PROXY``,
        ``NO_PROXY``, as httpx honoured them: a school's network may allow no other way
        out), looked up once a host. aiohttp's own lookup (``trust_env``) reads the
        environment at every request, which took its CPU a request from 0.21–0.27 ms to
        0.37–0.52 ms here."""
        parts = urlsplit(url)
        host = (parts.scheme, parts.hostname or "")
        if host not in self._proxies:
            self._proxies[host] = (None if not host[1] or urllib.request.proxy_bypass(host[1])
                                   else urllib.request.getproxies().get(host[0]))
        return self._proxies[host]

    def _timeout(self, read: ODVInput[float],
                 write: ODVInput[float],
                 connect: ODVInput[float],
                 pool: ODVInput[float], files: bool) -> aiohttp.ClientTimeout:
        """python-telegram-bot's four limits in aiohttp's terms. aiohttp has no limit on
        sending the body, so the write limit bounds the whole request instead, added to
        the others: a request is never cut shorter than python-telegram-bot allows."""
        read_s = self.read_seconds if isinstance(read, DefaultValue) else read
        connect_s = self.connect_seconds if isinstance(connect, DefaultValue) else connect
        pool_s = self.pool_seconds if isinstance(pool, DefaultValue) else pool
        write_s = ((MEDIA_WRITE_SECONDS if files else self.write_seconds)
                   if isinstance(write, DefaultValue) else write)
        parts = (read_s, connect_s, pool_s, write_s)
        total = None if None in parts else sum(p for p in parts if p is not None)
        # aiohttp's ``connect`` includes the wait for a free connection of the pool.
        waiting = (None if connect_s is None or pool_s is None else connect_s + pool_s)
        return aiohttp.ClientTimeout(total=total, connect=waiting, sock_connect=connect_s,
                                     sock_read=read_s)

    async def do_request(self, url: str, method: str,
                         request_data: RequestData | None = None,
                         read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
                         write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
                         connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
                         pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
                         ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        files = request_data is not None and request_data.contains_files
        timeout = self._timeout(read_timeout, write_timeout, connect_timeout, pool_timeout,
                                files)
        try:
            async with self._session.request(method, url, data=_body(request_data),
                                             timeout=timeout,
                                             proxy=self._proxy_for(url)) as response:
                return response.status, await response.read()
        except TimeoutError as error:  # aiohttp's ServerTimeoutError is one too
            raise TimedOut(f"aiohttp: {type(error).__name__}") from error
        except aiohttp.ClientError as error:
            # The class name, as python-telegram-bot's own transport gives it: a refused
            # connection's message can be empty.
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error


def _body(request_data: RequestData | None) -> aiohttp.FormData | dict[str, str] | None:
    """The form python-telegram-bot's own transport sends: each parameter a field (JSON
    for the non-text ones), and the files as multipart parts when there are any."""
    if request_data is None:
        return None
    if not request_data.contains_files:
        return request_data.json_parameters
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, (filename, content, mime_type) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=mime_type)
    return form
