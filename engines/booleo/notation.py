"""bOOleO's notation: typed or canonical text to a ``Move`` and back (the canonical actions
and the looser typed forms are described in ``engines/booleo/__init__.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.base import (
    Action,
    InvalidMove,
    Message,
)
from engines.booleo.cards import NOT_CARD, slot_name
from engines.cards.pyramid import (
    Slot,
)

_GATE = r"(xnor|nand|nor|xor|and|or)\s*[=:]?\s*([01])"
_SLOT = r"(?:slot\s*)?([1-9])\s*[.,:/-]?\s*([1-9])"
_PLACE_RE = re.compile(rf"(?:(place|play|put|replace)\s*)?{_GATE}\s*(?:(?:on|at|in|to|@)\s*)?"
                       rf"{_SLOT}")
_REPLACE_RE = re.compile(rf"replace\s*{_SLOT}\s*(?:with|by)\s*{_GATE}")
_NOT_RE = re.compile(r"(?:play\s*)?not\s*(?:on\s*)?(?:start\s*)?(?:card\s*)?#?([0-9]{1,2})")
_DISCARD_RE = re.compile(rf"(?:discard|drop|d)\s*(?:(not)|{_GATE})")
_ACCEPT_RE = re.compile(r"accept\s*(?:the\s*claim)?|ok")
_CANCEL_RE = re.compile(r"cancel\s*(?:the\s*flip)?")
_CHALLENGE_RE = re.compile(rf"(?:challenge|ch)\s*(?:gate\s*)?{_SLOT}")
EXPECTED = Message("booleo.expected",
                   "a move like 'AND1 2.3' (a gate on row 2, slot 3), 'NOT 4' (a NOT on your "
                   "start card 4), 'discard XOR0', 'challenge 1.2', 'accept' or 'pass'")


@dataclass(frozen=True)
class Move:
    """A parsed action. ``kind``: gate, not, discard, challenge, accept, pass. ``verb`` is
    "place" or "replace" when the typed text insisted on one."""

    kind: str
    card: str = ""
    slot: Slot = (0, 0)
    pos: int = 0
    verb: str = ""

    def canonical(self) -> Action:
        if self.kind == "gate":
            return f"{self.card} {slot_name(self.slot)}"
        if self.kind == "not":
            return f"NOT {self.pos}"
        if self.kind == "discard":
            return f"discard {self.card}"
        if self.kind == "challenge":
            return f"challenge {slot_name(self.slot)}"
        return self.kind


def parse_move(text: str) -> Move:
    """Typed or canonical notation to a ``Move``; raises ``InvalidMove`` on anything else."""
    words = text.strip().lower().replace("→", " ").replace("->", " ")
    words = " ".join(re.sub(r"[()\[\]]", " ", words).split())
    if words == "pass":
        return Move("pass")
    if _ACCEPT_RE.fullmatch(words):
        return Move("accept")
    if _CANCEL_RE.fullmatch(words):
        return Move("not", pos=-1)
    match = _REPLACE_RE.fullmatch(words)
    if match:
        row, pos, gate, out = match.groups()
        return Move("gate", f"{gate.upper()}{out}", (int(row), int(pos)), verb="replace")
    match = _PLACE_RE.fullmatch(words)
    if match:
        verb, gate, out, row, pos = match.groups()
        return Move("gate", f"{gate.upper()}{out}", (int(row), int(pos)),
                    verb="place" if verb in ("place", "put") else verb or "")
    match = _NOT_RE.fullmatch(words)
    if match:
        return Move("not", pos=int(match.group(1)))
    match = _DISCARD_RE.fullmatch(words)
    if match:
        card = NOT_CARD if match.group(1) else f"{match.group(2).upper()}{match.group(3)}"
        return Move("discard", card)
    match = _CHALLENGE_RE.fullmatch(words)
    if match:
        return Move("challenge", slot=(int(match.group(1)), int(match.group(2))))
    if not words:
        raise InvalidMove("booleo.error.empty", "Type {expected}.", expected=EXPECTED)
    raise InvalidMove("booleo.error.bad_move", "Expected {expected}, not '{got}'.",
                      expected=EXPECTED, got=text.strip()[:30])
