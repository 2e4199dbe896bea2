"""A loopback fake of the Telegram Bot API, for driving the real python-telegram-bot
``Application`` over HTTP in tests: no network and no token.

It is an aiohttp web server that answers the Bot API methods the bot uses, records every
request, keeps the chats' messages (text, HTML and keyboards) and feeds updates through
``getUpdates``. It holds every request to Telegram's documented limits, checked by the
bot's own ``bot/adapters/telegram/limits.py`` (one definition for both), and refuses a
violation as Telegram does, a 400 with Telegram's own description, so that a bad request
fails the test that sent it instead of a school's bot:

* message text of 1–4096 characters after parsing, HTML that Telegram would parse, and
  tags nested as the documentation allows; captions of at most 1024 characters;
* callback data of 1–64 bytes, at most 100 inline buttons and 8 to a row;
* a callback query answered once, with at most 200 characters;
* command menus (``setMyCommands``): commands, descriptions, their number, the scope and
  the language code; forum topic names of 1–128 characters;
* "message is not modified" for an edit that changes nothing;
* 403 for a private message to a user who never started the bot.

Where Telegram accepts what its documentation forbids (it drops formatting that breaks the
nesting rules, cuts a long topic name, keeps a bare "&" as typed), the fake refuses it all
the same, with a description that says it is the fake's (``FAKE_ONLY``): the bot must not
rely on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.adapters.telegram.limits import (
    Problem,
    callback_answer_problems,
    caption_problems,
    command_problems,
    markup_problems,
    parse_html,
    text_problems,
    topic_name_problems,
)
from tests.helpers.local_http import serve_locally

TOKEN = "123456:TEST-TOKEN"
BOT_ID = 123456
BOT_USERNAME = "logic_test_bot"
# The start of the fake's own refusal of what Telegram accepts against its documentation:
# no real answer exists to copy, and a test must not mistake it for one.
FAKE_ONLY = "Bad Request: refused by the test fake, as Telegram's documentation forbids it: "
JSON_FIELDS = {"reply_markup", "commands", "scope", "allowed_updates", "link_preview_options",
               "reply_parameters"}


class ApiError(Exception):
    def __init__(self, code: int, description: str) -> None:
        super().__init__(description)
        self.code = code
        self.description = description


def refuse(problems: list[Problem]) -> None:
    """Answer the first problem as Telegram would: a refusal Telegram makes before any it
    would not make (``FAKE_ONLY``)."""
    if not problems:
        return
    refused = next((problem for problem in problems if problem.answer is not None), None)
    if refused is not None and refused.answer is not None:
        raise ApiError(400, refused.answer)
    raise ApiError(400, FAKE_ONLY + str(problems[0]))


def plain_text(markup: str) -> str:
    """The text Telegram shows for HTML ``markup``; ApiError where it refuses the markup."""
    text, problems = parse_html(markup)
    refuse(problems)
    return text


@dataclass
class Person:
    id: int
    first_name: str
    last_name: str = ""
    username: str = ""
    language_code: str = "en"
    is_bot: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot,
                                "first_name": self.first_name,
                                "language_code": self.language_code}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        return data

    @property
    def private_chat(self) -> dict[str, Any]:
        return {"id": self.id, "type": "private", "first_name": self.first_name}


def group_chat(chat_id: int, title: str) -> dict[str, Any]:
    return {"id": chat_id, "type": "supergroup", "title": title}


def forum_chat(chat_id: int, title: str) -> dict[str, Any]:
    """A supergroup with topics on: each topic is a thread of its own."""
    return {**group_chat(chat_id, title), "is_forum": True}


@dataclass
class Sent:
    """A message in a chat, as the fake holds it."""

    chat: dict[str, Any]
    message_id: int
    html: str
    text: str
    reply_markup: dict[str, Any] | None
    sender: dict[str, Any]
    edits: int = 0
    topic: int | None = None  # a forum topic's message_thread_id; None: General or no forum
    effect: str = ""  # the message effect it was sent with

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message_id": self.message_id, "date": 1_700_000_000,
                                "chat": self.chat, "from": self.sender, "text": self.text}
        if self.topic is not None:
            data["message_thread_id"] = self.topic
            data["is_topic_message"] = True
        if self.reply_markup:
            data["reply_markup"] = self.reply_markup
        return data

    @property
    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]

    def button(self, label: str) -> dict[str, Any]:
        """The first button whose label contains ``label``."""
        for button in self.buttons:
            if label in button["text"]:
                return button
        raise AssertionError(f"no button {label!r} in {[b['text'] for b in self.buttons]}")


FAULT_TEXTS = {400: "Bad Request", 500: "Internal Server Error", 502: "Bad Gateway",
               503: "Service Unavailable", 429: "Too Many Requests",
               403: "Forbidden: bot was kicked from the group chat"}


@dataclass
class Fault:
    """A fault the fake serves instead of (or before) a method's answer: a status such as
    500 or 429 (with ``retry_after``), a connection cut with no answer (``reset``), or only
    a ``delay`` (status 0), after which the call is applied as usual: a slow server (the
    client may have given up by then, and the call still lands, late). ``chat_id`` limits
    it to one chat; ``times`` is how many matching calls get it; ``description`` replaces
    the status's usual text, for a refusal such as a 400 "Bad Request:
    BOT_COMMAND_INVALID" of ``setMyCommands``."""

    method: str
    status: int = 500
    times: int = 1
    delay: float = 0.0
    retry_after: int | None = None
    chat_id: int | None = None
    description: str | None = None
    reset: bool = False  # the connection is cut before any answer (a reset, a proxy dying)
    served: int = 0

    def matches(self, method: str, params: dict[str, Any]) -> bool:
        return (self.served < self.times and method == self.method
                and (self.chat_id is None or str(params.get("chat_id")) == str(self.chat_id)))


