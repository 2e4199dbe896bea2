"""The ``Store`` protocol, in slices (issue 39): each declares one part of what the store
does, for the part of the bot that uses it, and ``Store`` is all of them, as
``SQLiteStore`` and ``PostgresStore`` implement it (``queries*.py`` and their own modules).

A feature is typed with what it uses: one slice (the trainer: ``PuzzleStore``), or the
slices it uses together (``ForClassroom`` and the like, below). The service owns the store
and hands it on, so it holds the whole ``Store``."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.store.assignment_rows import AssignmentRecord
from bot.store.puzzle_rows import (
    AnswerOutcome,
    NewPuzzleAttempt,
    PuzzleAnswer,
    PuzzleAttempt,
    PuzzlePlayer,
    PuzzleRating,
    SolvedPuzzle,
)
from bot.store.records import (
    TURING_DAILY,
    DailyAttempt,
    DailySchedule,
    ExportRow,
    Forgotten,
    GameRecord,
    GameUpdate,
    MoveRecord,
    PlayerStats,
    ResultRow,
    TurnTimer,
)
from bot.store.tournament_rows import TournamentRecord


class GameStore(Protocol):
    """Games and their move log: the service, and what lists or reads games."""

    async def create_game(self, platform: str, channel: str, game: str,
                          options: dict[str, Any], seed: int, state: dict[str, Any],
                          players: list[dict[str, Any]], status: str,
                          server: str = "") -> GameRecord: ...

    async def running_game(self, platform: str, channel: str) -> GameRecord | None: ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    async def running_games(self, platform: str, server: str) -> list[GameRecord]: ...

    async def count_running_games(self, platform: str, *, server: str | None = None,
                                  user_id: str | None = None) -> int: ...

    async def last_finished_game(self, platform: str, channel: str) -> GameRecord | None: ...

    async def games_with_status(self, *statuses: str) -> list[GameRecord]: ...

    async def save_game(self, record: GameRecord, update: GameUpdate) -> GameRecord | None:
        """Write ``update`` over ``record`` unless another save came first (then None).
        Once committed, returns ``record_after(record, update, <the save's moment>)``."""
        ...

    async def set_board_ref(self, game_id: int, ref: dict[str, Any] | None) -> None: ...

    async def record_shown(self, shown: Mapping[int, int]) -> None:
        """Note in each game's board reference (``"shown"``) the version its board message
        was last confirmed at, for many games in one write: what a restart compares with
        the game's version to find the boards that are behind."""
        ...

    async def moves(self, game_id: int) -> list[MoveRecord]: ...


class SettingsStore(Protocol):
    """Per-channel settings (language, boards, a class's roles and timers)."""

    async def get_setting(self, platform: str, channel: str, key: str) -> str | None: ...

    async def set_setting(self, platform: str, channel: str, key: str, value: str) -> None: ...


class ResultStore(Protocol):
    """Results and ratings (``bot.community``), and forgetting a person."""

    async def ratings_of(self, platform: str, user_ids: list[str], game: str
                         ) -> dict[str, float]: ...

    async def record_results(self, rows: list[ResultRow]) -> bool: ...

    async def game_results(self, game_id: int) -> list[ResultRow]: ...

    async def player_stats(self, platform: str, user_id: str) -> list[PlayerStats]: ...

    async def leaderboard(self, platform: str, game: str, server: str | None,
                          limit: int) -> list[PlayerStats]: ...

    async def forget_user(self, platform: str, user_id: str) -> Forgotten: ...

    async def server_results(self, platform: str, server: str) -> list[ExportRow]: ...


class DailyStore(Protocol):
    """The daily posts (``bot.puzzles.daily``): schedules per channel and game, the post's
    claim, the Turing challenge's attempts."""

    async def set_daily_schedule(self, schedule: DailySchedule) -> None: ...

    async def remove_daily_schedule(self, platform: str, channel: str,
                                    game: str = TURING_DAILY) -> bool: ...

    async def daily_schedules(self, platform: str | None = None) -> list[DailySchedule]: ...

    async def claim_daily_post(self, platform: str, channel: str, day: str, now: str,
                               until: str, game: str = TURING_DAILY) -> bool: ...

    async def finish_daily_post(self, platform: str, channel: str, day: str,
                                game: str = TURING_DAILY) -> None: ...

    async def release_daily_post(self, platform: str, channel: str, day: str,
                                 previous: str | None, game: str = TURING_DAILY) -> None: ...

    async def start_daily_attempt(self, attempt: DailyAttempt) -> bool: ...

    async def set_daily_attempt_game(self, day: str, platform: str, user_id: str,
                                     game_id: int | None) -> None: ...

    async def forget_daily_attempt(self, day: str, platform: str, user_id: str) -> None: ...

    async def withdraw_daily_attempt(self, day: str, platform: str, user_id: str,
                                     game_id: int) -> None:
        """Delete the attempt of ``game_id``, whatever its status: its puzzle never
        reached the player, so it does not count."""
        ...

    async def finish_daily_attempt(self, game_id: int, solved: bool, rounds: int, tests: int,
                                   beat_machine: bool) -> None: ...

    async def daily_attempt(self, day: str, platform: str, user_id: str
                            ) -> DailyAttempt | None: ...

    async def daily_attempts(self, day: str, server: str | None = None
                             ) -> list[DailyAttempt]: ...

    async def solved_days(self, platform: str, user_id: str, since: str) -> list[str]: ...


class TournamentStore(Protocol):
    """Tournaments (``tournament_rows``): one version-guarded row each."""

    async def create_tournament(self, platform: str, server: str, channel: str,
                                state: dict[str, Any]) -> TournamentRecord: ...

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None: ...

    async def tournaments(self, platform: str, *, server: str | None = None,
                          statuses: tuple[str, ...] = ()) -> list[TournamentRecord]: ...

    async def save_tournament(self, record: TournamentRecord, status: str,
                              state: dict[str, Any]) -> TournamentRecord | None: ...

    async def set_tournament_message(self, tournament_id: int,
                                     ref: dict[str, Any] | None) -> None: ...


class AssignmentStore(Protocol):
    """Assignments (``assignment_rows``), and what their progress is counted from: the
    games finished and the puzzles solved in their window, and who plays in the class."""

    async def create_assignment(self, platform: str, server: str, channel: str,
                                task: dict[str, Any], created_by: str,
                                deadline: str) -> AssignmentRecord: ...

    async def assignments(self, platform: str, server: str) -> list[AssignmentRecord]: ...

    async def close_assignment(self, platform: str, server: str,
                               assignment_id: int) -> bool: ...

    async def finished_games_between(self, platform: str, since: str, until: str
                                     ) -> list[GameRecord]: ...

    async def solved_puzzles_between(self, platform: str, since: str, until: str
                                     ) -> list[SolvedPuzzle]: ...

    async def people_of_server(self, platform: str, server: str
                               ) -> list[tuple[str, str]]: ...


class TimerStore(Protocol):
    """Turn timers (``bot.classroom``): each step claimed once per turn."""

    async def turn_timer(self, platform: str, channel: str) -> TurnTimer | None: ...

    async def start_turn_timer(self, timer: TurnTimer) -> None: ...

    async def claim_turn_timer(self, timer: TurnTimer, step: str) -> bool: ...


class CoordinationStore(Protocol):
    """What several bot processes need to agree on who changes a game, kept in the
    database (issue 26); the service calls it."""

    # Whether other processes may change the same games (PostgreSQL).
    shared: bool

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Held by one holder at a time for ``game_id``: on PostgreSQL across every process
        (a transaction-scoped advisory lock), on SQLite within this one. The version guard
        of ``save_game`` stays the safety net."""
        ...

    async def claim_computer_turn(self, game_id: int, version: int, holder: str,
                                  seconds: float) -> bool:
        """Take the computer's move of ``game_id`` at ``version`` for ``seconds``; True
        when ``holder`` has it now. A lapsed claim, or one for an older version, is taken
        over; the holder's own claim is renewed."""
        ...

    async def release_computer_turn(self, game_id: int, holder: str) -> None:
        """Give the claim back (the move is saved, or given up)."""
        ...

    async def take_rate_token(self, platform: str, user_id: str, burst: int,
                              per_second: float) -> int:
        """Count one command against the person's bucket in the database (``burst``
        tokens, refilled at ``per_second``), so that every process sees the same bucket:
        0 when they may act, else the whole seconds until they may. One statement, so two
        processes taking at once cannot both spend the last token."""
        ...


# Its name before the protocol was sliced.
TurnCoordination = CoordinationStore


class PuzzleStore(Protocol):
    """The puzzle trainer (``puzzle_rows``, issue 41)."""

    async def open_puzzle_attempt(self, attempt: NewPuzzleAttempt) -> PuzzleAttempt | None:
        """The new attempt, or None when the person has an open trainer puzzle of that
        game already (or, for a puzzle of the day, that day's of that game)."""
        ...

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttempt | None: ...

    async def open_puzzle(self, platform: str, user_id: str, game: str
                          ) -> PuzzleAttempt | None: ...

    async def daily_puzzle_attempt(self, platform: str, user_id: str, game: str,
                                   day: str) -> PuzzleAttempt | None: ...

    async def recent_puzzle_codes(self, platform: str, user_id: str, game: str,
                                  limit: int) -> list[str]: ...

    async def puzzle_player(self, platform: str, user_id: str, game: str
                            ) -> PuzzlePlayer | None: ...

    async def puzzle_players(self, platform: str, user_id: str) -> list[PuzzlePlayer]: ...

    async def puzzle_ratings(self, codes: list[str]) -> dict[str, PuzzleRating]: ...

    async def record_puzzle_answer(self, answer: PuzzleAnswer) -> AnswerOutcome:
        """The first answer and both new ratings in one transaction, each rating only
        over the row it was computed from; else nothing is written."""
        ...

    async def daily_puzzle_attempts(self, day: str, game: str, server: str | None = None
                                    ) -> list[PuzzleAttempt]: ...

    async def forget_puzzle_player(self, platform: str, user_id: str) -> int: ...


class Store(GameStore, SettingsStore, ResultStore, DailyStore, TournamentStore,
            AssignmentStore, TimerStore, CoordinationStore, PuzzleStore, Protocol):
    """Every slice: what a store is."""

    async def close(self) -> None: ...


# The slices a feature uses together (a slice alone is named by itself).
class ForClassroom(GameStore, SettingsStore, ResultStore, TimerStore, Protocol):
    """``bot.classroom``: turn timers, a class's settings, its running games and export."""


class ForCommunity(GameStore, ResultStore, Protocol):
    """``bot.community``: results, ratings, /forget-me over the person's games."""


class ForDailyChallenge(GameStore, SettingsStore, DailyStore, Protocol):
    """``bot.puzzles.daily``: schedules and attempts, the channel's settings, the attempt's game."""


class ForTournaments(GameStore, TournamentStore, Protocol):
    """``bot.tournaments``: its rows, and the games it pairs."""


class ForAssignments(AssignmentStore, DailyStore, Protocol):
    """``bot.classroom.assignments``: its rows and progress, and the days of daily challenges
    solved."""
