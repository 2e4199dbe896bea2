"""L-game puzzles, proven by the solved table (``engines/lgame/solver.py``).

Themes:

* ``win-in-N`` (N = 1 … 5): the player to move forces a win in N of their own moves and
  no sooner (the table's distance is ``2N - 1`` single moves). **Accepted: every first
  move that keeps the win at that shortest distance**, whatever its neutral step. A move
  that still wins but later is refused, as a mate in 4 is no answer to a mate in 2: the
  distance the table gives is exact, so "best" is well defined, and the proof lists each
  refused move's longer distance. Moves that win equally fast are all accepted, because
  the table cannot tell them apart; they often differ only in a neutral step that does not
  matter, and refusing one of them would punish a right answer.
* ``defend``: a drawn position in which every move that does not lose puts the L on the
  same place (the neutral step may vary): the only L move that holds. Accepted: every
  move that does not lose. ``only-move`` is added when exactly one move holds.

Extra theme tags: ``neutral`` when every accepted move moves a neutral piece, ``l-only``
when none does. Puzzles use the standard rules (no ``sudden_death``).

Positions are drawn uniformly from the table's positions of the theme, with the mover on a
seed-chosen seat; ``defend`` walks the drawn positions from a seed-chosen start with a
seed-chosen stride until one qualifies, which always ends, because qualifying positions
exist. The table is built once per process (about 0.6 s); after that a puzzle takes a few
milliseconds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

from engines.base import JSON, GameError, Message
from engines.lgame.board import PLACEMENTS, l_moves, mask_names
from engines.lgame.rules import neutral_step_text
from engines.lgame.solver import (
    LOSS,
    NEUTRAL_PAIRS,
    PAIR_INDEX,
    UNKNOWN,
    WIN,
    SolvedTable,
    all_position_keys,
    neutral_results,
    position_key,
    solved_table,
    split_key,
)
from engines.lgame.state import LGameState
from engines.puzzles.core import (
    Puzzle,
    Verdict,
    attempt_random,
    check_seed,
    choose_theme,
    rating_for,
)

GAME = "lgame"
WIN_THEMES = tuple(f"win-in-{moves}" for moves in range(1, 6))
THEMES = (*WIN_THEMES, "defend")
# The tags ``_tags`` may add to a puzzle's theme.
TAGS = ("only-move", "neutral", "l-only")
# How many refused moves of each kind the proof names (all are counted).
REFUSED_SAMPLES = 3
# A line drawn after a wrong answer stops after this many single moves.
LINE_LIMIT = 10


@dataclass(frozen=True)
class Scored:
    """A legal move, the position it leaves the opponent (a table key) and that
    position's value and distance, seen from the opponent."""

    action: str
    key: int
    value: int
    distance: int

    @property
    def result(self) -> str:
        """The move's result for the mover: ``win``, ``draw`` or ``loss``."""
        return {LOSS: "win", WIN: "loss"}.get(self.value, "draw")

    @property
    def moves(self) -> int:
        """In how many of their own moves the winner wins (0 for a draw)."""
        if self.value == LOSS:
            return self.distance // 2 + 1
        if self.value == WIN:
            return (self.distance + 1) // 2
        return 0

    def sort_key(self) -> tuple[int, int]:
        """Lower is better for the mover: a win (sooner first), a draw, a loss (later
        first), as the perfect player prefers."""
        if self.value == LOSS:
            return (0, self.distance)
        if self.value == UNKNOWN:
            return (1, 0)
        return (2, -self.distance)

    def to_dict(self) -> JSON:
        return {"move": self.action, "result": self.result, "moves": self.moves,
                "opponent_value": {LOSS: "loss", WIN: "win"}.get(self.value, "draw"),
                "opponent_distance": self.distance}


def scored_moves(table: SolvedTable, key: int) -> list[Scored]:
    """Every legal move of the mover in the table position ``key``, in the order the
    game's ``legal_actions`` lists them, each with the opponent's value afterwards."""
    mover, other, pair = split_key(key)
    neutrals = NEUTRAL_PAIRS[pair]
    other_mask = PLACEMENTS[other].mask
    scored: list[Scored] = []
    for target in l_moves(mover, other, neutrals):
        code = PLACEMENTS[target].code
        for after in neutral_results(neutrals, other_mask | PLACEMENTS[target].mask, False):
            step = neutral_step_text(neutrals, after)
            next_key = position_key(other, target, PAIR_INDEX[after])
            scored.append(Scored(f"{code} {step}" if step else code, next_key,
                                 table.value[next_key], table.distance[next_key]))
    return scored


