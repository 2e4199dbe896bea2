"""A game's scheduled puzzle of the day on Telegram, through the fake Bot API (issue 41):
group admins schedule it per game with /daily <game> 07:30, list and stop it; the post,
made once at its time beside the Turing challenge's, shows the puzzle and yesterday's
leaderboard, and its Solve link opens the day's puzzle in the private chat."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tests.helpers.clock import FakeClock
from tests.helpers.puzzle_trainer import answer_presses
from tests.helpers.telegram_fake import BOT_USERNAME, Sent
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world

GAME = "lgame"


async def press(world: World, message: Sent, data: str) -> Sent:
    answers = await world.press(ALICE, message, data)
    assert answers and not answers[0].get("show_alert"), answers
    return world.fake.messages[(message.chat["id"], message.message_id)]


def posts_of(world: World, day: str) -> list[Sent]:
    return [m for m in world.fake.bot_messages(GROUP["id"])
            if f"puzzle of the day · {day}" in m.text]


async def test_admins_schedule_a_games_puzzle_of_the_day(tmp_path: Path) -> None:
    clock = FakeClock(dt.datetime(2026, 11, 20, 6, 0, tzinfo=dt.UTC))
    async with telegram_world(tmp_path, clock=clock) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await world.say(BOB, GROUP, f"/daily {GAME} 07:30")
        assert "admins" in world.last(GROUP).text
        await world.say(BOB, GROUP, "/daily list")
        assert "Nothing is posted here every day" in world.last(GROUP).text
        await world.say(CAROL, GROUP, f"/daily {GAME} 7h61")
        assert "HH:MM" in world.last(GROUP).text
        await world.say(CAROL, GROUP, f"/daily {GAME} 07:30")
        assert "The L-game puzzle of the day will be posted here every day at 07:30 (UTC)" \
            in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/daily digitalo 08:00 Europe/Brussels")
        await world.say(CAROL, GROUP, "/daily 09:00")
        assert "Turing" in world.last(GROUP).text
        await world.say(BOB, GROUP, "/daily list")
        assert world.last(GROUP).text.splitlines() == [
            "Posted here every day:", "• 08:00 (Europe/Brussels): the Digitalo puzzle of the day",
            "• 07:30 (UTC): the L-game puzzle of the day",
            "• 09:00 (UTC): the Turing Machine challenge"]
        # A private chat has nothing to schedule.
        chat = ALICE.private_chat
        await world.say(ALICE, chat, "/start")
        await world.say(ALICE, chat, f"/daily {GAME} 07:30")
        assert "in a group" in world.last(chat).text

        assert await world.bot.post_daily_due() == 0, "not before its time"
        clock.now = dt.datetime(2026, 11, 20, 7, 30, 30, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 2, "the L-game's and Digitalo's (08:00 CET)"
        assert await world.bot.post_daily_due() == 0, "never twice"
        await world.restart()
        assert await world.bot.post_daily_due() == 0, "not again after a restart"
        posts = posts_of(world, "2026-11-20")
        assert len(posts) == 2
        post = next(m for m in posts if "L-game" in m.text)
        assert "To move: Solver" in post.text and "Theme:" in post.text
        assert "You" not in post.text, "a post to the whole class says no one's 'you'"
        group = str(GROUP["id"]).replace("-", "m")
        assert post.buttons[0]["url"] == \
            f"https://t.me/{BOT_USERNAME}?start=pz-{GAME}-{group}"
        await world.say(ALICE, chat, f"/start pz-{GAME}-{group}")
        message = world.last(chat)
        attempt = await world.store.daily_puzzle_attempt("telegram", str(ALICE.id), GAME,
                                                         "2026-11-20")
        assert attempt is not None and attempt.server == str(GROUP["id"])
        for data in answer_presses(attempt, True):
            message = await press(world, message, f"z:{data}")
        assert "✅ Right!" in message.text

        # The next day's post carries yesterday's leaderboard of the group.
        clock.now = dt.datetime(2026, 11, 21, 7, 30, 30, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 2
        latest = next(m for m in posts_of(world, "2026-11-21") if "L-game" in m.text)
        assert "L-game puzzle of 2026-11-20 (this server)" in latest.text
        assert "1. Alice: ✅ in" in latest.text
        await world.say(CAROL, GROUP, f"/daily {GAME} off")
        assert "no longer posted" in world.last(GROUP).text
        assert [s.game for s in await world.store.daily_schedules("telegram")] == [
            "digitalo", "turing"]
