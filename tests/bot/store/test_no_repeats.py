"""Issue 39: no statement is written twice across the two databases' query code. Whatever
both databases do alike lives once (``bot/store/queries*.py`` over ``dialect.py``, the
migrations in ``schema.py``); the SQLite-side modules (``sqlite*.py``) and the
PostgreSQL-side ones (``postgres*.py``) keep only what differs. A scan for runs of six or
more identical lines, whitespace aside, between a module of one side and one of the other
finds none; nor when placeholders (``?``, ``$1``, ``:name``) are taken as one, so a
statement copied with only its placeholders changed counts too."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.paths import REPO_ROOT

STORE = REPO_ROOT / "bot" / "store"
RUN = 6  # consecutive lines that make a repeat
_PLACEHOLDER = re.compile(r"\$\d+|\?|(?<![:\w]):[A-Za-z_]\w*")


@dataclass(frozen=True)
class Repeat:
    """A run of ``length`` identical lines: at ``first`` in one text, ``second`` in the
    other (1-based line numbers of the run's first line)."""

    first: int
    second: int
    length: int
    lines: tuple[str, ...]


def _normalised(text: str) -> list[tuple[int, str]]:
    """The text's non-blank lines, each with its line number, whitespace collapsed and
    every placeholder written ``?``."""
    return [(number, _PLACEHOLDER.sub("?", " ".join(line.split())))
            for number, line in enumerate(text.splitlines(), start=1) if line.strip()]


def repeated_runs(first: str, second: str, length: int = RUN) -> list[Repeat]:
    """Every maximal run of at least ``length`` identical consecutive lines (blank lines
    and whitespace ignored) that the two texts share."""
    ones, others = _normalised(first), _normalised(second)
    at: dict[tuple[str, ...], list[int]] = {}
    for start in range(len(others) - length + 1):
        window = tuple(line for _, line in others[start:start + length])
        at.setdefault(window, []).append(start)
    found: list[Repeat] = []
    covered: set[tuple[int, int]] = set()  # (start in first, start in second) inside a run
    for start in range(len(ones) - length + 1):
        window = tuple(line for _, line in ones[start:start + length])
        for other in at.get(window, []):
            if (start, other) in covered:
                continue
            size = length
            while (start + size < len(ones) and other + size < len(others)
                   and ones[start + size][1] == others[other + size][1]):
                size += 1
            covered.update((start + n, other + n) for n in range(size))
            found.append(Repeat(ones[start][0], others[other][0], size,
                                tuple(line for _, line in ones[start:start + size])))
    return found


def _side(prefix: str) -> list[Path]:
    return sorted(STORE.glob(f"{prefix}*.py"))


def test_the_scanner_finds_a_planted_repeat_and_nothing_else() -> None:
    statement = ["    rows = await run.rows(",
                 '        "SELECT day FROM daily_attempts WHERE platform=:platform "',
                 '        "AND user_id=:user_id AND status=\'solved\' "',
                 '        "AND day>=:since ORDER BY day",',
                 "        platform=platform, user_id=user_id, since=since)",
                 "    return [str(row[0]) for row in rows]"]
    first = "\n".join(["def one():", "    x = 1", *statement, "", "def two(): pass"])
    # The same six lines indented otherwise, with a blank line inside: still a repeat.
    second = "\n".join(["class Other:", "  async def solved(self):",
                        *(" " + line for line in statement[:3]), "",
                        *(line.strip() for line in statement[3:]), "  y = 2"])
    [found] = repeated_runs(first, second)
    assert (found.first, found.second, found.length) == (3, 3, 6)
    assert found.lines[1].startswith('"SELECT day FROM daily_attempts')
    assert repeated_runs(first, second, length=7) == []
    # Five shared lines are no repeat; one changed line breaks the run.
    assert repeated_runs("\n".join(statement[:5]), "\n".join(statement[:5])) == []
    changed = [*statement[:3], statement[3].replace(">=", ">"), *statement[4:]]
    assert repeated_runs("\n".join(statement), "\n".join(changed)) == []
    # Only the placeholders changed: still the same statement.
    numbered = [line.replace(":platform", "$1").replace(":user_id", "$2")
                .replace(":since", "$3") for line in statement]
    assert len(repeated_runs("\n".join(statement), "\n".join(numbered))) == 1
    # A longer run is reported once, with its whole length.
    longer = "\n".join([*statement, "    done = True", "    return done"])
    [whole] = repeated_runs(longer, longer)
    assert (whole.first, whole.second, whole.length) == (1, 1, 8)


def test_no_run_of_six_lines_is_written_for_both_databases() -> None:
    sqlite_side, postgres_side = _side("sqlite"), _side("postgres")
    assert len(sqlite_side) >= 2 and len(postgres_side) >= 2  # the sides were found
    repeats = [f"{one.name}:{repeat.first} = {other.name}:{repeat.second} "
               f"({repeat.length} lines: {repeat.lines[0]!r} …)"
               for one in sqlite_side for other in postgres_side
               for repeat in repeated_runs(one.read_text(), other.read_text())]
    assert repeats == [], "\n".join(repeats)
