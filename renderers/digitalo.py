"""Digitalo as chat text: both pyramids with the seed's position numbers, inactive gates, the
pending inverter, the round's result and the match score in binary; right after a round
ended, also that round's final pyramids above the new deal.

Renderers see only ``state.view(viewer)`` (``engines/digitalo/__init__.py``); the public board reads
only public fields, so it prints the same text whichever view it is handed, and a hand is
printed only by ``render_private``. The layout is bOOleO's (``renderers/pyramid.py``): every
gate as ``1∧0=0``. An empty position shows its number as in the seed (1–3, 4–5, 6 for four
bits), ``○4`` when a gate fits there now and ``·4`` while an input is missing or inactive.
An inactive gate prints ``~`` instead of ``=``; a gate a pending
inverter would remove prints ``≠``. Scores are binary, as the seed counts them: ``011``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.digitalo.cards import CARD_TOKENS
from renderers import pyramid
from renderers.common import code_block, render_outcome, seat_name
from renderers.i18n import translate
from renderers.pyramid import card_label, hand_text

__all__ = ["RULES", "card_label", "hand_text", "position_cells", "render", "render_private"]

View = dict[str, Any]
SEAT_KEYS = ("booleo.south", "booleo.north")
SEAT_DEFAULTS = ("South", "North")

RULES = """Digitalo (inf-schule.de): 2 players build pyramids of logic gates, in rounds, \
to 1000 points in binary (8).
A row of bit cards shows bits; you read it from your side, your opponent from theirs \
(reversed and inverted). Your pyramid stands on your reading: each gate takes the two bits \
(or gates) below it. Positions are numbered 1–3 on the bits, 4–5 above, 6 on top (4 bits).
A gate card names a gate and its output, such as AND→1; it fits only if the gate of its two \
inputs really gives that output, and both inputs must be there and active.
Each turn: place a gate, play an inverter on a bit card, or discard (only when no gate \
fits, unless the option free_discard is on); then draw. You keep 4 cards.
An inverter flips a bit for both players. The opponent may counter it at once with an \
inverter: the flip is undone, both draw, and the inverter's player moves again. Otherwise \
the flip resolves: first-row gates that no longer fit fall, a gate that lost one input turns \
inactive (so do the gates above it), one that lost both falls.
When a pyramid is complete and active, the other player gets one last move if they have \
moved less; then the completer scores a point for each empty or inactive position of the \
other pyramid. Both complete: no points. If the last move is an inverter, the completer may \
counter it; if they accept it and it breaks their pyramid, the round goes on, the completer \
to move. First to 1000 (8) wins the match.
Gates: ∧ AND, ∨ OR, ⊕ XOR, ⊼ NAND. The buttons make typing unnecessary. Typed: 'AND1 4' \
(a gate on position 4), 'INV 2' (an inverter on bit card 2), 'counter', 'discard XOR0'."""


# -- small pieces --------------------------------------------------------------------------

def seat_label(language: str, seat: int) -> str:
    return translate(language, SEAT_KEYS[seat], SEAT_DEFAULTS[seat])


def position_of(n: int, row: int, index: int) -> int:
    """The seed's number of row ``row``, slot ``index``: row by row from the bits up."""
    return sum(n - r for r in range(1, row)) + index


def _marked(view: View, key: str, seat: int) -> set[int]:
    return {int(p) for p in ((view.get("pending") or {}).get(key) or [[], []])[seat]}


def position_cells(view: View, seat: int, short: bool = False) -> dict[int, list[str]]:
    """Each row's cells, left to right: gates as ``1∧0=0`` (``∧=0`` when ``short``),
    empty positions numbered. Only characters a monospace font draws one column wide, as
    the cells stand in a code block that must stay aligned."""
    n = int(view["bits"])
    gates = {int(g["position"]): g for g in (view.get("pyramids") or [[], []])[seat]}
    open_now = {int(p) for p in (view.get("open") or [[], []])[seat]}
    falling = _marked(view, "would_remove", seat)
    cells: dict[int, list[str]] = {}
    for row in range(1, n):
        cells[row] = []
        for index in range(1, n - row + 1):
            position = position_of(n, row, index)
            gate = gates.get(position)
            if gate is None:
                cells[row].append(f"{'○' if position in open_now else '·'}{position}")
                continue
            sign = "≠" if position in falling else "~" if gate.get("inactive") else "="
            cells[row].append(pyramid.gate_cell(gate, sign, short))
    return cells


