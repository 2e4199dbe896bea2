"""Telegram's documented limits (``bot/adapters/telegram/limits.py``): every check of the
strict fake can fail, with Telegram's own answer, through python-telegram-bot's real
``Bot``; the bot's command menus are within the limits in every language, with the room
left printed for translators (``pytest -s``); and a menu over a limit is found before it is
published, not by Telegram."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
)
from telegram.constants import (
    BotCommandLimit,
    CallbackQueryLimit,
    ForumTopicLimit,
    InlineKeyboardButtonLimit,
    InlineKeyboardMarkupLimit,
    MessageLimit,
    ParseMode,
)
from telegram.error import BadRequest

from bot.adapters.telegram import limits
from bot.adapters.telegram.chats import api_base_url
from renderers.i18n import CATALOGUE, supported_languages
from tests.helpers.telegram_fake import (
    FAKE_ONLY,
    TOKEN,
    FakeTelegram,
    Person,
    forum_chat,
)
from tests.helpers.telegram_world import telegram_world

PUPIL = Person(2001, "Pupil")
FORUM = forum_chat(-1007001, "Class 3B")


@dataclass
class Telegram:
    """The strict fake and python-telegram-bot's real ``Bot``, talking to it."""

    fake: FakeTelegram
    bot: Bot
    chat: int  # a private chat the bot may write to


@pytest.fixture
async def telegram() -> AsyncIterator[Telegram]:
    fake = FakeTelegram()
    base_url, base_file_url = api_base_url(await fake.start())
    fake.started.add(PUPIL.id)
    fake.user_message(PUPIL, FORUM, "hello")  # the bot can see the forum from now on
    bot = Bot(TOKEN, base_url=base_url, base_file_url=base_file_url)
    try:
        async with bot:
            yield Telegram(fake, bot, PUPIL.id)
    finally:
        await fake.close()


def keyboard(rows: int, per_row: int, data: str = "m:1:1:a") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(f"{row}.{column}", callback_data=data)
                                  for column in range(per_row)] for row in range(rows)])


def commands(count: int = 1, name: str = "play", description: str = "Start a game"
             ) -> list[BotCommand]:
    return [BotCommand(name if count == 1 else f"{name}{n}", description)
            for n in range(count)]


async def send(telegram: Telegram, text: str, **options: Any) -> Any:
    return await telegram.bot.send_message(telegram.chat, text, parse_mode=ParseMode.HTML,
                                           **options)


async def edit(telegram: Telegram, text: str) -> Any:
    sent = await send(telegram, "a board")
    return await telegram.bot.edit_message_text(text, chat_id=telegram.chat,
                                                message_id=sent.message_id,
                                                parse_mode=ParseMode.HTML)


async def document(telegram: Telegram, caption: str) -> Any:
    return await telegram.bot.send_document(
        telegram.chat, InputFile(b"game,result\n", filename="results.csv"), caption=caption,
        parse_mode=ParseMode.HTML)


async def answer(telegram: Telegram, text: str) -> Any:
    query = f"q{len(telegram.fake.queries)}"
    telegram.fake.queries.append(query)  # as if someone pressed a button
    return await telegram.bot.answer_callback_query(query, text=text)


async def menu(telegram: Telegram, listed: list[BotCommand], *,
               scope: BotCommandScope | None = None, language: str | None = None) -> Any:
    return await telegram.bot.set_my_commands(listed, scope=scope, language_code=language)


Request = Callable[[Telegram], Awaitable[Any]]


@dataclass(frozen=True)
class Limit:
    """One limit: a request just within it, one just over it, and Telegram's answer to
    the second (``FAKE_ONLY``: the fake's own, where Telegram accepts what its
    documentation forbids)."""

    name: str
    method: str
    within: Request
    over: Request
    answer: str


