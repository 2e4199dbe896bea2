"""Boolean Rithmomachia puzzles: captures and victories found and proven exactly
(``engines/rithmomachia/puzzle_tactics.py``, on the computer player's search).

Themes:

* ``capture``: the side to move can capture; accepted are the moves that take the most,
  compared as the three victories are (Pyramids, then pieces, then value), at most three
  of them. No move may end the game (that is a victory puzzle), and the answer may not
  hand the opponent a win at once (a capture that loses is no answer).
* ``equation``: a ``capture`` whose every capturing equation is one a learner must learn
  to see (NOT, XOR, NAND, NOR; not the AND and OR that read like plain sums).
* ``teaching``: a ``capture`` under the teaching preset's rules (only NOT and NAND), for
  beginners; the puzzle's state carries those options.
* ``victory-in-1``: a move ends the game with the mover winning (it takes the other side's
  last Pyramids and the three victories go the mover's way); accepted: every such move.
* ``victory-in-2``: no win at once, but a move after which every reply leaves a win at
  once; accepted: every such move, each checked against every reply. A refused move is
  shown with the reply that defends.

Positions come from seed-driven games of a plausible beginner (``puzzle_playouts``):
capture puzzles from the first suitable position after a seed-chosen number of moves,
victory puzzles from the last moves of a game that ended. A position that does not suit
makes way for the seed's next attempt (``engines.puzzles.core.first_suitable``).
Extra theme tags: the equations' operations (``not``, ``nand``, …), ``filtering``,
``pyramid``, ``double`` (more than one piece taken), ``push``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from engines.base import JSON, GameError, Message
from engines.puzzles.core import Puzzle, Verdict, generate_by_attempts, rating_for
from engines.rithmomachia.board import (
    EMPTY,
    cell_at,
    code_label,
    is_pyramid,
    owner_of,
    piece_label,
    value_of,
)
from engines.rithmomachia.equations import OPS, capture_equations, rules_for
from engines.rithmomachia.moves import encode_move, move_parts, move_text, victories
from engines.rithmomachia.notation import parse_move_cells
from engines.rithmomachia.puzzle_playouts import Style, playout
from engines.rithmomachia.puzzle_positions import Node, node_of
from engines.rithmomachia.puzzle_tactics import Memory, Tactics, Taken
from engines.rithmomachia.rules import PRESETS, SEAT_NAMES
from engines.rithmomachia.state import RithmomachiaState

GAME = "rithmomachia"
CAPTURE_THEMES = ("capture", "equation", "teaching")
THEMES = ("capture", "equation", "victory-in-1", "victory-in-2", "teaching")
# The tags ``_capture_tags`` may add besides the themes: the capturing equations'
# operations, and how the capture is made.
TAGS = (*OPS, "filtering", "pyramid", "double", "push")
# The operations a learner must learn to see; AND and OR read like plain sums.
HARD_OPS = frozenset({"NOT", "XOR", "NAND", "NOR"})
TEACHING_OPTIONS = {"ops": next(p.options for p in PRESETS
                                if p.name == "teaching").removeprefix("ops=")}
MOST_ACCEPTED = 3  # a capture puzzle with more best moves than this is too easy
MOST_WINS = 4  # the same for the winning moves of a victory-in-1
REFUSED_SAMPLES = 4
CAPTURE_PLAYOUT = 60  # moves played at most before a capture puzzle's position is given up
VICTORY_PLAYOUT = 80
VICTORY_CANDIDATES = 3  # how many positions before a game's end are tried as its puzzle


@dataclass(frozen=True)
class Found:
    """A puzzle's position with its accepted moves and its proof, before it is dressed."""

    node: Node
    options: JSON
    accepted: list[int]
    proof: JSON
    tags: tuple[str, ...]
    level: int
    nudge: float


def _moved_board(board: list[int], move: int) -> list[int]:
    """The board after ``move``, before its captures: where ``capture_equations`` looks."""
    source, dest, push = move_parts(move)
    moved = list(board)
    moved[source] = EMPTY
    if push >= 0:
        moved[push] = moved[dest]
    moved[dest] = board[source]
    return moved


