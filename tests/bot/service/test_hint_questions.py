"""A hint that would void a game's result asks first (issue 40, defect 2), through the
service and a real store: the question, the yes that takes it, whose yes counts, and a
yes for an older position.

A hint leaves the game's result uncounted (``bot.hints``): against the computer it is left
out of /stats and of assignments, and a solo puzzle no longer counts for an assignment's
"solve" task. So the first hint of a game is a question; once a hint was taken the game
counts for nothing already, and the next hint takes one tap.
"""

from __future__ import annotations

from dataclasses import replace

from bot.community import Community
from bot.events import GameFinished
from bot.hints import hint_voids_result, hinted
from bot.payloads import HINT_YES, Payload
from bot.service import Opponent, Place, Reply, Service
from bot.store import GameRecord, Store
from engines.registry import get_game
from renderers.i18n import LANGUAGES, translate
from tests.helpers.people import ALICE, BOB, PLACE
from tests.helpers.service_play import running_game

GROUP = Place("test", "class-room", server="class-3b")


def hint_button(reply: Reply) -> str:
    """The payload of the 💡 Hint button of a reply's board (or hand)."""
    menus = [m for m in (reply.board, reply.hand) if m is not None]
    (payload,) = [b.payload for m in menus for b in m.navigation if b.payload.startswith("i:")]
    return payload


def assert_asks(reply: Reply, record: GameRecord, language: str = "en") -> Payload:
    """``reply`` is the question, with a yes bound to ``record`` as it is now (the
    version its menu buttons carry: the seat's own in a game whose players act at once,
    like the Turing Machine)."""
    assert not reply.ok and not reply.moved and not reply.announcements
    assert reply.notice == translate(language, "hint.confirm")
    assert reply.confirm is not None
    assert reply.confirm.label == translate(language, "hint.confirm_button")
    yes = Payload.parse(reply.confirm.payload)
    state = get_game(record.game).State.from_dict(record.state)
    version = Service.menu_version(record, state, state.to_move()[0])
    assert yes == Payload("i", record.id, version, (HINT_YES,))
    return yes


async def test_a_hint_that_would_void_the_result_asks_and_changes_nothing(
        service: Service, store: Store) -> None:
    service.events.subscribe(GameFinished, Community(service).game_finished)
    started = await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", level="easy"))
    assert started.ok and started.board is not None
    before = await running_game(service, PLACE)
    moves = await store.moves(before.id)
    # Asked for by /hint and by the board's 💡 Hint button alike.
    for asked in (await service.hint(PLACE, ALICE),
                  await service.press(PLACE, ALICE, hint_button(started))):
        assert_asks(asked, before)
    after = await running_game(service, PLACE)
    assert after.version == before.version and not hinted(after)
    assert await store.moves(before.id) == moves
    # The result still counts: a resignation is a loss against the computer.
    assert (await service.resign(PLACE, ALICE)).finished
    (stats,) = await store.player_stats("test", "alice")
    assert stats.ai_losses == 1


async def test_the_yes_takes_the_hint_and_the_next_hint_asks_nothing(
        service: Service, store: Store) -> None:
    service.events.subscribe(GameFinished, Community(service).game_finished)
    await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", level="easy"))
    asked = await service.hint(PLACE, ALICE)
    assert asked.confirm is not None
    taken = await service.press(PLACE, ALICE, asked.confirm.payload)
    assert taken.ok and taken.moved, taken.notice
    assert taken.notice is not None and taken.notice.startswith("💡 Perfect move:")
    assert taken.announcements == [translate("en", "hint.taken", name="Alice")]
    record = await running_game(service, PLACE)
    assert record.players[0]["hints"] == 1 and not hint_voids_result(record)
    # The game counts for nothing already: the button and /hint take one tap now.
    again = await service.press(PLACE, ALICE, hint_button(await service.board(PLACE)))
    assert again.ok and again.confirm is None and again.notice is not None
    assert (await service.hint(PLACE, ALICE)).ok
    assert (await running_game(service, PLACE)).players[0]["hints"] == 3
    assert (await service.resign(PLACE, ALICE)).finished
    assert await store.player_stats("test", "alice") == []


