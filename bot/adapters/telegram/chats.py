"""Telegram's chats as the bot sees them: the platform's name, how a chat (or a forum
topic) becomes a service channel and back, and the deep-link prefixes of ``/start``.

Shared by the client, the commands and the handlers, so none of them imports another for
a constant."""

from __future__ import annotations

from telegram import Message as TgMessage

from bot.tables import room_of

PLATFORM = "telegram"
HAND_LINK_PREFIX = "hand-"
# /start payloads may hold only letters, digits, _ and -: a group id's minus becomes "m".
DAILY_LINK_PREFIX = "daily-"


def api_base_url(root: str) -> tuple[str, str]:
    """The Bot API and file URLs for ``TELEGRAM_BASE_URL`` (a self-hosted server's root,
    such as ``http://localhost:8081``), or Telegram's own."""
    root = root.strip().rstrip("/")
    if not root:
        return "https://api.telegram.org/bot", "https://api.telegram.org/file/bot"
    if root.endswith("/bot"):
        root = root[: -len("/bot")]
    return f"{root}/bot", f"{root}/file/bot"


def channel_of(chat_id: int, topic: int | None = None) -> str:
    """The service channel: the chat, or one topic of a forum group, which holds its own
    game."""
    return f"{chat_id}/{topic}" if topic else str(chat_id)


def chat_of(channel: str) -> tuple[int, int | None]:
    """The chat and forum topic of a service channel; a table of a group
    (``bot.tables``) is in the group itself."""
    chat, _, topic = room_of(channel).partition("/")
    return int(chat), int(topic) if topic else None


def is_private(channel: str) -> bool:
    """Private chats have the user's (positive) id; groups and channels are negative."""
    return not channel.startswith("-")


def topic_of(message: TgMessage) -> int | None:
    return message.message_thread_id if message.is_topic_message else None

def callback_data_of(message: TgMessage) -> set[str]:
    """The callback data of the buttons on a message, as Telegram sent it with a press."""
    markup = message.reply_markup
    return {str(key.callback_data) for row in (markup.inline_keyboard if markup else ())
            for key in row if key.callback_data is not None}
