"""A player's hand on Discord: its private message, and keeping it live.

A hand is content and rows; a card hand (``Hand.cards``: bOOleO, Digitalo) is a
Components V2 message instead: text displays, one section per card (its line beside the
button that plays it), then the other options in action rows. A card hand that would
not fit shows its cards as text above all of its buttons, still V2 (a V2 message stays V2
when edited).

Live hands: a player's private hand message is brought up to date when their turn
begins, so that they tap a card at once instead of reopening the hand.

A hand is an ephemeral message, which only the interaction that sent or last edited it
can change, and only while its token lasts (15 minutes). So the last such interaction of
each player in each game is kept; when it is too old or the edit fails, the player
opens the hand with the board's button as before.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.adapters.discord.components import message_fields
from bot.adapters.discord.layout import (
    NO_MENTIONS,
    V2_COMPONENTS,
    V2_TEXT_LIMIT,
    CardSection,
    Layout,
)
from bot.adapters.discord.markdown import fit_content, inert, rendered, shorten
from bot.adapters.discord.menus import menu_button, menu_layout
from bot.service import Hand
from renderers.i18n import translate

log = logging.getLogger(__name__)

# An interaction token lasts 15 minutes; a minute is left for the edit itself.
HAND_TOKEN_SECONDS = 14 * 60.0


@dataclass(frozen=True)
class _Held:
    interaction: discord.Interaction
    message_id: int | None  # a follow-up; None for the interaction's own response
    since: float


class LiveHands:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._held: dict[tuple[int, str], _Held] = {}

    def remember(self, game_id: int, user_id: str, interaction: discord.Interaction,
                 message_id: int | None = None) -> None:
        """``interaction`` shows ``user_id``'s hand of ``game_id`` (in its response, or in
        its follow-up ``message_id``)."""
        self._held[(game_id, user_id)] = _Held(interaction, message_id, self._clock())

    def forget(self, game_id: int) -> None:
        for key in [key for key in self._held if key[0] == game_id]:
            del self._held[key]

    def holds(self, game_id: int, user_id: str) -> bool:
        held = self._held.get((game_id, user_id))
        return held is not None and self._clock() - held.since < HAND_TOKEN_SECONDS

    async def redraw(self, game_id: int, user_id: str, layout: Layout) -> bool:
        """Show ``layout`` in the player's hand message; False when there is none that
        can still be edited (the player then opens the hand from the board)."""
        held = self._held.get((game_id, user_id))
        if held is None or not self.holds(game_id, user_id):
            self._held.pop((game_id, user_id), None)
            return False
        # A card hand is a Components V2 message, and its layout always V2 (``hand_layout``).
        fields = message_fields(layout, edit=True)
        try:
            if held.message_id is None:
                await held.interaction.edit_original_response(allowed_mentions=NO_MENTIONS,
                                                              **fields)
            else:
                await held.interaction.followup.edit_message(
                    held.message_id, allowed_mentions=NO_MENTIONS, **fields)
        except discord.HTTPException as error:
            log.info("could not redraw the hand of %s in game %s: %s", user_id, game_id, error)
            self._held.pop((game_id, user_id), None)
            return False
        return True


def hand_layout(hand: Hand, language: str, notice: str | None = None) -> Layout:
    """A player's private hand message, always sent ephemerally: a card hand's as a
    Components V2 message (``card_hand_layout``), any other as content and rows."""
    if hand.cards is not None:
        return card_hand_layout(hand, language, notice)
    buttons, selects, overflow = menu_layout(hand.buttons, hand.navigation, language)
    text = rendered(hand.text)
    prompt = hand.prompt + ("\n" + translate(language, "menu.more") if overflow else "")
    return Layout(fit_content([f"**{inert(notice)}**" if notice else "", text, inert(prompt)]),
                  buttons, selects, overflow)


def card_hand_layout(hand: Hand, language: str, notice: str | None = None) -> Layout:
    """A card hand as Components V2: the text above the cards, then each card as a section,
    its line (``• AND→1: goes where both inputs are 1``) beside the button that plays it
    (disabled when the card is unavailable), then the text under the cards, the prompt,
    and the other options and navigation in action rows. Where no card can be played now
    (a later step of the menu, not the player's turn), or the sections would pass
    Discord's limits, the whole text comes first and every button follows in rows."""
    header = f"**{inert(notice)}**" if notice else ""
    sectioned = _sectioned_hand(hand, language, header)
    if sectioned is not None:
        return sectioned
    buttons, selects, overflow = menu_layout(hand.buttons, hand.navigation, language)
    prompt = hand.prompt + ("\n" + translate(language, "menu.more") if overflow else "")
    text = shorten("\n".join(part for part in (header, rendered(hand.text), inert(prompt))
                             if part), V2_TEXT_LIMIT)
    return Layout(text, buttons, selects, overflow, v2=True, parts=(text,))


def _sectioned_hand(hand: Hand, language: str, header: str) -> Layout | None:
    """The hand with a section per card that has a button; None when no card has one, a
    card's line is not where the text should hold it, or Discord's limits forbid."""
    cards = hand.cards or []
    if not any(card.button is not None for card in cards):
        return None
    lines = hand.text.split("\n")
    found: list[int] = []
    for card in cards:
        start = found[-1] + 1 if found else 0
        if card.text not in lines[start:]:
            return None
        found.append(lines.index(card.text, start))
    played = {card.button.payload for card in cards if card.button is not None}
    rest = [button for button in hand.buttons if button.payload not in played]
    buttons, selects, overflow = menu_layout(rest, hand.navigation, language)
    prompt = hand.prompt + ("\n" + translate(language, "menu.more") if overflow else "")
    parts: list[str | CardSection] = []

    def text(part: str) -> None:
        if not part:
            return
        if parts and isinstance(parts[-1], str):
            parts[-1] += "\n" + part
        else:
            parts.append(part)

    text(header)
    text(rendered("\n".join(lines[:found[0]])))
    for card in cards:
        if card.button is None:
            text(inert(card.text))
        else:
            parts.append(CardSection(inert(card.text), menu_button(card.button, 0)))
    text(rendered("\n".join(lines[found[-1] + 1:])))
    text(inert(prompt))
    content = "\n".join(part if isinstance(part, str) else part.text for part in parts)
    layout = Layout(content, buttons, selects, overflow, v2=True, parts=tuple(parts))
    if layout.component_count() > V2_COMPONENTS or layout.text_length() > V2_TEXT_LIMIT:
        return None
    return layout
