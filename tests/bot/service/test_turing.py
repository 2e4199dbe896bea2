"""Turing Machine through the service: solo games, lobbies, private results, buttons."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.service import Opponent, Reply, Service, User
from engines.registry import get_game
from engines.turing.puzzle import decode_puzzle
from tests.helpers.people import ALICE, BOB, CAROL, PLACE
from tests.helpers.turing_puzzles import OPTIONS


def button(reply: Reply, label: str) -> str:
    assert reply.hand is not None, reply.notice
    for candidate in [*reply.hand.buttons, *reply.hand.navigation]:
        if candidate.label == label:
            return candidate.payload
    raise AssertionError(f"no button {label!r} in {[b.label for b in reply.hand.buttons]}")


async def press_path(service: Service, user: object, reply: Reply, labels: list[str]) -> Reply:
    for label in labels:
        reply = await service.press(PLACE, user, button(reply, label))  # type: ignore[arg-type]
        assert reply.ok, reply.notice
    return reply


async def test_a_solo_game_is_played_with_buttons_and_results_stay_private(
        service: Service) -> None:
    started = await service.start_game(PLACE, ALICE, "turing", Opponent("ai"), OPTIONS)
    assert started.ok and started.board is not None
    assert started.board.hand_button is not None and not started.board.buttons
    sheet = await service.press(PLACE, ALICE, started.board.hand_button.payload)
    reply = await press_path(service, ALICE, sheet, ["▲2■4", "241"])
    assert reply.moved and reply.board is not None and "241" in reply.board.text
    reply = await press_path(service, ALICE, reply, ["Test B"])
    assert reply.hand is not None and "✅" not in (reply.board.text if reply.board else "")
    assert "B=yes" in reply.hand.text or "B ✅" in reply.hand.text
    reply = await press_path(service, ALICE, reply, ["Guess the code", "▲2■4", "241"])
    assert reply.finished and reply.board is not None
    assert "beat the machine" in reply.board.text.lower() or "par" in reply.board.text.lower()


async def test_typed_moves_and_bad_input_get_clear_answers(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "turing", Opponent("ai"), OPTIONS)
    for text, expected in [("propose 260", "three digits from 1 to 5"),
                           ("test A", "proposal"), ("test Q", "no verifier 'Q'")]:
        reply = await service.move(PLACE, ALICE, text)
        assert not reply.ok and reply.notice is not None and expected in reply.notice, text
    assert (await service.move(PLACE, ALICE, "propose 241")).ok
    for letter in "ABC":
        assert (await service.move(PLACE, ALICE, f"test {letter}")).ok
    fourth = await service.move(PLACE, ALICE, "test D")
    assert not fourth.ok and fourth.notice is not None and "all 3 tests" in fourth.notice
    stranger = await service.move(PLACE, BOB, "test D")
    assert not stranger.ok and stranger.notice is not None and "not playing" in stranger.notice


async def test_a_lobby_fills_up_and_starts_when_a_player_says_so(service: Service) -> None:
    started = await service.start_game(PLACE, ALICE, "turing", Opponent("open"), OPTIONS)
    assert started.board is not None
    labels = [b.label for b in started.board.navigation]
    join, start = started.board.navigation[0].payload, started.board.navigation[1].payload
    assert len(labels) == 2
    refused = await service.press(PLACE, BOB, start)
    assert not refused.ok and refused.notice is not None and "joined" in refused.notice
    assert (await service.press(PLACE, BOB, join)).ok
    joined = await service.join(PLACE, CAROL)
    assert joined.ok and joined.board is not None and "Carol" in joined.board.prompt
    begun = await service.press(PLACE, BOB, joined.board.navigation[1].payload)
    assert begun.ok and begun.board is not None
    assert [p["name"] for p in begun.board.to_move] == ["Alice", "Bob", "Carol"]


async def test_another_players_move_does_not_outdate_my_buttons(service: Service) -> None:
    started = await service.start_game(PLACE, ALICE, "turing", Opponent("user", user=BOB),
                                       OPTIONS)
    assert started.board is not None and started.board.hand_button is not None
    hand_payload = started.board.hand_button.payload
    alice = await service.press(PLACE, ALICE, hand_payload)
    bob = await service.press(PLACE, BOB, hand_payload)
    bob = await press_path(service, BOB, bob, ["▲1■1", "111"])
    alice = await press_path(service, ALICE, alice, ["▲2■4", "241"])
    old_test_a = button(alice, "Test A")
    alice = await press_path(service, ALICE, alice, ["Test A"])
    again = await service.press(PLACE, ALICE, old_test_a)
    assert not again.ok and again.notice is not None and "out of date" in again.notice
    assert bob.hand is not None and "A=" not in bob.hand.text and "A ✅" not in bob.hand.text


async def test_two_clicks_at_once_apply_one_test(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "turing", Opponent("ai"), OPTIONS)
    proposed = await service.move(PLACE, ALICE, "propose 241")
    hand = (await service.hand(PLACE, ALICE))
    payload = button(hand, "Test A")
    results = await asyncio.gather(*(service.press(PLACE, ALICE, payload) for _ in range(10)))
    assert proposed.ok and sum(1 for r in results if r.ok and r.moved) == 1


async def three_player_game(service: Service) -> Reply:
    started = await service.start_game(PLACE, ALICE, "turing", Opponent("open"), OPTIONS)
    assert started.board is not None
    await service.join(PLACE, BOB)
    joined = await service.join(PLACE, CAROL)
    assert joined.board is not None
    begun = await service.press(PLACE, ALICE, joined.board.navigation[1].payload)
    assert begun.ok and begun.board is not None
    return begun


async def test_in_a_game_of_three_one_resignation_leaves_the_others_playing(
        service: Service) -> None:
    await three_player_game(service)
    resigned = await service.resign(PLACE, BOB)
    assert resigned.ok and not resigned.finished
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None and record.status == "active"
    assert (await service.move(PLACE, ALICE, "propose 241")).ok
    refused = await service.move(PLACE, BOB, "propose 241")
    assert not refused.ok
    assert (await service.resign(PLACE, CAROL)).finished  # Alice is the last one standing


async def test_a_turn_timer_acts_for_everyone_still_thinking_in_a_round(
        service: Service) -> None:
    await three_player_game(service)
    for text in ["propose 241", "test A", "next"]:  # Bob ends his round
        assert (await service.move(PLACE, BOB, text)).ok
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None
    reply = await service.timeout(PLACE, record.id, record.version, "forfeit")
    assert reply.ok and reply.finished, reply.notice  # Alice and Carol both forfeit: Bob wins
    assert sum("ran out of time" in line for line in reply.announcements) == 2
    finished = await service.store.get_game(record.id)
    assert finished is not None and finished.status == "finished"
    outcome = get_game("turing").State.from_dict(finished.state).outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert (await service.timeout(PLACE, record.id, record.version, "forfeit")).ok is False


async def test_a_stand_in_never_guesses_and_its_move_stays_private(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "turing", Opponent("user", user=BOB), OPTIONS)
    # Alice's sheet leaves one code (241) after testing B: a guess would win it for her.
    for text in ["propose 241", "test B"]:
        assert (await service.move(PLACE, ALICE, text)).ok
    announced: list[str] = []
    for _ in range(4):  # the timer runs out again and again, whoever is idle
        record = await service.store.running_game(PLACE.platform, PLACE.channel)
        assert record is not None
        reply = await service.timeout(PLACE, record.id, record.version, "ai")
        assert reply.ok, reply.notice
        announced += reply.announcements
    state = get_game("turing").State.from_dict(
        (await service.store.running_game(PLACE.platform, PLACE.channel)).state)  # type: ignore[union-attr]
    assert state.outcome() is None, "the stand-in decided nobody's game"
    assert not any(action.startswith("guess") for _, action in state.actions if
                   isinstance(action, str))
    assert announced and all("241" not in line and "moved for them" in line
                             for line in announced)


async def test_when_everyone_left_runs_out_of_time_nobody_wins(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "turing", Opponent("user", user=BOB), OPTIONS)
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None
    reply = await service.timeout(PLACE, record.id, record.version, "forfeit")
    assert reply.ok and reply.finished
    assert "nobody left playing" in reply.announcements[-1]
    ended = await service.store.get_game(record.id)
    assert ended is not None and ended.status == "abandoned"


async def test_who_resigned_from_a_game_of_three_is_no_longer_in_it(service: Service) -> None:
    await three_player_game(service)
    assert await service.store.count_running_games("test", user_id=BOB.id) == 1
    assert (await service.resign(PLACE, BOB)).ok
    assert await service.store.count_running_games("test", user_id=BOB.id) == 0
    refused = await service.abandon(PLACE, BOB)
    assert not refused.ok, "a player who left cannot end the game for the others"
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None and record.status == "active"


async def test_abandon_by_number_ends_only_that_game(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    record = await service.store.running_game(PLACE.platform, PLACE.channel)
    assert record is not None
    teacher = User("test", "teacher", "Ms Jansen", is_moderator=True)
    stale = await service.abandon(PLACE, teacher, game_id=record.id - 1)
    assert not stale.ok and f"No game #{record.id - 1}" in (stale.notice or "")
    assert (await service.abandon(PLACE, teacher, game_id=record.id)).finished


# Issue 40, defect 1: a code one character off the README's example, a head with no body
# and a solution code typed where a puzzle code was asked for; bare (as the console and
# Telegram's /puzzle pass a code) and named (as Discord's /puzzle does).
MISTYPED_CODES = ("TM-C4E-218SCG7X", "TM-XYZ", "241")
NOT_A_CODE = {"en": "That is not a valid puzzle code; codes look like TM-C4E-218SCG7G",
              "nl": "Dat is geen geldige puzzelcode; codes zien eruit als TM-C4E-218SCG7G",
              "de": "Das ist kein gültiger Rätselcode; Codes sehen so aus: TM-C4E-218SCG7G"}


async def test_a_mistyped_puzzle_code_is_refused_in_plain_words_before_any_worker(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    async def no_worker(*args: object, **kwargs: object) -> object:
        raise AssertionError("a mistyped code reached the worker pool")
    monkeypatch.setattr(service.workers, "run", no_worker)
    for language, expected in NOT_A_CODE.items():
        place = dataclasses.replace(PLACE, language=language)
        for code in MISTYPED_CODES:
            for options in (code, f"puzzle={code}", f"hard puzzle={code.lower()}"):
                reply = await service.start_game(place, ALICE, "turing", Opponent("ai"),
                                                 options)
                assert not reply.ok and reply.notice is not None, options
                assert expected in reply.notice, (language, options, reply.notice)
                assert "option" not in reply.notice.lower(), reply.notice
                assert "tm_" not in reply.notice.lower(), reply.notice
                refusal = service.check_start(place, ALICE, "turing", Opponent("ai"), options)
                assert refusal is not None and expected in refusal, (language, options)


def test_the_example_in_the_refusal_is_a_real_puzzle_code() -> None:
    assert decode_puzzle("TM-C4E-218SCG7G").share_code() == "TM-C4E-218SCG7G"