LIMITS = [
    Limit("message text length", "sendMessage",
          lambda t: send(t, "x" * limits.TEXT_LIMIT),
          lambda t: send(t, "x" * (limits.TEXT_LIMIT + 1)), "Bad Request: message is too long"),
    Limit("message text length counts the parsed text", "sendMessage",
          lambda t: send(t, "<b>" + "&lt;" * limits.TEXT_LIMIT + "</b>"),
          lambda t: send(t, "<b>" + "&lt;" * (limits.TEXT_LIMIT + 1) + "</b>"),
          "Bad Request: message is too long"),
    Limit("an empty message text", "sendMessage",
          lambda t: send(t, "<b>x</b>"), lambda t: send(t, "<b> </b>"),
          "Bad Request: message text is empty"),
    Limit("an edited text's length", "editMessageText",
          lambda t: edit(t, "x" * limits.TEXT_LIMIT),
          lambda t: edit(t, "x" * (limits.TEXT_LIMIT + 1)), "Bad Request: MESSAGE_TOO_LONG"),
    Limit("HTML tags Telegram parses", "sendMessage",
          lambda t: send(t, "<b>1</b><strong>2</strong><i>3</i><em>4</em><u>5</u><ins>6</ins>"
                            "<s>7</s><strike>8</strike><del>9</del><tg-spoiler>a</tg-spoiler>"
                            '<span class="tg-spoiler">b</span><a href="https://t.me">c</a>'
                            "<code>d</code><pre>e</pre><blockquote>f</blockquote>"
                            "<blockquote expandable>g</blockquote>"),
          lambda t: send(t, "<script>x</script>"),
          "Bad Request: can't parse entities: Unsupported start tag \"script\" at byte "
          "offset 0"),
    Limit("HTML tags closed", "sendMessage",
          lambda t: send(t, "<b>bold</b>"), lambda t: send(t, "<b>bold"),
          "Bad Request: can't parse entities: Can't find end tag corresponding to start tag "
          "\"b\""),
    Limit("HTML tags closed in order", "sendMessage",
          lambda t: send(t, "<b><i>x</i></b>"), lambda t: send(t, "<b><i>x</b></i>"),
          "Bad Request: can't parse entities: Unmatched end tag at byte offset 7, expected "
          "\"</i>\", found \"</b>\""),
    Limit("a spoiler span's class", "sendMessage",
          lambda t: send(t, '<span class="tg-spoiler">x</span>'),
          lambda t: send(t, "<span>x</span>"),
          "Bad Request: can't parse entities: Tag \"span\" must have class \"tg-spoiler\" at "
          "byte offset 0"),
    Limit("an escaped &", "sendMessage",
          lambda t: send(t, "A &amp; B &lt;3 &#x1F3C6;"), lambda t: send(t, "A & B"),
          FAKE_ONLY + "text: an \"&\" at byte offset 2 starts no entity; Telegram asks for "
                      "&amp; (Formatting options, HTML style)"),
    Limit("nothing inside pre, but code", "sendMessage",
          lambda t: send(t, '<pre><code class="language-python">x</code></pre>'),
          lambda t: send(t, "<pre><b>x</b></pre>"),
          FAKE_ONLY + "text: <b> inside <pre>: pre and code can't contain other entities "
                          "(Formatting options); Telegram would drop the formatting"),
    Limit("no link inside a link", "sendMessage",
          lambda t: send(t, '<a href="https://t.me"><b>x</b></a>'),
          lambda t: send(t, '<a href="https://t.me"><a href="https://t.me">x</a></a>'),
          FAKE_ONLY + "text: <a> inside <a>: links, custom emoji, code and pre can't "
                          "contain each other (Formatting options); Telegram would drop the "
                          "formatting"),
    Limit("no blockquote inside a blockquote", "sendMessage",
          lambda t: send(t, "<blockquote><b>x</b></blockquote>"),
          lambda t: send(t, "<blockquote><blockquote>x</blockquote></blockquote>"),
          FAKE_ONLY + "text: <blockquote> inside <blockquote>: blockquotes can't be nested "
                          "(Formatting options); Telegram would drop the formatting"),
    Limit("a document's caption", "sendDocument",
          lambda t: document(t, "x" * limits.CAPTION_LIMIT),
          lambda t: document(t, "x" * (limits.CAPTION_LIMIT + 1)),
          "Bad Request: message caption is too long"),
    Limit("callback data bytes", "sendMessage",
          lambda t: send(t, "b", reply_markup=keyboard(1, 1, "é" * 32)),
          lambda t: send(t, "b", reply_markup=keyboard(1, 1, "é" * 32 + "x")),
          "Bad Request: BUTTON_DATA_INVALID"),
    Limit("empty callback data", "sendMessage",
          lambda t: send(t, "b", reply_markup=keyboard(1, 1, "x")),
          lambda t: send(t, "b", reply_markup=keyboard(1, 1, "")),
          "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the "
          "inline keyboard"),
    Limit("buttons in a keyboard", "sendMessage",
          lambda t: send(t, "b", reply_markup=InlineKeyboardMarkup(
              keyboard(12, 8).inline_keyboard + keyboard(1, 4).inline_keyboard)),
          lambda t: send(t, "b", reply_markup=InlineKeyboardMarkup(
              keyboard(12, 8).inline_keyboard + keyboard(1, 5).inline_keyboard)),
          "Bad Request: reply markup is too long"),
    Limit("buttons in a row", "sendMessage",
          lambda t: send(t, "b", reply_markup=keyboard(1, limits.ROW_LIMIT)),
          lambda t: send(t, "b", reply_markup=keyboard(1, limits.ROW_LIMIT + 1)),
          "Bad Request: reply markup is too long"),
    Limit("a button's label", "sendMessage",
          lambda t: send(t, "b", reply_markup=InlineKeyboardMarkup(
              [[InlineKeyboardButton("▶", callback_data="x")]])),
          lambda t: send(t, "b", reply_markup=InlineKeyboardMarkup(
              [[InlineKeyboardButton("", callback_data="x")]])),
          "Bad Request: BUTTON_TEXT_INVALID"),
    Limit("a callback answer's length", "answerCallbackQuery",
          lambda t: answer(t, "x" * limits.ALERT_LIMIT),
          lambda t: answer(t, "x" * (limits.ALERT_LIMIT + 1)), "Bad Request: MESSAGE_TOO_LONG"),
    Limit("a command's characters", "setMyCommands",
          lambda t: menu(t, commands(name="forget_me2")), lambda t: menu(t, commands(name="Play")),
          "Bad Request: BOT_COMMAND_INVALID"),
    Limit("a command's length", "setMyCommands",
          lambda t: menu(t, commands(name="x" * limits.COMMAND_NAME_LIMIT)),
          lambda t: menu(t, commands(name="x" * (limits.COMMAND_NAME_LIMIT + 1))),
          "Bad Request: command length must not exceed 32"),
    Limit("a command's description length", "setMyCommands",
          lambda t: menu(t, commands(description="é" * limits.COMMAND_DESCRIPTION_LIMIT)),
          lambda t: menu(t, commands(description="é" * (limits.COMMAND_DESCRIPTION_LIMIT + 1))),
          "Bad Request: command description length must not exceed 256"),
    Limit("an empty command description", "setMyCommands",
          lambda t: menu(t, commands(description="?")),
          lambda t: menu(t, commands(description=" ")),
          "Bad Request: command description must be non-empty"),
    Limit("commands in a menu", "setMyCommands",
          lambda t: menu(t, commands(limits.COMMANDS_PER_MENU)),
          lambda t: menu(t, commands(limits.COMMANDS_PER_MENU + 1)),
          "Bad Request: BOT_COMMANDS_TOO_MUCH"),
    Limit("a menu's language code", "setMyCommands",
          lambda t: menu(t, commands(), language="nl"),
          lambda t: menu(t, commands(), language="nld"),
          "Bad Request: invalid language code specified"),
    Limit("a menu's scope", "setMyCommands",
          lambda t: menu(t, commands(), scope=BotCommandScopeAllChatAdministrators()),
          lambda t: menu(t, commands(), scope=BotCommandScope("everyone")),
          "Bad Request: can't parse BotCommandScope: Unsupported type specified"),
    Limit("an empty topic name", "createForumTopic",
          lambda t: t.bot.create_forum_topic(FORUM["id"], "L-game: Ann – Bob"),
          lambda t: t.bot.create_forum_topic(FORUM["id"], " "),
          "Bad Request: title must be non-empty"),
    Limit("a topic name's length", "createForumTopic",
          lambda t: t.bot.create_forum_topic(FORUM["id"], "x" * limits.TOPIC_NAME_LIMIT),
          lambda t: t.bot.create_forum_topic(FORUM["id"], "x" * (limits.TOPIC_NAME_LIMIT + 1)),
          FAKE_ONLY + "name: 129 characters; Telegram allows 1-128 and would cut the rest"),
]


