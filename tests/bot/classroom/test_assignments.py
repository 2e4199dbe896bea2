"""Assignments (issue 27): a moderator sets work with a deadline, the bot counts what each
student did from the games they finished, students see their own progress and moderators
the class's. Through the service and the store, on both databases."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest

from bot.classroom.assignments import Answer, Assignments, Task, TaskError, describe, parse_task
from bot.service import Opponent, Place, Service, User
from bot.store import Store
from engines.registry import get_game
from tests.helpers.people import ALICE, BOB, CAROL
from tests.helpers.turing_puzzles import OPTIONS

CLASS = Place("test", "class-channel", emoji=False, server="class-7b")
ALICE_ALONE = Place("test", "private-alice", emoji=False)
TODAY = dt.date(2026, 11, 26)


def said(text: str) -> list[str]:
    """The words of a command as the adapters pass them."""
    return text.split()


def test_tasks_are_read_from_a_teachers_words() -> None:
    deadline = TODAY + dt.timedelta(days=7)
    assert parse_task(said("win 3 lgame medium"), TODAY, "en") == (
        Task("win", "lgame", 3, level="medium"), deadline)
    assert parse_task(said("solve 5 turing hard par by 2026-12-05"), TODAY, "en") == (
        Task("solve", "turing", 5, band="hard", par=True), dt.date(2026, 12, 5))
    assert parse_task(["daily"], TODAY, "en") == (Task("daily", "turing", 1), TODAY)
    assert parse_task(said("finish 1 digitalo in 3"), TODAY, "en") == (
        Task("finish", "digitalo", 1), TODAY + dt.timedelta(days=3))
    assert parse_task(said("solve 2"), TODAY, "en")[0] == Task("solve", "turing", 2)


@pytest.mark.parametrize(("words", "expected"), [
    ("", "win 3 lgame medium"),
    ("play 3 lgame", "win 3 lgame medium"),
    ("win 0 lgame", "from 1 to 100"),
    ("win 3 chess", "Unknown game 'chess'"),
    ("win 3 lgame grandmaster", "Levels of L-game: easy, medium, strong, perfect"),
    ("solve 3 lgame nonsense", "L-game puzzles have these themes: win-in-1"),
    ("solve 3 turing brutal", "win 3 lgame medium"),
    ("win 3 lgame by 2026-11-01", "from today to a year ahead"),
    ("win 3 lgame by tomorrow", "from today to a year ahead"),
    ("win 3 lgame in 9999", "from today to a year ahead"),
])
def test_a_task_that_cannot_be_read_says_what_was_expected(words: str, expected: str) -> None:
    with pytest.raises(TaskError) as error:
        parse_task(words.split(), TODAY, "en")
    assert expected in error.value.text


def test_every_task_reads_as_a_sentence_in_each_language() -> None:
    tasks = [Task("win", "lgame", 3, level="medium"), Task("win", "booleo", 2),
             Task("finish", "digitalo", 1), Task("daily", "turing", 1),
             Task("daily", "turing", 3), Task("solve", "turing", 5, band="hard", par=True)]
    for language in ("en", "nl", "de"):
        texts = [describe(task, language) for task in tasks]
        assert all(texts) and len(set(texts)) == len(texts)
    assert describe(tasks[0], "en") == "Win 3 × L-game against the medium computer"
    assert describe(tasks[-1], "en") == ("Solve 5 × Turing Machine (hard), in at most the "
                                         "machine's par")


async def test_moderators_set_and_close_work_and_anyone_lists_it(store: Store) -> None:
    assignments = Assignments(store)

    async def ask(place: Place, who: User, text: str, moderator: bool) -> Answer:
        return await assignments.command(place, who, said(text), moderator)

    refused = await ask(CLASS, ALICE, "win 3 lgame", False)
    assert "Only moderators" in refused.text and not refused.public
    created = await ask(CLASS, BOB, "win 3 lgame easy by 2026-12-31", True)
    assert created.public and ("Assignment 1: Win 3 × L-game against the easy computer, by "
                               "2026-12-31") in created.text
    listed = await ask(CLASS, ALICE, "list", False)
    assert "1. Win 3 × L-game against the easy computer — 2026-12-31" in listed.text
    assert not listed.public
    assert "No open assignment 9" in (await ask(CLASS, BOB, "close 9", True)).text
    closed = await ask(CLASS, BOB, "close 1", True)
    assert "closed" in closed.text and closed.public
    assert "No open assignments" in (await ask(CLASS, ALICE, "", False)).text
    other_class = Place("test", "elsewhere", server="class-8a")
    assert "closed" not in (await ask(other_class, BOB, "close 1", True)).text
    assert "not here" in (await ask(ALICE_ALONE, BOB, "daily", True)).text


async def test_progress_counts_the_games_finished_after_the_work_was_set(store: Store) -> None:
    seeds = iter(range(500, 600))
    service = Service(store, seed_source=lambda: next(seeds))
    assignments = Assignments(store)
    # A puzzle solved before the work was set does not count.
    await solve_the_puzzle(service, ALICE_ALONE)
    for words in ("solve 2 turing", "solve 1 turing par", "win 1 lgame", "finish 1 lgame"):
        assert (await assignments.command(CLASS, CAROL, words.split(), True)).public

    # Alice solves a puzzle alone in her private chat: it counts for her class's work.
    outcome_detail = await solve_the_puzzle(service, ALICE_ALONE)
    # Alice and Bob play an L-game in class; Bob resigns, so Alice wins and both finished.
    assert (await service.start_game(CLASS, ALICE, "lgame", Opponent("user", user=BOB))).ok
    assert (await service.resign(CLASS, BOB)).ok

    alice = await assignments.progress(CLASS, ALICE)
    par = 1 if outcome_detail.get("beat_machine") else 0
    assert "⬜ 1. Solve 2 × Turing Machine: 1/2" in alice
    assert f"2. Solve 1 × Turing Machine, in at most the machine's par: {par}/1" in alice
    assert "✅ 3. Win 1 × L-game: 1/1" in alice and "✅ 4. Play 1 × L-game to the end: 1/1" \
        in alice
    bob = await assignments.progress(CLASS, BOB)
    assert "⬜ 3. Win 1 × L-game: 0/1" in bob and "✅ 4. Play 1 × L-game to the end: 1/1" in bob

    table = await assignments.class_table(CLASS)
    assert table.splitlines()[5:] == [f"Alice — 1: 1 · 2: {'✅' if par else 0} · 3: ✅ · 4: ✅",
                                      "Bob — 1: 0 · 2: 0 · 3: 0 · 4: ✅"]
    header, *rows = csv.reader(io.StringIO(await assignments.class_csv(CLASS)))
    week = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=7)).isoformat()
    assert header == ["name", f"1: Solve 2 × Turing Machine (of 2, by {week})",
                      f"2: Solve 1 × Turing Machine, in at most the machine's par (of 1, by "
                      f"{week})", f"3: Win 1 × L-game (of 1, by {week})",
                      f"4: Play 1 × L-game to the end (of 1, by {week})"]
    assert rows == [["Alice", "1", str(par), "1", "1"], ["Bob", "0", "0", "0", "1"]]


async def test_a_game_with_a_hint_does_not_count(store: Store) -> None:
    seeds = iter(range(700, 800))
    service = Service(store, seed_source=lambda: next(seeds))
    assignments = Assignments(store)
    assert (await assignments.command(CLASS, CAROL, said("solve 1 turing"), True)).public
    started = await service.start_game(ALICE_ALONE, ALICE, "turing", Opponent("ai"), OPTIONS)
    assert started.ok
    # The hint voids the puzzle's counting, so it asks first; the yes takes it.
    asked = await service.hint(ALICE_ALONE, ALICE)
    assert asked.confirm is not None, asked.notice
    assert (await service.press(ALICE_ALONE, ALICE, asked.confirm.payload)).ok
    for text in ("propose 241", "test B", "guess 241"):
        assert (await service.move(ALICE_ALONE, ALICE, text)).ok, text
    assert "⬜ 1. Solve 1 × Turing Machine: 0/1" in await assignments.progress(CLASS, ALICE)


async def solve_the_puzzle(service: Service, place: Place) -> dict[str, object]:
    """Alice solves the known puzzle (code 241) in one round; the outcome's detail."""
    started = await service.start_game(place, ALICE, "turing", Opponent("ai"), OPTIONS)
    assert started.ok, started.notice
    reply = None
    for text in ("propose 241", "test B", "guess 241"):
        reply = await service.move(place, ALICE, text)
        assert reply.ok, (text, reply.notice)
    assert reply is not None and reply.finished
    record = await service.store.last_finished_game(place.platform, place.channel)
    assert record is not None
    outcome = get_game("turing").State.from_dict(record.state).outcome()
    assert outcome is not None and 0 in outcome.winners
    return dict(outcome.detail)
