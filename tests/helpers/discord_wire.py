"""Discord's wire, below discord.py: the adapter tests' requests leave through discord.py's
own HTTP code and reach simcord's in-memory Discord only where aiohttp would have sent
them to Discord.

simcord replaces ``HTTPClient.request`` and the webhook adapter's ``request`` (interaction
answers go through the latter) with calls into its backend, so a fault it injects is
raised before discord.py's retry loop could see it: a 502 reaches the bot at once, which
Discord's real 502 never does. ``DiscordWire`` puts discord.py's two real ``request``
methods back and gives them a stand-in for their ``aiohttp.ClientSession``
(``WireSession``), which answers from simcord's backend as Discord answers over HTTP:
a status, headers and a JSON body. Faults injected here (``WireFault``) therefore meet
what a real bot's requests meet, and discord.py's own handling of them runs: its retries
of 500, 502, 504 and 524 on REST (and of every 5xx on interaction answers), its 429
handling with the body's ``retry_after`` and the global pause, its retries after a reset
connection. simcord's own ``inject_error`` faults still work, answered on the wire too.

The shapes are Discord's (https://discord.com/developers/docs/topics/rate-limits and
/topics/opcodes-and-status-codes): a 429's body carries ``retry_after`` in seconds and
``global``, and its response the ``Via`` header Discord's edge adds (discord.py takes a
429 without it for a Cloudflare ban and raises at once).
"""

from __future__ import annotations

import asyncio
import fnmatch
import io
import json
import types
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import aiohttp
import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter
from multidict import CIMultiDict
from simcord.backend.errors import BackendError
from simcord.http import router

_API_PREFIX = "/api/v"
_REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 403: "Forbidden",
            404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error",
            502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}


@dataclass
class WireFault:
    """One kind of failure on the wire, for requests whose method and API path match
    (``path``: an fnmatch pattern such as ``/channels/*/messages/*``; ``method`` may be
    ``*``), ``times`` times (None: until cleared).

    * ``status``/``code``/``message``: Discord's answer instead of the request's;
    * ``retry_after``, ``is_global``: a 429's body (``retry_after`` defaults to 1 s);
    * ``applied``: the request is carried out before the error is answered (Discord
      did it, the answer was lost on the way back);
    * ``reset``: the connection is reset instead of answered (errno 54, which discord.py
      retries); ``timeout``: no answer comes (aiohttp's timeout, which it does not),
      after the request was carried out when ``applied``;
    * ``delay``: seconds before anything happens (simcord's clock); with a ``status``
      under 300, only that: a slow answer.
    """

    method: str
    path: str
    status: int = 500
    code: int = 0
    message: str = "Internal Server Error"
    retry_after: float | None = None
    is_global: bool = False
    applied: bool = False
    reset: bool = False
    timeout: bool = False
    delay: float = 0.0
    times: int | None = 1

    def matches(self, method: str, path: str) -> bool:
        return (self.method in ("*", method)) and fnmatch.fnmatchcase(path, self.path)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.status == 429:
            body["retry_after"] = 1.0 if self.retry_after is None else self.retry_after
            body["global"] = self.is_global
        return body


@dataclass
class Exchange:
    """One request as it crossed the wire, and what answered it."""

    method: str
    path: str
    status: int  # 0: no answer (a reset connection, a timeout)


class WireResponse:
    """What discord.py reads of an ``aiohttp.ClientResponse``: the status, the headers
    (case-insensitive, as aiohttp's), the body as text."""

    def __init__(self, status: int, body: Any, headers: Mapping[str, str] | None = None,
                 method: str = "GET", url: str = "") -> None:
        self.status = status
        self.reason = _REASONS.get(status, "Error")
        self.headers: CIMultiDict[str] = CIMultiDict(headers or {})
        self.method = method
        self.url = url
        if body is None:
            self._text = ""
        else:
            self._text = json.dumps(body)
            self.headers["Content-Type"] = "application/json"

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def json(self) -> Any:
        return json.loads(self._text) if self._text else None

    def release(self) -> None:
        pass


def _path_of(url: str) -> str:
    """The API path of a request's URL, as simcord's routes and faults name it."""
    path = str(url).split("?", 1)[0]
    at = path.find(_API_PREFIX)
    if at != -1:
        path = path[at + len(_API_PREFIX):]
        path = path[path.find("/"):]
    return path


def _body_of(data: Any) -> tuple[Any, list[discord.File]]:
    """The JSON body and the files of what discord.py put on the wire: a JSON text, or a
    multipart form (``payload_json`` beside the files)."""
    if data is None:
        return None, []
    if isinstance(data, (str, bytes)):
        return (json.loads(data) if data else None), []
    if isinstance(data, aiohttp.FormData):
        parts: list[dict[str, Any]] = []
        files: list[discord.File] = []
        for options, _headers, value in data._fields:
            name = options.get("name")
            filename = options.get("filename")
            if filename is None:
                parts.append({"name": name, "value": value})
            else:
                content = value.read() if hasattr(value, "read") else bytes(value)
                files.append(discord.File(io.BytesIO(content), filename=filename))
                parts.append({"name": name, "value": "", "filename": filename})
        payload, _ = router.parse_form(parts, [])
        return payload, files
    raise TypeError(f"unexpected request body {type(data).__name__}")


