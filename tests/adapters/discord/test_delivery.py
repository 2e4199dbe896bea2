"""What players see converges on Discord (issue 38): the stored game decides what the
board message shows, and the bot keeps making it so through Discord's faults, injected
in simcord with Discord's own status codes and error codes."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

from bot.service import Place
from tests.helpers.discord_boards import drawn_version, live_boards, stored_version
from tests.helpers.discord_play import board_message, menu_items
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import World, components_of, discord_world

CALLBACKS = "/interactions/*/*/callback"
EDITS = "/channels/*/messages/*"


async def running(world: World) -> Any:
    record = await world.store.running_game("discord", str(world.channel.id))
    assert record is not None
    return record


async def move_blindly(world: World, actor: Any, rng: random.Random) -> int:
    """Press through the move menu whether or not the presses are answered, until the
    stored version goes up; the new version."""
    record = await running(world)
    for _ in range(8):
        message = await board_message(world)
        item = rng.choice(menu_items(message))
        if item["type"] == 2:
            await actor.click(message, custom_id=item["custom_id"])
        else:
            await actor.select(message, [rng.choice(item["options"])["value"]],
                               custom_id=item["custom_id"])
        version = await stored_version(world, record.id)
        if version > record.version:
            return version
    raise AssertionError("the menu never completed a move")


async def test_a_move_whose_press_answer_fails_is_drawn_through_the_channel(
        tmp_path: Path) -> None:
    """Behaviour 1: Discord refused every answer (10062, the press answered after its 3
    seconds). The saved moves are drawn anyway, by editing the board through the channel,
    so the opponent's first press on the board he sees is taken, not refused "out of
    date"."""
    rng = random.Random(4)
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        board = await board_message(world)
        world.env.inject_error("POST", CALLBACKS, status=404, code=10062,
                               message="Unknown interaction", times=None)
        version = await move_blindly(world, world.alice, rng)
        await world.bot.wait_for_background()
        assert drawn_version(await board_message(world)) == version
        assert (await board_message(world)).id == board.id, "edited in place"
        version = await move_blindly(world, world.bob, rng)
        await world.bot.wait_for_background()
        assert drawn_version(await board_message(world)) == version
        world.env.backend.faults.clear()


async def test_a_board_edit_that_fails_through_an_outage_is_redrawn_when_discord_recovers(
        tmp_path: Path) -> None:
    """Behaviours 2 and 3: the computer's move is saved while every edit fails with a
    503 (discord.py does not retry it). Nobody presses or types; once Discord answers
    again the board shows the stored version, in the same message, and no second board
    with live buttons was posted."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        board = await board_message(world)
        record = await running(world)
        world.env.inject_error("PATCH", EDITS, status=503, code=0,
                               message="Service Unavailable", times=10)
        await move_blindly(world, world.alice, random.Random(8))
        await world.bot.wait_for_background()  # the computer has moved, unseen
        stored = (await running(world)).version
        assert drawn_version(await board_message(world)) != stored, "the outage hid it"
        await world.env.advance_time(600)  # the backoff's tries, on simcord's clock
        assert world.env.backend.faults == [], "every injected 503 was served"
        shown = await board_message(world)
        assert shown.id == board.id, "the same message, edited when Discord came back"
        assert drawn_version(shown) == (await running(world)).version == stored
        assert [m.id for m in live_boards(world, record.id)] == [board.id]


async def test_a_deleted_board_is_posted_anew_and_the_stale_copy_is_retired(
        tmp_path: Path) -> None:
    """Only a deleted message (10008) makes a new board; the new one is the only one with
    live buttons."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        record = await running(world)
        world.env.inject_error("PATCH", EDITS, status=404, code=10008,
                               message="Unknown Message", times=1)
        await world.bot.update_board(world.bot.place_of_record(record),
                                     (await world.bot.service.stored_board(
                                         world.bot.place_of_record(record), record)).board)
        boards = live_boards(world, record.id)
        assert len(boards) == 1 and boards[0].id == (await board_message(world)).id


