"""How each database spells the statements the two stores share (issue 39).

The shared statements (``queries*.py``) are written once, in SQL both databases take, with

* named parameters, ``:name``. SQLite binds them by name; for PostgreSQL they become
  ``$1, $2 …`` in order of first use, so a name used twice is one parameter;
* list parameters, always written ``IN (:names)``: a list of text. SQLite gets one
  parameter per item (``IN (:names_0,:names_1)``), PostgreSQL ``= ANY($n::text[])``, one
  statement whatever the length;
* words in braces, ``{now}``, for what the databases spell each their own way (below). A
  shared statement holds no other braces.

What needs no word, because one spelling serves both: upserts are ``INSERT … ON CONFLICT
(…) DO UPDATE SET c=excluded.c`` (a ``WHERE`` after it names the table's columns in full);
``true``/``false`` (SQLite stores 1 and 0); a count by condition is ``SUM(CASE WHEN … THEN 1
ELSE 0 END)``; a ``GROUP BY`` names every column the statement selects unaggregated, as
PostgreSQL requires; a number is made a float with ``CAST(… AS DOUBLE PRECISION)``. A new
row's id is ``Runner.insert`` (SQLite's ``lastrowid``, PostgreSQL's ``RETURNING id``), and a
unique key's refusal is ``Duplicate`` on both (``runner.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# ``:name`` outside quotes, not a PostgreSQL cast (``::jsonb``).
_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_LIST = re.compile(r"IN \(:([A-Za-z_]\w*)\)")


@dataclass(frozen=True)
class Seats:
    """``{seat[kind]}``: a field of one seat of ``{seats}``, as text (NULL when missing)."""

    template: str  # with {field}

    def __getitem__(self, name: str) -> str:
        return self.template.format(field=name)


@dataclass
class Dialect:
    name: str
    numbered: bool  # PostgreSQL's $1, $2 … rather than SQLite's :name
    words: Mapping[str, object]
    _compiled: dict[str, tuple[str, tuple[str, ...]]] = field(
        default_factory=dict, init=False, repr=False)

    def _compile(self, query: str) -> tuple[str, tuple[str, ...]]:
        """The statement in this database's words, and (numbered) its parameters' names in
        order; cached, so a statement is rewritten once per process."""
        done = self._compiled.get(query)
        if done is not None:
            return done
        text = query.format_map(self.words) if "{" in query else query
        names: list[str] = []
        if self.numbered:
            text = _LIST.sub(r"= ANY(:\1::text[])", text)
            pieces = text.split("'")
            for n in range(0, len(pieces), 2):  # outside quoted literals
                pieces[n] = _NAMED.sub(lambda found: self._number(found[1], names),
                                       pieces[n])
            text = "'".join(pieces)
        done = self._compiled[query] = (text, tuple(names))
        return done

    @staticmethod
    def _number(name: str, names: list[str]) -> str:
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    def statement(self, query: str) -> str:
        """The statement as this database takes it, for a driver's own calls."""
        return self._compile(query)[0]

    def named(self, query: str, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """SQLite: the statement and its parameters by name, a list parameter spread out
        into one parameter per item."""
        text, _ = self._compile(query)
        lists = [name for name, value in params.items() if isinstance(value, list | tuple)]
        if not lists:
            return text, dict(params)
        bound = {name: value for name, value in params.items() if name not in lists}
        for name in lists:
            items = [f"{name}_{n}" for n in range(len(params[name]))]
            bound.update(zip(items, params[name], strict=True))
            text = text.replace(f"IN (:{name})", f"IN ({','.join(':' + i for i in items)})")
        return text, bound

    def numbered_args(self, query: str, params: Mapping[str, Any]) -> tuple[str, list[Any]]:
        """PostgreSQL: the statement and its parameters in ``$n`` order."""
        text, names = self._compile(query)
        return text, [list(value) if isinstance(value := params[name], tuple) else value
                      for name in names]


SQLITE = Dialect("sqlite", numbered=False, words={
    # Now in seconds since 1970 by the database's clock (``unixepoch`` needs SQLite 3.38).
    "now": "((julianday('now') - 2440587.5) * 86400.0)",
    "least": "MIN",
    "greatest": "MAX",
    # Text compared byte by byte: SQLite's own collation (BINARY) does it already.
    "bytewise": "",
    # Each seat in a game's players: none when the column is not JSON (a damaged row).
    "seats": "json_each(CASE WHEN json_valid(games.players) THEN games.players "
             "ELSE '[]' END) AS seat",
    "seat": Seats("json_extract(seat.value, '$.{field}')"),
    # The board reference with the version its board was last confirmed at.
    "shown_board_ref": "json_set(board_ref, '$.shown', :version)",
})

POSTGRES = Dialect("postgres", numbered=True, words={
    # Now by the server's clock, so processes on machines whose clocks differ agree on
    # when a claim lapses.
    "now": "extract(epoch FROM clock_timestamp())::double precision",
    "least": "LEAST",
    "greatest": "GREATEST",
    # Text is sorted and compared with the "C" collation, byte by byte as in SQLite, so
    # both stores return the very same rows in the same order whatever the server's
    # locale. (Only where a statement sorts or compares; an index on the column is then
    # not used, so it is not said where none is needed.)
    "bytewise": ' COLLATE "C"',
    # ``players`` is jsonb; a row whose players are no array has no seats.
    "seats": "jsonb_array_elements(CASE WHEN jsonb_typeof(games.players)='array' "
             "THEN games.players ELSE '[]'::jsonb END) AS seat",
    "seat": Seats("seat->>'{field}'"),
    "shown_board_ref": "(board_ref::jsonb || jsonb_build_object('shown', "
                       ":version::bigint))::text",
})
