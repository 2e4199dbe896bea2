"""How a card hand shows in a player's private message: one card a line, ``• AND→1 ×2:``
and what it does (``renderers.pyramid.hand_lines``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from renderers.pyramid import card_label


def hand_prefixes(hand: Iterable[str]) -> list[str]:
    """The start of each card's line: ``• AND→1 ×2:``."""
    counts = Counter(str(card) for card in hand)
    return [f"• {card_label(card)}{f' ×{n}' if n > 1 else ''}:" for card, n in counts.items()]


def shows_hand(hand: Iterable[str], text: str) -> bool:
    """Whether ``text`` shows exactly this hand's cards (each kind with its count), or
    "no cards" for an empty hand."""
    prefixes = hand_prefixes(hand)
    if not prefixes:
        return "no cards" in text
    shown = [line.strip() for line in text.split("\n") if line.strip().startswith("• ")]
    return sorted(line.split(":")[0] + ":" for line in shown) == sorted(prefixes)
