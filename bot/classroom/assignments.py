"""Assignments (issue 27): work a moderator sets for a class with a deadline, counted from
the games the students play.

A task is one of:

* ``win N <game> [level]``: win N games (against the computer at ``level`` when given);
* ``finish N <game>``: play N games to their end;
* ``solve N turing [easy|standard|hard] [par]``: solve N Turing puzzles (of that band, in
  at most the machine's par when ``par`` is given);
* ``solve N <game> [theme]``: solve N of the trainer's puzzles of another game (issue 41,
  ``bot.puzzles.trainer``), of that theme when given: N different puzzles, each solved at its
  first try (a retry or "show me" is not the student's own solution);
* ``daily``: solve the Turing daily challenge (N days, 1 by default).

Nothing is started for an assignment: a student plays as always (in the class, in a
private chat, against the computer) and every game finished between the assignment's
creation and the end of its deadline day (UTC) counts, wherever it was played. A game in
which the student took a hint does not count: it is not their own work (``bot.hints``).
Students see their own progress; only moderators see the class table and its CSV.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.clock import Clock, utc_now
from bot.replies import Place, User
from bot.store import ForAssignments, GameRecord
from bot.store.assignment_rows import AssignmentRecord
from bot.store.puzzle_rows import SolvedPuzzle
from engines.base import GameError, Outcome
from engines.puzzles import puzzle_games, puzzle_generator
from engines.registry import game_names, get_game, resolve_name
from renderers.i18n import translate

log = logging.getLogger(__name__)

KINDS = ("win", "finish", "solve", "daily")
TURING = "turing"
BANDS = ("easy", "standard", "hard")
DEFAULT_DAYS = 7
MAX_DAYS = 366
MAX_COUNT = 100
# Open assignments per server: a term's worth; more is a mistake or a flood.
MAX_OPEN = 20


@dataclass(frozen=True)
class Task:
    kind: str
    game: str
    count: int = 1
    level: str | None = None  # win: only games against the computer at this level
    band: str | None = None  # solve: the Turing puzzle's difficulty
    par: bool = False  # solve: in at most the machine's par
    theme: str | None = None  # solve: the trainer puzzles' theme (another game's)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "game": self.game, "count": self.count,
                "level": self.level, "band": self.band, "par": self.par,
                "theme": self.theme}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Task:
        return cls(str(data["kind"]), str(data["game"]), int(data.get("count", 1)),
                   data.get("level"), data.get("band"), bool(data.get("par", False)),
                   data.get("theme"))

    @property
    def trainer(self) -> bool:
        """Whether the task counts the puzzle trainer's puzzles (not Turing games)."""
        return self.kind == "solve" and self.game != TURING


