"""bOOleO as chat text: both pyramids, the start row as each seat reads it, the pending NOT,
and the private hand.

Renderers see only ``state.view(viewer)`` (``engines/booleo/__init__.py``). The public board reads
only public fields, so it prints the same text whichever view it is handed; a hand is
printed only by ``render_private``.

Every gate is printed with its inputs, its type and its output, as ``1∧0=0``: a student can
check each one without looking anything up, and in ``referee=off`` spot the wrong ones.
Gate types are the logic symbols ∧ ∨ ⊕ ⊼ ⊽ ⊙ (AND OR XOR NAND NOR XNOR), with a legend,
because a full row of 7 gates must fit a phone's width. Pyramids are code blocks in both
board styles, their rows staggered so that each gate stands between the two gates (or bits)
it reads (the emoji style decorates only the prose around them). A slot ready for a gate
(both inputs present) is ``○``, one still waiting for its inputs ``·``. An inactive gate (variant
``inactive``) prints ``~`` instead of ``=``; a gate a pending NOT would remove, and once
the game is over every invalid gate, prints ``≠``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.booleo.cards import CARD_TOKENS
from renderers import pyramid
from renderers.common import code_block, render_outcome, seat_name
from renderers.i18n import translate
from renderers.pyramid import bit_text, card_label, hand_text

__all__ = ["RULES", "card_label", "gate_cell", "hand_text", "render", "render_private"]

View = dict[str, Any]

SEAT_KEYS = ("booleo.south", "booleo.north")
SEAT_DEFAULTS = ("South", "North")

RULES = """bOOleO (J. Brandt and C. Kampf): 2 players build pyramids of logic gates.
A row of start cards shows bits; you read it from your side, your opponent from theirs \
(reversed and inverted). Your slot bit is the rightmost bit you read.
Your pyramid stands on your reading: each gate takes the two bits (or gates) below it. A \
gate card names a gate and its output, such as AND→1; it fits a slot only if the gate of \
the two inputs really gives that output. The top gate must also give your slot bit. The \
first complete pyramid wins.
Each turn: draw a card, then place a gate, replace one of your gates (gates that no longer \
fit fall, and those above them), play a NOT on a start card, or discard. You keep 4 cards.
A NOT flips a start card for both players. The next player may cancel it with a NOT on the \
same card (a cancel can be cancelled too). Any other action, a challenge included, lets the \
flip stand first: every gate the flip made invalid falls, with the gates above it, in both \
pyramids; then the action happens. With referee=off a wrong gate the flip does not touch \
stays until someone challenges it.
Gates: ∧ AND, ∨ OR, ⊕ XOR (⊼ NAND, ⊽ NOR, ⊙ XNOR with the option extended). A gate is \
printed with its inputs and output: 1∧0=0.
Options: bits (4–8 start cards), extended, inactive (a gate missing one input stays, \
inactive), referee=off (wrong gates may be placed; challenge them before they win).
The buttons make typing unnecessary. Typed: 'AND1 2.3' (gate on row 2, slot 3), 'NOT 4', \
'discard XOR0', 'challenge 1.2'."""


# -- small pieces --------------------------------------------------------------------------

def seat_label(language: str, seat: int) -> str:
    return translate(language, SEAT_KEYS[seat], SEAT_DEFAULTS[seat])


def gate_cell(gate: View, invalid: bool, short: bool = False) -> str:
    """``1∧0=0`` (``∧=0`` when ``short``); ``~`` marks an inactive gate, ``≠`` a wrong one
    (see ``_invalid``)."""
    return pyramid.gate_cell(gate, "≠" if invalid else "~" if gate.get("inactive") else "=",
                             short)


def _slot(name: str) -> tuple[int, int]:
    row, _, index = name.partition(".")
    return int(row), int(index)


def _gates(view: View, seat: int) -> dict[tuple[int, int], View]:
    pyramids = view.get("pyramids") or [[], []]
    return {_slot(str(g["slot"])): g for g in pyramids[seat]}


def _empty_cell(gates: dict[tuple[int, int], View], row: int, index: int) -> str:
    """``○`` where a gate could go now, ``·`` where its inputs are still missing."""
    if row == 1:
        return "○"
    below = (gates.get((row - 1, index)), gates.get((row - 1, index + 1)))
    ready = all(g is not None and not g.get("inactive") for g in below)
    return "○" if ready else "·"


def _invalid(view: View, seat: int) -> set[tuple[int, int]]:
    """Gates shown as wrong: every invalid one once the game is over, and while a NOT is
    pending the ones it would remove (public either way: anyone can read their inputs)."""
    marked = list((view.get("invalid_gates") or [[], []])[seat])
    marked += ((view.get("pending") or {}).get("would_remove") or [[], []])[seat]
    return {_slot(str(name)) for name in marked}


def _cells(view: View, seat: int, short: bool = False) -> dict[int, list[str]]:
    """Each row's cells, left to right, as text; gates compact when ``short``."""
    n = int(view["bits"])
    gates = _gates(view, seat)
    invalid = _invalid(view, seat)
    cells: dict[int, list[str]] = {}
    for row in range(1, n):
        cells[row] = [gate_cell(gates[(row, i)], (row, i) in invalid, short)
                      if (row, i) in gates
                      else _empty_cell(gates, row, i) for i in range(1, n - row + 1)]
    return cells


