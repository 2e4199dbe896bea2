"""Requests to Telegram, paced and retried: a rate limiter for a bot that lives on clicks,
and a second try of a message Telegram's server failed. The client (``client.py``) sends
through both; neither knows anything of games."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from telegram.error import NetworkError, RetryAfter, TimedOut
from telegram.ext import AIORateLimiter

log = logging.getLogger(__name__)

T = TypeVar("T")
# Tries of a send or a callback answer that Telegram's server failed (a 5xx), 0.5, 1 s apart.
SEND_TRIES = 3


async def retry_server_errors(call: Callable[[], Awaitable[T]]) -> T:
    """``call()``, tried again when Telegram failed it (a 5xx, a dropped connection: PTB's
    ``NetworkError``): such a message was not delivered, and the player would otherwise
    have nothing until /board. A timeout is not tried again, since the message may have
    arrived; nor is a refusal (400, 403) or a flood wait (the rate limiter's)."""
    for attempt in range(SEND_TRIES):
        try:
            return await call()
        except TimedOut:
            raise
        except NetworkError as error:
            if attempt == SEND_TRIES - 1:
                raise
            log.info("Telegram failed (%s); trying again", error)
            await asyncio.sleep(0.5 * 2 ** attempt)
    raise AssertionError("unreachable")


class ClickFriendlyRateLimiter(AIORateLimiter):
    """PTB's limiter, with two changes for a bot that lives on clicks.

    * Telegram's per-chat limits (one message a second, twenty a minute in a group) are
      for messages that notify people. Edits and callback answers are what a click
      produces; queueing them behind the group limit would make a menu take seconds per
      step. They still count toward the overall limit. (Callback answers carry no chat
      id, so they are never held back by chat.)
    * A flood wait (``RetryAfter``) holds only the chat it was given for. Telegram's flood
      limits are per chat, but AIORateLimiter pauses every request while any chat waits:
      one group's 20 s wait held a button answer in an unrelated private chat for 19.7 s.
    """

    EDITS = frozenset({"editMessageText", "editMessageReplyMarkup"})

    def __init__(self, max_retries: int = 3) -> None:
        super().__init__(max_retries=max_retries)
        self._max_tries = max_retries
        self._resume_at: dict[str, float] = {}  # chat id → loop time its wait ends

    async def process_request(self, callback: Callable[..., Coroutine[Any, Any, Any]],
                              args: Any, kwargs: dict[str, Any], endpoint: str,
                              data: dict[str, Any], rate_limit_args: int | None) -> Any:
        tries = rate_limit_args or self._max_tries
        chat_id = data.get("chat_id")
        chat = str(chat_id) if chat_id is not None else None
        group: int | str | bool = False
        if chat is not None and endpoint not in self.EDITS and (
                chat.startswith("-") or not chat.lstrip("-").isdigit()):
            group = int(chat) if chat.lstrip("-").isdigit() else chat
        loop = asyncio.get_running_loop()
        for attempt in range(tries + 1):
            if chat is not None:
                wait = self._resume_at.get(chat, 0.0) - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
            try:
                return await self._run_request(
                    chat=chat is not None, group=group,
                    allow_paid_broadcast=bool(data.get("allow_paid_broadcast", False)),
                    callback=callback, args=args, kwargs=kwargs)
            except RetryAfter as error:
                if attempt == tries:
                    raise
                # As AIORateLimiter reads it: the public attribute's type is changing
                # (an int now, a timedelta in a later PTB) and warns when read.
                seconds = error._retry_after.total_seconds() + 0.1
                log.info("flood wait of %.1f s in chat %s", seconds, chat)
                if chat is None:
                    await asyncio.sleep(seconds)
                else:
                    now = loop.time()
                    if len(self._resume_at) > 10_000:  # forget waits long over
                        self._resume_at = {k: v for k, v in self._resume_at.items() if v > now}
                    self._resume_at[chat] = max(self._resume_at.get(chat, 0.0), now + seconds)
        raise AssertionError("unreachable")
