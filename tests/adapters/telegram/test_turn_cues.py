"""Turn cues on Telegram: the person whose turn begins is mentioned once, by id; the
game's previous cue goes, so at most one is alive per game."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.forged import whole_move
from tests.helpers.telegram_world import ALICE, BOB, CAROL, GROUP, World, telegram_world


def live_cues(world: World) -> list[str]:
    return [sent.html for (chat, _), sent in world.fake.messages.items()
            if chat == GROUP["id"] and sent.text.startswith("🔔")]


async def move(world: World, person: object) -> None:
    record = await world.store.running_game("telegram", str(GROUP["id"]))
    assert record is not None
    answers = await world.press(person, await world.board(GROUP), whole_move(record))  # type: ignore[arg-type]
    assert answers and not answers[0].get("show_alert"), answers


async def test_the_player_to_move_is_cued_once_and_the_old_cue_goes(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play lgame")
        await world.click(ALICE, world.last(GROUP), "whoever joins")
        await world.click(BOB, await world.board(GROUP), "Join")
        assert live_cues(world) == [
            f'🔔 <a href="tg://user?id={ALICE.id}">Alice</a>, it is your turn.'], \
            "Bob's join starts the game: Alice, to move first, is cued"
        await move(world, ALICE)
        cues = live_cues(world)
        assert len(cues) == 1 and f"tg://user?id={BOB.id}" in cues[0]
        assert len(world.fake.deleted) == 1, "Alice's cue was deleted"
        # Bob mutes his cues: Alice's next move cues nobody, and Alice's cue still comes.
        await world.say(BOB, BOB.private_chat, "/start")
        await world.say(BOB, BOB.private_chat, "/cues off")
        assert "no longer" in world.last(BOB.private_chat).text
        await move(world, BOB)
        assert [f"tg://user?id={ALICE.id}" in c for c in live_cues(world)] == [True]
        await move(world, ALICE)
        assert live_cues(world) == [], "Bob muted his; Alice's old cue went"


async def test_admins_can_turn_cues_off_for_the_group(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        world.fake.admins[GROUP["id"]] = {CAROL.id}
        await world.say(CAROL, GROUP, "/settings")
        panel = world.last(GROUP)
        await world.click(CAROL, panel, "Turn cues: off")
        await world.say(ALICE, GROUP, "/play lgame")
        await world.click(ALICE, world.last(GROUP), "whoever joins")
        await world.click(BOB, await world.board(GROUP), "Join")
        await move(world, ALICE)
        assert live_cues(world) == []


async def test_no_cue_against_the_computer(tmp_path: Path) -> None:
    async with telegram_world(tmp_path) as world:
        await world.say(ALICE, GROUP, "/play lgame easy")
        record = await world.store.running_game("telegram", str(GROUP["id"]))
        assert record is not None
        await move(world, ALICE)
        assert live_cues(world) == []
