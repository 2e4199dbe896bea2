"""Drawing a pyramid of logic gates, shared by bOOleO and Digitalo.

A game hands over each row's cells already as text (its own rules decide what an empty or a
wrong slot looks like); this module lays them out. Every gate prints as ``1∧0=0``: inputs,
type, output, so that a student can check it without looking anything up. Gate types are the
logic symbols ∧ ∨ ⊕ ⊼ ⊽ ⊙, with a legend, because a full row of 7 gates must fit a phone.

Monospace boards stagger the rows so that each gate stands between the two gates (or bits)
it reads, in a code block that must fit a phone (32 columns): up to 5 bits a gate prints in
full, 6 columns apart (6n-1 columns); from 6 bits on it prints compact as ``∧=0``, type and
output, 4 columns apart (4n columns), its inputs being the two cells right below it. Emoji
boards draw the same code block: in a proportional font the columns cannot line up, and a
pyramid whose gates do not stand over their inputs is no pyramid (issue 23). Every cell
uses characters monospace fonts draw one column wide.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.cards.pyramid import gate_gives, is_gate_card
from renderers.i18n import translate

GATE_SYMBOLS = {"AND": "∧", "OR": "∨", "XOR": "⊕", "NAND": "⊼", "NOR": "⊽", "XNOR": "⊙"}
CELL_WIDTH = 6  # a cell like "1⊕0=1" is 5 characters, plus one space
COMPACT_WIDTH = 4  # a compact cell like "⊕=1" is 3 characters, plus one space
FULL_CELLS_UP_TO = 5  # bits: a staggered pyramid of full cells is 6n-1 columns wide


def card_label(card: str) -> str:
    """``AND1`` as ``AND→1``; cards without an output (``NOT``, ``INV``) as themselves."""
    if card[-1:] in ("0", "1"):
        return f"{card[:-1]}→{card[-1]}"
    return card


def hand_text(hand: Iterable[str]) -> str:
    """The hand grouped by card, as the buttons show it: ``AND→1 ×2, NOT, XOR→0``."""
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    return ", ".join(card_label(card) + (f" ×{count}" if count > 1 else "")
                     for card, count in counts.items())


# Where a gate card fits, by which input pairs give its output (order does not matter):
# the one sentence a hand shows beside each card.
_FITS_WHERE = {
    frozenset({(1, 1)}): ("card.fits.both1", "both inputs are 1"),
    frozenset({(0, 0)}): ("card.fits.both0", "both inputs are 0"),
    frozenset({(0, 0), (0, 1)}): ("card.fits.one0", "an input is 0"),
    frozenset({(0, 1), (1, 1)}): ("card.fits.one1", "an input is 1"),
    frozenset({(0, 1)}): ("card.fits.differ", "the inputs differ"),
    frozenset({(0, 0), (1, 1)}): ("card.fits.equal", "the inputs are equal"),
}
_OTHER_CARDS = {
    "NOT": ("card.meaning.not", "flips a start card; gates above it may break"),
    "INV": ("card.meaning.inv", "flips a bit card for both players"),
}


def card_meaning(card: str, language: str) -> str:
    """What a card does, in a few words: where a gate card fits, what NOT and INV flip."""
    if card in _OTHER_CARDS:
        return translate(language, *_OTHER_CARDS[card])
    if not is_gate_card(card):
        return ""
    pairs = frozenset((a, b) for a, b in ((0, 0), (0, 1), (1, 1)) if gate_gives(card, a, b))
    key, default = _FITS_WHERE[pairs]
    return translate(language, "card.fits", "goes where {inputs}",
                     inputs=translate(language, key, default))


def hand_lines(hand: Sequence[str], fits: Sequence[str] | None, language: str) -> list[str]:
    """A hand one card a line (equal cards once, ×n), each with what it does, and marked
    when it fits nowhere on its player's pyramid now (``fits``: the kinds that do; None
    when the game does not say, as bOOleO without its referee)."""
    return [line for _, line in hand_cards(hand, fits, language)]


def hand_cards(hand: Sequence[str], fits: Sequence[str] | None,
               language: str) -> list[tuple[str, str]]:
    """``hand_lines`` with the card each line shows: (card, line), in the hand's order."""
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    cards = []
    for card, count in counts.items():
        label = card_label(card) + (f" ×{count}" if count > 1 else "")
        line = f"• {label}: {card_meaning(card, language)}"
        if fits is not None and card not in fits:
            line += " " + translate(language, "card.no_place", "✖ (no place now)")
        cards.append((card, line))
    return cards


def bit_text(value: Any) -> str:
    return "?" if value is None else str(int(value))


def compact(bits: int) -> bool:
    """Whether a staggered pyramid on ``bits`` bits needs compact cells to fit a phone."""
    return bits > FULL_CELLS_UP_TO


def gate_cell(gate: Mapping[str, Any], sign: str = "=", short: bool = False) -> str:
    """``1∧0=0``, or ``∧=0`` when ``short``; ``sign`` says how the output relates: ``=``,
    or a game's mark such as ``~`` (inactive) or ``≠`` (wrong)."""
    symbol = GATE_SYMBOLS.get(str(gate.get("gate")), "?")
    if short:
        return f"{symbol}{sign}{bit_text(gate.get('out'))}"
    a, b = gate.get("inputs") or (None, None)
    return f"{bit_text(a)}{symbol}{bit_text(b)}{sign}{bit_text(gate.get('out'))}"


def gate_legend(gates: Iterable[str]) -> list[str]:
    """``∧ AND`` … for the gate types in use (AND, OR and XOR when there are none yet)."""
    used = sorted({gate for gate in gates if gate in GATE_SYMBOLS}, key=list(GATE_SYMBOLS).index)
    return [f"{GATE_SYMBOLS[gate]} {gate}" for gate in used or ["AND", "OR", "XOR"]]


def staggered(rows: Mapping[int, Sequence[str]], bits: Sequence[int],
              below: Sequence[str] = ()) -> list[str]:
    """Monospace: the top row first, each cell centred between the two it stands on, then
    the bits (row 0) and optionally one line of marks under the bits (``below``). Cells
    are full up to ``FULL_CELLS_UP_TO`` bits and compact (``gate_cell(short=True)``) above."""
    n = len(bits)
    pitch, centre = (COMPACT_WIDTH, 1) if compact(n) else (CELL_WIDTH, 2)
    width = pitch * (n + 1)

    def line(label: str, items: Sequence[str], offset: int) -> str:
        chars = [" "] * width
        for index, text in enumerate(items):
            start = max(0, pitch * index + centre + offset - len(text) // 2)
            chars[start:start + len(text)] = list(text)
        return f"{label} {''.join(chars).rstrip()}"

    lines = [line(str(row), rows[row], pitch // 2 * row) for row in range(n - 1, 0, -1)]
    lines.append(line(" ", [str(int(bit)) for bit in bits], 0))
    if any(below):
        lines.append(line(" ", below, 0))
    return lines


def compact_legend(language: str) -> str:
    """What a compact cell says, for the prose under a compact pyramid."""
    return translate(language, "pyramid.legend.compact",
                     "∧=1: an AND gate giving 1 from the two cells right below it")


def piles_line(view: Mapping[str, Any], language: str) -> str:
    """The draw and discard piles: their sizes and the discard pile's open top card."""
    top = view.get("discard_top")
    return translate(language, "booleo.piles", "Draw pile {draw} · discard pile {discard}{top}",
                     draw=view.get("draw_pile", 0), discard=view.get("discard_pile", 0),
                     top=f" ({card_label(str(top))})" if top else "")