@pytest.mark.parametrize("limit", LIMITS, ids=[limit.name for limit in LIMITS])
async def test_each_limit_holds_and_refuses_with_telegrams_answer(
        telegram: Telegram, limit: Limit) -> None:
    await limit.within(telegram)
    assert telegram.fake.refusals == [], "just within the limit, Telegram accepts"
    with pytest.raises(BadRequest) as refused:
        await limit.over(telegram)
    assert telegram.fake.refusals == [(limit.method, limit.answer)]
    # python-telegram-bot drops "Bad Request: " and capitalises the rest of the answer.
    assert str(refused.value) == BadRequest(limit.answer).message


def test_the_limits_agree_with_python_telegram_bots_reading_of_the_documentation() -> None:
    """A second, independent reading of the same pages."""
    assert limits.TEXT_LIMIT == MessageLimit.MAX_TEXT_LENGTH
    assert limits.CAPTION_LIMIT == MessageLimit.CAPTION_LENGTH
    assert limits.CALLBACK_DATA_LIMIT == InlineKeyboardButtonLimit.MAX_CALLBACK_DATA
    assert limits.KEYBOARD_LIMIT == InlineKeyboardMarkupLimit.TOTAL_BUTTON_NUMBER
    assert limits.ROW_LIMIT == InlineKeyboardMarkupLimit.BUTTONS_PER_ROW
    assert limits.ALERT_LIMIT == CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH
    assert limits.COMMAND_NAME_LIMIT == BotCommandLimit.MAX_COMMAND
    assert limits.COMMAND_DESCRIPTION_LIMIT == BotCommandLimit.MAX_DESCRIPTION
    assert limits.COMMANDS_PER_MENU == BotCommandLimit.MAX_COMMAND_NUMBER
    assert limits.TOPIC_NAME_LIMIT == ForumTopicLimit.MAX_NAME_LENGTH