def best_line(table: SolvedTable, key: int, limit: int = LINE_LIMIT) -> list[str]:
    """The line both sides play perfectly from table position ``key``: the first of the
    best moves each time, until the game ends or ``limit`` moves."""
    line: list[str] = []
    while len(line) < limit:
        moves = scored_moves(table, key)
        if not moves:
            break
        best = min(moves, key=Scored.sort_key)
        line.append(best.action)
        if best.value == UNKNOWN and len(line) >= 2:
            break  # a drawn line goes on for ever; two moves show the way out
        key = best.key
    return line


@cache
def _keys_with(value: int, distance: int) -> tuple[int, ...]:
    """Every table position of ``value`` at ``distance``, in key order (deterministic)."""
    table = solved_table(False)
    return tuple(key for key in all_position_keys()
                 if table.value[key] == value and (value == UNKNOWN
                                                   or table.distance[key] == distance))


def _position(key: int, seat: int, seed: int) -> LGameState:
    """The game at table position ``key`` with ``seat`` to move and no history."""
    mover, other, pair = split_key(key)
    ls = [PLACEMENTS[other].code, PLACEMENTS[other].code]
    ls[seat] = PLACEMENTS[mover].code
    data = LGameState({}, seed).to_dict()
    data.update(ls=ls, neutrals=mask_names(NEUTRAL_PAIRS[pair]), turn=seat, history=[])
    state = LGameState.from_dict(data)
    state.history = {state._absolute_key(): 1}
    return state


def _win_accepted(moves: list[Scored], theme_moves: int) -> list[Scored]:
    return [m for m in moves if m.value == LOSS and m.moves == theme_moves]


def _defend_accepted(moves: list[Scored]) -> list[Scored] | None:
    """The moves that do not lose, when they all put the L on one place and others lose."""
    holding = [m for m in moves if m.value != WIN]
    if not holding or len(holding) == len(moves):
        return None
    if len({split_key(m.key)[1] for m in holding}) != 1:
        return None
    return holding


def _difficulty(theme: str, moves: list[Scored], accepted: list[Scored]) -> tuple[int, int]:
    """Level and rating: the level from the win's length (or 3 for an only move, 2 for a
    defence with a choice of neutral step), the rating nudged up when few of the legal
    moves are accepted and down when many are."""
    # The share of accepted moves, on a log scale around its typical value for the theme
    # (about 1 in 64 for the wins, 1 in 6 for a defence), counts as one rating band.
    rarity = math.log2(len(moves) / len(accepted))
    nudge = (rarity - (2.6 if theme == "defend" else 6.0)) / 2.0
    if theme == "defend":
        level = 3 if len(accepted) == 1 else 2
    else:
        level = int(theme.removeprefix("win-in-"))
    return level, rating_for(level, nudge)


def _tags(theme: str, accepted: list[Scored]) -> tuple[str, ...]:
    tags = [theme]
    if theme == "defend" and len(accepted) == 1:
        tags.append("only-move")
    if all(" " in m.action for m in accepted):
        tags.append("neutral")
    elif not any(" " in m.action for m in accepted):
        tags.append("l-only")
    return tuple(tags)


def _refused_sample(refused: list[Scored]) -> JSON:
    """How many refused moves there are of each kind, and the first few of each."""
    kinds = {"win_later": [m for m in refused if m.value == LOSS],
             "draw": [m for m in refused if m.value == UNKNOWN],
             "loss": [m for m in refused if m.value == WIN]}
    return {"counts": {kind: len(found) for kind, found in kinds.items()},
            "sample": [m.to_dict() for found in kinds.values()
                       for m in found[:REFUSED_SAMPLES]]}


