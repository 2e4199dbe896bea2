"""Tournaments through the service (``bot.tournaments``): a 4-player Swiss played to the
end, with one game lost on the turn timer and a restart in the middle whose lost save the
new process finds again (on SQLite and on PostgreSQL); plus refusals, /forget-me, the
standings export and two processes resuming one round."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import App
from bot.config import Settings
from bot.events import GameFinished
from bot.replies import Place, Reply, User
from bot.store import GameRecord, SQLiteStore, Store
from bot.store.tournament_rows import TournamentRecord
from bot.tournaments import TournamentRefused, Tournaments
from tests.helpers.clock import FakeClock
from tests.helpers.databases import DATABASES, reopenable_database

ROOM = Place("test", "room", "en", True, "school")
TEACHER = User("test", "t", "Teacher", is_moderator=True)
PUPILS = [User("test", str(i), name) for i, name in enumerate(("Ann", "Bo", "Cy", "Di"))]


class Host:
    """A platform that puts every game in a channel of its own and keeps the texts."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.places: dict[int, Place] = {}
        self.counter = itertools.count(1)
        self.texts: list[str] = []
        self.boards: list[Reply] = []

    async def open_game_place(self, tournament: TournamentRecord, title: str) -> Place:
        return Place("test", f"room/{next(self.counter)}", "en", True, "school")

    async def show_new_game(self, place: Place, reply: Reply) -> None:
        assert reply.board is not None
        self.places[reply.board.game_id] = place
        self.boards.append(reply)

    async def show_game_change(self, place: Place, reply: Reply) -> None:
        self.boards.append(reply)

    async def show_tournament(self, tournament: TournamentRecord) -> None:
        self.texts.append(self.tournaments.text(tournament))


def build(store: Store, path: Path, clock: FakeClock) -> tuple[App, Host]:
    seeds = itertools.count(500)
    app = App.build(Settings(database_path=str(path)), store, clock=clock,
                    seed_source=lambda: next(seeds))
    host = Host(app.tournaments)
    app.tournaments.attach("test", host)
    return app, host


def seated(record: GameRecord) -> list[User]:
    return [next(u for u in PUPILS if u.id == p["id"]) for p in record.players]


async def running_games(app: App, tournament_id: int) -> list[GameRecord]:
    return [g for g in await app.store.running_games("test", "school")
            if str(g.options.get("tournament", "")).startswith(f"{tournament_id}/")]


@pytest.mark.parametrize("kind", DATABASES)
async def test_a_four_player_swiss_with_a_forfeit_and_a_restart(tmp_path: Path,
                                                                kind: str) -> None:
    async with reopenable_database(tmp_path, kind) as opened:
        await four_player_swiss(opened, tmp_path / "bot.sqlite3")


