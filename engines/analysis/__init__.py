"""Hints and replays of every game, as plain-data jobs.

The bot runs these in its CPU pool, which may be other processes, so both take and return
only plain data (a game's name, state dicts, JSON with ``engines.base.Message`` texts) and
rebuild what they need from the engine registry. Each game's own analysis lives in its own
module: ``engines.lgame.analysis``, ``engines.turing.analysis``,
``engines.rithmomachia.analysis``, and ``card_hints`` here for the two card games.
"""

from __future__ import annotations

from engines.base import JSON
from engines.registry import get_game
from engines.replay import initial_state, logged_actions, replay_frames

# Games a hint can be given for, and what the hint is.
HINT_GAMES = ("lgame", "turing", "booleo", "digitalo", "rithmomachia")


def dangers(game: str, state_data: JSON, seat: int, quick: bool = False) -> list[JSON]:
    """What ``seat`` could lose next move, for a board's danger marks (``bot.service.dangers``):
    Rithmomachia's pieces the opponent could capture (``{"target", "piece", "move",
    "equation"}`` each), bOOleO's gates a NOT on one start card would break
    (``{"card", "position", "gates"}``), Digitalo's gates an inverter on one bit card would
    discard or make inactive (``{"bit", "position", "removed", "inactive"}``), the L-game's
    places for the L with how many of their moves let the opponent trap it at once
    (``{"placement", "cells", "moves", "trapped"}``, [] when none does); [] for games that
    have no such marks. ``quick`` works the L-game's out without its solved table (some ms
    a position instead of a table built on first use, about a second): the lessons and the
    bot's marks (``bot.service.dangers``) use it."""
    if game == "booleo":
        from engines.booleo import BooleoState
        return BooleoState.from_dict(state_data).flip_threats(seat)
    if game == "digitalo":
        from engines.digitalo import DigitaloState
        return DigitaloState.from_dict(state_data).flip_threats(seat)
    if game == "lgame":
        from engines.lgame import LGameState
        from engines.lgame import analysis as lgame_analysis
        return lgame_analysis.trap_threats(LGameState.from_dict(state_data), seat,
                                           table=not quick)
    if game != "rithmomachia":
        return []
    from engines.rithmomachia import RithmomachiaState
    from engines.rithmomachia import analysis as rithmomachia_analysis
    state = RithmomachiaState.from_dict(state_data)
    return rithmomachia_analysis.threats(state, seat)


def hint(game: str, state_data: JSON, seat: int, seed: int) -> JSON:
    """The hint for ``seat`` in the game ``state_data``; ``ValueError`` when the seat has
    nothing to decide now. ``seed`` makes the computer's choice among equals repeatable."""
    state = get_game(game).State.from_dict(state_data)
    if game == "lgame":
        from engines.lgame import LGameState
        from engines.lgame import analysis as lgame_analysis
        assert isinstance(state, LGameState)
        return lgame_analysis.hint(state, seat, seed)
    if game == "turing":
        from engines.turing import analysis
        from engines.turing.state import TuringState
        assert isinstance(state, TuringState)
        return analysis.hint(state, seat)
    if game == "rithmomachia":
        from engines.rithmomachia import RithmomachiaState
        from engines.rithmomachia import analysis as rithmomachia_analysis
        assert isinstance(state, RithmomachiaState)
        return rithmomachia_analysis.hint(state, seat, seed)
    if game in ("booleo", "digitalo"):
        from engines.analysis import card_hints
        return card_hints.hint(state, seat, seed)
    raise ValueError(f"no hints for {game}")


def replay(game: str, final: JSON, players: int) -> JSON:
    """A finished game's frames (``engines.replay.Frame.to_dict``) and its analysis:
    ``{"game", "frames", "mistakes"?, "tests"?, "machine"?}``. The L-game adds, per frame,
    the move that changed the perfect result and a better one; the Turing Machine what
    each test ruled out and the machine's decision tree for the puzzle. Captures
    (Rithmomachia) are in the frames' events, hands (card games) in their private views."""
    frames = [frame.to_dict() for frame in replay_frames(game, final, players)]
    analysed: JSON = {"game": game, "frames": frames}
    if game == "lgame":
        from engines.lgame import LGameState
        from engines.lgame import analysis as lgame_analysis
        start = initial_state(game, final, players)
        assert isinstance(start, LGameState)
        actions = [action for _, action in logged_actions(game, final)]
        analysed["mistakes"] = [None, *lgame_analysis.mistakes(start, actions)]
    elif game == "turing":
        from engines.turing.analysis import machine_tree, ruled_out
        from engines.turing.puzzle import Puzzle
        puzzle = Puzzle.from_dict(final["puzzle"])
        analysed["tests"] = ruled_out(puzzle, frames)
        analysed["machine"] = machine_tree(puzzle)
    return analysed
