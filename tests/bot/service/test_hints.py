"""Hints (``Service.hint``), through the service and a real store, with the pool in threads:
refused between people and in events, a hint against the computer marks the game and its
result is not counted, a card game's goes to its player only, a solo puzzle's names the
test that splits best. The question a hint asks first is in test_hint_questions.py."""

from __future__ import annotations

from dataclasses import replace

from bot.community import Community
from bot.events import GameFinished
from bot.hints import hint_refusal, hinted
from bot.service import Opponent, Place, Reply, Service, User
from bot.store import GameRecord, SQLiteStore
from engines.registry import get_game
from renderers.i18n import translate
from tests.helpers.people import ALICE, BOB, PLACE
from tests.helpers.service_play import running_game


async def hint_after_yes(service: Service, place: Place, user: User) -> Reply:
    """The first hint of a game voids its result, so it asks first: the hint as a player
    takes it, the question answered with its yes (``tests/bot/service/test_hint_questions.py``)."""
    asked = await service.hint(place, user)
    assert asked.confirm is not None, asked.notice
    return await service.press(place, user, asked.confirm.payload)



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
    record = await running_game(service, PLACE)
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
    record = await running_game(service, hinted_place)
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
    record = await running_game(service, PLACE)
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
