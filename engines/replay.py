"""A finished game rebuilt step by step from its seed and its action log: a replay.

Pure: the final state's dict holds everything (options, seed and the action list), so a
replay needs no database. Each frame is plain data (JSON-safe views, the events the move
produced, and the move's text), so a worker process can build the frames and send them
back, and renderers can draw any of them later.

Views are taken as the game shows them: ``view(None)`` for the public board and, in games
with hidden hands, ``view(seat)`` for every seat. Replays are for finished games only
(``FinishedOnly``): showing every hand at every step is then no secret any more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.base import JSON, Action, Event, GameError, GameState, StateError
from engines.json_copy import copy_json
from engines.registry import get_game


class FinishedOnly(ValueError):
    """A replay was asked for a game that is still running."""


@dataclass
class Frame:
    """The game after one action (or at its start, ``seat`` and ``action`` None).

    ``text`` is the move as a player reads it (an engine ``Message`` where the engine
    builds one, so it translates); ``kind`` is ``start``, ``action``, ``resign`` or
    ``end`` (the stored end, when the log stops before it: a resignation or abandonment).
    """

    kind: str
    seat: int | None
    action: Action | None
    text: str
    events: list[Event]
    public: JSON
    private: list[JSON] = field(default_factory=list)

    def to_dict(self) -> JSON:
        return {"kind": self.kind, "seat": self.seat, "action": self.action,
                "text": self.text, "events": self.events, "public": self.public,
                "private": self.private}


def logged_actions(game: str, final: JSON) -> list[tuple[int | None, Action]]:
    """``(seat, action)`` pairs of a state's own log. Turn-based games store bare actions,
    each by the seat to move then (``None`` here); the Turing Machine stores seats, and
    its resignations as the action ``resign``."""
    raw: list[Any] = list(final.get("actions") or [])
    if game == "turing":
        return [(int(seat), str(action)) for seat, action in raw]
    return [(None, str(action)) for action in raw]


def initial_state(game: str, final: JSON, players: int) -> GameState:
    """The game at its start. A Turing game is rebuilt from its stored puzzle and machine
    scores: generating it again would cost seconds and give the same puzzle."""
    module = get_game(game)
    options = dict(final.get("options") or {})
    seed = int(final.get("seed", 0))
    if game == "turing":
        from engines.turing.puzzle import Puzzle
        from engines.turing.state import TuringState
        return TuringState(options, players, seed, Puzzle.from_dict(final["puzzle"]),
                           final.get("machine"))
    return module.new_game(options, players, seed)


def _views(state: GameState, players: int, hidden: bool) -> tuple[JSON, list[JSON]]:
    public = copy_json(state.view(None))
    private = [copy_json(state.view(seat)) for seat in range(players)] if hidden else []
    return public, private


def replay_frames(game: str, final: JSON, players: int) -> list[Frame]:
    """Every frame of a finished game, from the start to its stored end.

    Raises ``FinishedOnly`` for a running game. A log that no longer replays (an engine
    changed its rules since) ends the frames where it stops, followed by the stored end;
    a resignation or abandonment, which two-player games keep out of their log, is the
    last frame.
    """
    module = get_game(game)
    if not final.get("outcome"):
        raise FinishedOnly(f"{game} game is not over")
    hidden = module.INFO.hidden_information
    if game == "turing":  # a lobby ended before it filled up still lists its open seat
        players = len(final.get("sheets") or []) or players
    state = initial_state(game, final, players)
    public, private = _views(state, players, hidden)
    frames = [Frame("start", None, None, "", [], public, private)]
    for seat, action in logged_actions(game, final):
        try:
            if seat is None:
                movers = state.to_move()
                if len(movers) != 1:
                    break
                seat = movers[0]
            if action == "resign":
                events, kind, text = state.resign(seat), "resign", ""
            else:
                text = state.action_text(action)
                events, kind = state.apply(seat, action), "action"
        except (GameError, StateError, ValueError):
            break
        public, private = _views(state, players, hidden)
        frames.append(Frame(kind, seat, action, text, copy_json(events), public, private))
    if state.outcome() is None:
        frames.append(_stored_end(module, state, final, players, hidden))
    return frames


def _stored_end(module: Any, state: GameState, final: JSON, players: int,
                hidden: bool) -> Frame:
    """The end the log does not hold: a resignation or abandonment of two-player games
    (whose outcome names the loser) played on the replayed game, else the stored state
    itself."""
    outcome = final.get("outcome") or {}
    detail = outcome.get("detail") or {}
    try:
        if outcome.get("reason") == "resigned" and "loser" in detail:
            loser = int(detail["loser"])
            events = state.resign(loser)
            public, private = _views(state, players, hidden)
            return Frame("resign", loser, None, "", copy_json(events), public, private)
        if outcome.get("reason") == "abandoned":
            events = state.abandon()
            public, private = _views(state, players, hidden)
            return Frame("end", None, None, "", copy_json(events), public, private)
    except GameError:
        pass
    stored = module.State.from_dict(final)
    public, private = _views(stored, players, hidden)
    return Frame("end", None, None, "", [], public, private)
