"""Replays of finished games (``bot.learn.replays``) and hints (``Service.hint``), through the
service and a real SQLite store, with the pool in threads."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.community import Community
from bot.events import GameFinished
from bot.hints import hint_refusal, hinted
from bot.learn.replays import Replays
from bot.service import Opponent, Place, Reply, Service, User
from bot.store import GameRecord, SQLiteStore
from engines.registry import get_game
from renderers.i18n import translate
from tests.helpers.people import ALICE, BOB, CAROL, PLACE

CLASS = Place("test", "class-channel", emoji=True, server="class-3b")
ELSEWHERE = Place("test", "other-channel", emoji=True, server="class-4a")


async def running(service: Service, place: Place) -> GameRecord:
    record = await service.store.running_game(place.platform, place.channel)
    assert record is not None
    return record


async def hint_after_yes(service: Service, place: Place, user: User) -> Reply:
    """The first hint of a game voids its result, so it asks first: the hint as a player
    takes it, the question answered with its yes (``tests/bot/service/test_hint_questions.py``)."""
    asked = await service.hint(place, user)
    assert asked.confirm is not None, asked.notice
    return await service.press(place, user, asked.confirm.payload)


async def play_moves(service: Service, place: Place, moves: int, seed: int) -> None:
    """Random legal moves typed by whoever is to move (people only), ``moves`` at most."""
    rng = random.Random(seed)
    for _ in range(moves):
        record = await service.store.running_game(place.platform, place.channel)
        if record is None:
            return
        state = get_game(record.game).State.from_dict(record.state)
        seat = state.to_move()[0]
        player = record.players[seat]
        user = User(place.platform, str(player["id"]), str(player["name"]))
        actions = state.legal_actions(seat)
        if record.game == "turing":
            actions = [a for a in actions if not a.startswith("guess")]
        reply = await service.move(place, user, rng.choice(actions))
        assert reply.ok, reply.notice


async def finished_game_of(service: Service, game: str) -> int:
    """A game of ``game`` in CLASS, a few moves in and then resigned (the Turing Machine:
    a solo puzzle, a few steps and a wrong guess)."""
    if game == "turing":
        started = await service.start_game(CLASS, ALICE, "turing", Opponent("ai"))
    else:
        started = await service.start_game(CLASS, ALICE, game, Opponent("user", user=BOB))
    assert started.ok, started.notice
    assert started.board is not None
    game_id = started.board.game_id
    await play_moves(service, CLASS, 6, game_id)
    if game == "turing":  # right or wrong, a solo guess ends the game
        ended = await service.move(CLASS, ALICE, "guess 111")
    else:
        ended = await service.resign(CLASS, BOB)
    assert ended.ok and ended.finished, ended.notice
    return game_id


@pytest.mark.parametrize("game", ["lgame", "rithmomachia", "booleo", "digitalo", "turing"])
async def test_a_finished_game_is_stepped_through_from_start_to_end(service: Service,
                                                                    game: str) -> None:
    game_id = await finished_game_of(service, game)
    replays = Replays(service)
    step = await replays.step(game_id, 0, "en", True, place=CLASS, user=CAROL)
    assert step.ok, step.text
    assert step.index == 0 and "the start" in step.text.split("\n")[0]
    seen = [step.index]
    while step.index != step.last:
        step = await replays.step(game_id, step.forward, "en", True, place=CLASS)
        assert step.ok
        seen.append(step.index)
    assert seen == list(range(step.last + 1)) and step.last >= 2
    assert step.back == step.last - 1 and step.forward == step.last == step.end
    # -1 and anything past the end show the end; back from it is the step before.
    end = await replays.step(game_id, -1, "nl", False, place=CLASS)
    assert end.index == step.last and end.text != step.text  # another language and style
    before = await replays.step(game_id, end.back, "en", True, place=CLASS)
    assert before.index == step.last - 1
    assert "Alice" in step.text


async def test_a_running_game_has_no_replay_and_shows_nothing_of_its_hands(
        service: Service) -> None:
    started = await service.start_game(CLASS, ALICE, "booleo", Opponent("user", user=BOB))
    assert started.board is not None
    await play_moves(service, CLASS, 3, 1)
    record = await running(service, CLASS)
    state = get_game("booleo").State.from_dict(record.state)
    step = await Replays(service).step(record.id, 0, "en", True, place=CLASS, user=ALICE)
    assert not step.ok
    assert step.text == translate("en", "replay.running", number=record.id)
    hands = [state.view(seat)["hand"] for seat in (0, 1)]
    assert not any(card in step.text for hand in hands for card in hand)


async def test_a_replay_is_for_its_channel_its_server_and_its_players_only(
        service: Service) -> None:
    game_id = await finished_game_of(service, "lgame")
    replays = Replays(service)
    same_server = replace(CLASS, channel="another-room")
    assert (await replays.step(game_id, 0, "en", True, place=same_server)).ok
    assert (await replays.step(game_id, 0, "en", True, place=ELSEWHERE, user=ALICE)).ok
    stranger = await replays.step(game_id, 0, "en", True, place=ELSEWHERE, user=CAROL)
    assert not stranger.ok and stranger.text == translate("en", "replay.not_found",
                                                          number=game_id)
    other_platform = replace(CLASS, platform="discord")
    assert not (await replays.step(game_id, 0, "en", True, place=other_platform)).ok
    assert not (await replays.step(game_id + 100, 0, "en", True)).ok
    assert await replays.last_game(CLASS) == game_id


async def test_hints_are_refused_between_people(service: Service,
                                                store: SQLiteStore) -> None:
    started = await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    assert started.board is not None
    before = await store.moves(started.board.game_id)
    reply = await service.hint(PLACE, ALICE)
    assert not reply.ok
    assert reply.notice == translate("en", "hint.refused.people")
    assert reply.board is not None  # the board beside the refusal, as for any refusal
    assert await store.moves(started.board.game_id) == before
    record = await running(service, PLACE)
    assert not hinted(record)


def test_events_give_no_hints() -> None:
    solo = GameRecord(1, "test", "dm", "turing", {"daily": ""}, 1, {}, 1,
                      [{"kind": "human", "platform": "test", "id": "a", "name": "A"}],
                      "active")
    assert hint_refusal(solo, "en") is None
    for event in ("daily", "tournament", "assignment"):
        marked = replace(solo, options={event: "2026-11-25"})
        assert hint_refusal(marked, "de") == translate("de", "hint.refused.event")


async def test_a_hint_against_the_computer_marks_the_game_and_its_result_is_not_counted(
        service: Service, store: SQLiteStore) -> None:
    service.events.subscribe(GameFinished, Community(service).game_finished)
    hinted_place = replace(PLACE, channel="with-hint")
    started = await service.start_game(hinted_place, ALICE, "lgame",
                                       Opponent("ai", level="easy"))
    assert started.ok and started.board is not None
    reply = await hint_after_yes(service, hinted_place, ALICE)
    assert reply.ok, reply.notice
    assert reply.notice is not None and reply.notice.startswith("💡 Perfect move:")
    assert "perfect play draws" in reply.notice  # the start is a draw
    assert reply.announcements == [translate("en", "hint.taken", name="Alice")]
    record = await running(service, hinted_place)
    assert record.players[0]["hints"] == 1 and hinted(record)
    assert (await store.moves(record.id))[-1].kind == "hint"
    # The hint changed nothing on the board: the same player still moves.
    assert record.state == started_state(started.board.game_id, record)
    resigned = await service.resign(hinted_place, ALICE)
    assert resigned.finished
    assert await store.player_stats("test", "alice") == []
    # The same game without a hint counts, apart, as a game against the computer.
    plain = replace(PLACE, channel="without-hint")
    await service.start_game(plain, ALICE, "lgame", Opponent("ai", level="easy"))
    await service.resign(plain, ALICE)
    (stats,) = await store.player_stats("test", "alice")
    assert (stats.ai_losses, stats.losses, stats.rating) == (1, 0, None)


def started_state(game_id: int, record: GameRecord) -> dict[str, object]:
    """A new L-game's state (seed as stored): a hint must leave the position as it was."""
    state: dict[str, object] = get_game("lgame").new_game(record.options, 2,
                                                          record.seed).to_dict()
    return state