class _Request:
    """``session.request(...)``'s async context manager."""

    def __init__(self, wire: DiscordWire, method: str, url: str, kwargs: dict[str, Any]):
        self.wire, self.method, self.url, self.kwargs = wire, method, str(url), kwargs

    async def __aenter__(self) -> WireResponse:
        return await self.wire.exchange(self.method, self.url, self.kwargs)

    async def __aexit__(self, *exc: object) -> None:
        return None


class WireSession:
    """The ``aiohttp.ClientSession`` discord.py's ``request`` methods hold."""

    closed = False

    def __init__(self, wire: DiscordWire) -> None:
        self.wire = wire

    def request(self, method: str, url: str, **kwargs: Any) -> _Request:
        return _Request(self.wire, method, url, kwargs)

    async def close(self) -> None:
        return None


@dataclass
class DiscordWire:
    """simcord's backend on the other side of discord.py's real HTTP code."""

    backend: Any
    faults: list[WireFault] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)

    def inject(self, method: str, path: str, **fault: Any) -> WireFault:
        """Fail matching requests (``WireFault``'s fields); the fault, to clear it."""
        injected = WireFault(method, path, **fault)
        self.faults.append(injected)
        return injected

    def clear(self) -> None:
        self.faults.clear()

    def _take(self, method: str, path: str) -> WireFault | None:
        for fault in self.faults:
            if fault.matches(method, path):
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times <= 0:
                        self.faults.remove(fault)
                return fault
        return None

    async def exchange(self, method: str, url: str, kwargs: dict[str, Any]) -> WireResponse:
        path = _path_of(url)
        fault = self._take(method, path)
        if fault is not None and fault.delay:
            await asyncio.sleep(fault.delay)
        if fault is not None and fault.reset:
            self.exchanges.append(Exchange(method, path, 0))
            # What aiohttp raises for it: an OSError (errno 54, which discord.py retries)
            # and a ClientError.
            raise aiohttp.ClientOSError(54, "Connection reset by peer")
        if fault is not None and fault.timeout:
            if fault.applied:  # Discord did it; its answer never came back
                self._carry_out(method, path, kwargs)
            self.exchanges.append(Exchange(method, path, 0))
            raise TimeoutError
        fails = fault is not None and fault.status >= 300
        if fault is None or fault.applied or not fails:
            status, body = self._carry_out(method, path, kwargs)
        if fault is not None and fails:
            status, body = fault.status, fault.body()
        self.exchanges.append(Exchange(method, path, status))
        headers = {"Via": "1.1 google"} if status == 429 else {}
        return WireResponse(status, body, headers, method, url)

    def _carry_out(self, method: str, path: str, kwargs: dict[str, Any]) -> tuple[int, Any]:
        """What simcord's Discord answers: its result, or its error as Discord sends it.
        A route simcord lacks stays loud (``RouteNotImplemented``), never a quiet 4xx."""
        body, files = _body_of(kwargs.get("data"))
        headers = kwargs.get("headers") or {}
        reason = headers.get("X-Audit-Log-Reason")
        try:
            result = router.dispatch(self.backend, method, path, json=body,
                                     params=kwargs.get("params"), files=files,
                                     reason=unquote(reason) if reason else None,
                                     message_content_access=True)
        except (router.RouteNotImplemented, router.UnsupportedField):
            raise
        except BackendError as error:
            answer = dict(error.to_json())
            if error.status == 429:
                answer.setdefault("retry_after", 1.0)
                answer.setdefault("global", False)
            return error.status, answer
        return (204, None) if result is None else (200, result)

    def install(self, client: discord.Client, env: Any) -> None:
        """Put discord.py's own ``request`` methods back, over this wire: the client's
        REST calls (and the sessions of interactions made from now on), and those of
        interaction answers, which discord.py sends through its webhook adapter (simcord
        sets its own in every task it runs: that one is given the real ``request``)."""
        http = client.http
        http.request = types.MethodType(HTTPClient.request, http)  # type: ignore[method-assign]
        http._HTTPClient__session = WireSession(self)  # type: ignore[attr-defined]
        if not isinstance(http._global_over, asyncio.Event):
            # Made by the real ``static_login``, which simcord's replaces: set while no
            # global rate limit is in force.
            http._global_over = asyncio.Event()
            http._global_over.set()
        adapter = env._webhook_adapter
        adapter.request = types.MethodType(AsyncWebhookAdapter.request, adapter)
        adapter._locks = weakref.WeakValueDictionary()