class TaskError(ValueError):
    """A task that cannot be read; ``text`` says what was expected, in the place's
    language."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _t(language: str, key: str, default: str, **params: object) -> str:
    return translate(language, key, default, **params)


def usage(language: str) -> str:
    return _t(language, "assign.usage",
              "Set work for the class, such as: win 3 lgame medium, finish 1 digitalo, "
              "solve 5 turing hard par, solve 10 lgame win-in-2, or daily; then optionally "
              "by 2026-12-01 or in 7 (days). Also: list, close <number>.")


def parse_task(words: list[str], today: dt.date, language: str
               ) -> tuple[Task, dt.date]:
    """The task and its deadline from the words after ``/assign``; ``TaskError`` with the
    reason otherwise."""
    words = [w.lower() for w in words if w]
    deadline = today + dt.timedelta(days=DEFAULT_DAYS)
    if len(words) >= 2 and words[-2] in ("by", "in"):
        deadline = _deadline(words[-2], words[-1], today, language)
        words = words[:-2]
    elif words and words[0] == "daily":
        deadline = today
    if not words or words[0] not in KINDS:
        raise TaskError(usage(language))
    kind, rest = words[0], words[1:]
    count = 1
    if rest and rest[0].isdecimal():
        count = int(rest[0])
        rest = rest[1:]
        if not 1 <= count <= MAX_COUNT:
            raise TaskError(_t(language, "assign.count", "The number of games must be from "
                                                         "1 to {most}.", most=MAX_COUNT))
    if kind == "daily":
        if rest:
            raise TaskError(usage(language))
        return Task("daily", TURING, count), deadline
    if not rest and kind == "solve":
        rest = [TURING]
    if not rest:
        raise TaskError(usage(language))
    try:
        game = resolve_name(rest[0])
    except GameError:
        raise TaskError(_t(language, "assign.game", "Unknown game '{name}'. Games: {games}.",
                           name=rest[0][:30], games=", ".join(game_names()))) from None
    rest = rest[1:]
    if kind == "solve":
        return _solve_task(game, count, rest, language), deadline
    level = None
    if kind == "win" and rest:
        levels = get_game(game).LEVELS
        if rest[0] not in levels:
            raise TaskError(_t(language, "assign.level", "Levels of {game}: {levels}.",
                               game=get_game(game).TITLE, levels=", ".join(levels)))
        level, rest = rest[0], rest[1:]
    if rest:
        raise TaskError(usage(language))
    return Task(kind, game, count, level=level), deadline


def _solve_task(game: str, count: int, rest: list[str], language: str) -> Task:
    if game in puzzle_games():
        themes = puzzle_generator(game).themes
        if len(rest) > 1 or (rest and rest[0] not in themes):
            raise TaskError(_t(language, "assign.solve_theme",
                               "{game} puzzles have these themes: {themes}.",
                               game=get_game(game).TITLE, themes=", ".join(themes)))
        return Task("solve", game, count, theme=rest[0] if rest else None)
    if game != TURING:
        raise TaskError(_t(language, "assign.solve_games",
                           "Puzzles are solved in the Turing Machine and in {games}; for "
                           "other games use win or finish.",
                           games=", ".join(get_game(name).TITLE for name in puzzle_games())))
    band, par = None, False
    for word in rest:
        if word in BANDS and band is None:
            band = word
        elif word == "par" and not par:
            par = True
        else:
            raise TaskError(usage(language))
    return Task("solve", TURING, count, band=band, par=par)


def _deadline(word: str, value: str, today: dt.date, language: str) -> dt.date:
    try:
        deadline = (today + dt.timedelta(days=int(value)) if word == "in"
                    else dt.date.fromisoformat(value))
    except (ValueError, OverflowError):
        deadline = None
    if deadline is None or not today <= deadline <= today + dt.timedelta(days=MAX_DAYS):
        raise TaskError(_t(language, "assign.deadline",
                           "The deadline must be a date from today to a year ahead, such as "
                           "by {example}, or a number of days, such as in 7.",
                           example=(today + dt.timedelta(days=DEFAULT_DAYS)).isoformat()))
    return deadline


def describe(task: Task, language: str) -> str:
    """The task as a sentence a student reads."""
    title = get_game(task.game).TITLE
    if task.kind == "win" and task.level:
        return _t(language, "assign.task.win_level",
                  "Win {count} × {game} against the {level} computer",
                  count=task.count, game=title, level=task.level)
    if task.kind == "win":
        return _t(language, "assign.task.win", "Win {count} × {game}", count=task.count,
                  game=title)
    if task.kind == "finish":
        return _t(language, "assign.task.finish", "Play {count} × {game} to the end",
                  count=task.count, game=title)
    if task.kind == "daily":
        return _t(language, "assign.task.daily", "Solve the daily challenge on {count} days",
                  count=task.count) if task.count > 1 else _t(
            language, "assign.task.daily_once", "Solve the daily challenge")
    if task.trainer:
        theme = (" (" + translate(language, f"puzzle.theme.{task.theme}",
                                  task.theme.replace("-", " ")) + ")" if task.theme else "")
        return _t(language, "assign.task.solve_puzzles",
                  "Solve {count} {game} puzzles{theme}, each at the first try",
                  count=task.count, game=title, theme=theme)
    band = (" (" + _t(language, f"turing.difficulty.{task.band}", task.band) + ")"
            if task.band else "")
    text = _t(language, "assign.task.solve", "Solve {count} × {game}{band}",
              count=task.count, game=title, band=band)
    if task.par:
        text += _t(language, "assign.task.par", ", in at most the machine's par")
    return text


def window_of(record: AssignmentRecord) -> tuple[str, str]:
    """The times (stored ISO text, UTC) between which a finished game counts: from the
    assignment's creation to the end of its deadline day."""
    end = dt.datetime.combine(dt.date.fromisoformat(record.deadline), dt.time.max,
                              tzinfo=dt.UTC)
    return record.created_at, end.isoformat(timespec="milliseconds")


def _seat_of(record: GameRecord, platform: str, user_id: str) -> int | None:
    for seat, player in enumerate(record.players):
        if (player.get("kind") == "human" and str(player.get("id")) == user_id
                and player.get("platform", platform) == platform):
            return seat
    return None


def _outcome(record: GameRecord) -> Outcome | None:
    try:
        return get_game(record.game).State.from_dict(record.state).outcome()
    except Exception:  # a damaged row counts for nobody, and says so once
        log.exception("finished game %s does not load for assignments", record.id)
        return None


