"""Reading a Telegram board's move menu."""

from __future__ import annotations

from tests.helpers.telegram_fake import Sent


def menu_keys(message: Sent) -> list[dict[str, str]]:
    """The move-menu buttons of a board: service payloads of kind ``m``."""
    return [b for b in message.buttons if b.get("callback_data", "").startswith("m:")]