async def four_player_swiss(opened: Callable[[], Awaitable[Store]], path: Path) -> None:
    clock = FakeClock()
    store = await opened()
    app, host = build(store, path, clock)
    created = await app.tournaments.create(ROOM, TEACHER, "lgame", format="swiss",
                                           timer="0 10 forfeit")
    assert "Sign up" in host.texts[-1]
    for pupil in PUPILS:
        assert "signed up" in await app.tournaments.sign_up(created.id, pupil, ROOM)
    assert "Ann, Bo, Cy, Di" in host.texts[-1]
    await app.tournaments.start(ROOM, TEACHER)

    # Round 1: two games, each in its own place, both players of each seated.
    first_round = await running_games(app, created.id)
    assert len(first_round) == 2 and len(host.boards) == 2
    assert {u.id for g in first_round for u in seated(g)} == {"0", "1", "2", "3"}
    # No hints in a tournament game.
    game = first_round[0]
    mover = seated(game)[0]
    refused = await app.service.hint(host.places[game.id], mover)
    assert not refused.ok and "tournament" in (refused.notice or "")
    # Board 1 ends by resignation; board 2 on the turn timer (the tournament's 10 minutes).
    resigned = await app.service.resign(host.places[game.id], seated(game)[1])
    assert resigned.finished
    await app.tournaments.settle()
    assert "1–0" in host.texts[-1]
    timed = first_round[1]

    async def remind(place: Place, text: str) -> None:
        raise AssertionError("no reminder was asked for")

    async def act(place: Place, reply: Reply) -> None:
        assert any("ran out of time" in line for line in reply.announcements)

    assert await app.classroom.check_timers("test", lambda r: host.places[r.id],
                                            remind, act) == 0  # the turn is seen
    clock.advance(11)
    assert await app.classroom.check_timers("test", lambda r: host.places[r.id],
                                            remind, act) == 1
    await app.tournaments.settle()

    # Round 2 was paired: the two winners meet, the two losers meet, nobody again.
    second_round = await running_games(app, created.id)
    assert len(second_round) == 2
    winners = {seated(game)[0].id, seated(timed)[1].id}
    assert {u.id for u in seated(second_round[0])} in (winners, {"0", "1", "2", "3"} - winners)
    met = {frozenset(u.id for u in seated(g)) for g in (game, timed)}
    assert not met & {frozenset(u.id for u in seated(g)) for g in second_round}

    # A crash right after a game's save: its result never reaches the tournament.
    app.events.unsubscribe(GameFinished, app.tournaments.game_finished)
    lost = second_round[0]
    assert (await app.service.resign(host.places[lost.id], seated(lost)[0])).finished
    places = dict(host.places)
    await store.close()

    # A new process over the same database: the result is found, the round goes on.
    store = await opened()
    app, host = build(store, path, clock)
    host.places = places
    await app.tournaments.resume_all("test")
    record = await app.tournaments.get(created.id)
    assert record is not None and record.status == "running"
    assert "0–1" in host.texts[-1]
    last = second_round[1]
    assert (await app.service.resign(places[last.id], seated(last)[1])).finished
    await app.tournaments.settle()

    record = await app.tournaments.get(created.id)
    assert record is not None and record.status == "finished"
    text = host.texts[-1]
    assert "Final standings" in text and "Buchholz" in text
    # The winner of the winners' game has 2 points, the loser of the losers' game none.
    champion = seated(lost)[1].name
    assert f"1. {champion} — 2 " in text
    exported = await app.tournaments.standings_csv("test", "school")
    assert exported is not None and f",1,{champion},2.0,buchholz," in exported
    # /forget-me: the champion's name and id leave the tournament too.
    forgetting = seated(lost)[1]
    await app.community.forget_me(ROOM, forgetting)
    record = await app.tournaments.get(created.id)
    assert record is not None
    assert forgetting.name not in app.tournaments.text(record)
    assert "1. a former player — 2 " in app.tournaments.text(record)
    assert all(p.get("id") != forgetting.id for p in record.state["bracket"]["players"])
    exported = await app.tournaments.standings_csv("test", "school")
    assert exported is not None and forgetting.name not in exported
    await store.close()


