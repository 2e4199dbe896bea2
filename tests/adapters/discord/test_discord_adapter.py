"""End-to-end tests of the Discord adapter.

simcord runs the real discord.py client (its HTTP client, gateway parsing, app-command
tree and view store) against an in-memory Discord, so every test here goes from a
user's slash command or click to the messages Discord would show.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.actors import _component_interaction  # forging needs the raw dispatcher

from bot.adapters.common import pick_language
from bot.adapters.discord import menus
from bot.adapters.discord.interactions import ACK_SECONDS
from bot.config import Settings
from bot.service import Opponent, Place, User
from engines import lgame
from engines.lgame.agents import LGameAgent
from engines.registry import register_game, unregister_game
from renderers import register_renderer
from renderers.i18n import CATALOGUE
from tests.helpers.discord_play import (
    board_message,
    choose,
    menu_items,
    message_by_id,
    play_one_move,
)
from tests.helpers.discord_text import visible_text
from tests.helpers.discord_world import components_of, discord_world, stamp_requests
from tests.helpers.menus import END_PANEL_LABELS

# ------------------------------------------------------------------ helpers


def slow_down(monkeypatch: pytest.MonkeyPatch, owner: Any, method: str) -> None:
    """Make ``owner``'s coroutine method (a service command, a database read) take longer
    than the adapter waits before deferring, as a stalled disk would. simcord's clock is
    virtual, so this costs no real time."""
    original = getattr(owner, method)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(ACK_SECONDS + 1)
        return await original(*args, **kwargs)

    monkeypatch.setattr(owner, method, slow)


def public_texts(channel: Any) -> list[str]:
    return [m.content for m in channel.history() if not m.flags.ephemeral]


# ---------------------------------------------------------------------- tests
async def test_full_lgame_against_the_ai_with_buttons_only(tmp_path: Path) -> None:
    rng = random.Random(7)
    async with discord_world(tmp_path) as world:
        result = await world.alice.slash(world.channel, "play", game="lgame", level="easy",
                                         options="move_limit=24")
        assert result.acknowledged and not result.ephemeral
        board_id = (await board_message(world)).id
        for _ in range(40):
            record = await world.store.running_game("discord", str(world.channel.id))
            if record is None:
                break
            await play_one_move(world.alice, world, rng)
            await world.bot.wait_for_background()
        else:
            raise AssertionError("the game did not end")
        final = await board_message(world)
        assert final.id == board_id, "the board is edited in place, never reposted"
        assert "Game over" in visible_text(final)
        # No move is left to make: the end panel's buttons are all that remain.
        assert [c["label"] for c in components_of(final)] == [
            "🔁 Play again", "📊 My results", "📖 Rules", "🔎 Replay"]
        moves = await world.store.moves(
            (await world.store.games_with_status("finished"))[0].id)
        assert {m.seat for m in moves if m.kind == "action"} == {0, 1}, "both sides moved"


async def test_two_players_refusals_stale_and_forged_buttons(tmp_path: Path) -> None:
    rng = random.Random(3)
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        board = await board_message(world)
        button = menu_items(board)[0]

        # A third member's click is refused privately and changes nothing.
        refused = await world.carol.click(board, custom_id=button["custom_id"])
        assert refused.ephemeral and "not playing" in refused.response.content
        # So is the opponent's click out of turn.
        early = await world.bob.click(board, custom_id=button["custom_id"])
        assert early.ephemeral and "not your turn" in early.response.content
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.version == 1

        await play_one_move(world.alice, world, rng)
        await play_one_move(world.bob, world, rng)

        # Another process moves: the message's buttons are now one version behind.
        stale_board = await board_message(world)
        stale_id = menu_items(stale_board)[0]["custom_id"]
        other = world.bot.service
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None
        state = lgame.LGameState.from_dict(record.state)
        await other.move(Place("discord", str(world.channel.id)),
                         User("discord", str(world.alice.id), "alice"),
                         state.action_text(state.legal_actions(0)[0]))
        stale = await world.alice.click(stale_board, custom_id=stale_id)
        assert stale.ephemeral and "out of date" in stale.response.content
        refreshed = await board_message(world)
        assert refreshed.id == stale_board.id
        assert stale_id not in {c.get("custom_id") for c in components_of(refreshed)}
        assert f":{record.version + 1}:" in menu_items(refreshed)[0]["custom_id"]

        # Forged custom ids, which a modified client can send, get a plain answer.
        forgeries = ["lb:m:999:1:c2NE", "lb:m:1:1:zz", "lbs:m:1:1::7", "garbage", "lb:" + "9" * 90]
        for forged in forgeries:
            stored = world.env.backend.get_message(world.channel.id, refreshed.id)
            answer = await _component_interaction(
                world.bob, stored, {"custom_id": forged, "component_type": 2})
            assert answer.ephemeral, forged
            assert answer.response is not None and answer.response.content
        after = await world.store.running_game("discord", str(world.channel.id))
        assert after is not None and after.version == record.version + 1


async def test_long_menus_play_through_select_menus(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The L-game's menus fit in buttons; a lower threshold sends them through selects,
    # which is how longer menus of later games reach players.
    monkeypatch.setattr(menus, "MAX_MENU_BUTTONS", 2)
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        board = await board_message(world)
        select = next(c for c in components_of(board) if c["type"] == 3)
        value = select["options"][0]["value"]
        chosen = await world.alice.select(board, [value], custom_id=select["custom_id"])
        assert chosen.acknowledged and not chosen.ephemeral
        step = await board_message(world)
        assert step.id == board.id and "so far" in visible_text(step)
        carol = await world.carol.select(step, [next(
            c for c in components_of(step) if c["type"] == 3)["options"][0]["value"]],
            custom_id=next(c for c in components_of(step) if c["type"] == 3)["custom_id"])
        assert carol.ephemeral
        await play_one_move(world.alice, world, random.Random(2))
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.version == 2


async def test_old_buttons_work_after_a_restart(tmp_path: Path) -> None:
    rng = random.Random(11)
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        await play_one_move(world.alice, world, rng)
        before = await board_message(world)
        syncs_before = sum(1 for r in world.env.http_requests if r.method == "PUT")

        await world.restart()

        assert world.bot.synced_scopes == [], "an unchanged command set is not synced again"
        assert sum(1 for r in world.env.http_requests if r.method == "PUT") == syncs_before
        await play_one_move(world.bob, world, rng)
        after = await board_message(world)
        assert after.id == before.id
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.version == 3


async def test_pending_ai_turn_resumes_after_restart(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        # A game saved with the computer to move, as if the bot died before it moved.
        place = Place("discord", str(world.channel.id))
        started = await world.bot.service.start_game(
            place, User("discord", str(world.alice.id), "alice"), "lgame",
            Opponent("ai", "easy"), "", creator_seat=1)
        assert started.ai_to_move
        await world.restart()
        await world.bot.wait_for_background()
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.version == 2, "the computer moved"
        board = await board_message(world)
        assert menu_items(board), "and the board offers alice her move"


async def test_private_hands_only_in_ephemeral_messages(tmp_path: Path) -> None:
    register_game("secrets", "tests.helpers.hidden_game")
    register_renderer("secrets", "tests.helpers.hidden_game_renderer")
    try:
        async with discord_world(tmp_path) as world:
            await world.alice.slash(world.channel, "play", game="secrets",
                                    opponent=world.bob)
            board = await board_message(world)
            assert menu_items(board) == [], "the public board offers no cards"
            hand_button = next(c for c in components_of(board) if "hand" in c["label"])

            opened = await world.alice.click(board, custom_id=hand_button["custom_id"])
            assert opened.ephemeral and "Your hand" in opened.response.content
            cards = [c for c in opened.response.components[0]["components"]]
            assert cards, "alice's move menu is in her private hand"
            played = await world.alice.click(opened.response, custom_id=cards[0]["custom_id"])
            assert played.acknowledged
            record = await world.store.running_game("discord", str(world.channel.id))
            assert record is not None and record.version == 2

            slash_hand = await world.bob.slash(world.channel, "hand")
            assert slash_hand.ephemeral and "Your hand" in slash_hand.response.content
            board = await board_message(world)
            hand_button = next(c for c in components_of(board) if "hand" in c["label"])
            peek = await world.carol.click(board, custom_id=hand_button["custom_id"])
            assert peek.ephemeral and "not playing" in peek.response.content

            texts = public_texts(world.channel)
            assert len(texts) >= 1 and all("Your hand" not in t for t in texts)
            hands = record.state["hands"]
            for hand in hands:
                assert all(f"Your hand: {', '.join(map(str, hand))}" not in t for t in texts)
            private_ids = {opened.response.id, slash_hand.response.id}
            assert private_ids.isdisjoint(
                m.id for m in world.channel.history(viewer=world.carol))
            assert opened.response.id not in {
                m.id for m in world.channel.history(viewer=world.bob)}
    finally:
        unregister_game("secrets")
        register_renderer("secrets", None)


async def test_slow_ai_is_acknowledged_at_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    think_seconds = 3.5
    original = LGameAgent.choose

    def slow_choose(self: Any, state: Any, player: int) -> str:
        time.sleep(think_seconds)  # a worker thread: the event loop must stay free
        return original(self, state, player)

    monkeypatch.setattr(LGameAgent, "choose", slow_choose)
    async with discord_world(tmp_path, settle_timeout=30) as world:
        stamps = stamp_requests(world)
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        rng = random.Random(1)
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None
        for _ in range(4):  # the menu steps, the last of which makes the move
            stamps.clear()
            clicked_at = time.perf_counter()
            await choose(world.alice, await board_message(world), rng)
            acknowledged = next(t for t, _, path in stamps if path.endswith("/callback"))
            latency = acknowledged - clicked_at
            assert latency < 3.0, f"first response after {latency:.2f}s"
            latest = await world.store.get_game(record.id)
            assert latest is not None
            if latest.version > record.version:
                break
        else:
            raise AssertionError("the move was never completed")
        await world.bot.wait_for_background()
        # The AI's move reached the board by itself, as an edit of the board message.
        edits = [t for t, method, path in stamps
                 if method == "PATCH" and "/messages/" in path and t > acknowledged]
        assert edits and edits[-1] - clicked_at >= think_seconds
        print(f"first response {latency * 1000:.1f} ms after the click; "
              f"AI move shown after {(edits[-1] - clicked_at):.2f} s")
        latest = await world.store.get_game(record.id)
        assert latest is not None and latest.version == 3, "human and AI both moved"


async def test_new_game_opens_a_thread_when_the_server_wants_it(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        owner_role = world.guild.create_role("Teacher",
                                             permissions=discord.Permissions(manage_guild=True))
        teacher = world.guild.add_member(world.env.create_user("teacher"), roles=[owner_role])
        refused = await world.alice.slash(world.channel, "logic-settings threads",
                                          enabled=True)
        assert refused.ephemeral and "Only moderators" in refused.response.content
        switched = await teacher.slash(world.channel, "logic-settings threads", enabled=True)
        assert switched.ephemeral and "thread: on" in switched.response.content

        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        threads = world.channel.threads
        assert len(threads) == 1
        thread = threads[0]
        record = await world.store.running_game("discord", str(thread.id))
        assert record is not None, "the game lives in the thread"
        assert await world.store.running_game("discord", str(world.channel.id)) is None
        await play_one_move(world.alice, world, random.Random(5), channel=thread)
        # A second game can start beside it, in its own thread.
        await world.carol.slash(world.channel, "play", game="lgame", level="easy")
        assert len(world.channel.threads) == 2
        # A game the limits refuse opens no thread at all.
        world.bot.service.limits = replace(world.bot.service.limits, games_per_user=1)
        over = await world.carol.slash(world.channel, "play", game="lgame", level="easy")
        assert over.ephemeral and "already playing a game" in over.response.content
        assert len(world.channel.threads) == 2


async def test_no_message_can_ping(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        everyone = world.guild.add_member(world.env.create_user("@everyone"))
        await everyone.slash(world.channel, "play", game="lgame", level="easy")
        await everyone.slash(world.channel, "board")
        await world.alice.slash(world.channel, "help")
        sent = [r for r in world.env.http_requests
                if isinstance(r.json, dict) and ("content" in r.json or "data" in r.json)]
        assert sent
        for request in sent:
            body = request.json.get("data", request.json)
            if "content" in body:
                assert body.get("allowed_mentions") == {"parse": []}, request.path


async def test_bad_command_input_gets_plain_answers(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        unknown = await world.alice.slash(world.channel, "play", game="chess")
        assert unknown.ephemeral and "Unknown game" in unknown.response.content
        bad_level = await world.alice.slash(world.channel, "play", game="lgame", level="godlike")
        assert bad_level.ephemeral
        bad_option = await world.alice.slash(world.channel, "play", game="lgame",
                                             options="gravity=on")
        assert bad_option.ephemeral
        rules = await world.alice.slash(world.channel, "rules", game="\u0000" * 40)
        assert rules.ephemeral and "Unknown game" in rules.response.content
        lgame_rules = await world.alice.slash(world.channel, "rules", game="l")
        assert "Example" in lgame_rules.response.content
        nothing = await world.alice.slash(world.channel, "move", notation="c2 N E")
        assert nothing.ephemeral and "no game" in nothing.response.content
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        garbage = await world.alice.slash(world.channel, "move", notation="💥" * 50)
        assert garbage.ephemeral
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None and record.version == 1


async def test_move_autocomplete_offers_legal_moves_and_typed_move_edits_board(
        tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        board_before = await board_message(world)
        offered = await world.alice.autocomplete(world.channel, "move", "notation", "d4")
        assert offered and all(choice["value"].startswith("d4") for choice in offered)
        assert await world.bob.autocomplete(world.channel, "move", "notation", "") == []
        played = await world.alice.slash(world.channel, "move", notation=offered[0]["value"])
        assert played.ephemeral
        board_after = await board_message(world)
        assert board_after.id == board_before.id
        assert visible_text(board_after) != visible_text(board_before)


async def test_join_button_resign_and_abandon(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame")
        board = await board_message(world)
        join = next(c for c in components_of(board) if c["label"] == "Join this game")
        own = await world.alice.click(board, custom_id=join["custom_id"])
        assert own.ephemeral and "already playing" in own.response.content
        joined = await world.bob.click(board, custom_id=join["custom_id"])
        assert joined.acknowledged and not joined.ephemeral
        assert any("bob joined" in t for t in public_texts(world.channel))
        stranger = await world.carol.slash(world.channel, "abandon")
        assert stranger.ephemeral
        resigned = await world.bob.slash(world.channel, "resign")
        assert not resigned.ephemeral and "resigned" in resigned.response.content
        final = await board_message(world)
        assert "Game over" in visible_text(final)
        assert [c["label"] for c in components_of(final)] == END_PANEL_LABELS
        assert "🏆 alice: rating 1200 → 1216 (+16)\nbob: rating 1200 → 1184 (−16)" \
            in visible_text(final)


async def test_board_command_moves_the_board_down(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        first = await board_message(world)
        await world.bob.slash(world.channel, "board")
        second = await board_message(world)
        assert second.id != first.id
        assert components_of(message_by_id(world.channel, first.id)) == []
        assert menu_items(second)


async def test_server_language_setting_localises_replies(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CATALOGUE["nl"], "error.not_a_player", "Je speelt niet mee.")
    async with discord_world(tmp_path) as world:
        manager = world.guild.add_member(
            world.env.create_user("head"),
            roles=[world.guild.create_role("Head", permissions=discord.Permissions(
                manage_guild=True))])
        await manager.slash(world.channel, "logic-settings language", value="nl")
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        board = await board_message(world)
        refused = await world.carol.click(board, custom_id=menu_items(board)[0]["custom_id"])
        assert refused.response.content == "Je speelt niet mee."


async def test_command_translations_reach_discord(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(CATALOGUE["de"], "cmd.play.description", "Ein Spiel starten")
    monkeypatch.delitem(CATALOGUE["nl"], "cmd.play.description")  # as if untranslated
    async with discord_world(tmp_path) as world:
        synced = [r.json for r in world.env.http_requests if r.method == "PUT"]
        assert synced, "commands were synced on first start"
        play = next(c for c in synced[-1] if c["name"] == "play")
        assert play.get("description_localizations", {}).get("de") == "Ein Spiel starten"
        assert "nl" not in (play.get("description_localizations") or {})


async def test_dev_guild_sync_happens_once(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        settings = Settings(database_path=str(world.database),
                            discord_dev_guild=str(world.guild.id))
        await world.restart(settings)
        assert len(world.bot.synced_scopes) == 1 and world.bot.synced_scopes[0].endswith(
            str(world.guild.id))
        await world.restart(settings)
        assert world.bot.synced_scopes == []


def test_language_choice_prefers_known_languages() -> None:
    assert pick_language(["fr", "nl-NL", "en"]) == "nl"
    assert pick_language(["en-GB", "de"]) == "en"
    assert pick_language([None, "ja", "pt-BR"]) == "en"
    assert pick_language(["de"]) == "de"


async def test_slow_service_defers_then_answers(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        service = world.bot.service
        slow_down(monkeypatch, service, "press")
        board = await board_message(world)
        result = await world.alice.click(board, custom_id=menu_items(board)[0]["custom_id"])
        assert result.deferred, "acknowledged before the work finished"
        after = await board_message(world)
        assert after.id == board.id and "so far" in visible_text(after), "then answered in place"

        slow_down(monkeypatch, service, "board")
        mark = len(world.env.http_requests)
        shown = await world.bob.slash(world.channel, "board")
        callbacks = [r.json["type"] for r in world.env.http_requests[mark:]
                     if r.path.endswith("/callback")]
        assert callbacks == [5], "deferred with 'thinking…' (type 5), answered afterwards"
        assert shown.ephemeral and shown.response is not None
        new_board = await board_message(world)
        assert not new_board.flags.ephemeral and "Choose" in visible_text(new_board)
        assert new_board.id != after.id, "/board posted the board anew, in public"
        assert menu_items(await board_message(world))


async def test_every_slow_interaction_is_deferred_whatever_it_waits_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline watch defers any interaction not answered after ``ACK_SECONDS``,
    not only those whose service call was wrapped: here /stats (the community's
    database read) and the reading of a server's settings before a press is resolved,
    as a database under load would make them. Each is acknowledged once, by a deferral,
    then answered; none is answered twice."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        slow_down(monkeypatch, world.bot.community, "stats_text")
        mark = len(world.env.http_requests)
        shown = await world.bob.slash(world.channel, "stats")
        callbacks = [r.json["type"] for r in world.env.http_requests[mark:]
                     if r.path.endswith("/callback")]
        assert callbacks == [5], "deferred with 'thinking…', then followed up"
        assert shown.ephemeral and shown.response is not None

        slow_down(monkeypatch, world.bot, "guild_setting")
        board = await board_message(world)
        mark = len(world.env.http_requests)
        result = await world.alice.click(board, custom_id=menu_items(board)[0]["custom_id"])
        assert result.deferred
        callbacks = [r.json["type"] for r in world.env.http_requests[mark:]
                     if r.path.endswith("/callback")]
        assert callbacks == [6], "a component is deferred silently (type 6), once"
        assert "so far" in visible_text(await board_message(world)), "then answered in place"


async def test_an_older_board_never_overwrites_a_newer_one(tmp_path: Path) -> None:
    """A click's edit and an AI move's edit can arrive in either order."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        place = Place("discord", str(world.channel.id))
        old_board = (await world.bot.service.board(place)).board
        await play_one_move(world.alice, world, random.Random(4))
        new_board = (await world.bot.service.board(place)).board
        assert old_board is not None and new_board is not None
        await world.bot.update_board(place, new_board)
        await world.bot.update_board(place, old_board)
        shown = await board_message(world)
        assert f":{new_board.version}:" in menu_items(shown)[0]["custom_id"]


