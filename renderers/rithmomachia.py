"""Boolean Rithmomachia boards: a 4×4×4 field as four 4×4 levels.

Every piece prints as its shape and its value in binary, ``○0001``; the shape's fill tells the
owner (White hollow ○ △ □ ◇, Black filled ● ▲ ■ ◆, the diamond being a Pyramid), so a cell
needs five characters and no colour. The levels are stacked in one code block, level 4
(Black's home) first, and an empty level collapses to one line: a level is 26 columns wide,
so the field fits a phone's code block (32 columns) in every style, and the console's 80
columns. (Four levels side by side took 110 columns.) Captures are told as the equations
that made them, ``0100 AND 1100 = 0100 → 2b3 captured``, because the equations are the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from renderers.common import code_block, display_width, render_outcome, seat_name
from renderers.i18n import translate

__all__ = ["RULES", "piece_text", "render", "render_levels_stacked"]

View = dict[str, Any]

FILES = "abcd"
LEVELS = (1, 2, 3, 4)
SHAPES = ("pyramid", "circle", "triangle", "square")
GLYPHS = {  # (shape, owner) → glyph; hollow for White (seat 0), filled for Black (seat 1)
    ("circle", 0): "○", ("triangle", 0): "△", ("square", 0): "□", ("pyramid", 0): "◇",
    ("circle", 1): "●", ("triangle", 1): "▲", ("square", 1): "■", ("pyramid", 1): "◆",
}
SIDES = ("White", "Black")
EMPTY_TEXT = "  .  "
MOVED_MARK = "*"
DANGER_MARK = "!"  # a piece of the side to move the opponent could take next move
CONSOLE_COLUMNS = 80

RULES = """Boolean Rithmomachia (L. Lynn Smith): 2 players, a 4×4×4 field of four levels.
Each player has 16 pieces, one of each value 0000–1111. The number of 1-bits gives the shape: \
none or four a Pyramid (◇), one a Circle (○), two a Triangle (△), three a Square (□). White \
(hollow) starts on level 1, Black (filled ●▲■◆) on level 4, and White moves first.
A move is one step to an empty cell: orthogonal (one axis), diagonal (two axes) or \
triagonal (three axes). Circles step orthogonally or diagonally, Triangles diagonally or \
triagonally, Squares orthogonally or triagonally, Pyramids any way. A Pyramid may also land \
on a piece and push it one step to a free cell of the mover's choice; the cell the Pyramid \
just left counts as free, so the two may swap places.
Captures happen by themselves after every move. X is the piece that moved; a piece 'reaches' \
the cells of its own step directions. NOT: X takes a reached enemy whose value is NOT X. \
Compiling: X and another own piece Y take an enemy both reach when X op Y equals it. \
Filtering: X and an own piece Y that X reaches take an enemy Y reaches when X op Y equals it. \
The ops are AND, OR, XOR, NAND and NOR on 4 bits. A captured piece changes sides; a captured \
Pyramid leaves the field.
The game ends when a side has no Pyramid, the side to move cannot move, a position occurs \
for the third time, or at the move limit. Then whoever has more Pyramids, more pieces, and a \
higher sum of values takes a victory each; more victories win (Simple, Compound or Perfect).
Cells are level, file, rank: 1a1–4d4. Typed moves: '1b1-2b2', a push '1c3-2c3-3c3'. The \
buttons make typing unnecessary."""


def piece_text(piece: View) -> str:
    return GLYPHS[(str(piece["shape"]), int(piece["owner"]))] + str(piece["bits"])


def _cells(view: View) -> dict[str, View]:
    return {str(piece["cell"]): piece for piece in view.get("board") or []}


def _moved_to(view: View) -> set[str]:
    last = view.get("last_move") or {}
    return {str(cell) for cell in (last.get("to"), last.get("push_to")) if cell}


def _threatened(view: View) -> set[str]:
    return {str(threat.get("target")) for threat in view.get("threats") or []}


def _level_rows(view: View, level: int, empty: str) -> list[str]:
    """The level's ranks 4 to 1 (rank 4 at the top, as on a chess diagram), each cell a piece
    with a trailing mark: ``!`` when the opponent could take it next move (danger marks,
    ``bot.service.dangers``), else ``*`` when the last move put it there."""
    cells, moved, threatened = _cells(view), _moved_to(view), _threatened(view)
    rows = []
    for rank in range(4, 0, -1):
        row = []
        for file in FILES:
            name = f"{level}{file}{rank}"
            piece = cells.get(name)
            text = piece_text(piece) if piece else empty
            mark = (DANGER_MARK if name in threatened and piece
                    else MOVED_MARK if name in moved else " ")
            row.append(text + mark)
        rows.append(f"{rank} " + "".join(row).rstrip())
    return rows


def _level_title(language: str, level: int, home: bool = True) -> str:
    """``Level 4 (Black's home)``; without the home for an empty level's one line, which
    would not fit a phone's code block in German."""
    homes = {1: translate(language, "rithmo.home.white", " (White's home)"),
             4: translate(language, "rithmo.home.black", " (Black's home)")}
    return translate(language, "rithmo.level", "Level {level}", level=level) \
        + (homes.get(level, "") if home else "")


def render_levels_stacked(view: View, language: str) -> list[str]:
    """Level 4 down to level 1, one grid under the other, files under the last; an empty
    level is one line. Monospace lines, for a code block."""
    occupied = {int(str(piece["cell"])[0]) for piece in view.get("board") or []}
    lines: list[str] = []
    for level in reversed(LEVELS):
        if level not in occupied:
            lines.append(translate(language, "rithmo.level_empty", "{title}: empty",
                                   title=_level_title(language, level, home=False)))
            continue
        lines.append(_level_title(language, level))
        lines += _level_rows(view, level, EMPTY_TEXT)
    lines.append("  " + "".join(f"{file:^5} " for file in FILES))
    return lines


def _legend(view: View, language: str) -> list[str]:
    """The shapes on one line, the marks and rules in play on the next: one line was 118
    columns, more than a console's 80."""
    ops = " ".join(view.get("ops") or [])
    shapes, _, marks = _legend_text(view, language, ops).partition(" · ")
    return [shapes, marks] if marks else [shapes]


def _legend_text(view: View, language: str, ops: str) -> str:
    return translate(language, "rithmo.legend",
                     "○ Circle △ Triangle □ Square ◇ Pyramid: hollow White, filled Black · "
                     "* moved last · captures by {ops}{push}", ops=ops,
                     push=translate(language, "rithmo.legend_push", " · push on")
                     if view.get("push") else "")


def _counts_lines(view: View, names: Sequence[str], language: str) -> list[str]:
    """One line per side (side by side they passed 80 columns with long names)."""
    counts = view.get("counts") or [{}, {}]
    parts = [translate(language, "rithmo.counts",
                       "{name}: Pyramids {pyramids}, pieces {pieces}, value {value}",
                       name=seat_name(names, seat), pyramids=counts[seat].get("pyramids", 0),
                       pieces=counts[seat].get("pieces", 0), value=counts[seat].get("value", 0))
             for seat in (0, 1)]
    return parts


def _equation_line(capture: View, names: Sequence[str], language: str) -> str:
    equation = str(capture.get("equation", ""))
    target = str(capture.get("target", ""))
    if capture.get("removed"):
        return translate(language, "rithmo.capture.removed",
                         "{equation} → the Pyramid on {cell} is captured and leaves the field",
                         equation=equation, cell=target)
    return translate(language, "rithmo.capture.flipped",
                     "{equation} → {cell} captured: it is {name}'s now", equation=equation,
                     cell=target, name=seat_name(names, int(capture.get("player", 0))))


def event_lines(event: View, names: Sequence[str], language: str) -> list[str]:
    """Public sentences for an event: moves, pushes, placements and each capture's equation."""
    kind = event.get("type")
    name = seat_name(names, int(event.get("player", 0)))
    if kind == "moved":
        piece = GLYPHS.get((str(event.get("shape")), int(event.get("player", 0))), "")
        line = translate(language, "rithmo.event.moved", "{name} moved {piece} {from_cell} → "
                         "{to_cell}.", name=name, piece=piece + str(event.get("bits", "")),
                         from_cell=event.get("from"), to_cell=event.get("to"))
        push = event.get("push")
        if push:
            pushed = GLYPHS.get((str(push.get("shape")), int(push.get("owner", 0))), "")
            line += " " + translate(language, "rithmo.event.pushed",
                                    "It pushed {piece} to {cell}.",
                                    piece=pushed + str(push.get("bits", "")), cell=push.get("to"))
        return [line]
    if kind == "capture":
        return [_equation_line(event, names, language)]
    if kind == "placed":
        piece = GLYPHS.get((str(event.get("shape")), int(event.get("player", 0))), "")
        return [translate(language, "rithmo.event.placed", "{name} placed {piece} on {cell}.",
                          name=name, piece=piece + str(event.get("bits", "")),
                          cell=event.get("cell"))]
    if kind == "play_started":
        return [translate(language, "rithmo.event.play_started",
                          "Every piece is placed: play begins.")]
    return []


def _unplaced_lines(view: View, names: Sequence[str], language: str) -> list[str]:
    if view.get("phase") != "placement":
        return []
    lines = []
    for seat in (0, 1):
        values = view.get("unplaced", [[], []])[seat]
        if values:
            # Eight values to a line: all sixteen on one passed a console's 80 columns.
            texts = [format(int(v), "04b") for v in values]
            lines.append(translate(language, "rithmo.unplaced", "{name} still places: {values}",
                                   name=seat_name(names, seat), values=" ".join(texts[:8])))
            lines += [" ".join(texts[start:start + 8]) for start in range(8, len(texts), 8)]
    return lines


VICTORIES = ("pyramid", "piece", "value")


def _why_it_ended(outcome: View, names: Sequence[str], language: str) -> str:
    detail = outcome.get("detail") or {}
    reason = outcome.get("reason")
    if reason == "rithmomachia_no_pyramid":
        return translate(language, "rithmo.end.no_pyramid", "{names} has no Pyramid left.",
                         names=" and ".join(seat_name(names, int(seat))
                                            for seat in detail.get("without") or []))
    if reason == "rithmomachia_no_moves":
        return translate(language, "rithmo.end.no_moves", "{name} cannot move.",
                         name=seat_name(names, int(detail.get("stuck", 0))))
    if reason == "repetition":
        return translate(language, "rithmo.end.repetition",
                         "The same position came up for the third time.")
    return translate(language, "rithmo.end.move_limit",
                     "The move limit of {limit} plies was reached.", limit=detail.get("limit"))


def _victories_line(per_victory: Sequence[str], language: str) -> str:
    """The three victories on one line, or one under the other when that passes a
    console's 80 columns (long names)."""
    line = translate(language, "rithmo.victories", "Victories: {list}.",
                     list=" · ".join(per_victory))
    if display_width(line) <= CONSOLE_COLUMNS:
        return line
    return translate(language, "rithmo.victories", "Victories: {list}.",
                     list="".join(f"\n  {victory}" for victory in per_victory))


def outcome_lines(outcome: View, names: Sequence[str], language: str) -> list[str]:
    """Why the game ended, then the three victories and the verdict with its label."""
    if outcome.get("reason") in ("resigned", "abandoned"):
        return [render_outcome(outcome, names, language)]
    detail = outcome.get("detail") or {}
    taken = detail.get("victories") or {}
    per_victory = [translate(language, f"rithmo.victory.{kind}", kind.capitalize()) + ": "
                   + (seat_name(names, int(taken[kind])) if taken.get(kind) is not None
                      else translate(language, "rithmo.victory.tied", "tied"))
                   for kind in VICTORIES]
    winners = outcome.get("winners") or []
    counts = detail.get("victory_counts") or [0, 0]
    if winners:
        label = str(detail.get("label") or "simple")
        verdict = translate(language, "rithmo.end.win",
                            "Game over: {name} wins, a {label} victory ({won} to {lost}).",
                            name=seat_name(names, int(winners[0])),
                            label=translate(language, f"rithmo.label.{label}",
                                            label.capitalize()),
                            won=counts[int(winners[0])], lost=counts[1 - int(winners[0])])
    else:
        verdict = translate(language, "rithmo.end.draw.one" if counts[0] == 1
                            else "rithmo.end.draw",
                            "Game over: a draw, 1 victory each." if counts[0] == 1
                            else "Game over: a draw, {won} victories each.", won=counts[0])
    return [_why_it_ended(outcome, names, language),
            _victories_line(per_victory, language),
            verdict]


def render_status(view: View, names: Sequence[str], language: str) -> str:
    lines = [line for event in view.get("last_events") or []
             for line in event_lines(event, names, language)]
    lines += _unplaced_lines(view, names, language)
    outcome = view.get("outcome")
    if outcome:
        lines += outcome_lines(outcome, names, language)
    elif view.get("to_move") is not None:
        seat = int(view["to_move"])
        key, default = (("rithmo.to_place", "{name} ({side}) to place a piece.")
                        if view.get("phase") == "placement" else
                        ("rithmo.to_move", "{name} ({side}) to move · ply {ply} of {limit}"))
        lines.append(translate(language, key, default, name=seat_name(names, seat),
                               side=translate(language, f"rithmo.side.{seat}", SIDES[seat]),
                               ply=int(view.get("ply", 0)) + 1, limit=view.get("move_limit")))
    return "\n".join(lines)


def danger_lines(view: View, names: Sequence[str], language: str) -> list[str]:
    """The danger marks told: whose pieces marked ``!`` could be taken, and how."""
    threats = [threat for threat in view.get("threats") or [] if threat.get("target")]
    if not threats or view.get("to_move") is None:
        return []
    cells = _cells(view)
    lines = [translate(language, "rithmo.danger.title",
                       "⚠ {name}, the opponent could take your pieces marked ! next move:",
                       name=seat_name(names, int(view["to_move"])))]
    for threat in threats:
        target = str(threat["target"])
        piece = cells.get(target)
        lines.append(translate(language, "rithmo.danger.line",
                               "{piece} on {cell}, by {move} ({equation})",
                               piece=piece_text(piece) if piece else str(threat.get("piece")),
                               cell=target, move=threat.get("move", ""),
                               equation=threat.get("equation", "")))
    return lines


def render(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """The field (a code block: its columns must line up), then as prose the legend, both
    sides' counts, the danger marks, what happened and who moves. ``emoji`` changes
    nothing: the glyphs are the same in both styles."""
    lines = [code_block(render_levels_stacked(view, language)), *_legend(view, language),
             *_counts_lines(view, names, language), *danger_lines(view, names, language)]
    status = render_status(view, names, language)
    if status:
        lines.append(status)
    return "\n".join(lines)
