"""The console driven as a player at the keyboard: a ``Script`` that types lines and records
what the console prints, a session run on it, and readers of its numbered menus. Shared by
the console tests (tests/adapters/console/)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterator

from bot.adapters.console import ConsoleSession
from bot.service import Service
from bot.store import SQLiteStore

Brain = Callable[["Script", str], Awaitable[str | None]]


class Script:
    """Feeds lines to the console and records what it prints, prompts included, as a
    terminal shows them. Lines come from a list, a generator reading the output so far,
    or an async ``brain(script, prompt)`` that may look at the database."""

    def __init__(self, lines: list[str] | Callable[[list[str]], Iterator[str]] | None = None,
                 *, brain: Brain | None = None) -> None:
        self.output: list[str] = []
        self.clears = 0
        self._brain = brain
        self._lines: Iterator[str] = iter(())
        if isinstance(lines, list):
            self._lines = iter(lines)
        elif lines is not None:
            self._lines = lines(self.output)

    async def read(self, prompt: str) -> str | None:
        self.output.append(prompt)
        if self._brain is not None:
            return await self._brain(self, prompt)
        return next(self._lines, None)

    def write(self, text: str) -> None:
        self.output.append(text)

    def clear(self) -> None:
        self.clears += 1
        self.output.append("<clear>")

    @property
    def text(self) -> str:
        return "\n".join(self.output)


async def run_session(store: SQLiteStore, script: Script, language: str = "en",
                      page_lines: int | None = None, seed: int | None = None) -> None:
    """``seed``: every new game's seed, for a test whose game must be the same each run."""
    service = Service(store, seed_source=None if seed is None else lambda: seed)
    await ConsoleSession(service, script.read, script.write, language,
                         clear=script.clear, page_lines=page_lines).run()


def number_of(output: list[str], label: str) -> str:
    """The number of the last listed option whose label contains ``label``."""
    for line in reversed("\n".join(output).splitlines()):
        found = re.match(r"\s*(\d+)\) (.*)", line)
        if found and label in found.group(2):
            return found.group(1)
    raise AssertionError(f"no option {label!r} listed")


def listed_options(output: list[str]) -> list[str]:
    """The numbers of the menu printed last, without its "back" entry."""
    numbers: list[str] = []
    for line in reversed("\n".join(output[-30:]).splitlines()):
        found = re.match(r"\s*([1-9]\d*)\) ", line)
        if found is None:
            if numbers:
                break
            continue
        numbers.append(found.group(1))
    return numbers or ["1"]