async def test_refusal_after_a_public_deferral_stays_private(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with discord_world(tmp_path) as world:
        slow_down(monkeypatch, world.bot.service, "join")
        mark = len(world.env.http_requests)
        refused = await world.carol.slash(world.channel, "join")
        assert [r.json["type"] for r in world.env.http_requests[mark:]
                if r.path.endswith("/callback")] == [5], "it was deferred"
        assert refused.ephemeral and refused.response is not None
        assert "no game running" in refused.response.content
        assert not any("no game running" in t for t in public_texts(world.channel))


async def test_a_channel_the_bot_cannot_write_in_is_refused_up_front(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        muted = world.guild.create_text_channel("muted", overwrites={
            world.bot.user: discord.PermissionOverwrite(send_messages=False)})
        answer = await world.alice.slash(muted, "play", game="lgame", level="easy")
        assert answer.ephemeral and "Send Messages" in answer.response.content
        assert await world.store.running_game("discord", str(muted.id)) is None


async def test_a_failed_board_edit_does_not_stop_the_ai(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", level="easy")
        record = await world.store.running_game("discord", str(world.channel.id))
        assert record is not None
        # Discord fails the AI's edit of the board once (a 500 on the message PATCH).
        world.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=1)
        await play_one_move(world.alice, world, random.Random(8))
        await world.bot.wait_for_background()
        assert not world.env.backend.faults or world.env.backend.faults[0]["times"] == 0, \
            "the injected failure was hit"
        latest = await world.store.get_game(record.id)
        assert latest is not None and latest.version == 3, "the AI still moved"
        board = await board_message(world)
        assert menu_items(board), "and a board with alice's options is on screen"
        assert f":{latest.version}:" in menu_items(board)[0]["custom_id"]


async def test_a_second_game_in_a_busy_channel_opens_its_own_thread(tmp_path: Path) -> None:
    """One game per channel used to refuse a class's second pair ("a game is already
    running here") unless a teacher knew to turn threads on; now it opens a thread."""
    async with discord_world(tmp_path) as world:
        await world.alice.slash(world.channel, "play", game="lgame", opponent=world.bob)
        assert await world.store.running_game("discord", str(world.channel.id)) is not None
        second = await world.carol.slash(world.channel, "play", game="lgame", level="easy")
        assert second.acknowledged
        [thread] = world.channel.threads
        assert await world.store.running_game("discord", str(thread.id)) is not None
