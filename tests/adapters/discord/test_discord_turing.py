"""Turing Machine on Discord: a solo puzzle whose sheet stays ephemeral, and the daily
challenge posted at its set time (fake clock) with a Play button that opens a DM."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from bot.service import Place
from engines.turing.cards import code_text
from engines.turing.puzzle import Puzzle
from tests.helpers.discord_play import pick
from tests.helpers.discord_world import World, components_of, discord_world

RESULT_MARKS = ("✅", "❌", "=yes", "=no")


def button_id(message: Any, label: str) -> str:
    for component in components_of(message):
        if component.get("label") == label:
            return str(component["custom_id"])
    raise AssertionError(f"no {label!r} in {[c.get('label') for c in components_of(message)]}")


async def secret(world: World, channel: str) -> str:
    records = [r for status in ("active", "finished") for r in
               await world.store.games_with_status(status) if r.channel == channel]
    return code_text(Puzzle.from_dict(max(records, key=lambda r: r.id).state["puzzle"]).code)


async def click_code(world: World, sheet: Any, verb: str, code: str) -> Any:
    """A code on the pad (two digits in one choice, then the third), after the verb when
    it is a guess."""
    if verb != "propose":
        sheet = (await world.alice.click(sheet, custom_id=button_id(sheet, verb))).response
    chosen = await pick(world.alice, sheet, f"▲{code[0]}■{code[1]}")
    return await pick(world.alice, chosen.response, code)


async def test_a_solo_puzzle_keeps_the_sheet_ephemeral(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        started = await world.alice.slash(world.channel, "puzzle", difficulty="easy")
        assert started.acknowledged
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and len(record.players) == 1
        board = next(m for m in world.channel.history() if m.components)
        hand = next(c for c in components_of(board) if "hand" in str(c.get("label", "")).lower())
        opened = await world.alice.click(board, custom_id=hand["custom_id"])
        assert opened.ephemeral
        peek = await world.bob.click(board, custom_id=hand["custom_id"])
        assert peek.ephemeral and "not playing" in peek.response.content
        code = await secret(world, str(world.channel.id))
        proposed = await click_code(world, opened.response, "propose", "111")
        tested = await world.alice.click(proposed.response,
                                         custom_id=button_id(proposed.response, "Test A"))
        assert any(mark in tested.response.content for mark in RESULT_MARKS)
        await click_code(world, tested.response, "Guess the code", code)
        finished = await world.store.games_with_status("finished")
        assert finished and finished[0].state["outcome"]["winners"] == [0]
        for message in world.channel.history():
            if not message.flags.ephemeral:
                assert not any(mark in message.content for mark in RESULT_MARKS)


async def test_the_daily_post_opens_one_private_attempt_per_day(tmp_path: Path) -> None:
    now = [dt.datetime(2026, 11, 20, 6, 0, tzinfo=dt.UTC)]
    async with discord_world(tmp_path) as world:
        world.bot.daily.clock = lambda: now[0]
        place = Place("discord", str(world.channel.id))
        answer = await world.bot.daily.schedule(place, str(world.guild.id), "07:30")
        assert "07:30" in answer
        assert await world.bot.post_daily_due() == 0
        now[0] = dt.datetime(2026, 11, 20, 7, 30, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 1
        assert await world.bot.post_daily_due() == 0
        post = next(m for m in reversed(world.channel.history()) if "Daily Turing" in m.content)
        played = await world.alice.click(post, custom_id=button_id(post, "▶ Play"))
        assert played.ephemeral and "direct messages" in played.response.content
        attempt = await world.store.daily_attempt("2026-11-20", "discord", str(world.alice.id))
        assert attempt is not None and attempt.server == str(world.guild.id)
        again = await world.alice.click(post, custom_id=button_id(post, "▶ Play"))
        assert again.ephemeral and "still open" in again.response.content
