"""The Bot API transport over aiohttp (``bot/adapters/telegram/transport.py``), against a
real HTTP server: what it sends, and the failures it turns into python-telegram-bot's."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from telegram import InputFile
from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.adapters.telegram.transport import AiohttpRequest
from tests.helpers.local_http import serve_locally


class Server:
    """A Bot API stand-in: it records each request's form and answers as told."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []
        self.pause = 0.0
        self.status = 200
        self.body: dict[str, Any] = {"ok": True, "result": {"done": True}}
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/{method}", self._handle)
        self._runner, self.url = await serve_locally(app)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.seen.append({
            "method": request.match_info["method"],
            "agent": request.headers.get("User-Agent", ""),
            "fields": {name: (value.filename, value.file.read(), value.content_type)
                       if isinstance(value, web.FileField) else value
                       for name, value in form.items()}})
        if self.pause:
            await asyncio.sleep(self.pause)
        return web.json_response(self.body, status=self.status)


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    running = Server()
    await running.start()
    yield running
    await running.close()


def data(**parameters: Any) -> RequestData:
    return RequestData([RequestParameter.from_input(name, value)
                        for name, value in parameters.items()])


async def test_a_request_sends_each_parameter_as_a_form_field(server: Server) -> None:
    transport = AiohttpRequest()
    await transport.initialize()
    try:
        result = await transport.post(
            f"{server.url}/sendMessage",
            request_data=data(chat_id=42, text="hé", reply_markup={"inline_keyboard": []}))
    finally:
        await transport.shutdown()
    assert result == {"done": True}
    [seen] = server.seen
    assert seen["method"] == "sendMessage"
    assert seen["fields"]["chat_id"] == "42" and seen["fields"]["text"] == "hé"
    assert json.loads(seen["fields"]["reply_markup"]) == {"inline_keyboard": []}
    assert "python-telegram-bot" in seen["agent"]


async def test_a_file_goes_as_a_multipart_part_with_its_name(server: Server) -> None:
    transport = AiohttpRequest()
    await transport.initialize()
    try:
        await transport.post(f"{server.url}/sendDocument", request_data=data(
            chat_id=7, caption="replay",
            document=InputFile(b"1. e2e4", filename="replay.txt")))
    finally:
        await transport.shutdown()
    fields = server.seen[0]["fields"]
    assert fields["chat_id"] == "7" and fields["caption"] == "replay"
    assert fields["document"] == ("replay.txt", b"1. e2e4", "text/plain")


async def test_the_api_s_refusals_are_python_telegram_bot_s_errors(server: Server) -> None:
    transport = AiohttpRequest()
    await transport.initialize()
    try:
        server.status, server.body = 400, {"ok": False, "error_code": 400,
                                           "description": "Bad Request: message is not modified"}
        with pytest.raises(BadRequest, match="not modified"):
            await transport.post(f"{server.url}/editMessageText", request_data=data(text="x"))
        server.status, server.body = 429, {"ok": False, "error_code": 429,
                                           "description": "Too Many Requests: retry after 3",
                                           "parameters": {"retry_after": 3}}
        with pytest.raises(RetryAfter):
            await transport.post(f"{server.url}/sendMessage", request_data=data(text="x"))
        server.status, server.body = 502, {"ok": False, "error_code": 502,
                                           "description": "Bad Gateway"}
        with pytest.raises(NetworkError):
            await transport.post(f"{server.url}/sendMessage", request_data=data(text="x"))
    finally:
        await transport.shutdown()


async def test_a_slow_answer_times_out(server: Server) -> None:
    server.pause = 1.0
    transport = AiohttpRequest(read_seconds=0.2)
    await transport.initialize()
    try:
        with pytest.raises(TimedOut):
            await transport.post(f"{server.url}/sendMessage", request_data=data(text="x"))
        # A call's own limit wins over the default: given time, the same call answers.
        server.pause = 0.3
        assert await transport.post(f"{server.url}/sendMessage", request_data=data(text="x"),
                                    read_timeout=2.0) == {"done": True}
    finally:
        await transport.shutdown()


async def test_a_full_pool_times_out_instead_of_queueing(server: Server) -> None:
    server.pause = 1.0
    transport = AiohttpRequest(connections=1, pool_seconds=0.1, connect_seconds=0.1)
    await transport.initialize()
    try:
        first = asyncio.ensure_future(
            transport.post(f"{server.url}/sendMessage", request_data=data(text="a")))
        await asyncio.sleep(0.2)  # the only connection is taken
        with pytest.raises(TimedOut):
            await transport.post(f"{server.url}/sendMessage", request_data=data(text="b"))
        assert await first == {"done": True}
    finally:
        await transport.shutdown()


async def test_a_refused_connection_is_a_network_error() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    transport = AiohttpRequest()
    await transport.initialize()
    try:
        with pytest.raises(NetworkError, match=r"aiohttp\.Client"):
            await transport.post(f"http://127.0.0.1:{port}/getMe")
    finally:
        await transport.shutdown()


async def test_it_works_only_between_initialize_and_shutdown(server: Server) -> None:
    transport = AiohttpRequest()
    with pytest.raises(RuntimeError, match="not initialized"):
        await transport.do_request(f"{server.url}/getMe", "POST")
    await transport.initialize()
    await transport.initialize()  # a second start keeps the session
    await transport.shutdown()
    await transport.shutdown()
    with pytest.raises(RuntimeError, match="not initialized"):
        await transport.do_request(f"{server.url}/getMe", "POST")
    await transport.initialize()  # python-telegram-bot may start it again
    try:
        assert await transport.post(f"{server.url}/getMe") == {"done": True}
    finally:
        await transport.shutdown()


async def test_a_proxy_from_the_environment_carries_the_requests(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A school's network may let the bot out only through its proxy (``HTTPS_PROXY``,
    ``HTTP_PROXY``), as python-telegram-bot's httpx transport honoured it."""
    monkeypatch.setenv("HTTP_PROXY", server.url)  # the test server stands in for the proxy
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    transport = AiohttpRequest()
    await transport.initialize()
    try:
        # No such host: only the proxy can answer for it.
        assert await transport.post("http://api.telegram.invalid/sendMessage",
                                    request_data=data(text="via the proxy")) == {"done": True}
    finally:
        await transport.shutdown()
    [seen] = server.seen
    assert seen["method"] == "sendMessage" and seen["fields"]["text"] == "via the proxy"


async def test_no_proxy_sends_its_hosts_direct(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:  # a proxy nobody runs: a request sent there fails
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{dead}")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.delenv("no_proxy", raising=False)
    transport = AiohttpRequest()
    await transport.initialize()
    try:
        assert await transport.post(f"{server.url}/getMe") == {"done": True}
    finally:
        await transport.shutdown()
