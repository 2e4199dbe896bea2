"""Tournaments and assignments (issue 27), written once for both databases (issue 39; see
``queries``): one version-guarded row per tournament, one row per assignment, whose
progress is counted from the games and puzzles finished in its window."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.store.assignment_rows import (
    ASSIGNMENT_COLUMNS,
    AssignmentRecord,
    assignment_records,
)
from bot.store.errors import ChannelBusy
from bot.store.records import GAME_COLUMNS, GameRecord, dumps, loadable_games, now
from bot.store.runner import Duplicate, Runner
from bot.store.tournament_rows import (
    TOURNAMENT_COLUMNS,
    TournamentRecord,
    tournament_record,
    tournament_records,
)


class TournamentQueries:
    """Mixed into both stores, over ``_run``."""

    _run: Runner

    async def create_tournament(self, platform: str, server: str, channel: str,
                                state: dict[str, Any]) -> TournamentRecord:
        """A new tournament taking sign-ups; ``ChannelBusy`` when the channel has an open
        one."""
        stamp = now()
        try:
            tournament_id = await self._run.insert(
                "INSERT INTO tournaments (platform, server, channel, status, state, version, "
                "created_at, updated_at) "
                "VALUES (:platform, :server, :channel, 'signup', :state, 1, :stamp, :stamp)",
                platform=platform, server=server, channel=channel, state=dumps(state),
                stamp=stamp)
        except Duplicate as error:
            raise ChannelBusy(f"{platform}:{channel}") from error
        return TournamentRecord(tournament_id, platform, server, channel, "signup", state,
                                1, None, stamp, stamp)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        row = await self._run.row(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id=:id", id=tournament_id)
        return tournament_record(row) if row is not None else None

    async def tournaments(self, platform: str, *, server: str | None = None,
                          statuses: tuple[str, ...] = ()) -> list[TournamentRecord]:
        """The platform's tournaments, oldest first, within ``server`` and with one of
        ``statuses`` when given."""
        where = ["platform=:platform"]
        if server is not None:
            where.append("server=:server")
        if statuses:
            where.append("status IN (:statuses)")
        rows = await self._run.rows(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE {' AND '.join(where)} "
            "ORDER BY id", platform=platform, server=server, statuses=list(statuses))
        return tournament_records(rows)

    async def save_tournament(self, record: TournamentRecord, status: str,
                              state: dict[str, Any]) -> TournamentRecord | None:
        """Write the next version; None (and nothing written) when another writer saved
        ``record``'s version first."""
        stamp = now()
        written = await self._run.execute(
            "UPDATE tournaments SET status=:status, state=:state, version=:new_version, "
            "updated_at=:stamp WHERE id=:id AND version=:version",
            status=status, state=dumps(state), new_version=record.version + 1, stamp=stamp,
            id=record.id, version=record.version)
        if written != 1:
            return None
        return replace(record, status=status, state=state, version=record.version + 1,
                       updated_at=stamp)

    async def set_tournament_message(self, tournament_id: int,
                                     ref: dict[str, Any] | None) -> None:
        await self._run.execute("UPDATE tournaments SET message_ref=:ref WHERE id=:id",
                                ref=dumps(ref) if ref is not None else None,
                                id=tournament_id)


class AssignmentQueries:
    """Mixed into both stores, over ``_run``."""

    _run: Runner

    async def create_assignment(self, platform: str, server: str, channel: str,
                                task: dict[str, Any], created_by: str,
                                deadline: str) -> AssignmentRecord:
        stamp = now()
        assignment_id = await self._run.insert(
            "INSERT INTO assignments (platform, server, channel, task, created_by, "
            "created_at, deadline, status) VALUES (:platform, :server, :channel, :task, "
            ":created_by, :created_at, :deadline, 'open')",
            platform=platform, server=server, channel=channel, task=dumps(task),
            created_by=created_by, created_at=stamp, deadline=deadline)
        return AssignmentRecord(assignment_id, platform, server, channel, task,
                                created_by, stamp, deadline, "open")

    async def assignments(self, platform: str, server: str) -> list[AssignmentRecord]:
        return assignment_records(await self._run.rows(
            f"SELECT {ASSIGNMENT_COLUMNS} FROM assignments WHERE platform=:platform "
            "AND server=:server AND status='open' ORDER BY id",
            platform=platform, server=server))

    async def close_assignment(self, platform: str, server: str, assignment_id: int) -> bool:
        return await self._run.execute(
            "UPDATE assignments SET status='closed' WHERE id=:id AND platform=:platform "
            "AND server=:server AND status='open'",
            id=assignment_id, platform=platform, server=server) == 1

    async def finished_games_between(self, platform: str, since: str, until: str
                                     ) -> list[GameRecord]:
        return loadable_games(await self._run.rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE platform=:platform "
            "AND status='finished' AND updated_at BETWEEN :since AND :until ORDER BY id",
            platform=platform, since=since, until=until))

    async def people_of_server(self, platform: str, server: str) -> list[tuple[str, str]]:
        """Everyone who sat in a game of the server: id and (a) name."""
        rows = await self._run.rows(
            "SELECT {seat[id]}, MAX({seat[name]}) FROM games, {seats} "
            "WHERE games.platform=:platform AND games.server=:server "
            "AND {seat[kind]}='human' GROUP BY {seat[id]}", platform=platform, server=server)
        return [(str(row[0]), str(row[1])) for row in rows if row[0] is not None]