async def test_every_languages_command_menus_are_within_telegrams_limits(
        tmp_path: Path) -> None:
    """Every menu the bot publishes, in every language of the catalogue, within the limits;
    the longest description of each language and the room left are printed (``pytest
    -s``), so a translator sees how much a description may still grow."""
    async with telegram_world(tmp_path) as world:
        menus = world.bot.command_menus()
        published = world.fake.calls("setMyCommands")
        assert world.fake.refusals == []
    assert len(published) == len(menus)
    languages = {language or "en" for _, language, _ in menus}
    assert languages == set(supported_languages()), "each language translates the menu"
    for language in sorted(languages):
        own = [(scope, listed) for scope, code, listed in menus if (code or "en") == language]
        for scope, listed in own:
            problems = limits.command_problems([command.to_dict() for command in listed],
                                               scope=scope.to_dict(), language_code=language)
            assert problems == [], (language, scope.type, [str(p) for p in problems])
        longest = max((command for _, listed in own for command in listed),
                      key=lambda command: len(command.description))
        largest = max(len(listed) for _, listed in own)
        print(f"Telegram commands, {language}: longest description /{longest.command}, "
              f"{len(longest.description)} of {limits.COMMAND_DESCRIPTION_LIMIT} characters "
              f"({limits.COMMAND_DESCRIPTION_LIMIT - len(longest.description)} to spare); "
              f"largest menu {largest} of {limits.COMMANDS_PER_MENU} commands")


async def test_a_description_over_the_limit_is_found_before_publishing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A translation that grew too long is logged with its command, field, length and
    catalogue entry at start-up, and published cut to fit: Telegram never refuses it."""
    monkeypatch.setitem(CATALOGUE["nl"], "telegram.cmd.play", "Speel /" + "x" * 251)
    with caplog.at_level(logging.ERROR, logger="bot.adapters.telegram.command_sync"):
        async with telegram_world(tmp_path) as world:
            assert world.fake.refusals == [], "the menus were published"
            published = {(call["scope"]["type"], call.get("language_code")): {
                command["command"]: command["description"] for command in call["commands"]}
                for call in world.fake.calls("setMyCommands")}
    admins = published[("all_chat_administrators", "nl")]
    assert admins["classboard"] == CATALOGUE["nl"]["telegram.cmd.classboard"], "others stay"
    assert admins["play"] == ("Speel /" + "x" * 251)[:limits.COMMAND_DESCRIPTION_LIMIT - 1] + "…"
    lines = [record.getMessage() for record in caplog.records
             if "breaks a limit" in record.getMessage()]
    assert len(lines) == 3, "one line a menu that lists /play: default, private, admins"
    assert lines[0] == (
        "telegram: the command menu for default, nl breaks a limit of Telegram's "
        "(https://core.telegram.org/bots/api#botcommand): /play description: 258 characters; "
        "Telegram allows 1-256; it is published cut to 256 characters. Shorten "
        "telegram.cmd.play in renderers/locale/nl/LC_MESSAGES/logic_bot.po")