class Counter:
    """Counts tasks over one set of finished games, loading each game's outcome once."""

    def __init__(self, games: Iterable[GameRecord],
                 puzzles: Iterable[SolvedPuzzle] = ()) -> None:
        self.games = [g for g in games if g.status == "finished"]
        # The trainer's puzzles solved at the first try (``solve N <game>``).
        self.puzzles = list(puzzles)
        self._outcomes: dict[int, Outcome | None] = {}

    def outcome(self, record: GameRecord) -> Outcome | None:
        if record.id not in self._outcomes:
            self._outcomes[record.id] = _outcome(record)
        return self._outcomes[record.id]

    def done(self, task: Task, platform: str, user_id: str, window: tuple[str, str],
             solved_days: list[str]) -> int:
        """How much of ``task`` the person did within ``window`` (capped at the count)."""
        if task.kind == "daily":
            first, last = window[0][:10], window[1][:10]
            return min(task.count, sum(1 for day in solved_days if first <= day <= last))
        if task.trainer:
            return min(task.count, len({
                solved.code for solved in self.puzzles
                if solved.user_id == user_id and solved.game == task.game
                and window[0] <= solved.answered_at <= window[1]
                and (task.theme is None or task.theme in solved.themes)}))
        done = 0
        for record in self.games:
            if record.game != task.game or not window[0] <= record.updated_at <= window[1]:
                continue
            seat = _seat_of(record, platform, user_id)
            if seat is not None and self._counts(task, record, seat):
                done += 1
        return min(task.count, done)

    def _counts(self, task: Task, record: GameRecord, seat: int) -> bool:
        """Whether this finished game, in which the person sat at ``seat``, counts."""
        player = record.players[seat]
        if int(player.get("hints", 0) or 0) or player.get("left"):
            return False  # helped by a hint, or left before the end
        outcome = self.outcome(record)
        if outcome is None or outcome.reason == "abandoned":
            return False
        if task.kind == "finish":
            return True
        if seat not in outcome.winners:
            return False
        if task.kind == "win":
            others = [p for i, p in enumerate(record.players) if i != seat]
            return task.level is None or (bool(others) and all(
                p.get("kind") == "ai" and p.get("level") == task.level for p in others))
        # solve: a Turing puzzle, of the band, within par when asked
        if task.band and record.options.get("difficulty") != task.band:
            return False
        return not task.par or bool(outcome.detail.get("beat_machine"))


@dataclass(frozen=True)
class Answer:
    """What ``/assign`` answers; ``public`` when the class should read it (work set or
    closed), else only the asker."""

    text: str
    public: bool = False


@dataclass(frozen=True)
class Row:
    """One student's line of the class table."""

    name: str
    done: list[int]