def _not_marks(view: View, seat: int) -> list[str]:
    counts = (view.get("not_counts") or [[], []])[seat]
    return [f"¬{count}" if count else "" for count in counts]


# -- pyramids --------------------------------------------------------------------------------

def pyramid_text(view: View, seat: int) -> list[str]:
    """The pyramid in monospace: rows staggered so that each gate stands above its inputs,
    the top first, then the start row as this seat reads it and the NOTs under it."""
    row_bits = (view.get("rows") or [[], []])[seat]
    short = pyramid.compact(len(row_bits))
    return pyramid.staggered(_cells(view, seat, short), row_bits, _not_marks(view, seat))


def _seat_header(view: View, names: Sequence[str], language: str, emoji: bool,
                 seat: int) -> str:
    n = int(view["bits"])
    placed = len((view.get("pyramids") or [[], []])[seat])
    marker = ""
    if view.get("outcome") is None and view.get("to_move") == seat:
        marker = "▶️ " if emoji else "> "
    cards = (view.get("hand_sizes") or [0, 0])[seat]
    return marker + translate(
        language, "booleo.seat_header.one" if cards == 1 else "booleo.seat_header",
        "{name} ({side}) · slot bit {slot_bit} · {placed}/{total} gates · 1 card" if cards == 1
        else "{name} ({side}) · slot bit {slot_bit} · {placed}/{total} gates · {cards} cards",
        name=seat_name(names, seat), side=seat_label(language, seat),
        slot_bit=bit_text((view.get("slot_bits") or [None, None])[seat]), placed=placed,
        total=n * (n - 1) // 2, cards=cards)


def _legend(view: View, language: str) -> str:
    parts = pyramid.gate_legend(str(g["gate"]) for gates in view.get("pyramids") or []
                                for g in gates)
    parts.append(translate(language, "booleo.legend.ready", "○ ready for a gate"))
    if (view.get("options") or {}).get("inactive"):
        parts.append(translate(language, "booleo.legend.inactive", "~ inactive"))
    if any(view.get("invalid_gates") or []):
        parts.append(translate(language, "booleo.legend.invalid", "≠ invalid"))
    elif any((view.get("pending") or {}).get("would_remove") or []):
        parts.append(translate(language, "booleo.legend.would_fall",
                               "≠ falls if the NOT stands"))
    return " · ".join(parts)


# -- what happened ---------------------------------------------------------------------------

def _removed_text(language: str, names: Sequence[str], removed: Sequence[Any]) -> str:
    """"Ann loses 1.2, 2.1; Bo loses 1.4" from per-seat lists of slots (or gate dicts)."""
    parts = []
    for seat, slots in enumerate(removed):
        labels = [str(s["slot"]) if isinstance(s, dict) else str(s) for s in slots]
        if labels:
            parts.append(translate(language, "booleo.loses", "{name} loses {slots}",
                                   name=seat_name(names, seat), slots=", ".join(labels)))
    return "; ".join(parts)


def event_line(event: View, names: Sequence[str], language: str) -> str | None:
    """One public sentence for an event, or None for those the board already shows."""
    kind = event.get("type")
    name = seat_name(names, int(event.get("seat", 0)))
    if kind in ("placed", "replaced"):
        text = translate(language, f"booleo.event.{kind}",
                         "{name} placed {card} on {slot}." if kind == "placed"
                         else "{name} replaced {old} on {slot} with {card}.",
                         name=name, card=card_label(str(event.get("card"))),
                         old=card_label(str(event.get("old", ""))), slot=event.get("slot"))
        removed = [str(g["slot"]) for g in event.get("removed") or []]
        if removed:
            text += " " + translate(language, "booleo.event.fell", "Fell: {slots}.",
                                    slots=", ".join(removed))
        return text
    if kind == "not_played":
        return translate(language, "booleo.event.not", "{name} played a NOT on start card "
                         "{position}, counted from {name}'s side.", name=name,
                         position=event.get("position"))
    if kind == "flip_cancelled":
        return translate(language, "booleo.event.cancelled", "{name} cancelled the NOT with "
                         "a NOT: the card is back, nothing falls.", name=name)
    if kind == "flip_resolved":
        # Any action but a cancel, a challenge included, lets the NOT stand first; only
        # the gates the flip made invalid fall (rules: decided 2026-11-25).
        losses = _removed_text(language, names, event.get("removed") or [])
        return translate(language, "booleo.event.resolved_first", "{name} did not cancel "
                         "the NOT, so it stands: the gates it made invalid fall before "
                         "{name}'s action. {removed}",
                         name=seat_name(names, 1 - int(event.get("by", 0))),
                         removed=losses or translate(language, "booleo.event.nothing_fell",
                                                      "Nothing falls."))
    if kind == "discarded":
        return translate(language, "booleo.event.discarded", "{name} discarded {card}.",
                         name=name, card=card_label(str(event.get("card"))))
    if kind == "passed":
        return translate(language, "booleo.event.passed", "{name} has no card and passes.",
                         name=name)
    if kind == "challenge":
        target = seat_name(names, int(event.get("target", 0)))
        if event.get("result") == "invalid":
            return translate(language, "booleo.event.challenge_won",
                             "{name} challenged {target}'s {slot}: it was wrong, and falls.",
                             name=name, target=target, slot=event.get("slot"))
        return translate(language, "booleo.event.challenge_lost",
                         "{name} challenged {target}'s {slot}: it was right; {name} loses "
                         "the action.", name=name, target=target, slot=event.get("slot"))
    if kind == "claim":
        return translate(language, "booleo.event.claim", "{name} claims a complete pyramid! "
                         "The opponent may challenge one gate, or accept.", name=name)
    if kind == "reshuffled":
        return translate(language, "booleo.event.reshuffled",
                         "The discard pile was shuffled into a new draw pile.")
    return None


def pending_lines(view: View, names: Sequence[str], language: str, emoji: bool) -> list[str]:
    pending = view.get("pending")
    if not pending:
        return []
    by = int(pending.get("by", 0))
    positions = pending.get("positions") or [pending.get("card"), pending.get("card")]
    removed = _removed_text(language, names, pending.get("would_remove") or [])
    other = 1 - by
    lines = [("⚠️ " if emoji else "! ") + translate(
        language, "booleo.pending.stands_first",
        "A NOT on start card {position} ({other} reads it as card {other_position}) is "
        "pending. {other} may cancel it with a NOT on that card; any other action, a "
        "challenge too, lets it stand first, and the gates it made invalid fall: {removed}",
        position=positions[by], other=seat_name(names, other),
        other_position=positions[other],
        removed=removed or translate(language, "booleo.pending.nothing", "nothing falls."))]
    return lines


def danger_lines(view: View, names: Sequence[str], language: str) -> list[str]:
    """The danger marks told (option ``danger``): which gates of the player to move a NOT
    on one start card would break, by the card's position as they read the row."""
    threats = [threat for threat in view.get("threats") or [] if threat.get("gates")]
    if not threats or view.get("to_move") is None or view.get("outcome"):
        return []
    lines = [translate(language, "booleo.danger.title",
                       "⚠ {name}, a NOT from your opponent could break your gates:",
                       name=seat_name(names, int(view["to_move"])))]
    for threat in threats:
        lines.append(translate(language, "booleo.danger.line",
                               "on card {position}: {gates}", position=threat.get("position"),
                               gates=", ".join(str(gate) for gate in threat["gates"])))
    return lines


def render_status(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    lines = [line for event in view.get("last_events") or []
             if (line := event_line(event, names, language))]
    lines += pending_lines(view, names, language, emoji)
    outcome = view.get("outcome")
    if outcome:
        lines.append(render_outcome(outcome, names, language))
    elif view.get("to_move") is not None:
        seat = int(view["to_move"])
        phase = view.get("phase")
        if phase == "claim":
            key, default = "booleo.to_answer", "{name}: challenge a gate of the claimed " \
                                               "pyramid, or accept it."
        elif phase == "discard":
            key, default = "booleo.to_discard", "{name}: the challenge failed; discard a card."
        else:
            key, default = "booleo.to_move", "{name} to play (turn {turn} of {limit})."
        lines.append(translate(language, key, default, name=seat_name(names, seat),
                               turn=int(view.get("turns", 0)) + 1,
                               limit=view.get("max_turns")))
    return "\n".join(lines)


def render(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """Both pyramids (North's on top, as the table looks from South), piles and status.
    The pyramid is a code block in both board styles (a proportional font cannot stand each
    gate over its inputs); its header and everything else are prose."""
    lines: list[str] = []
    for seat in (1, 0):
        lines.append(_seat_header(view, names, language, emoji, seat))
        lines.append(code_block(pyramid_text(view, seat)))
    lines.append(_legend(view, language))
    if pyramid.compact(int(view["bits"])):
        lines.append(pyramid.compact_legend(language))
    lines.append(pyramid.piles_line(view, language))
    lines += danger_lines(view, names, language)
    status = render_status(view, names, language, emoji)
    if status:
        lines.append(status)
    return "\n".join(lines)


def render_private(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """A player's hand, with what they need to choose: their slot bit and a pending NOT."""
    seat = view.get("seat")
    if seat is None:
        return render_status(view, names, language, emoji)
    seat = int(seat)
    hand = [str(card) for card in view.get("hand") or []]
    lines = [("🂠 " if emoji else "")
             + translate(language, "booleo.hand.title", "Your hand ({side}, slot bit "
                         "{slot_bit}):", side=seat_label(language, seat),
                         slot_bit=bit_text((view.get("slot_bits") or [None, None])[seat]))]
    lines += (pyramid.hand_lines(hand, view.get("fits"), language)
              or [translate(language, "booleo.hand.empty", "no cards")])
    lines += pending_lines(view, names, language, emoji)
    return "\n".join(lines)


def private_cards(view: View, language: str) -> list[tuple[str, str]]:
    """The card lines of ``render_private`` (as it shows them), each with the token of the
    menu's first step that plays that card: what a platform needs to put each card's
    button beside its line. Empty for a view without a seat or without cards."""
    if view.get("seat") is None:
        return []
    hand = [str(card) for card in view.get("hand") or []]
    return [(CARD_TOKENS.get(card, ""), line)
            for card, line in pyramid.hand_cards(hand, view.get("fits"), language)]
