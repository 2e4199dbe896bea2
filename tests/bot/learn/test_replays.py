"""Replays of finished games (``bot.learn.replays``), through the service and a real store,
with the pool in threads: stepped through in any language, none of a running game, only
where the game was played or for its players, a daily challenge's once its day is over."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.learn.replays import Replays
from bot.service import Opponent, Place, Service, User
from engines.registry import get_game
from renderers.i18n import translate
from tests.helpers.people import ALICE, BOB, CAROL, PLACE
from tests.helpers.service_play import running_game

CLASS = Place("test", "class-channel", emoji=True, server="class-3b")

ELSEWHERE = Place("test", "other-channel", emoji=True, server="class-4a")



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
    record = await running_game(service, CLASS)
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