def capture_details(board: list[int], player: int, move: int, ops: tuple[str, ...]
                    ) -> list[JSON]:
    """Each piece ``move`` captures, with every equation that captures it."""
    moved = _moved_board(board, move)
    found = capture_equations(moved, player, move_parts(move)[1], rules_for(ops))
    return [{"target": piece_label(value_of(moved[cell]), cell, owner_of(moved[cell])),
             "removed": is_pyramid(value_of(moved[cell])),
             "equations": [e["equation"] for e in equations],
             "ops": sorted({e["op"] for e in equations}),
             "forms": sorted({e["form"] for e in equations})}
            for cell, equations in found.items()]


def _taken_json(taken: Taken) -> JSON:
    return {"pyramids": taken.pyramids, "pieces": taken.pieces, "value": taken.value}


def _equations_text(details: list[JSON]) -> str:
    return "; ".join(d["equations"][0] for d in details)


def _captured_text(details: list[JSON]) -> str:
    return ", ".join(d["target"] for d in details)


def must_see(details: list[JSON]) -> bool:
    """Whether a piece among those captured is taken only by equations a learner must
    learn to see (``HARD_OPS``): without them the capture stays hidden."""
    return any(set(d["ops"]) <= HARD_OPS for d in details)


def _capture_tags(theme: str, move: int, details: list[JSON]) -> tuple[str, ...]:
    ops = sorted({op.lower() for d in details for op in d["ops"]})
    tags = [theme]
    if theme in ("equation", "teaching"):
        tags.append("capture")
    if must_see(details) and theme != "equation":
        tags.append("equation")
    tags += ops
    if any(d["forms"] == ["filtering"] for d in details):
        tags.append("filtering")
    if any(d["removed"] for d in details):
        tags.append("pyramid")
    if len(details) > 1:
        tags.append("double")
    if move_parts(move)[2] >= 0:
        tags.append("push")
    return tuple(dict.fromkeys(tags))


def _refused_sample(entries: list[JSON]) -> list[JSON]:
    return entries[:REFUSED_SAMPLES]