class Assignments:
    """The service side of ``/assign`` and ``/progress``, over the game service's store."""

    def __init__(self, store: ForAssignments, clock: Clock = utc_now) -> None:
        self.store = store
        self.clock = clock

    def today(self) -> dt.date:
        return self.clock().astimezone(dt.UTC).date()

    async def command(self, place: Place, actor: User, words: list[str],
                      is_moderator: bool) -> Answer:
        """``/assign …``: list for anyone; set or close for moderators."""
        language = place.language
        if not place.server:
            return Answer(_t(language, "assign.servers_only",
                             "Assignments are set in a class's server or group, not here."))
        if not words or words[0].lower() == "list":
            return Answer(await self.listing(place))
        if not is_moderator:
            return Answer(_t(language, "assign.moderators_only",
                             "Only moderators set assignments; /progress shows yours."))
        if words[0].lower() == "close":
            return await self._close(place, words[1:])
        try:
            task, deadline = parse_task(words, self.today(), language)
        except TaskError as error:
            return Answer(error.text)
        if len(await self.store.assignments(place.platform, place.server)) >= MAX_OPEN:
            return Answer(_t(language, "assign.too_many",
                             "This class has {most} open assignments; close one first.",
                             most=MAX_OPEN))
        record = await self.store.create_assignment(
            place.platform, place.server, place.channel, task.to_dict(), actor.name,
            deadline.isoformat())
        return Answer(_t(language, "assign.created",
                         "📋 Assignment {number}: {task}, by {deadline}. Games finished from "
                         "now count; /progress shows where you stand.", number=record.id,
                         task=describe(task, language), deadline=deadline.isoformat()),
                      public=True)

    async def _close(self, place: Place, words: list[str]) -> Answer:
        language = place.language
        if len(words) != 1 or not words[0].isdecimal():
            return Answer(usage(language))
        closed = await self.store.close_assignment(place.platform, place.server,
                                                   int(words[0]))
        return (Answer(_t(language, "assign.closed", "📋 Assignment {number} is closed.",
                          number=words[0]), public=True) if closed
                else Answer(_t(language, "assign.not_found",
                               "No open assignment {number} here.", number=words[0])))

    async def listing(self, place: Place) -> str:
        records = await self.store.assignments(place.platform, place.server)
        if not records:
            return _t(place.language, "assign.none", "No open assignments in this class.")
        lines = [_t(place.language, "assign.list_title", "📋 Open assignments:")]
        for record in records:
            lines.append(f"{record.id}. {describe(Task.from_dict(record.task), place.language)}"
                         f" — {record.deadline}")
        return "\n".join(lines)

    async def _counter(self, records: list[AssignmentRecord], platform: str) -> Counter:
        since = min(record.created_at for record in records)
        until = max(window_of(record)[1] for record in records)
        return Counter(await self.store.finished_games_between(platform, since, until),
                       await self.store.solved_puzzles_between(platform, since, until))

    async def progress(self, place: Place, user: User) -> str:
        """The person's own progress on every open assignment of this class."""
        language = place.language
        if not place.server:
            return _t(language, "assign.servers_only",
                      "Assignments are set in a class's server or group, not here.")
        records = await self.store.assignments(place.platform, place.server)
        if not records:
            return _t(language, "assign.none", "No open assignments in this class.")
        counter = await self._counter(records, place.platform)
        days = await self.store.solved_days(place.platform, user.id,
                                            min(r.created_at for r in records)[:10])
        lines = [_t(language, "progress.title", "📋 Your progress:")]
        for record in records:
            task = Task.from_dict(record.task)
            done = counter.done(task, place.platform, user.id, window_of(record), days)
            mark = "✅" if done >= task.count else "⬜"
            lines.append(f"{mark} {record.id}. {describe(task, language)}: {done}/{task.count}"
                         f" — {record.deadline}")
        return "\n".join(lines)

    async def class_rows(self, place: Place) -> tuple[list[AssignmentRecord], list[Row]]:
        """Every open assignment and every student's counts (moderators only: callers
        check). Students are the people seen in this class's games, and anyone who did
        some of the work."""
        records = await self.store.assignments(place.platform, place.server)
        if not records:
            return [], []
        counter = await self._counter(records, place.platform)
        people = dict(await self.store.people_of_server(place.platform, place.server))
        for record in counter.games:
            for player in record.players:
                if player.get("kind") == "human" and record.server == place.server:
                    people.setdefault(str(player.get("id")), str(player.get("name", "?")))
        for solved in counter.puzzles:  # a student who only solved this class's puzzles
            if solved.server == place.server:
                people.setdefault(solved.user_id, solved.name)
        rows: list[Row] = []
        since = min(r.created_at for r in records)[:10]
        for user_id, name in people.items():
            days = await self.store.solved_days(place.platform, user_id, since)
            rows.append(Row(name, [counter.done(Task.from_dict(r.task), place.platform,
                                                user_id, window_of(r), days)
                                   for r in records]))
        rows.sort(key=lambda row: (-sum(row.done), row.name.casefold()))
        return records, rows

    async def class_table(self, place: Place) -> str:
        """The class table as text: one line per student, a column per assignment."""
        language = place.language
        records, rows = await self.class_rows(place)
        if not records:
            return _t(language, "assign.none", "No open assignments in this class.")
        lines = [_t(language, "progress.class_title", "📋 The class's progress:")]
        for record in records:
            lines.append(f"{record.id}. {describe(Task.from_dict(record.task), language)} "
                         f"— {record.deadline}")
        if not rows:
            lines.append(_t(language, "progress.nobody", "Nobody has played here yet."))
        for row in rows:
            cells = " · ".join(
                f"{record.id}: {'✅' if done >= Task.from_dict(record.task).count else done}"
                for record, done in zip(records, row.done, strict=True))
            lines.append(f"{row.name} — {cells}")
        return "\n".join(lines)

    async def class_csv(self, place: Place) -> str:
        """The class table as CSV: a column per assignment, the count done in each cell.
        Names only, no user ids, and formulas defused, as in the results export."""
        records, rows = await self.class_rows(place)
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["name"] + [f"{r.id}: {describe(Task.from_dict(r.task), 'en')} "
                                    f"(of {Task.from_dict(r.task).count}, by {r.deadline})"
                                    for r in records])
        for row in rows:
            name = "'" + row.name if row.name[:1] in ("=", "+", "-", "@") else row.name
            writer.writerow([name, *row.done])
        return buffer.getvalue()
