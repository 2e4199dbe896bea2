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
# The /start payload of the link that opens a private chat for hints.
HINT_LINK = "hint"


class OpenChats:
    """The people whose private chat with the bot is known to be open. Telegram lets a bot
    write to someone only once they have opened that chat, and has no call that asks
    outright, so what this process saw is the evidence: they wrote there (/start, a
    command, a press), or a private message to them went through; a refusal (403: never
    opened, or the bot blocked since) counts as closed. Kept in memory, per process: a
    chat not known here (after a restart, or seen by another webhook worker) is asked of
    Telegram when it matters (``TelegramMessages.can_write_privately``)."""

    def __init__(self) -> None:
        self._open: set[int] = set()

    def heard(self, chat_id: int) -> None:
        if chat_id > 0:  # a person's private chat, not a group's
            self._open.add(chat_id)

    def refused(self, chat_id: int) -> None:
        self._open.discard(chat_id)

    def __contains__(self, chat_id: object) -> bool:
        return chat_id in self._open


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
