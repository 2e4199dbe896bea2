"""What every chat adapter says the same way: names, whose turn it is, who is thinking.

Each platform formats these lines its own way (Markdown on Discord, HTML on Telegram);
the sentences come from here so that both platforms tell players the same thing.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from bot.service import Board, Button, Place, Reply, Service
from engines.base import grid_width as grid_width  # a board's grid keeps its shape
from renderers.i18n import DEFAULT_LANGUAGE, normalise_language, translate

log = logging.getLogger(__name__)

MAX_AI_TURNS_IN_A_ROW = 8
SHOWN_VERSIONS_KEPT = 10_000
# Board places kept (``BoardVersions.keep_ref``): a few hundred bytes each.
BOARD_REFS_KEPT = 10_000


def valid_unicode(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD.

    Platform text may carry them (Telegram counts in UTF-16 units, so a cut can split a
    pair, and a lenient decode keeps undecodable bytes as surrogates), and the bot echoes
    what users type in its refusals; sending a lone surrogate fails in the HTTP client's
    UTF-8 encoder, and the user would get no answer at all.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def pick_language(candidates: Sequence[str | None]) -> str:
    """The first candidate locale the catalogue has, else English."""
    for code in candidates:
        if not code:
            continue
        language = normalise_language(code)
        # normalise_language answers English for languages it lacks: take that only
        # when English was what the candidate asked for.
        if language != DEFAULT_LANGUAGE or code.lower().startswith(DEFAULT_LANGUAGE):
            return language
    return DEFAULT_LANGUAGE


def turn_line(board: Board, language: str) -> str:
    """``▶ Alice: choose your move.``, or the bare prompt when no human is to move."""
    if not board.prompt:
        return ""
    humans = [str(p.get("name", "?")) for p in board.to_move if p.get("kind") == "human"]
    if not humans:
        return board.prompt
    return translate(language, "board.turn", name=", ".join(humans), prompt=board.prompt)


def thinking_line(board: Board, language: str) -> str:
    """``⏳ Computer (strong) is thinking…`` while the computer holds the move."""
    thinkers = [str(p.get("name", "?")) for p in board.to_move if p.get("kind") == "ai"]
    return translate(language, "board.waiting_for", name=", ".join(thinkers) or "…")


class AITurns:
    """The computer's moves, one task per channel: each move is shown through
    ``show(place, reply)`` before the next is asked for.

    A second request while a channel's task runs only makes that task look once more, as
    the running task may be about to stop on a reply that predates the request.
    """

    def __init__(self, service: Service,
                 show: Callable[[Place, Reply], Awaitable[None]]) -> None:
        self.service = service
        self.show = show
        self._running: set[str] = set()
        self._again: set[str] = set()

    async def run(self, place: Place) -> None:
        if place.channel in self._running:
            self._again.add(place.channel)
            return
        self._running.add(place.channel)
        try:
            for _ in range(MAX_AI_TURNS_IN_A_ROW):
                self._again.discard(place.channel)
                reply = await self.service.play_ai_turn(place)
                await self.show(place, reply)
                if not reply.ai_to_move and place.channel not in self._again:
                    break
        except Exception:
            log.exception("AI turn failed in %s", place.channel)
        finally:
            self._running.discard(place.channel)
            self._again.discard(place.channel)


class BackgroundWork:
    """Work an adapter starts and does not wait for (AI moves); kept referenced so that
    asyncio does not collect it half-way, and awaitable as a whole on shutdown and in
    tests."""

    _background: set[asyncio.Task[Any]]

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        tasks = self.__dict__.setdefault("_background", set())
        task = asyncio.get_running_loop().create_task(work)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def wait_for_background(self) -> None:
        tasks = self.__dict__.setdefault("_background", set())
        while tasks:
            await asyncio.gather(*list(tasks), return_exceptions=True)


class BoardVersions:
    """Per game, a lock around changes to its board message and the newest version drawn.

    Edits arrive out of order when a click and an AI move race; comparing versions keeps
    an older board from overwriting a newer one. Versions of finished games are kept (a
    late edit must not redraw a live board over the final one) but bounded, oldest first.
    """

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}
        # Where each board message is (the game's ``board_ref``), for the games drawn
        # last; only kept where this process is the database's only one (``keep_ref``).
        self._refs: OrderedDict[int, dict[str, Any]] = OrderedDict()

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def shown(self, game_id: int) -> int:
        """The newest version drawn, or -1."""
        return self._shown.get(game_id, -1)

    def newer_shown(self, game_id: int, version: int) -> bool:
        return self.shown(game_id) > version

    def show(self, game_id: int, version: int) -> None:
        self._shown[game_id] = max(version, self.shown(game_id))
        if len(self._shown) > SHOWN_VERSIONS_KEPT:
            for stale in list(self._shown)[: SHOWN_VERSIONS_KEPT // 2]:
                del self._shown[stale]

    def set_shown(self, game_id: int, version: int) -> None:
        """What the message shows now, even if older than what it showed before (an
        older board's edit that landed late)."""
        self._shown[game_id] = version

    def ref(self, game_id: int) -> dict[str, Any] | None:
        """Where the game's board message is, as last stored by this process (a copy), or
        None when it is not known here."""
        kept = self._refs.get(game_id)
        if kept is None:
            return None
        self._refs.move_to_end(game_id)
        return dict(kept)

    def keep_ref(self, game_id: int, ref: dict[str, Any]) -> None:
        """Remember where the board is. Only for a process that is its database's only
        one: then every change of a board's place is this process's own, and a draw need
        not read the whole game row, its state included, to learn a message id (two
        reads a move before). With other processes, one of them may post the board
        anew, so the store is asked every time. Its ``shown`` is left out: the version a
        board shows is ``shown``'s here, and ``ShownVersions`` writes it to the store."""
        self._refs[game_id] = {key: value for key, value in ref.items() if key != "shown"}
        self._refs.move_to_end(game_id)
        while len(self._refs) > BOARD_REFS_KEPT:
            self._refs.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """A finished game's lock goes, unless someone holds it right now."""
        lock = self._locks.get(game_id)
        if lock is not None and not lock.locked():
            del self._locks[game_id]


# Turing Machine puzzles offered as buttons, as (label, options); typed options give the rest.
PUZZLE_PRESETS: tuple[tuple[str, str], ...] = (
    ("Easy · 4", "easy verifiers=4"),
    ("Standard · 5", "standard verifiers=5"),
    ("Hard · 6", "hard verifiers=6"),
    ("Learner (assist)", "easy verifiers=4 assist"),
    ("Extreme · 4", "standard verifiers=4 extreme"),
    ("Nightmare · 4", "easy verifiers=4 nightmare"),
)


def runs_of(buttons: list[Button]) -> list[list[Button]]:
    """The menu cut into consecutive runs of one group (``Choice.group``; "" is a run of
    ordinary options)."""
    runs: list[list[Button]] = []
    for button in buttons:
        if runs and runs[-1][0].group == button.group:
            runs[-1].append(button)
        else:
            runs.append([button])
    return runs
