"""A game's scheduled puzzle of the day on Discord, through simcord (issue 41): a moderator
schedules it per game with /daily game:… schedule:…, lists and stops it; the post, made once
at its time beside the Turing challenge's, shows the puzzle and yesterday's leaderboard, and
its Solve button opens the day's puzzle privately."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from tests.helpers.discord_play import teacher
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.puzzle_trainer import answer_presses

GAME = "lgame"


async def press(world: World, member: Any, message: Any, data: str) -> Any:
    """The trainer's option with ``data``: its button, or its line in a select menu."""
    components = components_of(message)
    select = next((c for c in components
                   if data in [option["value"] for option in c.get("options", [])]), None)
    if select is not None:
        result = await member.select(message, [data], custom_id=select["custom_id"])
    else:
        result = await member.click(message, custom_id=f"lp:{data}")
    assert result.acknowledged and result.response is not None
    return result.response


async def test_a_moderator_schedules_a_games_puzzle_of_the_day(tmp_path: Path) -> None:
    now = [dt.datetime(2026, 11, 20, 6, 0, tzinfo=dt.UTC)]

    def clock() -> dt.datetime:
        return now[0]

    async with discord_world(tmp_path, clock=clock) as world:
        mod = teacher(world)
        refused = await world.alice.slash(world.channel, "daily", game=GAME, schedule="07:30")
        assert refused.ephemeral and refused.response is not None
        assert "Only moderators" in refused.response.content
        empty = await world.alice.slash(world.channel, "daily", schedule="list")
        assert empty.ephemeral and empty.response is not None
        assert "Nothing is posted here" in empty.response.content
        made = await mod.slash(world.channel, "daily", game=GAME, schedule="07:30")
        assert made.ephemeral and made.response is not None
        assert "puzzle of the day will be posted here every day at 07:30" \
            in made.response.content
        await mod.slash(world.channel, "daily", game="booleo", schedule="08:00 Europe/Brussels")
        turing = await mod.slash(world.channel, "daily", schedule="08:00")
        assert turing.response is not None
        assert "Turing" in turing.response.content
        listed = await world.bob.slash(world.channel, "daily", schedule="list")
        assert listed.response is not None
        assert listed.response.content.splitlines() == [
            "Posted here every day:", "• 08:00 (Europe/Brussels): the bOOleO puzzle of the day",
            "• 07:30 (UTC): the L-game puzzle of the day",
            "• 08:00 (UTC): the Turing Machine challenge"]
        assert await world.bot.post_daily_due() == 0, "not before its time"
        now[0] = dt.datetime(2026, 11, 20, 7, 30, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 2, "the L-game's and bOOleO's (08:00 CET)"
        assert await world.bot.post_daily_due() == 0, "never twice"
        posts = [m for m in world.channel.history()
                 if not m.flags.ephemeral and "puzzle of the day · 2026-11-20" in m.content]
        assert len(posts) == 2
        post = next(m for m in posts if "L-game" in m.content)
        assert "🟥" in post.content and "To move: Solver" in post.content, \
            "the puzzle's board is drawn in the post, its solver's side named for the class"
        assert "You" not in post.content, "a post to the whole class says no one's 'you'"
        assert "Theme:" in post.content
        opened = await world.bob.click(post, custom_id=f"lpd:{GAME}")
        assert opened.ephemeral and opened.response is not None
        attempt = await world.store.daily_puzzle_attempt("discord", str(world.bob.id), GAME,
                                                         "2026-11-20")
        assert attempt is not None and attempt.server == str(world.guild.id)
        message = opened.response
        for data in answer_presses(attempt, True):
            message = await press(world, world.bob, message, data)
        assert "✅ Right!" in message.content
        # The next day's post carries yesterday's leaderboard of this server.
        now[0] = dt.datetime(2026, 11, 21, 7, 30, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 2
        latest = next(m for m in reversed(world.channel.history())
                      if "L-game puzzle of the day · 2026-11-21" in m.content)
        assert "L-game puzzle of 2026-11-20 (this server)" in latest.content
        assert "1. bob: ✅ in" in latest.content
        assert f"lpd:{GAME}" in [c.get("custom_id") for c in components_of(latest)]
        stopped = await mod.slash(world.channel, "daily", game=GAME, schedule="off")
        assert stopped.response is not None
        assert "no longer posted" in stopped.response.content
        assert [s.game for s in await world.store.daily_schedules("discord")] == [
            "booleo", "turing"]