async def test_a_hint_in_a_card_game_goes_to_its_player_only(service: Service) -> None:
    started = await service.start_game(PLACE, ALICE, "booleo", Opponent("ai", level="easy"),
                                       creator_seat=0)
    assert started.ok
    record = await running(service, PLACE)
    state = get_game("booleo").State.from_dict(record.state)
    if 0 not in state.to_move():
        await service.play_ai_turn(PLACE)
    reply = await hint_after_yes(service, PLACE, ALICE)
    assert reply.ok, reply.notice
    assert reply.notice is not None and reply.notice.startswith("💡 ")
    assert reply.hand is not None  # the hand stays the actor's, with its menu
    public = "\n".join([*reply.announcements, reply.board.text if reply.board else ""])
    assert reply.notice.split(":")[0][2:] not in public


async def test_a_solo_puzzle_gives_the_test_that_splits_best(service: Service) -> None:
    started = await service.start_game(PLACE, ALICE, "turing", Opponent("ai"))
    assert started.ok
    reply = await hint_after_yes(service, PLACE, ALICE)
    assert reply.ok, reply.notice
    assert reply.notice is not None and reply.notice.startswith("💡 Propose ")
    assert "still possible" in reply.notice
    stranger = await service.hint(PLACE, BOB)
    assert not stranger.ok and stranger.notice == translate("en", "error.not_a_player")


async def test_a_daily_challenge_replays_only_once_its_day_is_over(service: Service) -> None:
    import datetime as dt

    day = dt.date(2026, 11, 25)
    started = await service.start_game(PLACE, ALICE, "turing", Opponent("ai"),
                                       f"daily={day.isoformat()}")
    assert started.ok and started.board is not None, started.notice
    assert (await service.hint(PLACE, ALICE)).notice == translate("en", "hint.refused.event")
    ended = await service.move(PLACE, ALICE, "guess 111")
    assert ended.finished
    game_id = started.board.game_id
    that_day = Replays(service, today=lambda: day)
    refused = await that_day.step(game_id, 0, "en", True, place=PLACE, user=ALICE)
    assert not refused.ok and refused.text == translate("en", "replay.daily_today",
                                                        day="2026-11-25")
    next_day = Replays(service, today=lambda: day + dt.timedelta(days=1))
    assert (await next_day.step(game_id, -1, "en", True, place=PLACE, user=ALICE)).ok


async def test_any_typed_game_number_is_answered(service: Service) -> None:
    replays = Replays(service)
    for number in (0, -3, 2 ** 70, 10 ** 30):
        step = await replays.step(number, 0, "en", True, place=PLACE)
        assert not step.ok and step.text == translate("en", "replay.not_found", number=number)
