"""L-game boards as emoji squares (chat platforms) or monospace text (console, fallbacks).

Renderers see only ``state.view(viewer)``. Files a–d run left to right and ranks 1–4 bottom
to top, so rank 4 is printed first. The last move is marked: in text, the moved pieces'
new cells are bracketed and the cells they left show the piece in lower case; in emoji,
the cells left behind show as a hollow square and the moved neutral as a ringed dot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from renderers.common import code_block, render_outcome, seat_name
from renderers.i18n import translate

FILES = "abcd"
MARKS = ("X", "O")
TEXT_SYMBOLS = {"X": "X", "O": "O", "neutral": "N", None: "."}
EMOJI_SYMBOLS = {"X": "🟥", "O": "🟦", "neutral": "⚫", None: "⬜"}
EMOJI_MARK = {"X": "🟥", "O": "🟦"}
EMOJI_LEFT = "🔳"
EMOJI_MOVED_NEUTRAL = "🔘"
EMOJI_FILES = ["🇦", "🇧", "🇨", "🇩"]
EMOJI_RANKS = ["1️⃣", "2️⃣", "3️⃣", "4️⃣"]
# Regional-indicator letters side by side fuse into flags (🇨🇩 is a country), so they are
# kept apart with a zero-width space.
ZERO_WIDTH_SPACE = "\u200b"

View = dict[str, Any]

RULES = """L-game (Edward de Bono): 2 players, a 4×4 board, one L-shaped piece each and two \
neutral pieces.
On your turn:
1. Move your L: lift it, turn or flip it if you like, and put it down anywhere it fits. It \
must cover at least one square it did not cover before, and may not overlap the other L or \
a neutral piece.
2. Then you may move one neutral piece to any empty square, or leave both.
You lose when you cannot move your L. Three repetitions of a position, or the move limit, \
make a draw. Variant sudden_death: after the L, both neutral pieces may move.
X moves first. Cells are a1–d4 (files a–d left to right, ranks 1–4 bottom to top).
Typed moves name the corner of the L (where the foot joins the long leg), the direction the \
long leg runs, the side the foot points to, then an optional neutral move. Example from the \
start: 'd4 S W a4>a1' puts X's corner on d4 with the leg running south to d2 and the foot \
on c4, then moves the neutral piece from a4 to a1. The buttons make typing unnecessary."""


def _occupants(view: View) -> dict[str, str]:
    occupant: dict[str, str] = {}
    for piece, cells in view["pieces"].items():
        for cell in cells:
            occupant[cell] = piece
    return occupant


def _last_move_cells(view: View) -> tuple[set[str], dict[str, str]]:
    """Cells the last move arrived on, and the cells it left (with the piece that left)."""
    last = view.get("last_move")
    if not last:
        return set(), {}
    mark = MARKS[last["player"]]
    arrived = {c for c in last["l_to"] if c not in last["l_from"]}
    arrived |= set(last["neutral_to"])
    left = {c: mark for c in last["l_from"] if c not in last["l_to"]}
    left.update({c: "neutral" for c in last["neutral_from"]})
    return arrived, left


def render_text(view: View) -> str:
    """The board in plain ASCII, three characters a cell, for monospace output."""
    occupant = _occupants(view)
    arrived, left = _last_move_cells(view)
    header = "    " + "  ".join(FILES)
    lines = [header]
    for rank in range(4, 0, -1):
        row = []
        for file in FILES:
            cell = f"{file}{rank}"
            piece = occupant.get(cell)
            symbol = TEXT_SYMBOLS[piece]
            if cell in arrived:
                row.append(f"[{symbol}]")
            elif piece is None and cell in left:
                row.append(f" {TEXT_SYMBOLS[left[cell]].lower()} ")
            else:
                row.append(f" {symbol} ")
        lines.append(f" {rank} " + "".join(row) + f" {rank}")
    lines.append(header)
    return "\n".join(lines)


def render_emoji(view: View) -> str:
    """The board in emoji squares with file letters and rank keycaps."""
    occupant = _occupants(view)
    arrived, left = _last_move_cells(view)
    neutral_arrived = set((view.get("last_move") or {}).get("neutral_to", []))
    lines = ["⬛" + ZERO_WIDTH_SPACE.join(EMOJI_FILES)]
    for rank in range(4, 0, -1):
        row = [EMOJI_RANKS[rank - 1]]
        for file in FILES:
            cell = f"{file}{rank}"
            piece = occupant.get(cell)
            if piece == "neutral" and cell in neutral_arrived and cell in arrived:
                row.append(EMOJI_MOVED_NEUTRAL)
            elif piece is None and cell in left:
                row.append(EMOJI_LEFT)
            else:
                row.append(EMOJI_SYMBOLS[piece])
        lines.append("".join(row))
    return "\n".join(lines)


