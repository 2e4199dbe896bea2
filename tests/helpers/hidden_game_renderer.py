"""Text for Secret Cards, the test-only hidden-hand game in ``tests.helpers.hidden_game``.

``render`` is the public board: it reads only public fields, so even if it were handed a
private view by mistake it would not print the hand. ``render_private`` is the only place
a hand is printed, for the one player whose view it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from renderers.common import render_outcome, seat_name
from renderers.i18n import translate

View = dict[str, Any]

MARKS = ("A", "B")
EMOJI_MARKS = ("🟥", "🟦")
CARD_BACK = "🂠"

RULES = ("Secret Cards: each of two players is dealt 3 cards from a shuffled deck numbered 1 "
         "to 12, and in turn, the first player starting, plays one card from their hand face "
         "up onto their own pile. When both hands are empty the higher pile total wins, and "
         "equal totals are a draw.")


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(str(card) for card in cards) if cards else "—"


def _seat_line(view: View, names: Sequence[str], language: str, emoji: bool, seat: int) -> str:
    marks = EMOJI_MARKS if emoji else MARKS
    count = int(view["hand_sizes"][seat])
    in_hand = (CARD_BACK * count or "—") if emoji else str(count)
    return translate(language, "secrets.seat",
                     "{mark} {name}: pile {pile} (total {total}) · cards in hand: {count}",
                     mark=marks[seat], name=seat_name(names, seat),
                     pile=_cards(view["piles"][seat]), total=view["totals"][seat],
                     count=in_hand)


def render_status(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """The last card played, then whose turn it is or how the game ended."""
    marks = EMOJI_MARKS if emoji else MARKS
    lines = []
    last = view.get("last_move")
    if last:
        seat = int(last["player"])
        lines.append(translate(language, "board.last_move", mark=marks[seat],
                               name=seat_name(names, seat), move=last["text"]))
    if view.get("outcome"):
        lines.append(render_outcome(view["outcome"], names, language))
    elif view.get("to_move") is not None:
        seat = int(view["to_move"])
        lines.append(translate(language, "game.to_move", mark=marks[seat],
                               name=seat_name(names, seat)))
    return "\n".join(lines)


def render(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """The public board: piles, hand sizes and status, never a hand's contents."""
    seats = [_seat_line(view, names, language, emoji, seat)
             for seat in range(len(view["piles"]))]
    return "\n".join([*seats, render_status(view, names, language, emoji)])


def render_private(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """One player's own view: the public board, then their hand."""
    if "hand" not in view or view.get("seat") is None:
        raise ValueError("render_private needs a player's view with 'seat' and 'hand'")
    hand = translate(language, "secrets.your_hand", "Your hand: {cards}",
                     cards=_cards(view["hand"]))
    return f"{render(view, names, language, emoji)}\n{hand}"
