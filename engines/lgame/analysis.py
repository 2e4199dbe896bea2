"""The L-game under perfect play: the best move now (a hint) and, after a game, every move
that threw away a result the position still held.

Both read the solved table (``engines.lgame.solver.solved_table``), so the first call in a process
builds it (about half a second); call them off the event loop.

A position's perfect result is the value for the player to move: win, draw or loss. A move
keeps it when the position it leaves the opponent is worth the opposite to them (a win
leaves them lost, a draw leaves them drawn). A *mistake* is a move after which the mover's
perfect result is worse than before: win to draw, win to loss, draw to loss.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engines.base import JSON, Action
from engines.lgame.agents import _loses_in_one, make_agent
from engines.lgame.board import PLACEMENTS, l_moves
from engines.lgame.solver import (
    LOSS,
    PAIR_INDEX,
    UNKNOWN,
    WIN,
    neutral_results,
    position_key,
    solved_table,
)
from engines.lgame.state import LGameState

# Results from the mover's side, worst first, so that a larger rank is better.
RANK = {"loss": 0, "draw": 1, "win": 2}


def _mover_result(value: int) -> str:
    return {WIN: "win", LOSS: "loss"}.get(value, "draw")


def _left_to_opponent(value: int) -> str:
    """What the mover holds after leaving the opponent a position of ``value``."""
    return {LOSS: "win", WIN: "loss"}.get(value, "draw")


@dataclass(frozen=True)
class Verdict:
    """The perfect result of the player to move, and in how many single moves it comes
    (0 for a draw)."""

    result: str
    distance: int

    def to_dict(self) -> JSON:
        return {"result": self.result, "distance": self.distance}


def verdict(state: LGameState) -> Verdict:
    """The perfect result of the position for the player to move."""
    table = solved_table(state.sudden_death)
    key = state.relative_key()
    value = table.value[key]
    return Verdict(_mover_result(value), table.distance[key] if value != UNKNOWN else 0)


def move_results(state: LGameState) -> dict[Action, str]:
    """Every legal move of the player to move, with the result it leaves the mover."""
    table = solved_table(state.sudden_death)
    player = state.turn
    other = state.ls[1 - player]
    other_mask = PLACEMENTS[other].mask
    results: dict[Action, str] = {}
    for target in l_moves(state.ls[player], other, state.neutrals):
        occupied = other_mask | PLACEMENTS[target].mask
        for after in neutral_results(state.neutrals, occupied, state.sudden_death):
            key = position_key(other, target, PAIR_INDEX[after])
            results[state._encode(target, after)] = _left_to_opponent(table.value[key])
    return results


def trap_threats(state: LGameState, seat: int, table: bool = True) -> list[JSON]:
    """The danger marks of issue 27 for ``seat``, the player to move: for each place their
    L may go, ``{"placement", "cells", "moves", "trapped"}``: its code, the squares it
    covers, how many moves (with each neutral step) put it there and how many of those let
    the opponent trap the L at once (a reply after which it has no place to go). [] when no
    move allows that, or when ``seat`` is not to move.

    A move allows it exactly when the position it leaves the opponent is a win for them in
    one single move, which the solved table says: so call this off the event loop, the
    table's first use builds it. ``table=False`` tries the opponent's replies instead
    (``engines.lgame.agents._loses_in_one``, the same answer in some milliseconds a position, no
    table): for a lesson's few positions, built where no pool is at hand."""
    if state.outcome() is not None or state.turn != seat:
        return []
    solved = solved_table(state.sudden_death) if table else None
    other = state.ls[1 - seat]
    other_mask = PLACEMENTS[other].mask
    found: list[JSON] = []
    for target in l_moves(state.ls[seat], other, state.neutrals):
        occupied = other_mask | PLACEMENTS[target].mask
        results = neutral_results(state.neutrals, occupied, state.sudden_death)
        if solved is None:
            trapped = sum(1 for after in results
                          if _loses_in_one(other, target, after, state.sudden_death))
        else:
            keys = [position_key(other, target, PAIR_INDEX[after]) for after in results]
            trapped = sum(1 for key in keys
                          if solved.value[key] == WIN and solved.distance[key] == 1)
        found.append({"placement": PLACEMENTS[target].code,
                      "cells": sorted(PLACEMENTS[target].cell_names),
                      "moves": len(results), "trapped": trapped})
    return found if any(entry["trapped"] for entry in found) else []


def perfect_move(state: LGameState, seed: int = 0) -> Action:
    """The perfect player's move: the quickest win, else a draw, else the longest loss."""
    return make_agent("perfect", random.Random(seed)).choose(state, state.turn)


def hint(state: LGameState, seat: int, seed: int = 0) -> JSON:
    """The perfect move for ``seat`` and what it holds: ``{"action", "text", "result",
    "distance"}``; the distance counts single moves to the end under perfect play."""
    if state.outcome() is not None or state.turn != seat:
        raise ValueError("not this seat's turn")
    now = verdict(state)
    action = perfect_move(state, seed)
    return {"game": "lgame", "kind": "perfect", "action": action,
            "text": state.action_text(action), **now.to_dict()}


def mistakes(state: LGameState, actions: list[Action]) -> list[JSON | None]:
    """For each of ``actions`` played from ``state`` (which this plays them on): None for a
    move that kept the mover's perfect result, else ``{"seat", "before", "after",
    "better", "better_text"}`` with a move that kept it."""
    found: list[JSON | None] = []
    for action in actions:
        if state.outcome() is not None:
            break
        seat = state.turn
        before = verdict(state).result
        results = move_results(state)
        after = results.get(action, before)
        if RANK[after] < RANK[before]:
            better = perfect_move(state, len(found))
            found.append({"seat": seat, "before": before, "after": after, "better": better,
                          "better_text": state.action_text(better)})
        else:
            found.append(None)
        state.apply(seat, action)
    return found