def score_line(view: View, names: Sequence[str], language: str) -> str:
    scores = view.get("scores_binary") or ["0000", "0000"]
    return translate(language, "digitalo.score", "Round {round} · {south} {south_score} · "
                     "{north} {north_score} (the match is to {target})",
                     round=view.get("round", 1), south=seat_name(names, 0),
                     south_score=scores[0], north=seat_name(names, 1), north_score=scores[1],
                     target=view.get("target_binary", "1000"))


def _seat_header(view: View, names: Sequence[str], language: str, emoji: bool,
                 seat: int) -> str:
    placed = len((view.get("pyramids") or [[], []])[seat])
    marker = ""
    if view.get("outcome") is None and view.get("to_move") == seat:
        marker = "▶️ " if emoji else "> "
    cards = (view.get("hand_sizes") or [0, 0])[seat]
    return marker + translate(
        language, "digitalo.seat_header.one" if cards == 1 else "digitalo.seat_header",
        "{name} ({side}) · {placed}/{total} gates · 1 card · moves {moves}" if cards == 1
        else "{name} ({side}) · {placed}/{total} gates · {cards} cards · moves {moves}",
        name=seat_name(names, seat), side=seat_label(language, seat), placed=placed,
        total=view.get("pyramid_size", 0), cards=cards,
        moves=(view.get("moves") or [0, 0])[seat])


def _legend(view: View, language: str, final: View | None = None) -> str:
    shown = [*(view.get("pyramids") or []), *((final or {}).get("gates") or [])]
    parts = pyramid.gate_legend(str(g["gate"]) for gates in shown for g in gates)
    parts.append(translate(language, "digitalo.legend.open", "○4 a gate fits on 4 now"))
    parts.append(translate(language, "digitalo.legend.inactive", "~ inactive"))
    if any((view.get("pending") or {}).get("would_remove") or []) or any(
            (final or {}).get("unfit") or []):
        parts.append(translate(language, "digitalo.legend.would_fall",
                               "≠ falls if the inverter stands"))
    return " · ".join(parts)


def _positions(values: Sequence[Any]) -> str:
    return ", ".join(str(v["position"] if isinstance(v, dict) else v) for v in values)


def _per_seat(language: str, names: Sequence[str], key: str, default: str,
              per_seat: Sequence[Sequence[Any]]) -> list[str]:
    return [translate(language, key, default, name=seat_name(names, seat),
                      positions=_positions(values))
            for seat, values in enumerate(per_seat) if values]


# -- what happened ---------------------------------------------------------------------------

def round_result(result: View, names: Sequence[str], language: str) -> str:
    winner = result.get("winner")
    if winner is None:
        key, default = {
            "both_complete": ("digitalo.round.both", "Round {round}: both pyramids are "
                              "complete, no points."),
            "max_moves": ("digitalo.round.max_moves", "Round {round}: the move limit ends it "
                          "without points."),
        }.get(str(result.get("reason")), ("digitalo.round.none", "Round {round} ends without "
                                          "points."))
        return translate(language, key, default, round=result.get("round"))
    return translate(language, "digitalo.round.won",
                     "Round {round}: {name} completed the pyramid and scores {points} "
                     "({binary} in binary: {empty} empty, {inactive} inactive).",
                     round=result.get("round"), name=seat_name(names, int(winner)),
                     points=result.get("points"), binary=format(int(result.get("points", 0)),
                                                                 "b"),
                     empty=result.get("empty"), inactive=result.get("inactive"))