def render_status(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """The last move, then whose turn it is or how the game ended."""
    marks = [EMOJI_MARK[m] for m in MARKS] if emoji else list(MARKS)
    lines = []
    last = view.get("last_move")
    if last:
        seat = last["player"]
        lines.append(translate(language, "board.last_move", mark=marks[seat],
                               name=seat_name(names, seat), move=last["text"]))
    if view.get("outcome"):
        lines.append(render_outcome(view["outcome"], names, language))
    elif view.get("to_move") is not None:
        seat = view["to_move"]
        lines.append(translate(language, "game.to_move", mark=marks[seat],
                               name=seat_name(names, seat)))
    return "\n".join(lines)


# Places for the L named in a danger line, at most; the rest are counted ("and 4 more").
DANGER_PLACES = 4


def _places(entries: Sequence[View], language: str) -> str:
    shown = [" ".join(str(cell) for cell in entry.get("cells") or [])
             for entry in entries[:DANGER_PLACES]]
    text = " · ".join(shown)
    if len(entries) > DANGER_PLACES:
        text += " " + translate(language, "lgame.danger.more", "and {count} more",
                                count=len(entries) - DANGER_PLACES)
    return text


def danger_lines(view: View, names: Sequence[str], language: str) -> list[str]:
    """The danger marks told (option ``danger``, ``engines.lgame.analysis.trap_threats``):
    how many of the moves of the player to move let the opponent trap their L at once, and
    the places for the L that are safe or those that are not, whichever list is shorter.
    Nothing when no move allows a trap."""
    threats = [entry for entry in view.get("threats") or [] if entry.get("moves")]
    trapped = sum(int(entry.get("trapped", 0)) for entry in threats)
    if not trapped or view.get("to_move") is None or view.get("outcome"):
        return []
    seat = int(view["to_move"])
    total = sum(int(entry["moves"]) for entry in threats)
    name, other = seat_name(names, seat), seat_name(names, 1 - seat)
    if trapped == total:
        return [translate(language, "lgame.danger.all.one" if total == 1 else "lgame.danger.all",
                          "⚠ {name}: your only move lets {other} trap your L next turn."
                          if total == 1 else "⚠ {name}: each of your {total} moves lets "
                          "{other} trap your L next turn.", name=name, total=total, other=other)]
    lines = [translate(language, "lgame.danger.some.one" if trapped == 1
                       else "lgame.danger.some",
                       "⚠ {name}: 1 of your {total} moves lets {other} trap your L next turn."
                       if trapped == 1 else "⚠ {name}: {trapped} of your {total} moves let "
                       "{other} trap your L next turn.", name=name, trapped=trapped,
                       total=total, other=other)]
    lost = [entry for entry in threats if entry["trapped"] == entry["moves"]]
    safe = [entry for entry in threats if not entry["trapped"]]
    mixed = [entry for entry in threats if 0 < entry["trapped"] < entry["moves"]]
    if safe and len(safe) < len(lost):
        lines.append(translate(language, "lgame.danger.safe", "Safe: L on {places}",
                               places=_places(safe, language)))
    elif lost:
        lines.append(translate(language, "lgame.danger.unsafe",
                               "Unsafe whatever the neutrals do: L on {places}",
                               places=_places(lost, language)))
    if mixed:
        lines.append(translate(language, "lgame.danger.mixed",
                               "Safe only with the right neutral move: L on {places}",
                               places=_places(mixed, language)))
    return lines


def render(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """Board and status together: what a chat message or the console shows. The text
    board is a code block (18 columns); emoji squares line up in any font, so the emoji
    board is prose (emoji in a code block are unreliable on phones)."""
    board = render_emoji(view) if emoji else code_block(render_text(view).split("\n"))
    legend = "" if emoji or not view.get("last_move") else "\n" + translate(language,
                                                                             "board.legend")
    danger = "".join(f"\n{line}" for line in danger_lines(view, names, language))
    return f"{board}{legend}{danger}\n{render_status(view, names, language, emoji)}"
