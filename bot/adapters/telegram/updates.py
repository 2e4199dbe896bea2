"""Updates that python-telegram-bot cannot parse are skipped one by one, not the batch.

PTB parses a whole ``getUpdates`` batch at once: one update it cannot read (a
``callback_query`` without ``from`` or ``chat_instance``, found against a fault-injecting
fake) raised for the batch, the offset never moved, and the bot polled the same batch in a
hot loop, answering nobody. ``TolerantBot`` checks each update of a batch before PTB reads
it and replaces one it cannot parse by a bare update of the same id, which no handler
takes: the offset moves past it (Telegram counts it as confirmed at the next poll), it is
logged once with its id, and every other update is served.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from telegram import Update
from telegram.ext import ExtBot

log = logging.getLogger(__name__)


class TolerantBot(ExtBot[Any]):
    async def _post(self, endpoint: str, data: dict[str, Any] | None = None, *args: Any,
                    **kwargs: Any) -> Any:
        result = await super()._post(endpoint, data, *args, **kwargs)
        if endpoint == "getUpdates" and isinstance(result, list):
            return [self._readable(raw) for raw in result]
        return result

    def _readable(self, raw: Any) -> Any:
        if not isinstance(raw, dict) or not isinstance(raw.get("update_id"), int):
            return raw  # not an update at all: PTB's own error says so
        try:
            Update.de_json(copy.deepcopy(raw), self)
        except Exception as error:
            log.error("skipped update %s, which could not be read (%s: %s); its kinds: %s",
                      raw["update_id"], type(error).__name__, error,
                      sorted(key for key in raw if key != "update_id"))
            return {"update_id": raw["update_id"]}
        return raw