def event_lines(event: View, names: Sequence[str], language: str) -> list[str]:
    """Public sentences for an event; none for those the board already shows."""
    kind = event.get("type")
    name = seat_name(names, int(event.get("seat", 0)))
    if kind == "placed":
        lines = [translate(language, "digitalo.event.placed", "{name} placed {card} on "
                           "{position}.", name=name, card=card_label(str(event.get("card"))),
                           position=event.get("position"))]
        # Placing settles only the mover's own pyramid, so what fell is the mover's.
        if event.get("removed"):
            lines.append(translate(language, "digitalo.event.fell", "Fell from {name}'s "
                                   "pyramid: {positions}.", name=name,
                                   positions=_positions(event["removed"])))
        if event.get("reactivated"):
            lines.append(translate(language, "digitalo.event.reactivated",
                                   "Active again: {positions}.",
                                   positions=_positions(event["reactivated"])))
        return [" ".join(lines)]
    if kind == "inverted":
        return [translate(language, "digitalo.event.inverted", "{name} played an inverter on "
                          "bit card {position}, counted from {name}'s side.", name=name,
                          position=event.get("position"))]
    if kind == "countered":
        return [translate(language, "digitalo.event.countered", "{name} countered with an "
                          "inverter: the bit is back, both players draw, and the inverter's "
                          "player moves again.", name=name)]
    if kind == "flip_resolved":
        parts = _per_seat(language, names, "digitalo.event.lost", "{name} loses {positions}.",
                          event.get("removed") or [])
        parts += _per_seat(language, names, "digitalo.event.inactive",
                           "{name}'s {positions} turn inactive.", event.get("inactive") or [])
        return [translate(language, "digitalo.event.resolved", "The inverter stands. "
                          "{details}", details=" ".join(parts) or translate(
                              language, "digitalo.event.nothing", "Nothing changes."))]
    if kind == "discarded":
        return [translate(language, "digitalo.event.discarded", "{name} discarded {card}.",
                          name=name, card=card_label(str(event.get("card"))))]
    if kind == "passed":
        return [translate(language, "digitalo.event.passed", "{name} has no card and passes.",
                          name=name)]
    if kind == "last_move":
        return [translate(language, "digitalo.event.last_move", "{completer} completed the "
                          "pyramid! {name} has one last move, to have moved as often.",
                          completer=seat_name(names, int(event.get("completer", 0))),
                          name=name)]
    if kind == "round_goes_on":
        # Only accepting the last move's inverter can break a completed pyramid before
        # the round is scored (rules: decided 2026-11-25).
        return [translate(language, "digitalo.event.goes_on_broken", "{name} accepted the "
                          "inverter of the last move, and it broke {name}'s pyramid: the "
                          "round is not over. Play goes on, {name} to move.", name=name)]
    if kind == "round_over":
        return [round_result(event, names, language)]
    if kind == "new_round":
        return [translate(language, "digitalo.event.new_round", "Round {round}: new bit "
                          "cards and a new deal; {name} starts.", round=event.get("round"),
                          name=seat_name(names, int(event.get("starter", 0))))]
    if kind == "reshuffled":
        return [translate(language, "booleo.event.reshuffled",
                          "The discard pile was shuffled into a new draw pile.")]
    return []


def pending_lines(view: View, names: Sequence[str], language: str, emoji: bool) -> list[str]:
    pending = view.get("pending")
    if not pending:
        return []
    by = int(pending.get("by", 0))
    other = 1 - by
    positions = pending.get("positions") or [pending.get("bit"), pending.get("bit")]
    effects = _per_seat(language, names, "digitalo.event.lost", "{name} loses {positions}.",
                        pending.get("would_remove") or [])
    effects += _per_seat(language, names, "digitalo.event.inactive",
                         "{name}'s {positions} turn inactive.",
                         pending.get("would_deactivate") or [])
    return [("⚠️ " if emoji else "! ") + translate(
        language, "digitalo.pending",
        "An inverter on bit card {position} ({other} reads it as bit {other_position}) is "
        "pending. {other} may counter it with an inverter; otherwise: {effects}",
        position=positions[by], other=seat_name(names, other), other_position=positions[other],
        effects=" ".join(effects) or translate(language, "digitalo.event.nothing",
                                               "Nothing changes."))]


def danger_lines(view: View, names: Sequence[str], language: str) -> list[str]:
    """The danger marks told (option ``danger``): which gates of the player to move an
    inverter on one bit card would discard or make inactive, by the bit card's number as
    they read the row."""
    threats = [threat for threat in view.get("threats") or []
               if threat.get("removed") or threat.get("inactive")]
    if not threats or view.get("to_move") is None or view.get("outcome"):
        return []
    lines = [translate(language, "digitalo.danger.title",
                       "⚠ {name}, an inverter from your opponent could break your gates:",
                       name=seat_name(names, int(view["to_move"])))]
    for threat in threats:
        effects = []
        if threat.get("removed"):
            effects.append(translate(language, "digitalo.danger.lost", "you lose {positions}",
                                     positions=_positions(threat["removed"])))
        if threat.get("inactive"):
            effects.append(translate(language, "digitalo.danger.inactive",
                                     "{positions} turn inactive",
                                     positions=_positions(threat["inactive"])))
        lines.append(translate(language, "digitalo.danger.line",
                               "on bit card {position}: {effects}",
                               position=threat.get("position"), effects="; ".join(effects)))
    return lines


# -- the round that just ended -------------------------------------------------------------

def ended_round(view: View) -> tuple[int, View] | None:
    """When this board is the first after a round ended and the next was dealt: where the
    ``round_over`` event stands in ``last_events``, and the round's result with its final
    pyramids (the view's ``last_round``). The deal clears the table, so without this the
    players would never see the pyramid that won the round. Any later board, and a match
    that ended with the round (its table still stands), shows none."""
    if view.get("outcome"):
        return None
    events = list(view.get("last_events") or [])
    final = view.get("last_round") or {}
    for index, event in enumerate(events):
        if (event.get("type") == "round_over" and final.get("gates") and final.get("rows")
                and event.get("round") == final.get("round")
                and any(e.get("type") == "new_round" for e in events[index + 1:])):
            return index, final
    return None