async def test_refusals_say_why(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await SQLiteStore.open(path)
    app, host = build(store, path, FakeClock())
    tournaments = app.tournaments
    try:
        await tournaments.create(ROOM, PUPILS[0], "lgame")
        raise AssertionError("a pupil created a tournament")
    except TournamentRefused as refusal:
        assert "moderator" in refusal.notice
    bad_settings: list[tuple[str, dict[str, Any]]] = [
        ("chess", {}), ("lgame", {"format": "knockout"}), ("lgame", {"timer": "soon"}),
        ("lgame", {"options": "nope"}), ("lgame", {"computer": "grandmaster"}),
        ("lgame", {"rounds": 99})]
    for game, bad in bad_settings:
        try:
            await tournaments.create(ROOM, TEACHER, game, **bad)
            raise AssertionError(f"{game} {bad} was accepted")
        except TournamentRefused:
            pass
    created = await tournaments.create(ROOM, TEACHER, "lgame", computer="easy")
    try:
        await tournaments.create(ROOM, TEACHER, "lgame")
        raise AssertionError("a second tournament in one channel")
    except TournamentRefused as refusal:
        assert "already has a tournament" in refusal.notice
    try:
        await tournaments.start(ROOM, TEACHER)
        raise AssertionError("started with nobody")
    except TournamentRefused as refusal:
        assert "two players" in refusal.notice
    # A sign-up button forged into another channel finds nothing.
    try:
        await tournaments.sign_up(created.id, PUPILS[0],
                                  Place("test", "elsewhere", "en", True, "school"))
        raise AssertionError("signed up from another channel")
    except TournamentRefused as refusal:
        assert "no such tournament" in refusal.notice
    # Pressing the button again withdraws.
    await tournaments.sign_up(created.id, PUPILS[0], ROOM)
    assert "no longer" in await tournaments.sign_up(created.id, PUPILS[0], ROOM)
    # Three people and the computer: it fills the fourth seat, round-robin (auto, <= 8).
    for pupil in PUPILS[:3]:
        await tournaments.sign_up(created.id, pupil, ROOM)
    await tournaments.start(ROOM, TEACHER)
    record = await tournaments.get(created.id)
    assert record is not None and len(record.state["bracket"]["players"]) == 4
    assert record.state["bracket"]["format"] == "round_robin"
    assert "Round 1 of 3" in host.texts[-1]
    # Paused, a moderator ends it: its games are abandoned, the standings stay.
    assert "paused" in await tournaments.pause(ROOM, TEACHER)
    assert "ended" in await tournaments.end(ROOM, TEACHER)
    await tournaments.settle()
    assert await running_games(app, created.id) == []
    assert "Ended by a moderator" in host.texts[-1]
    # A button pressed over and over meets the rate limit like any command.
    notices = []
    for _ in range(100):
        try:
            notices.append(await tournaments.sign_up(created.id, PUPILS[3], ROOM))
        except TournamentRefused as refusal:
            notices.append(refusal.notice)
    assert "Sign-up for this tournament is closed." in notices
    assert any("a lot of commands" in notice for notice in notices)
    # So do a moderator's commands, each of which writes the tournament.
    notices = []
    for _ in range(100):
        try:
            notices.append(await tournaments.create(ROOM, TEACHER, "booleo") and "created")
        except TournamentRefused as refusal:
            notices.append(refusal.notice)
    assert notices.count("created") == 1, "the ended tournament left the channel free once"
    assert any("already has a tournament" in notice for notice in notices)
    assert any("a lot of commands" in notice for notice in notices)
    await store.close()


async def test_two_processes_resuming_at_once_start_each_game_once(tmp_path: Path) -> None:
    """A round paired by a process that died before starting its games: two processes
    that start together both resume it, and each board's game is started once."""
    path = tmp_path / "bot.sqlite3"
    store = await SQLiteStore.open(path)
    clock = FakeClock()
    seeds = itertools.count(900)
    crashed = App.build(Settings(database_path=str(path)), store, clock=clock,
                        seed_source=lambda: next(seeds))  # no platform attached: no games
    created = await crashed.tournaments.create(ROOM, TEACHER, "lgame", format="swiss")
    for pupil in PUPILS:
        await crashed.tournaments.sign_up(created.id, pupil, ROOM)
    await crashed.tournaments.start(ROOM, TEACHER)
    assert await running_games(crashed, created.id) == []

    first, first_host = build(store, path, clock)
    second, second_host = build(store, path, clock)
    second_host.counter = itertools.count(100)  # its own places, as another process's
    await asyncio.gather(first.tournaments.resume_all("test"),
                         second.tournaments.resume_all("test"))
    games = await running_games(first, created.id)
    assert len(games) == 2 and len(first_host.boards) + len(second_host.boards) == 2
    record = await first.tournaments.get(created.id)
    assert record is not None
    assert all(p["game_id"] for p in record.state["bracket"]["rounds"][0])
    await store.close()