class RithmomachiaPuzzles:
    """Boolean Rithmomachia's puzzle generator (``GENERATOR``)."""

    game = GAME
    code_prefix = "RM"
    themes = THEMES
    tags = TAGS
    version = 1

    def generate(self, seed: int, theme: str | None = None) -> Puzzle:
        return generate_by_attempts(GAME, THEMES, seed, theme, self._attempt)

    def _attempt(self, seed: int, theme: str, rng: random.Random) -> Puzzle | None:
        found = self._find(theme, rng)
        return None if found is None else self._puzzle(seed, theme, found)

    # ------------------------------------------------------------- finding positions
    def _find(self, theme: str, rng: random.Random) -> Found | None:
        options: JSON = dict(TEACHING_OPTIONS) if theme == "teaching" else {}
        start = RithmomachiaState(options, 0)
        tactics = Tactics(start.rules)
        first = node_of(start.board, 0)
        if theme in CAPTURE_THEMES:
            from_ply = rng.randrange(1, 9)
            for ply, node in enumerate(playout(tactics, first, rng, CAPTURE_PLAYOUT,
                                                  Style.CAREFUL)):
                if ply >= from_ply and not node.ended:
                    found = self._capture(theme, tactics, node, options)
                    if found is not None:
                        return found
            return None
        played: list[int] = []
        style = Style.CARELESS if theme == "victory-in-1" else Style.STUBBORN
        game = list(playout(tactics, first, rng, VICTORY_PLAYOUT, style, played))
        if not game[-1].ended:
            return None
        # The winner moved last, so the positions where they are to move are every other
        # one back from the end: the one before their win, and those before.
        offset = 2 if theme == "victory-in-1" else 4
        for back in range(offset, offset + 2 * VICTORY_CANDIDATES, 2):
            if back > len(game):
                break
            node = game[-back]
            found = (self._victory_in_one(tactics, node, options) if theme == "victory-in-1"
                     else self._victory_in_two(tactics, node, options, played[-back + 1]))
            if found is not None:
                return found
        return None

    def _capture(self, theme: str, tactics: Tactics, node: Node, options: JSON
                 ) -> Found | None:
        if tactics.can_take_all_pyramids(node):
            return None  # a move could end the game: that is a victory puzzle
        moves = tactics.moves(node)
        taken = [tactics.taken(node, move) for move in moves]
        best = max(t.key() for t in taken)
        if not best[1]:
            return None
        accepted = [m for m, t in zip(moves, taken, strict=True) if t.key() == best]
        if len(accepted) > MOST_ACCEPTED:
            return None
        if any(tactics.can_take_all_pyramids(tactics.after(node, m)) for m in accepted):
            return None  # the capture would hand the opponent the game
        ops = tactics.rules.ops
        details = [capture_details(node.board, node.player, move, ops) for move in accepted]
        if theme == "equation" and not all(must_see(found) for found in details):
            return None
        refused: list[JSON] = [{"move": move_text(m), "taken": _taken_json(t)}
                               for m, t in zip(moves, taken, strict=True) if t.key() != best]
        capturing = sum(1 for t in taken if t)
        proof: JSON = {
            "ops": [op.upper() for op in ops],
            "compared": "Pyramids, then pieces, then value taken from the other side",
            "legal": len(moves),
            "capturing": capturing,
            "accepted": [{"move": move_text(m), "taken": _taken_json(Taken(*best)),
                          "captures": d, "opponent_wins_at_once": False}
                         for m, d in zip(accepted, details, strict=True)],
            "refused": {"counts": {"smaller_capture": sum(1 for r in refused
                                                          if r["taken"]["pieces"]),
                                   "no_capture": sum(1 for r in refused
                                                     if not r["taken"]["pieces"])},
                        "sample": _refused_sample(sorted(refused, key=lambda r: (
                            -r["taken"]["pyramids"], -r["taken"]["pieces"],
                            -r["taken"]["value"])))},
        }
        level = {"teaching": 1, "capture": 1, "equation": 2}[theme]
        tags = _capture_tags(theme, accepted[0], details[0])
        if "filtering" in tags or "double" in tags:
            level += 1
        return Found(node, options, accepted, proof, tags, level,
                     _nudge(len(moves), capturing, 3.0))

    def _victory_in_one(self, tactics: Tactics, node: Node, options: JSON) -> Found | None:
        if node.ended:
            return None
        moves = tactics.moves(node)
        wins = tactics.wins_now(node, moves)
        if not wins or len(wins) > MOST_WINS:
            return None  # no win, or one so easy to find that it teaches nothing
        ops = tactics.rules.ops
        details = [capture_details(node.board, node.player, move, ops) for move in wins]
        ending = victories(tactics.after(node, wins[0]).board)
        winning = set(wins)
        refused = [{"move": move_text(m), "taken": _taken_json(tactics.taken(node, m))}
                   for m in moves if m not in winning]
        proof: JSON = {
            "ops": [op.upper() for op in ops],
            "legal": len(moves),
            "accepted": [{"move": move_text(m), "captures": d}
                         for m, d in zip(wins, details, strict=True)],
            "result": {"winner": node.player, "label": ending["label"],
                       "victories": ending["victories"]},
            "refused": {"counts": {"no_win": len(refused)},
                        "sample": _refused_sample(sorted(refused, key=lambda r: (
                            -r["taken"]["pyramids"], -r["taken"]["pieces"])))},
        }
        tags = ("victory-in-1", *_capture_tags("victory-in-1", wins[0], details[0])[1:])
        level = 3 if "filtering" in tags else 2
        return Found(node, options, wins, proof, tags, level,
                     _nudge(len(moves), len(wins), 4.0))

    def _victory_in_two(self, tactics: Tactics, node: Node, options: JSON, played: int
                        ) -> Found | None:
        """The win in two from ``node``, where the game that led here went on with
        ``played``: that move is tried first, and a position where it does not win is
        passed over before the costly rest (skipping a position needs no proof, showing
        one does: then every move is checked)."""
        if node.ended:
            return None
        moves = tactics.moves(node)
        if tactics.wins_now(node, moves):
            return None
        memory = Memory()
        lines = {played: tactics.forced_line(node, played, memory)}
        if not lines[played][0]:
            return None
        accepted: list[tuple[int, list[int]]] = []
        refused: list[JSON] = []
        for move in moves:
            wins, line = lines[move] if move in lines else tactics.forced_line(node, move,
                                                                                memory)
            if wins:
                accepted.append((move, line))
            else:
                refused.append({"move": move_text(move),
                                "defence": move_text(line[1]) if len(line) > 1 else None})
        proof: JSON = {
            "ops": [op.upper() for op in tactics.rules.ops],
            "legal": len(moves),
            "method": "every reply to every move checked for a win at once after it",
            "accepted": [{"move": move_text(m), "line": [move_text(x) for x in line]}
                         for m, line in accepted],
            "refused": {"counts": {
                "defended": sum(1 for r in refused if r["defence"] is not None),
                "ends_without_win": sum(1 for r in refused if r["defence"] is None)},
                        "sample": _refused_sample(refused)},
        }
        level = 5 if len(accepted) == 1 else 4
        return Found(node, options, [m for m, _ in accepted], proof, ("victory-in-2",),
                     level, _nudge(len(moves), len(accepted), 4.0))

    # ---------------------------------------------------------------- the puzzle
    def _puzzle(self, seed: int, theme: str, found: Found) -> Puzzle:
        state = RithmomachiaState(found.options, seed)
        state.board = list(found.node.board)
        state.turn = found.node.player
        state.history = {state.key(): 1}
        data = state.to_dict()
        RithmomachiaState.from_dict(data)  # a position the game accepts, or an error here
        return Puzzle(game=GAME, seed=seed, theme=theme, themes=found.tags, level=found.level,
                      rating=rating_for(found.level, found.nudge), state=data,
                      seat=found.node.player,
                      accepted=tuple(move_text(m) for m in found.accepted), proof=found.proof)

    def picture(self, puzzle: Puzzle) -> list[str]:
        """The field as text, level 4 on top, each level rank 4 first: a piece as its
        owner's shape sign and its value (hollow White, filled Black), at most 25
        columns; an empty level takes one line."""
        state = puzzle.position()
        assert isinstance(state, RithmomachiaState)
        lines = [f"{SEAT_NAMES[puzzle.seat]} to move",
                 "ops " + ",".join(op.upper() for op in state.rules.ops)]
        for level in range(3, -1, -1):
            cells = [cell_at(level, file, rank) for rank in range(4) for file in range(4)]
            if not any(state.board[cell] for cell in cells):
                lines.append(f"level {level + 1}: empty")
                continue
            lines.append(f"level {level + 1}")
            for rank in range(3, -1, -1):
                lines.append(f"{rank + 1} " + " ".join(
                    code_label(code) if (code := state.board[cell_at(level, file, rank)])
                    else "  ·  " for file in range(4)))
            lines.append("   a     b     c     d")
        return lines

    # ---------------------------------------------------------------- judging
    def judge(self, puzzle: Puzzle, action: str) -> Verdict:
        state = puzzle.position()
        assert isinstance(state, RithmomachiaState)
        try:
            canonical = state.parse_action(action, puzzle.seat)
        except GameError as error:
            return Verdict(False, Message(error.key, error.default, **error.params), ())
        tactics = Tactics(state.rules)
        node = node_of(state.board, puzzle.seat)
        move, answer = _move_int(canonical), _move_int(puzzle.accepted[0])
        said = {"move": state.action_text(canonical),
                "answer": state.action_text(puzzle.accepted[0])}
        if puzzle.theme == "victory-in-2":
            return self._judge_two(tactics, node, move, answer, canonical in puzzle.accepted,
                                   said)
        ops = state.rules.ops
        best = capture_details(state.board, puzzle.seat, answer, ops)
        mine = capture_details(state.board, puzzle.seat, move, ops)
        if canonical in puzzle.accepted and puzzle.theme == "victory-in-1":
            return Verdict(True, Message(
                "puzzle.rithmo.wins_now", "{move} wins at once: {equations} takes the last "
                "Pyramid.", move=said["move"],
                equations=_equations_text([d for d in mine if d["removed"]])), (canonical,))
        if canonical in puzzle.accepted:
            return Verdict(True, Message(
                "puzzle.rithmo.captures", "{move} captures {captured}: {equations}.",
                move=said["move"], captured=_captured_text(mine),
                equations=_equations_text(mine)), (canonical,))
        line = (canonical, *_biggest_reply(tactics, tactics.after(node, move)))
        if puzzle.theme == "victory-in-1":
            best = [d for d in best if d["removed"]]
        params: dict[str, Any] = {**said, "captured": _captured_text(best),
                                  "equations": _equations_text(best)}
        after = tactics.after(node, move)
        if after.ended:
            return Verdict(False, Message(
                "puzzle.rithmo.ends_lost", "{move} ends the game, but the victories are not "
                "yours; {answer} wins: {equations}.", **params), (canonical,))
        if puzzle.theme == "victory-in-1":
            return Verdict(False, Message(
                "puzzle.rithmo.no_win", "{move} does not win at once; {answer} does: "
                "{equations}.", **params), line)
        if not mine:
            return Verdict(False, Message(
                "puzzle.rithmo.no_capture", "{move} captures nothing; {answer} captures "
                "{captured}: {equations}.", **params), line)
        return Verdict(False, Message(
            "puzzle.rithmo.smaller", "{move} takes less ({taken}) than {answer}, which "
            "captures {captured}: {equations}.", taken=_captured_text(mine), **params), line)

    def _judge_two(self, tactics: Tactics, node: Node, move: int, answer: int, right: bool,
                   said: dict[str, str]) -> Verdict:
        wins, line = tactics.forced_line(node, move)
        line_text = tuple(move_text(m) for m in line)
        if right:
            assert wins and len(line) >= 2
            return Verdict(True, Message(
                "puzzle.rithmo.wins_in_two", "{move} wins in two: every answer leaves you a "
                "winning capture, as {reply} then {win}.", move=said["move"],
                reply=line_text[1], win=line_text[2] if len(line) > 2 else "-"), line_text)
        if len(line) == 1:
            return Verdict(False, Message(
                "puzzle.rithmo.ends_lost_two", "{move} ends the game, but the victories are "
                "not yours; {answer} wins in two.", **said), line_text)
        return Verdict(False, Message(
            "puzzle.rithmo.defended", "{move} does not force the win: {reply} defends. "
            "{answer} wins in two.", reply=line_text[1], **said), line_text)


def _move_int(action: str) -> int:
    return encode_move(*parse_move_cells(action))


def _biggest_reply(tactics: Tactics, node: Node) -> tuple[str, ...]:
    """The opponent's reply that takes the most, when one takes anything."""
    if node.ended:
        return ()
    replies = [(tactics.taken(node, r).key(), r) for r in tactics.moves(node)]
    best = max(replies, key=lambda pair: pair[0], default=None)
    return (move_text(best[1]),) if best is not None and best[0][1] else ()


def _nudge(legal: int, accepted: int, typical: float) -> float:
    """How much harder than its level's middle a puzzle is: the rarer its answers among
    the legal moves, on a log scale around a ``typical`` rarity, one band per factor 4."""
    return (math.log2(legal / max(1, accepted)) - typical) / 2.0


GENERATOR = RithmomachiaPuzzles()