async def test_a_restart_redraws_a_board_whose_edit_it_lost(tmp_path: Path) -> None:
    """Behaviour 2 after a restart: the computer's edit failed and the process stopped
    before it could try again. The new process finds the board behind its game (the
    version each board was confirmed at is stored) and redraws it at start-up."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        game_id = (await running(world)).id
        world.env.inject_error("PATCH", EDITS, status=503, code=0,
                               message="Service Unavailable", times=None)
        await move_blindly(world, world.alice, random.Random(2))
        await world.bot.wait_for_background()
        stored = await stored_version(world, game_id)
        assert drawn_version(await board_message(world)) != stored
        world.env.backend.faults.clear()
        await world.restart()
        await world.env.advance_time(5)
        assert drawn_version(await board_message(world)) == stored


async def test_a_late_answer_does_not_cue_the_wrong_player(tmp_path: Path) -> None:
    """Behaviour 4: the cue of a change whose answer came late (Bob's turn, after Alice's
    move) arrives after Bob has moved. It used to delete Alice's correct cue and post
    "🔔 @bob, it is your turn" while Alice was to move; a late cue is now dropped."""
    rng = random.Random(6)
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        cued: list[tuple[Any, Any]] = []
        original = world.bot.cue_turn

        async def recording(place: Any, reply: Any) -> None:
            cued.append((place, reply))
            await original(place, reply)

        world.bot.cue_turn = recording  # type: ignore[method-assign]
        await move_blindly(world, world.alice, rng)
        await move_blindly(world, world.bob, rng)
        await world.bot.wait_for_background()
        late = next(call for call in cued if call[1].turn_cue
                    and call[1].turn_cue[0]["id"] == str(world.bob.id))

        def cues() -> list[str]:
            return [m.content for m in world.channel.history() if "🔔" in m.content]

        assert len(cues()) == 1 and str(world.alice.id) in cues()[0]
        await original(*late)  # Alice's move's cue, arriving after Bob's move
        assert len(cues()) == 1 and str(world.alice.id) in cues()[0], cues()


async def test_closed_dms_do_not_use_up_the_days_challenge(tmp_path: Path) -> None:
    """Behaviour 5: the attempt was claimed and its game started before the DM, so a
    refused DM (50007) used up the day: Play again answered "still open in our private
    chat" while the DMs were empty. Now an attempt counts only once its puzzle reached the
    player: the refusal says to open DMs, and Play again then works."""
    now = [dt.datetime(2026, 11, 20, 6, 0, tzinfo=dt.UTC)]
    async with discord_world(tmp_path) as world:
        world.bot.daily.clock = lambda: now[0]
        place = Place("discord", str(world.channel.id))
        await world.bot.daily.schedule(place, str(world.guild.id), "07:30")
        now[0] = dt.datetime(2026, 11, 20, 7, 30, tzinfo=dt.UTC)
        assert await world.bot.post_daily_due() == 1
        post = next(m for m in reversed(world.channel.history()) if "Daily Turing" in m.content)
        play = next(c["custom_id"] for c in components_of(post) if c.get("label") == "▶ Play")
        world.env.inject_error("POST", "/channels/*/messages", status=403, code=50007,
                               message="Cannot send messages to this user", times=1)
        refused = await world.alice.click(post, custom_id=play)
        assert refused.ephemeral and "Allow direct messages" in refused.response.content
        assert await world.store.daily_attempt("2026-11-20", "discord",
                                               str(world.alice.id)) is None
        played = await world.alice.click(post, custom_id=play)
        assert played.ephemeral and "still open" not in played.response.content
        assert "Allow direct messages" not in played.response.content
        attempt = await world.store.daily_attempt("2026-11-20", "discord", str(world.alice.id))
        assert attempt is not None and attempt.status == "playing" and attempt.game_id
        game = await world.store.get_game(attempt.game_id)
        assert game is not None and game.running and game.board_ref, "its board is in the DM"


async def test_a_refused_thread_leaves_no_false_note(tmp_path: Path) -> None:
    """Behaviour 6: with threads on, Discord refused the thread (403, 50013) and the note
    "… The game is in the thread below" stayed, with no thread under it. The note goes,
    and the game is played in the channel, its board saying why."""
    async with discord_world(tmp_path) as world:
        await world.bot.set_guild_setting(world.guild.id, "threads", "on")
        world.env.inject_error("POST", "/channels/*/messages/*/threads", status=403,
                               code=50013, message="Missing Permissions", times=1)
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        texts = [m.content for m in world.channel.history() if not m.flags.ephemeral]
        assert not any("thread below" in text for text in texts), texts
        assert world.channel.threads == []
        record = await running(world)
        assert record.channel == str(world.channel.id)
        assert "could not open a thread" in visible_text(await board_message(world))


async def test_a_turn_cue_discord_did_not_take_is_sent_again(tmp_path: Path) -> None:
    """Behaviour 4's other half: the cue is part of what the stored game decides. Bob's
    cue after Alice's move met a 503 (which discord.py does not retry); it used to be
    lost, leaving Bob unaware it was his turn. It is owed now, and sent with the game's
    redelivery once Discord takes it, naming the player still to move."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        assert world.wire is not None
        world.wire.inject("POST", "/channels/*/messages", status=503,
                          message="Service Unavailable", times=1)
        await move_blindly(world, world.alice, random.Random(3))
        await world.bot.wait_for_background()

        def cues() -> list[str]:
            return [m.content for m in world.channel.history() if "🔔" in m.content]

        refused = [e for e in world.wire.exchanges
                   if e.path.endswith("/messages") and e.status == 503]
        assert len(refused) == 1, "the cue met the outage"
        await world.env.advance_time(30)
        assert len(cues()) == 1 and f"<@{world.bob.id}>" in cues()[0], cues()
        # Sent once: further redelivery finds nothing owed.
        await world.env.advance_time(120)
        assert len(cues()) == 1