class LGamePuzzles:
    """The L-game's puzzle generator (``GENERATOR``)."""

    game = GAME
    code_prefix = "LG"
    themes = THEMES
    tags = TAGS
    version = 1

    def generate(self, seed: int, theme: str | None = None) -> Puzzle:
        seed = check_seed(seed)
        theme = choose_theme(GAME, THEMES, seed, theme)
        table = solved_table(False)
        rng = attempt_random(GAME, theme, seed, 0)
        seat = rng.randrange(2)
        if theme == "defend":
            pool = _keys_with(UNKNOWN, 0)
            start, stride = rng.randrange(len(pool)), _stride(rng, len(pool))
            for step in range(len(pool)):
                key = pool[(start + step * stride) % len(pool)]
                moves = scored_moves(table, key)
                accepted = _defend_accepted(moves)
                if accepted is not None:
                    return self._puzzle(seed, theme, key, seat, moves, accepted)
            raise GameError("puzzle.error.none_found",
                            "No {theme} puzzle was found for seed {seed}; try another seed.",
                            theme=theme, seed=seed)
        wins_in = int(theme.removeprefix("win-in-"))
        pool = _keys_with(WIN, 2 * wins_in - 1)
        start, stride = rng.randrange(len(pool)), _stride(rng, len(pool))
        for step in range(len(pool)):
            key = pool[(start + step * stride) % len(pool)]
            moves = scored_moves(table, key)
            accepted = _win_accepted(moves, wins_in)
            if len(accepted) < len(moves):  # a puzzle needs a move that is not the answer
                return self._puzzle(seed, theme, key, seat, moves, accepted)
        raise GameError("puzzle.error.none_found",
                        "No {theme} puzzle was found for seed {seed}; try another seed.",
                        theme=theme, seed=seed)

    def _puzzle(self, seed: int, theme: str, key: int, seat: int, moves: list[Scored],
                accepted: list[Scored]) -> Puzzle:
        table = solved_table(False)
        state = _position(key, seat, seed)
        answers = {m.action for m in accepted}
        refused = [m for m in moves if m.action not in answers]
        level, rating = _difficulty(theme, moves, accepted)
        proof: JSON = {
            "value": table.outcome_of(key),
            "moves_to_win": (table.distance[key] + 1) // 2 if table.value[key] == WIN else 0,
            "legal": len(moves),
            "accepted": [m.to_dict() for m in accepted],
            "refused": _refused_sample(refused),
            "line": [accepted[0].action, *best_line(table, accepted[0].key)],
        }
        return Puzzle(game=GAME, seed=seed, theme=theme, themes=_tags(theme, accepted),
                      level=level, rating=rating, state=state.to_dict(), seat=seat,
                      accepted=tuple(m.action for m in accepted), proof=proof)

    def picture(self, puzzle: Puzzle) -> list[str]:
        """The board as text, rank 4 on top: X and O the Ls (seat 0 and 1), n the
        neutral pieces, and who is to move."""
        state = puzzle.position()
        assert isinstance(state, LGameState)
        marks = {cell: "n" for cell in range(16) if state.neutrals >> cell & 1}
        for seat, mark in enumerate("XO"):
            marks.update({cell: mark for cell in range(16)
                          if PLACEMENTS[state.ls[seat]].mask >> cell & 1})
        rows = [f"{rank + 1} " + " ".join(marks.get(rank * 4 + file, ".")
                                          for file in range(4))
                for rank in range(3, -1, -1)]
        return [*rows, "  a b c d", f"{'XO'[puzzle.seat]} to move"]

    def judge(self, puzzle: Puzzle, action: str) -> Verdict:
        state = puzzle.position()
        assert isinstance(state, LGameState)
        try:
            canonical = state.parse_action(action, puzzle.seat)
        except GameError as error:
            return Verdict(False, Message(error.key, error.default, **error.params), ())
        table = solved_table(False)
        moves = {m.action: m for m in scored_moves(table, state.relative_key())}
        chosen = moves[canonical]
        best = moves[puzzle.accepted[0]]
        line = (canonical, *best_line(table, chosen.key))
        move, answer = state.action_text(canonical), state.action_text(best.action)
        if canonical in puzzle.accepted:
            return Verdict(True, _right_reason(puzzle.theme, move, chosen, len(puzzle.accepted)),
                           line)
        return Verdict(False, _wrong_reason(move, chosen, answer, best), line)


def _right_reason(theme: str, move: str, chosen: Scored, holding: int) -> Message:
    if theme == "defend":
        if holding == 1:
            return Message("puzzle.lgame.only_move",
                           "{move} is the only move that holds: every other one loses.",
                           move=move)
        return Message("puzzle.lgame.holds",
                       "{move} holds: only this place of your L does not lose.", move=move)
    if chosen.moves == 1:
        return Message("puzzle.lgame.traps",
                       "{move} wins: the other L has no place left to go.", move=move)
    return Message("puzzle.lgame.wins_in",
                   "{move} wins in {moves}: whatever the other side plays, its L is trapped "
                   "within {moves} of your moves.", move=move, moves=chosen.moves)


def _wrong_reason(move: str, chosen: Scored, answer: str, best: Scored) -> Message:
    if chosen.value == WIN:
        return Message("puzzle.lgame.loses",
                       "After {move} the other side wins in {moves}; {answer} was the move.",
                       move=move, moves=chosen.moves, answer=answer)
    if chosen.value == UNKNOWN:
        return Message("puzzle.lgame.draws",
                       "{move} lets the win slip: the game is only drawn. {answer} wins in "
                       "{moves}.", move=move, answer=answer, moves=best.moves)
    return Message("puzzle.lgame.slower",
                   "{move} still wins, but in {slower}; {answer} wins in {moves}.",
                   move=move, slower=chosen.moves, answer=answer, moves=best.moves)


def _stride(rng: random.Random, size: int) -> int:
    """A step through ``size`` positions that visits every one: coprime to ``size``."""
    stride = rng.randrange(1, size) if size > 1 else 1
    while math.gcd(stride, size) != 1:
        stride += 1
    return stride


GENERATOR = LGamePuzzles()
