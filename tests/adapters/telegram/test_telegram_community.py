"""End to end on Telegram (loopback fake Bot API): /stats, /leaderboard <game>,
/rematch, /games and /forget_me."""

from __future__ import annotations

import json
from pathlib import Path

from bot.limits import RateLimiter
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, telegram_world


async def test_stats_leaderboard_rematch_games_and_forget_me(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        bob_line = await world.say(BOB, GROUP, "I'll play")
        await world.say(ALICE, GROUP, "/play lgame", reply_to=bob_line)
        await world.say(BOB, GROUP, "/resign")
        assert "resigned" in world.last(GROUP).text

        await world.say(ALICE, GROUP, "/stats")
        assert "L-game: 1 won, 0 lost, 0 drawn" in world.last(GROUP).text
        assert "1216" in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/stats", reply_to=bob_line)
        assert "Results of Bob" in world.last(GROUP).text
        assert "0 won, 1 lost" in world.last(GROUP).text
        await world.say(CAROL, GROUP, "/leaderboard l-game")
        lines = world.last(GROUP).text.splitlines()
        assert "this server" in lines[0] and lines[1].startswith("1. Alice · 1216")
        await world.say(CAROL, GROUP, "/leaderboard chess")
        assert "chess" in world.last(GROUP).text

        await world.say(CAROL, GROUP, "/rematch")
        assert "Only a player" in world.last(GROUP).text
        await world.say(BOB, GROUP, "/rematch")
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None and record.server == str(GROUP["id"])
        assert [p["name"] for p in record.players] == ["Bob", "Alice"]
        board = await world.board(GROUP)
        assert board.buttons, "the rematch has a live board"

        await world.say(CAROL, GROUP, "/games")
        listed = world.last(GROUP).text
        assert "Bob vs Alice" in listed
        assert f"https://t.me/c/5001/{board.message_id}" in listed

        await world.say(ALICE, GROUP, "/forget_me")
        recent = [m.text for m in world.fake.bot_messages(GROUP["id"])[-3:]]
        assert any("a former player" in t for t in recent)
        assert any("abandoned" in t for t in recent)
        assert await world.store.running_game("telegram", str(GROUP["id"])) is None
        async with world.store._db.execute("SELECT players FROM games") as cursor:
            seats = [p for (t,) in await cursor.fetchall() for p in json.loads(t)]
        assert not any(p.get("id") == str(ALICE.id) or p.get("name") == "Alice"
                       for p in seats)
        async with world.store._db.execute(
                "SELECT COUNT(*) FROM results WHERE user_id=?", (str(ALICE.id),)) as cursor:
            assert await cursor.fetchone() == (0,)
        await world.say(ALICE, GROUP, "/games")
        assert "No game is running here" in world.last(GROUP).text


async def test_reading_commands_count_against_the_rate_limit(tmp_path: Path) -> None:
    """/stats, /leaderboard, /games and /export cost a query each: a flood of them is
    answered like a flood of moves, and the others are not slowed down."""
    async with telegram_world(tmp_path) as world:
        world.bot.service.rate = RateLimiter(4, 0.001)
        for command in ("/stats", "/leaderboard lgame", "/games", "/leaderboard"):
            await world.say(ALICE, GROUP, command)
            assert "lot of commands" not in world.last(GROUP).text, command
        for command in ("/stats", "/leaderboard", "/games", "/export"):
            await world.say(ALICE, GROUP, command)
            assert "lot of commands" in world.last(GROUP).text, command
        await world.say(BOB, GROUP, "/stats")
        assert "lot of commands" not in world.last(GROUP).text