def _final_order(final: View) -> list[tuple[int, bool]]:
    """Which pyramids to draw first, and whether each was completed: the round's winner
    first, the pyramid the sentence is about; else North's over South's as on the board."""
    winner = final.get("winner")
    if winner is not None:
        return [(int(winner), True), (1 - int(winner), False)]
    both = final.get("reason") == "both_complete"
    return [(1, both), (0, both)]


def final_pyramid_lines(view: View, final: View, names: Sequence[str], language: str,
                        emoji: bool) -> list[str]:
    """The ended round's pyramids as they stood, drawn like the live ones: only placed
    gates and their readings, which are public, never a card in a hand."""
    n = int(view["bits"])
    short = pyramid.compact(n)
    # The round is over: nothing is open on these pyramids any more. Only when the move
    # limit struck with an inverter pending do gates stand that it would fell: marked ≠.
    table: View = {"bits": n, "pyramids": final["gates"], "open": [[], []],
                   "pending": {"would_remove": final.get("unfit") or [[], []]}}
    lines: list[str] = []
    for seat, completed in _final_order(final):
        name, side = seat_name(names, seat), seat_label(language, seat)
        if completed:
            lines.append(translate(language, "digitalo.final.completed",
                                   "Round {round} — {name} ({side}) completed this pyramid:",
                                   round=final.get("round"), name=name, side=side))
        else:
            lines.append(translate(language, "digitalo.final.at_end",
                                   "{name}'s pyramid ({side}) at the end of round {round}:",
                                   round=final.get("round"), name=name, side=side))
        cells = position_cells(table, seat, short)
        lines.append(code_block(pyramid.staggered(cells, final["rows"][seat])))
    return lines


# -- the board -----------------------------------------------------------------------------

def render_status(view: View, names: Sequence[str], language: str, emoji: bool,
                  skip_events: int = 0) -> str:
    """What happened, what is pending and who is to move; ``skip_events`` leaves out the
    first events of ``last_events``, which the board already told above its pyramids."""
    lines = [line for event in (view.get("last_events") or [])[skip_events:]
             for line in event_lines(event, names, language)]
    lines += pending_lines(view, names, language, emoji)
    outcome = view.get("outcome")
    if outcome:
        lines.append(render_outcome(outcome, names, language))
    elif view.get("to_move") is not None:
        seat = int(view["to_move"])
        key, default = {
            "last move": ("digitalo.to_last_move", "{name}: your last move of the round."),
            "answer": ("digitalo.to_answer", "{name}: counter the inverter, or accept it."),
        }.get(str(view.get("phase")), ("digitalo.to_move", "{name} to play."))
        lines.append(translate(language, key, default, name=seat_name(names, seat)))
    return "\n".join(lines)


def render(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """The score, both pyramids (North's on top), the piles and what happened. A monospace
    pyramid is a code block, its header and everything else prose. The first board after
    a round ended shows, under the score, how it ended and its final pyramids."""
    lines = [score_line(view, names, language)]
    ended = ended_round(view)
    told, final = 0, None
    if ended is not None:
        # Right after a round's end: how it ended and its final pyramids, then the new
        # round's table, which the deal has already cleared.
        index, final = ended
        events = view.get("last_events") or []
        lines += [line for event in events[:index + 1]
                  for line in event_lines(event, names, language)]
        lines += ["", *final_pyramid_lines(view, final, names, language, emoji)]
        told = index + 1
    lines.append("")
    short = pyramid.compact(int(view["bits"]))
    for seat in (1, 0):
        lines.append(_seat_header(view, names, language, emoji, seat))
        cells = position_cells(view, seat, short)
        bits = (view.get("rows") or [[], []])[seat]
        lines.append(code_block(pyramid.staggered(cells, bits)))
    lines.append(_legend(view, language, final))
    if short:
        lines.append(pyramid.compact_legend(language))
    lines.append(pyramid.piles_line(view, language))
    lines += danger_lines(view, names, language)
    status = render_status(view, names, language, emoji, told)
    if status:
        lines.append(status)
    return "\n".join(lines)


def render_private(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """A player's hand, with the pending inverter they may have to answer."""
    seat = view.get("seat")
    if seat is None:
        return render_status(view, names, language, emoji)
    seat = int(seat)
    hand = [str(card) for card in view.get("hand") or []]
    lines = [("🂠 " if emoji else "") + translate(
        language, "digitalo.hand.title", "Your hand ({side}):", side=seat_label(language, seat))]
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
