"""Assignments as the store keeps them (``bot.classroom.assignments``): one row each, its
task as JSON. Read and written by the shared queries (``queries_classes``)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("bot.store")

ASSIGNMENT_COLUMNS = ("id, platform, server, channel, task, created_by, created_at, "
                      "deadline, status")


@dataclass(frozen=True)
class AssignmentRecord:
    id: int
    platform: str
    server: str
    channel: str
    task: dict[str, Any]
    created_by: str
    created_at: str  # ISO time, UTC, as the games' times
    deadline: str  # ISO date: the last day whose games count (UTC)
    status: str  # open or closed


def assignment_records(rows: Iterable[Sequence[Any]]) -> list[AssignmentRecord]:
    """The records of rows; a row whose task does not load is logged and skipped."""
    records = []
    for row in rows:
        try:
            task = json.loads(row[4])
            if not isinstance(task, dict):
                raise ValueError("not an object")
        except ValueError as error:
            log.error("assignment %s does not load and is skipped: %s", row[0], error)
            continue
        records.append(AssignmentRecord(int(row[0]), str(row[1]), str(row[2]), str(row[3]),
                                        task, str(row[5]), str(row[6]), str(row[7]),
                                        str(row[8])))
    return records