@dataclass
class FakeTelegram:
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)  # perf_counter of each request
    updates: list[dict[str, Any]] = field(default_factory=list)
    messages: dict[tuple[int, int], Sent] = field(default_factory=dict)
    started: set[int] = field(default_factory=set)
    admins: dict[int, set[int]] = field(default_factory=dict)
    # Forum topics by chat: message_thread_id → name.
    topics: dict[int, dict[int, str]] = field(default_factory=dict)
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    queries: list[str] = field(default_factory=list)
    refusals: list[tuple[str, str]] = field(default_factory=list)
    pressed_at: dict[str, float] = field(default_factory=dict)
    # (chat id, file name, bytes, caption) of every document the bot sent
    documents: list[tuple[int, str, bytes, str]] = field(default_factory=list)
    confirmed: int = 0  # the highest update id the bot has asked past
    faults: list[Fault] = field(default_factory=list)
    deleted: list[tuple[int, int]] = field(default_factory=list)  # (chat, message) ids
    bot_user: dict[str, Any] = field(default_factory=lambda: {
        "id": BOT_ID, "is_bot": True, "first_name": "Logic Bot", "username": BOT_USERNAME,
        "can_join_groups": True, "can_read_all_group_messages": False,
        "supports_inline_queries": False})

    def __post_init__(self) -> None:
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._query_ids = itertools.count(1)
        self._new_update = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.url = ""
        self.webhook = ""
        self.webhook_secret = ""

    # ------------------------------------------------------------------ server
    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        self._runner, self.url = await serve_locally(app)
        return self.url

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] != TOKEN:
            return web.json_response({"ok": False, "error_code": 401,
                                      "description": "Unauthorized"}, status=401)
        if request.content_type == "application/json":
            params = await request.json()
        else:
            params = dict(await request.post())
        for key in JSON_FIELDS & set(params):
            if isinstance(params[key], str):
                params[key] = json.loads(params[key])
        self.requests.append((method, params))
        self.arrivals.append(time.perf_counter())
        fault = next((f for f in self.faults if f.matches(method, params)), None)
        if fault is not None:
            fault.served += 1
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.reset and request.transport is not None:
                self.refusals.append((method, "connection reset"))
                request.transport.abort()
                return web.Response(status=500)  # never reaches the bot: the socket is gone
            if fault.status:
                body: dict[str, Any] = {"ok": False, "error_code": fault.status,
                                        "description": fault.description or FAULT_TEXTS.get(
                                            fault.status, "Internal Server Error")}
                if fault.retry_after is not None:
                    body["parameters"] = {"retry_after": fault.retry_after}
                    body["description"] = f"Too Many Requests: retry after {fault.retry_after}"
                self.refusals.append((method, str(body["description"])))
                return web.json_response(body, status=fault.status)
        handler = getattr(self, f"api_{method[0].lower()}{method[1:]}", None)
        try:
            if handler is None:
                raise ApiError(404, f"Not Found: method {method} not faked")
            result = handler(params)
            if asyncio.iscoroutine(result):
                result = await result
        except ApiError as error:
            self.refusals.append((method, error.description))
            return web.json_response({"ok": False, "error_code": error.code,
                                      "description": error.description}, status=error.code)
        return web.json_response({"ok": True, "result": result})

    def inject(self, fault: Fault) -> Fault:
        """Serve ``fault`` to the next matching calls."""
        self.faults.append(fault)
        return fault

    # ------------------------------------------------------------------ updates
    def _push(self, kind: str, payload: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        self.updates.append({"update_id": update_id, kind: payload})
        self._new_update.set()
        return update_id

    def new_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def user_message(self, person: Person, chat: dict[str, Any], text: str,
                     reply_to: Sent | None = None, topic: int | None = None) -> Sent:
        """``person`` writes ``text`` in ``chat`` (in forum ``topic``); a leading /command
        is marked up as one."""
        if chat["type"] == "private":
            self.started.add(person.id)
        sent = Sent(chat, self.new_message_id(chat["id"]), html.escape(text), text, None,
                    person.to_json(), topic=topic)
        self.messages[(chat["id"], sent.message_id)] = sent
        payload = sent.to_json()
        if text.startswith("/"):
            payload["entities"] = [{"type": "bot_command", "offset": 0,
                                    "length": len(text.split()[0])}]
        if reply_to is not None:
            payload["reply_to_message"] = reply_to.to_json()
        self._push("message", payload)
        return sent

    def press(self, person: Person, message: Sent, data: str) -> str:
        """``person`` presses a button carrying ``data`` (forged or not) on ``message``."""
        query_id = str(next(self._query_ids))
        self.pressed_at[query_id] = time.perf_counter()
        self.queries.append(query_id)
        self._push("callback_query", self.callback_query(query_id, person, message, data))
        return query_id

    @staticmethod
    def callback_query(query_id: str, person: Person, message: Sent,
                       data: str) -> dict[str, Any]:
        return {"id": query_id, "from": person.to_json(), "chat_instance": "ci",
                "message": message.to_json(), "data": data}

    @property
    def last_update_id(self) -> int:
        return self.updates[-1]["update_id"] if self.updates else 0

    async def api_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        self.confirmed = max(self.confirmed, offset - 1)
        timeout = float(params.get("timeout") or 0)

        def unconfirmed() -> list[dict[str, Any]]:
            # As Telegram does: a confirmed update is gone for good, so a new process
            # polling from offset 0 gets only what nobody confirmed, never old presses.
            return [u for u in self.updates if u["update_id"] > self.confirmed]

        pending = unconfirmed()
        if not pending and timeout > 0:
            self._new_update.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new_update.wait(), timeout)
            pending = unconfirmed()
        return pending[:100]

    # ------------------------------------------------------------------ methods
    def api_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return self.bot_user

    def api_deleteWebhook(self, params: dict[str, Any]) -> bool:
        self.webhook = ""
        return True

    def api_setWebhook(self, params: dict[str, Any]) -> bool:
        self.webhook = str(params["url"])
        self.webhook_secret = str(params.get("secret_token", ""))
        return True

    def api_setMyCommands(self, params: dict[str, Any]) -> bool:
        refuse(command_problems(params["commands"], scope=params.get("scope"),
                                language_code=params.get("language_code")))
        return True

    def api_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        status = "administrator" if user_id in self.admins.get(chat_id, set()) else "member"
        member: dict[str, Any] = {"status": status,
                                  "user": {"id": user_id, "is_bot": False, "first_name": "?"}}
        if status == "administrator":
            member.update({key: True for key in (
                "can_be_edited", "is_anonymous", "can_manage_chat", "can_delete_messages",
                "can_manage_video_chats", "can_restrict_members", "can_promote_members",
                "can_change_info", "can_invite_users", "can_post_stories",
                "can_edit_stories", "can_delete_stories")})
            member["is_anonymous"] = False
        return member

    def _chat(self, chat_id: int) -> dict[str, Any]:
        for (known_chat, _), sent in self.messages.items():
            if known_chat == chat_id:
                return sent.chat
        if chat_id > 0:
            if chat_id not in self.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            return {"id": chat_id, "type": "private", "first_name": "?"}
        raise ApiError(400, "Bad Request: chat not found")

    @staticmethod
    def _check_markup(markup: dict[str, Any] | None) -> None:
        refuse(markup_problems(markup))
        for row in (markup or {}).get("inline_keyboard", []):
            for button in row:
                # Button colours, which python-telegram-bot 22.7 sends; the answer to an
                # unknown one is modelled on Telegram's other button errors, not copied.
                if button.get("style") not in (None, "primary", "success", "danger"):
                    raise ApiError(400, "Bad Request: BUTTON_STYLE_INVALID")

    @staticmethod
    def _check_text(params: dict[str, Any], *, edit: bool = False) -> str:
        markup = str(params.get("text", ""))
        if params.get("parse_mode") != "HTML":
            raise ApiError(400, "Bad Request: this fake expects parse_mode HTML everywhere")
        refuse(text_problems(markup, edit=edit))
        return plain_text(markup)

    def api_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        chat = self._chat(chat_id)
        if chat["type"] == "private" and chat_id not in self.started:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        text = self._check_text(params)
        markup = params.get("reply_markup")
        self._check_markup(markup)
        topic = params.get("message_thread_id")
        if topic is not None and int(topic) not in self.topics.get(chat_id, {}):
            raise ApiError(400, "Bad Request: message thread not found")
        effect = str(params.get("message_effect_id") or "")
        if effect and chat["type"] != "private":
            raise ApiError(400, "Bad Request: message effects are available only in "
                                "private chats")
        if effect and not effect.isdigit():
            raise ApiError(400, "Bad Request: EFFECT_ID_INVALID")
        sent = Sent(chat, self.new_message_id(chat_id), str(params["text"]), text, markup,
                    self.bot_user, topic=int(topic) if topic is not None else None,
                    effect=effect)
        self.messages[(chat_id, sent.message_id)] = sent
        return sent.to_json()

    def api_sendChatAction(self, params: dict[str, Any]) -> bool:
        """"typing…" in a chat: refused where a message would be, shown nowhere here."""
        chat_id = int(params["chat_id"])
        chat = self._chat(chat_id)
        if chat["type"] == "private" and chat_id not in self.started:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return True

    def api_createForumTopic(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        if not self._chat(chat_id).get("is_forum"):
            raise ApiError(400, "Bad Request: the chat is not a forum")
        name = str(params.get("name", ""))
        refuse(topic_name_problems(name))
        # A topic's id is the id of the service message that opened it.
        thread = self.new_message_id(chat_id)
        self.topics.setdefault(chat_id, {})[thread] = name
        return {"message_thread_id": thread, "name": name, "icon_color": 7322096}

    def api_deleteMessage(self, params: dict[str, Any]) -> bool:
        key = (int(params["chat_id"]), int(params["message_id"]))
        if key not in self.messages:
            raise ApiError(400, "Bad Request: message to delete not found")
        del self.messages[key]
        self.deleted.append(key)
        return True

    def api_sendDocument(self, params: dict[str, Any]) -> dict[str, Any]:
        """A file upload (multipart): kept as bytes, shown in the chat as its caption."""
        chat_id = int(params["chat_id"])
        chat = self._chat(chat_id)
        upload = params.get("document")
        if not isinstance(upload, web.FileField):
            raise ApiError(400, "Bad Request: there is no document in the request")
        data = upload.file.read()
        caption = str(params.get("caption", ""))
        refuse(caption_problems(caption))
        self.documents.append((chat_id, upload.filename, data, caption))
        sent = Sent(chat, self.new_message_id(chat_id), caption, plain_text(caption), None,
                    self.bot_user)
        self.messages[(chat_id, sent.message_id)] = sent
        return {**sent.to_json(), "document": {"file_id": f"doc{len(self.documents)}",
                                               "file_unique_id": f"u{len(self.documents)}",
                                               "file_name": upload.filename}}

    def _message(self, params: dict[str, Any]) -> Sent:
        key = (int(params["chat_id"]), int(params["message_id"]))
        sent = self.messages.get(key)
        if sent is None or sent.sender["id"] != BOT_ID:
            raise ApiError(400, "Bad Request: message to edit not found")
        return sent

    def api_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:
        sent = self._message(params)
        text = self._check_text(params, edit=True)
        markup = params.get("reply_markup")
        self._check_markup(markup)
        if sent.html == params["text"] and sent.reply_markup == markup:
            raise ApiError(400, "Bad Request: message is not modified: specified new message "
                                "content and reply markup are exactly the same as a current "
                                "content and reply markup of the message")
        sent.html, sent.text, sent.reply_markup = str(params["text"]), text, markup
        sent.edits += 1
        return sent.to_json()

    def api_editMessageReplyMarkup(self, params: dict[str, Any]) -> dict[str, Any]:
        sent = self._message(params)
        markup = params.get("reply_markup")
        self._check_markup(markup)
        if sent.reply_markup == markup:
            raise ApiError(400, "Bad Request: message is not modified")
        sent.reply_markup = markup
        sent.edits += 1
        return sent.to_json()

    def api_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        query_id = str(params["callback_query_id"])
        if query_id not in self.queries or self.answers.get(query_id):
            raise ApiError(400, "Bad Request: query is too old and response timeout expired "
                                "or query ID is invalid")
        refuse(callback_answer_problems(params.get("text")))
        self.answers.setdefault(query_id, []).append(params)
        return True

    # ------------------------------------------------------------------ views
    def chat_messages(self, chat_id: int) -> list[Sent]:
        return [sent for (chat, _), sent in sorted(self.messages.items()) if chat == chat_id]

    def bot_messages(self, chat_id: int) -> list[Sent]:
        return [sent for sent in self.chat_messages(chat_id) if sent.sender["id"] == BOT_ID]

    def calls(self, method: str) -> list[dict[str, Any]]:
        return [params for name, params in self.requests if name == method]

    def answer_latency(self, query_id: str) -> float:
        """Seconds from a press to the arrival of its answer."""
        for (method, params), arrived in zip(self.requests, self.arrivals, strict=True):
            if method == "answerCallbackQuery" and params["callback_query_id"] == query_id:
                return arrived - self.pressed_at[query_id]
        raise AssertionError(f"query {query_id} was never answered")

    def unanswered(self) -> list[str]:
        return [query for query in self.queries if not self.answers.get(query)]


def bot_removed(fake: FakeTelegram, chat: dict[str, Any], by: Person) -> int:
    """The update Telegram sends when ``by`` removes the bot from ``chat``."""
    member = {"user": fake.bot_user, "status": "member"}
    return fake._push("my_chat_member", {
        "chat": chat, "from": by.to_json(), "date": int(time.time()),
        "old_chat_member": member,
        "new_chat_member": {**member, "status": "kicked", "until_date": 0}})
