"""Digitalo's notation: typed or canonical text to a ``Move`` and back (the canonical
actions and the looser typed forms are described in ``engines/digitalo/__init__.py``)."""

import re
from dataclasses import dataclass

from engines.base import (
    Action,
    InvalidMove,
    Message,
)
from engines.digitalo.cards import INVERTER

_GATE = r"(nand|xor|and|or)\s*[=:]?\s*([01])"
_PLACE_RE = re.compile(rf"(?:(?:place|play|put)\s*)?{_GATE}\s*(?:(?:on|at|in|to|@)\s*)?"
                       r"(?:pos(?:ition)?\s*)?#?([0-9]{1,2})")
_INVERTER_RE = re.compile(r"(?:play\s*)?(?:inverter|invert|inv|flip|i)\s*(?:on\s*)?"
                          r"(?:bit\s*)?(?:card\s*)?#?([0-9]{1,2})")
_DISCARD_RE = re.compile(rf"(?:discard|drop|d)\s*(?:(inverter|inv|i)|{_GATE})")
_COUNTER_RE = re.compile(r"(?:counter|cancel|undo)(?:\s*the\s*(?:inverter|flip))?|c")
_ACCEPT_RE = re.compile(r"accept(?:\s*the\s*flip)?|ok|resolve")
EXPECTED = Message("digitalo.expected",
                   "a move like 'AND1 4' (a gate on position 4), 'INV 2' (an inverter on your "
                   "bit card 2), 'counter', 'discard XOR0' or 'accept'")


@dataclass(frozen=True)
class Move:
    """A parsed action. ``kind``: gate, inverter, counter, discard, accept. ``pos`` is
    the position for a gate and the bit card for an inverter, in the actor's numbering."""

    kind: str
    card: str = ""
    pos: int = 0

    def canonical(self) -> Action:
        if self.kind == "gate":
            return f"{self.card} {self.pos}"
        if self.kind == "inverter":
            return f"{INVERTER} {self.pos}"
        if self.kind == "discard":
            return f"discard {self.card}"
        return self.kind


def parse_move(text: str) -> Move:
    """Typed or canonical notation to a ``Move``; raises ``InvalidMove`` on anything else."""
    words = text.strip().lower().replace("→", " ").replace("->", " ")
    words = " ".join(re.sub(r"[()\[\]]", " ", words).split())
    if _ACCEPT_RE.fullmatch(words):
        return Move("accept")
    if _COUNTER_RE.fullmatch(words):
        return Move("counter")
    match = _PLACE_RE.fullmatch(words)
    if match:
        gate, out, pos = match.groups()
        return Move("gate", f"{gate.upper()}{out}", int(pos))
    match = _INVERTER_RE.fullmatch(words)
    if match:
        return Move("inverter", INVERTER, int(match.group(1)))
    match = _DISCARD_RE.fullmatch(words)
    if match:
        card = INVERTER if match.group(1) else f"{match.group(2).upper()}{match.group(3)}"
        return Move("discard", card)
    if not words:
        raise InvalidMove("digitalo.error.empty", "Type {expected}.", expected=EXPECTED)
    raise InvalidMove("digitalo.error.bad_move", "Expected {expected}, not '{got}'.",
                      expected=EXPECTED, got=text.strip()[:30])
