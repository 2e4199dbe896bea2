"""Tournaments as the store keeps them: one row per tournament with its JSON state, guarded
by a version like a game's row, so that two processes never both advance a round.

Read and written by the shared queries (``queries_classes``)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("bot.store")

# A tournament that still takes sign-ups, plays, or waits for its moderator: at most one
# per channel (a partial unique index), as with running games.
OPEN_TOURNAMENT = ("signup", "running", "paused")
TOURNAMENT_COLUMNS = ("id, platform, server, channel, status, state, version, message_ref, "
                      "created_at, updated_at")


@dataclass
class TournamentRecord:
    id: int
    platform: str
    server: str
    channel: str
    status: str  # signup, running, paused, finished (played to the end) or ended (stopped)
    state: dict[str, Any]
    version: int
    message_ref: dict[str, Any] | None = None  # the sign-up and standings message
    created_at: str = ""
    updated_at: str = ""

    @property
    def open(self) -> bool:
        return self.status in OPEN_TOURNAMENT


def tournament_record(row: Sequence[Any]) -> TournamentRecord | None:
    """The record of a row, or None (logged) for a row whose JSON does not load."""
    try:
        state = json.loads(row[5])
        ref = json.loads(row[7]) if row[7] else None
        if not isinstance(state, dict) or not (ref is None or isinstance(ref, dict)):
            raise ValueError("not an object")
    except ValueError as error:
        log.error("tournament %s does not load and is skipped: %s", row[0], error)
        return None
    return TournamentRecord(int(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]),
                            state, int(row[6]), ref, str(row[8]), str(row[9]))


def tournament_records(rows: Iterable[Sequence[Any]]) -> list[TournamentRecord]:
    return [record for record in map(tournament_record, rows) if record is not None]
