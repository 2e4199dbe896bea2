"""The one thing the shared queries ask of a database: run this statement (issue 39).

``SQLiteRunner`` (``sqlite.py``) and ``PostgresRunner`` (``postgres.py``) implement it over
their driver and ``dialect``: the statements are the shared ones (``queries*.py``), with
named parameters passed as keywords."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol


class Duplicate(Exception):
    """A unique key (or, on SQLite, another constraint) refused the row: a channel's second
    running game, a game counted twice, a second attempt of one day."""


class Runner(Protocol):
    async def rows(self, query: str, **params: Any) -> list[Sequence[Any]]: ...

    async def row(self, query: str, **params: Any) -> Sequence[Any] | None: ...

    async def value(self, query: str, **params: Any) -> Any:
        """The first column of the first row, or None without a row."""
        ...

    async def execute(self, query: str, **params: Any) -> int:
        """Run a statement that writes; the number of rows it wrote."""
        ...

    async def insert(self, query: str, **params: Any) -> int:
        """Run an ``INSERT`` of one row; the new row's id."""
        ...

    async def execute_many(self, query: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run a statement once per parameter set, every one in one transaction."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Runner]:
        """Statements that are written together or not at all: the block's runner runs
        them in one transaction, rolled back when the block raises."""
        ...

    def session(self) -> AbstractAsyncContextManager[Runner]:
        """Statements of one request that may be asked again if cut short (each is
        idempotent): one transaction on PostgreSQL, where other processes could see them
        half done; on SQLite, whose only writer is this process, one by one, as they
        always were, so that the group commit's saves are not held up meanwhile."""
        ...