async def test_someone_elses_yes_is_refused(service: Service, store: Store) -> None:
    """In a group, everyone sees the board (on Telegram the yes is drawn on it): only
    the person who plays the game may take its hint, and Bob's press of Alice's yes, or
    of the hint button, changes nothing."""
    await service.start_game(GROUP, ALICE, "lgame", Opponent("ai", level="easy"))
    asked = await service.hint(GROUP, ALICE)
    assert asked.confirm is not None
    before = await running_game(service, GROUP)
    for payload in (asked.confirm.payload, hint_button(await service.board(GROUP))):
        refused = await service.press(GROUP, BOB, payload)
        assert not refused.ok and refused.confirm is None
        assert refused.notice == translate("en", "error.not_a_player")
    after = await running_game(service, GROUP)
    assert after.version == before.version and not hinted(after)
    assert (await service.press(GROUP, ALICE, asked.confirm.payload)).ok


async def test_a_yes_given_before_a_move_asks_again(service: Service, store: Store) -> None:
    """The yes is bound to the position it was asked at: after a move the question comes
    again, for the new position, and only its yes takes the hint. A yes for another game
    (this channel's previous one) asks too."""
    await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", level="easy"))
    old = (await service.hint(PLACE, ALICE)).confirm
    assert old is not None
    record = await running_game(service, PLACE)
    state = get_game("lgame").State.from_dict(record.state)
    moved = await service.move(PLACE, ALICE, state.action_text(state.legal_actions(0)[0]))
    assert moved.ok and moved.ai_to_move, moved.notice
    assert (await service.play_ai_turn(PLACE)).ok
    now = await running_game(service, PLACE)
    assert now.version > record.version
    asked_again = await service.press(PLACE, ALICE, old.payload)
    new = assert_asks(asked_again, now)
    assert not hinted(await running_game(service, PLACE))
    assert (await service.press(PLACE, ALICE, new.encode())).ok
    assert hinted(await running_game(service, PLACE))

    assert (await service.resign(PLACE, ALICE)).finished
    await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", level="easy"))
    newest = await running_game(service, PLACE)
    forged = replace(new, game_id=newest.id - 1, version=newest.version).encode()
    refused = await service.press(PLACE, ALICE, forged)
    assert not refused.ok and not hinted(await running_game(service, PLACE))


async def test_a_solo_puzzle_asks_too_as_an_assignment_counts_it(service: Service) -> None:
    """A solved Turing puzzle counts for an assignment's "solve" task unless a hint was
    taken in it (``bot.classroom.assignments``): the hint voids that, so it asks first."""
    await service.start_game(PLACE, ALICE, "turing", Opponent("ai"))
    record = await running_game(service, PLACE)
    assert hint_voids_result(record)
    asked = await service.hint(PLACE, ALICE)
    assert_asks(asked, record)
    assert asked.confirm is not None
    taken = await service.press(PLACE, ALICE, asked.confirm.payload)
    assert taken.ok and taken.notice is not None and taken.notice.startswith("💡 Propose ")


async def test_a_refusal_comes_before_the_question(service: Service) -> None:
    """A game that gives no hints says why, not "tap again"; so does a hint out of turn."""
    await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    refused = await service.hint(PLACE, ALICE)
    assert not refused.ok and refused.confirm is None
    assert refused.notice == translate("en", "hint.refused.people")
    not_yours = await service.hint(PLACE, BOB)
    assert not not_yours.ok and not_yours.confirm is None


async def test_the_question_is_in_the_places_language(service: Service) -> None:
    for language in LANGUAGES:
        place = Place("test", f"room-{language}", language)
        await service.start_game(place, ALICE, "lgame", Opponent("ai", level="easy"))
        asked = await service.hint(place, ALICE)
        assert_asks(asked, await running_game(service, place), language)
        if language != "en":
            assert asked.notice != translate("en", "hint.confirm")
            assert asked.confirm is not None
            assert asked.confirm.label != translate("en", "hint.confirm_button")
