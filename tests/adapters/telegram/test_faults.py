"""Faults of the Telegram Bot API, served by the fake through the real python-telegram-bot:
each test reproduces one fault and checks that no acknowledged move is lost and that the
game goes on."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from pathlib import Path

import pytest
from telegram.error import Conflict

from bot.adapters.telegram.client import TelegramBot
from bot.adapters.telegram.pacing import ClickFriendlyRateLimiter
from renderers.i18n import CATALOGUE
from tests.helpers.clock import FakeClock
from tests.helpers.forged import whole_move
from tests.helpers.telegram_fake import Fault, bot_removed
from tests.helpers.telegram_play import group_lgame, menu_keys
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world


async def one_move(world: World, person: object) -> None:
    """Press the first option at each step until the version goes up."""
    record = await world.store.running_game("telegram", str(GROUP["id"]))
    assert record is not None
    for _ in range(8):
        board = await world.board(GROUP)
        await world.press(person, board, menu_keys(board)[0]["callback_data"])  # type: ignore[arg-type]
        latest = await world.store.get_game(record.id)
        assert latest is not None
        if latest.version > record.version:
            return
    raise AssertionError("no move was made")


async def test_a_failed_board_edit_is_mended_by_the_next_press(tmp_path: Path) -> None:
    """Found against a fake that injects faults: one 500 on the edit of Bob's move left the
    database at version 4 and the board at 3; every later press was answered "out of
    date" and nothing was redrawn. A board now counts as shown only when the edit
    succeeded, and a stale press redraws the message it was pressed on."""
    async with telegram_world(tmp_path) as world:
        game_id = await group_lgame(world)
        await one_move(world, ALICE)
        # Bob's move (the whole menu path in one press, as its last step carries it)
        # is saved, but the edit that draws it fails: the board stays behind.
        before = await world.store.get_game(game_id)
        assert before is not None
        world.fake.inject(Fault("editMessageText", status=500))
        answers = await world.press(BOB, await world.board(GROUP), whole_move(before))
        assert answers and not answers[0].get("show_alert"), answers
        saved = await world.store.get_game(game_id)
        assert saved is not None and saved.version == before.version + 1
        stale = await world.board(GROUP)
        assert not any(str(saved.version) == key["callback_data"].split(":")[2]
                       for key in menu_keys(stale)), "the failed edit left the old board"
        # Alice presses the stale board: told it is out of date, and it is redrawn.
        answers = await world.press(ALICE, stale, menu_keys(stale)[0]["callback_data"])
        assert answers and "out of date" in answers[0]["text"]
        mended = await world.board(GROUP)
        assert all(key["callback_data"].split(":")[2] == str(saved.version)
                   for key in menu_keys(mended)), mended.buttons
        # The game goes on from the mended board, and no acknowledged move was lost.
        await one_move(world, ALICE)
        after = await world.store.get_game(game_id)
        assert after is not None and after.version == saved.version + 1


async def test_an_unreadable_update_is_skipped_once_and_the_rest_are_served(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An update whose callback_query lacks ``from`` and ``chat_instance`` made
    python-telegram-bot fail the whole getUpdates batch: the offset never moved, and the
    bot polled 1,697 times in 5 s, logging a traceback each time, and answered nobody."""
    async with telegram_world(tmp_path) as world:
        polls_before = sum(1 for method, _ in world.fake.requests if method == "getUpdates")
        bad = world.fake._push("callback_query", {"id": "777", "data": "m:1:1:"})
        answer = await world.say(ALICE, ALICE.private_chat, "/help")
        assert world.fake.confirmed >= bad, "the bad update was confirmed"
        assert "/play" in world.last(ALICE.private_chat).text, "the next update was served"
        assert answer.message_id
        polls = sum(1 for method, _ in world.fake.requests if method == "getUpdates")
        assert polls - polls_before < 20, "no hot loop"
        skipped = [r for r in caplog.records if "skipped update" in r.getMessage()]
        assert len(skipped) == 1 and str(bad) in skipped[0].getMessage()


async def test_a_double_tap_on_the_setup_button_keeps_the_new_board(tmp_path: Path) -> None:
    """A second tap on the /play picker's last button, while the first was starting the
    game, replaced the new game's board with "A game of L-game is already running here"
    (no buttons, no board anywhere; 5 of 5 trials). The second tap is now answered with an
    alert, and the message keeps the board."""
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play lgame")
        picker = world.last(GROUP)
        data = picker.button("whoever joins")["callback_data"]
        first = world.fake.press(ALICE, picker, data)
        second = world.fake.press(ALICE, picker, data)
        await world.settle()
        answers = world.fake.answers[first] + world.fake.answers[second]
        assert any(a.get("text") for a in answers), answers
        board = await world.board(GROUP)
        assert board.message_id == picker.message_id
        assert board.button("Join"), "the message still is the game's board"
        assert "already running" not in board.text


async def test_a_failed_daily_post_is_retried_and_a_gone_group_is_dropped(
        tmp_path: Path) -> None:
    """After one 500, the daily post was marked posted and never came (send() swallowed
    the error). A failed post is now tried again the same day after 1, 2, 4… minutes; a
    group the bot was removed from (403) drops its schedule after three days."""
    clock = FakeClock(dt.datetime(2026, 11, 20, 7, 0, tzinfo=dt.UTC))
    async with telegram_world(tmp_path, clock=clock) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await world.say(CAROL, GROUP, "/daily 08:00")
        clock.now = dt.datetime(2026, 11, 20, 8, 0, 30, tzinfo=dt.UTC)
        world.fake.inject(Fault("sendMessage", status=500, chat_id=GROUP["id"]))
        assert await world.bot.post_daily_due() == 0
        clock.advance(0.5)
        assert await world.bot.post_daily_due() == 0, "the next try waits a minute"
        clock.advance(1)
        assert await world.bot.post_daily_due() == 1
        posts = [m for m in world.fake.bot_messages(GROUP["id"]) if "Daily Turing" in m.text]
        assert len(posts) == 1

        world.fake.inject(Fault("sendMessage", status=403, chat_id=GROUP["id"], times=99))
        for day in (21, 22):
            clock.now = dt.datetime(2026, 11, day, 8, 1, tzinfo=dt.UTC)
            assert await world.bot.post_daily_due() == 0
            assert await world.store.daily_schedules("telegram"), "kept for a few days"
        clock.now = dt.datetime(2026, 11, 23, 8, 1, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 0
        assert await world.store.daily_schedules("telegram") == [], "dropped on day three"


async def test_one_groups_flood_wait_does_not_hold_other_chats(tmp_path: Path) -> None:
    """A 429 with retry_after=20 on one group's message delayed a button answer in an
    unrelated private chat by 19.7 s: PTB's AIORateLimiter pauses every request while any
    chat waits. Only the chat that got the 429 waits now."""
    async with telegram_world(tmp_path, limiter=ClickFriendlyRateLimiter) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        world.fake.inject(Fault("sendMessage", status=429, retry_after=2, chat_id=GROUP["id"]))
        world.fake.user_message(BOB, GROUP, "/help")
        async with asyncio.timeout(5):
            while not any(status == "sendMessage" and "Too Many" in text
                          for status, text in world.fake.refusals):
                await asyncio.sleep(0.01)
        asked = time.perf_counter()
        before = len(world.fake.bot_messages(ALICE.id))
        world.fake.user_message(ALICE, ALICE.private_chat, "/help")
        async with asyncio.timeout(5):
            while len(world.fake.bot_messages(ALICE.id)) == before:
                await asyncio.sleep(0.01)
        answered_after = time.perf_counter() - asked
        await world.settle()
        assert any("/play" in m.text for m in world.fake.bot_messages(GROUP["id"])), \
            "the group's answer still came, after its wait"
        assert answered_after < 1.0, f"the private chat waited {answered_after:.2f} s"


async def test_a_failing_start_is_retried(tmp_path: Path) -> None:
    """One 502 on getMe (and one 500 on deleteWebhook) ended the process at start-up."""
    async with telegram_world(tmp_path) as world:
        await world.bot.stop()
        world.fake.inject(Fault("getMe", status=502))
        world.fake.inject(Fault("deleteWebhook", status=500))
        world.bot = world.new_bot()
        await world.bot.start()
        await world.say(ALICE, ALICE.private_chat, "/help")
        assert "/play" in world.last(ALICE.private_chat).text
        assert [f.served for f in world.fake.faults] == [1, 1]


async def test_a_refused_command_menu_stops_no_start_and_is_tried_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A refused command sync ended Discord's start (issue 37); a refused setMyCommands must
    not end Telegram's. The refusal is one ERROR line, without a traceback, naming the menu
    and what Telegram said; the bot serves the boards it already has, and the next start
    publishes again."""
    async with telegram_world(tmp_path) as world:
        game_id = await group_lgame(world)
        # An update changed a translation: the menus must be published again.
        monkeypatch.setitem(CATALOGUE["en"], "telegram.cmd.play", "Start a game, or see how")
        refusal = world.fake.inject(Fault(
            "setMyCommands", status=400, times=2,
            description="Bad Request: BOT_COMMAND_DESCRIPTION_INVALID"))
        caplog.clear()
        published = len(world.fake.calls("setMyCommands"))
        await world.restart()
        assert refusal.served == 1 and len(world.fake.calls("setMyCommands")) == published + 1, \
            "the first refusal ends the publishing"
        lines = [record for record in caplog.records if "was refused" in record.getMessage()]
        assert len(lines) == 1 and lines[0].levelname == "ERROR" and lines[0].exc_info is None
        assert lines[0].getMessage() == (
            "telegram: publishing the commands (commands:123456) was refused, so the bot runs "
            "on without it and tries again at the next start: the menu for default, every "
            "language: Telegram said \"Bot_command_description_invalid\"; each of its 21 "
            "commands is within the documented limits (bot/adapters/telegram/limits.py)")
        # The board from before the restart takes presses, and the move is saved.
        before = await world.store.get_game(game_id)
        await one_move(world, ALICE)
        after = await world.store.get_game(game_id)
        assert before is not None and after is not None and after.version == before.version + 1
        # The next start tries again (refused once more), and the one after that publishes.
        await world.restart()
        assert refusal.served == 2 and len(world.fake.calls("setMyCommands")) == published + 2
        await world.restart()
        menus = len(world.bot.command_menus())
        assert len(world.fake.calls("setMyCommands")) == published + 2 + menus
        await world.restart()
        assert len(world.fake.calls("setMyCommands")) == published + 2 + menus, "now stored"


async def test_removing_the_bot_from_a_group_ends_its_games(tmp_path: Path) -> None:
    """The bot never noticed it was removed from a group, so that group's games stayed
    active and counted toward their players' limits forever."""
    async with telegram_world(tmp_path) as world:
        game_id = await group_lgame(world)
        bot_removed(world.fake, GROUP, ALICE)
        await world.settle()
        record = await world.store.get_game(game_id)
        assert record is not None and record.status == "abandoned"
        assert await world.store.running_game("telegram", str(GROUP["id"])) is None


def test_a_second_poller_is_said_once_and_clearly(caplog: pytest.LogCaptureFixture) -> None:
    """Two processes polling with one token logged a traceback a second, forever."""
    handler = TelegramBot.polling_failed
    holder = type("Holder", (), {"_polling_errors": set()})()
    for _ in range(50):
        handler(holder, Conflict("terminated by other getUpdates request"))  # type: ignore[arg-type]
    said = [r for r in caplog.records if "Another process is polling" in r.getMessage()]
    assert len(said) == 1


async def test_a_new_boards_message_is_sent_again_after_a_server_error(
        tmp_path: Path) -> None:
    """A 500 on the message of a new game's board left the player with nothing until
    /board. Sends and callback answers are tried again on Telegram's server errors."""
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, ALICE.private_chat, "/start")
        world.fake.inject(Fault("sendMessage", status=500, chat_id=ALICE.id))
        world.fake.inject(Fault("answerCallbackQuery", status=502))
        await world.say(ALICE, ALICE.private_chat, "/play lgame easy")
        board = world.last(ALICE.private_chat)
        assert menu_keys(board), board.text
        answers = await world.press(ALICE, board, menu_keys(board)[0]["callback_data"])
        assert answers, "the press was answered after the 502"
        assert [f.served for f in world.fake.faults] == [1, 1]
