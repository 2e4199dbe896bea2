"""bOOleO, the card game of logic-gate pyramids (J. Brandt and C. Kampf, Tessera Games, 2009).

Specification: ``shared/rules/booleo.md`` (seed ``000_3fb50170c07fb1f1.txt``). Two players:
seat 0 is South, seat 1 is North. The pyramid's geometry, the gate cards and their lessons,
activity and the cascade are shared with Digitalo in ``engines/pyramid.py``; the slot bit, the
NOTs, challenges and claims are bOOleO's own.

Notation
--------
* **Cards**: ``AND0`` ``AND1`` ``OR0`` ``OR1`` ``XOR0`` ``XOR1`` (``extended`` adds ``NAND``,
  ``NOR`` and ``XNOR``), the digit being the printed output; ``NOT``. Shown as ``AND→1``.
* **Slots**: ``2.3`` is row 2, slot 3 of a pyramid. Row 1 (N−1 slots) stands on the start row,
  slot ``i`` of row 1 takes bits ``i`` and ``i+1``; the top slot is ``(N−1).1``. Every player
  numbers their own pyramid from their own seat, left to right, and a challenge names the
  opponent's gate in the opponent's numbering (the one every view uses).
* **Start cards**: ``1..N`` from the actor's own left. South reads ``b1..bN``, North reads
  ``¬bN..¬b1``, so North's card 1 is South's card N. A player's slot bit is their card N.
* **Canonical actions** (at most 20 ASCII characters, the actor's own numbering):
  ``AND1 2.3`` (place on an empty slot, or replace the gate there), ``NOT 4``,
  ``discard XOR0``, ``challenge 1.2`` (referee=off), ``accept`` (a claimed pyramid, see below),
  ``pass`` (only with an empty hand). Typed text is looser: ``and→1 on 2.3``, ``and 1 2,3``,
  ``place AND1 2.3``, ``replace 2.3 with OR1``, ``not 4``, ``cancel``, ``d xor0``, ``ch 1.2``.

Menus (tokens of at most 4 characters, at most 3 per path)
-----------------------------------------------------------
Step 1: the hand's card kinds, identical cards grouped (``AND→1 ×2``, token ``A1``; ``NOT``,
token ``N``), ``Challenge`` (``C``) when allowed, ``Pass`` (``P``) with an empty hand, and in a
claim ``Challenge`` / ``Accept`` (``OK``). Step 2 for a gate: every slot where it physically
fits (empty with both inputs present and active, or occupied for a replace; token ``23``),
invalid ones included in referee mode so that a learner's wrong pick is answered with the
rule, plus ``Discard`` (``D``). For a NOT: the start cards in the player's reading (``1``..)
plus ``Discard``. For a challenge: the opponent's gates. A step over 25 options is split into
rows first (token ``R2``), then slots.

Decisions the rules leave open
------------------------------
* The draw is automatic when a turn begins, so the player to act holds 5 cards. When the draw
  pile is empty the discard pile is shuffled into a new one with ``random.Random`` seeded from
  the game seed and a reshuffle counter. With both piles empty nobody draws, hands shrink, and
  a player with an empty hand passes; when neither player holds a card and both piles are
  empty the game is drawn (``booleo_no_cards``).
* A place or replace naming an occupied slot is a replace; replacing a gate with an identical
  card is refused (it would change nothing). In the ``inactive`` variant a slot fed by an
  inactive gate takes no new gate, neither placed nor replaced.
* NOT: the flip lies pending until the next player acts. A NOT on the same start card cancels
  it (both NOTs discarded). Every other action, a challenge included, resolves it first, and is
  then judged on the resolved position (so the menus and legal actions already show it
  resolved). A cancel is final; a new NOT on that card later is simply a new flip.
* Cascades (replace, flip, successful challenge) judge only the gates the change affected: the
  gates whose inputs or slot bit changed, and, in turn, those whose input was discarded. With
  the referee on this is the whole pyramid's consistency; with referee=off an unnoticed invalid
  gate that the change did not touch stays until it is challenged. Lower rows settle first.
* ``inactive``: a gate with exactly one input missing, or fed by an inactive gate, is inactive
  and stays; it is judged when both inputs are back. A gate with a missing input cannot be
  proved invalid, so challenging it fails.
* Winning: after an action, if the actor's pyramid is complete (the top gate giving the slot
  bit is part of its validity), the actor wins. Flips and challenges only ever remove gates, so
  only the actor's own placement can complete a pyramid and two complete pyramids never meet:
  there is no tie. A pending flip never completes anything; it is resolved before the next
  action is judged.
* referee=off: invalid places and replaces are allowed and the views never mark them. Before
  the action, a player may challenge one opponent gate per turn: an invalid gate is discarded
  with the cascade and the challenger goes on with an action; a valid one costs the action, and
  the turn ends with a discard of the challenger's choice (a pass with an empty hand), so the
  hand is back at 4. Completing a pyramid with referee=off is a *claim*, valid or not (a
  different answer would reveal validity): the opponent draws and must challenge one of its
  gates or ``accept``. A failed challenge or an acceptance ends the game for the claimant; a
  successful one voids the claim and the challenger plays on with a normal action.
* ``max_turns`` counts completed turns (both players'); reaching it draws the game, except that
  a claim is always answered first. A flip still pending then stays unresolved.
* At the end, every view lists the invalid gates of both pyramids.

Views and events
----------------
``view(None)`` is public: ``start_row`` (South's reading), ``rows`` and ``not_counts`` per seat
in that seat's reading, ``slot_bits``, ``pyramids`` (per seat, each gate ``{slot, card, gate,
out, inputs}`` plus ``inactive`` in that variant; never a validity flag), ``hand_sizes``,
``draw_pile`` and ``discard_pile`` sizes, ``discard_top``, ``pending`` (``card`` in South's
numbering, ``positions`` per seat, ``by``, ``would_remove`` per seat), ``to_move``, ``phase``
(play, discard after a failed challenge, claim), ``claimant``, ``turns``, ``max_turns``,
``options``, ``last_events`` (public) and ``outcome``; once the game is over also
``invalid_gates`` per seat. ``view(seat)`` adds ``seat`` and that seat's ``hand``.
``apply`` returns event dicts with a ``type``; the card drawn is only inside a ``drew`` event's
``private`` part (``{"seat", "card"}``), which must never be shown to anyone else.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Self

from engines.base import (
    JSON,
    Action,
    Choice,
    Event,
    GameInfo,
    GameState,
    IllegalMove,
    InvalidMove,
    Message,
    NotYourTurn,
    OptionSpec,
    Outcome,
    StateError,
    follow_menu,
    not_in_menu,
    play_actions,
    validate_options,
)
from engines.json_copy import copy_json
from engines.pyramid import (
    LESSONS as LESSONS,  # the referee's lessons, shared with Digitalo
)
from engines.pyramid import (
    Judge,
    Pyramid,
    Slot,
    bit_slots,
    blocked_input,
    card_label,
    fed_slots,
    gate_cards,
    gate_gives,
    gate_of,
    gate_refusal,
    gate_token,
    inactive_gates,
    input_values,
    inputs_below,
    output_of,
    position_of,
    pyramid_size,
    pyramid_slots,
    reading,
    slot_exists,
)
from engines.pyramid import is_invalid as judged_invalid
from engines.pyramid import settle as settle_gates
from engines.state_checks import (
    check_header,
    checked_cards,
    checked_int,
    checked_int_list,
    checked_list,
    checked_outcome,
    load_checked,
)

NAME = "booleo"
ALIASES = ("boole", "pyramid")
TITLE = "bOOleO"
LEVELS = ("easy", "medium", "strong", "expert")
# Levels whose move takes a millisecond or so (a random legal move): the bot plays them
# on its event loop, where handing them to a worker process would cost more than the move
# (``benchmarks/quick_levels.py`` prints their timings).
QUICK_LEVELS = frozenset({"easy"})
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                hidden_information=True, agents="engines.booleo_agents",
                beginner_options="danger=on")
OPTIONS = (
    OptionSpec("bits", int, 6, "start cards in the row: 6 is standard, 5 the short game",
               minimum=4, maximum=8),
    OptionSpec("extended", bool, False, "add NAND, NOR and XNOR gate cards"),
    OptionSpec("inactive", bool, False,
               "a gate that loses one input turns inactive instead of being discarded"),
    OptionSpec("referee", bool, True,
               "refuse invalid gates and explain why; off plays the printed rules, with "
               "challenges"),
    OptionSpec("max_turns", int, 200, "the game is drawn after this many turns",
               minimum=10, maximum=2000),
    # A learner's aid the rules ignore: under the board, the gates of the player to move that
    # a NOT on one start card would break (issue 27's danger marks).
    OptionSpec("danger", bool, False,
               "say which of your gates a NOT on a start card would break (on against easy)"),
)

# Options added after games were first stored: a stored game without them loads with their
# defaults (none of them changes the rules).
LATER_OPTIONS = frozenset({"danger"})

SEATS = 2
SEAT_NAMES = ("South", "North")
HAND_SIZE = 4
COPIES = 8
MENU_LIMIT = 25
PHASES = ("play", "discard", "claim")

BASIC_GATES = ("AND", "OR", "XOR")
EXTENDED_GATES = ("NAND", "NOR", "XNOR")
NOT_CARD = "NOT"
NO_PLACE_MARK = "✖"  # on a menu's card that fits nowhere on its player's pyramid now
GATE_CARDS = gate_cards(BASIC_GATES + EXTENDED_GATES)
ALL_CARDS = (*GATE_CARDS, NOT_CARD)
CARD_RANK = {card: rank for rank, card in enumerate(ALL_CARDS)}
CARD_TOKENS = {**{card: gate_token(card) for card in GATE_CARDS}, NOT_CARD: "N"}
CARD_BY_TOKEN = {token: card for card, token in CARD_TOKENS.items()}
TOP_LESSON = "The top gate must give your slot bit {slot_bit}; this gate gives {out}."


# --- cards and geometry (the shared pyramid is in engines/pyramid.py) -----------------------


def deck_cards(extended: bool) -> list[str]:
    """The non-start cards of the deck, in a fixed order (shuffled by the caller)."""
    gates = BASIC_GATES + (EXTENDED_GATES if extended else ())
    return [NOT_CARD] * COPIES + [f"{gate}{out}" for gate in gates for out in (0, 1)
                                  for _ in range(COPIES)]


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=CARD_RANK.__getitem__)


def slot_name(slot: Slot) -> str:
    return f"{slot[0]}.{slot[1]}"


def parse_slot_name(text: str) -> Slot:
    row, _, pos = text.partition(".")
    if not (row.isdigit() and pos.isdigit()):
        raise ValueError(f"bad slot {text!r}")
    return int(row), int(pos)


def gate_fits(card: str, a: int, b: int, top: bool, slot_bit: int) -> bool:
    return gate_gives(card, a, b) and (not top or output_of(card) == slot_bit)


def top_rule(n: int, row: list[int]) -> Judge:
    """bOOleO's judge: a gate fits its inputs, and the top gate gives the slot bit."""
    top = (n - 1, 1)
    return lambda slot, card, a, b: gate_fits(card, a, b, slot == top, row[-1])


def is_invalid(pyramid: Pyramid, row: list[int], n: int, slot: Slot) -> bool:
    """A gate is provably invalid when both inputs are there and it does not fit them (the top
    gate must also give the slot bit). A gate with a missing input cannot be judged."""
    return judged_invalid(pyramid, row, slot, top_rule(n, row))


def settle(pyramid: Pyramid, row: list[int], n: int, dirty: Iterable[Slot],
           inactive: bool) -> list[tuple[Slot, str]]:
    """The cascade (``engines.pyramid.settle``) with bOOleO's top rule. Returns the discarded
    (slot, card) pairs."""
    return settle_gates(pyramid, row, n, dirty, inactive=inactive, judge=top_rule(n, row))


def flip_dirty(n: int, seat: int, card: int) -> set[Slot]:
    """Slots of ``seat``'s pyramid affected by flipping South's start card ``card``."""
    pos = position_of(n, seat, card)
    dirty = bit_slots(n, pos)
    if pos == n:
        dirty.add((n - 1, 1))
    return dirty


def resolve_flip(pyramids: list[Pyramid], bits: list[int], n: int, card: int,
                 inactive: bool) -> list[list[tuple[Slot, str]]]:
    """Discard what a flip of ``card`` broke in both pyramids; ``bits`` already show it."""
    return [settle(pyramids[seat], reading(bits, seat), n, flip_dirty(n, seat, card), inactive)
            for seat in range(SEATS)]


def complete_and_valid(pyramid: Pyramid, row: list[int], n: int) -> bool:
    if len(pyramid) != pyramid_size(n):
        return False
    return all(not is_invalid(pyramid, row, n, slot) for slot in pyramid)


# --- parsing --------------------------------------------------------------------------------

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


# --- the game -------------------------------------------------------------------------------


class BooleoState(GameState):
    game_name = NAME
    min_players = SEATS
    max_players = SEATS
    schema_version = 1

    def __init__(self, options: JSON, seed: int) -> None:
        self.options = validate_options(OPTIONS, options)
        self.seed = seed
        n = self.n
        rng = random.Random(seed)
        self.bits = [rng.randrange(2) for _ in range(n)]
        cards = deck_cards(self.extended)
        rng.shuffle(cards)
        self.hands: list[list[str]] = [[], []]
        for _ in range(HAND_SIZE):
            for seat in range(SEATS):
                self.hands[seat].append(cards.pop())
        self.hands = [sort_cards(hand) for hand in self.hands]
        self.draw: list[str] = cards  # the top is the end
        self.discard: list[str] = []
        self.nots = [0] * n  # NOT cards lying under each start card, in South's order
        self.pyramids: list[Pyramid] = [{}, {}]
        self.first = rng.randrange(SEATS)
        self.turn = self.first
        self.turns = 0
        self.phase = "play"
        self.challenged = False
        self.claimant: int | None = None
        self.pending: tuple[int, int] | None = None  # (South's card, seat that flipped it)
        self.reshuffles = 0
        self.actions: list[Action] = []
        self.last_events: list[Event] = []
        self._outcome: Outcome | None = None
        self._draw_for(self.turn)

    # -- options and readings --
    @property
    def n(self) -> int:
        return int(self.options["bits"])

    @property
    def extended(self) -> bool:
        return bool(self.options["extended"])

    @property
    def inactive(self) -> bool:
        return bool(self.options["inactive"])

    @property
    def referee(self) -> bool:
        return bool(self.options["referee"])

    def row(self, seat: int) -> list[int]:
        return reading(self.bits, seat)

    def slot_bit(self, seat: int) -> int:
        return self.row(seat)[-1]

    def resolved_pyramids(self) -> tuple[list[Pyramid], list[list[tuple[Slot, str]]]]:
        """Both pyramids as they will be once the pending flip resolves, and what it removes."""
        pyramids = [dict(p) for p in self.pyramids]
        if self.pending is None:
            return pyramids, [[], []]
        return pyramids, resolve_flip(pyramids, self.bits, self.n, self.pending[0],
                                      self.inactive)

    def flip_threats(self, seat: int) -> list[JSON]:
        """For each start card a NOT could flip now, the gates of ``seat``'s pyramid the flip
        would break (the cascade included), as ``{"card", "position", "gates"}``; cards
        that break nothing are left out. Public information only: whether the opponent
        holds a NOT is not known, so these are what could happen, not what will."""
        if self.pending is not None:
            return []  # a flip is already pending: the board shows what it removes
        threats: list[JSON] = []
        for card in range(1, self.n + 1):
            bits = list(self.bits)
            bits[card - 1] ^= 1
            pyramids = [dict(p) for p in self.pyramids]
            removed = resolve_flip(pyramids, bits, self.n, card, self.inactive)[seat]
            if removed:
                threats.append({"card": card, "position": position_of(self.n, seat, card),
                                "gates": [slot_name(slot) for slot, _ in removed]})
        return threats

    # -- turn flow --
    def _draw_for(self, seat: int) -> list[Event]:
        events: list[Event] = []
        if not self.draw and self.discard:
            pile = self.discard
            random.Random(f"booleo-reshuffle:{self.seed}:{self.reshuffles}").shuffle(pile)
            self.reshuffles += 1
            self.draw, self.discard = pile, []
            events.append({"type": "reshuffled", "cards": len(pile)})
        if self.draw:
            card = self.draw.pop()
            self.hands[seat] = sort_cards([*self.hands[seat], card])
            events.append({"type": "drew", "seat": seat, "private": {"seat": seat, "card": card}})
        else:
            events.append({"type": "no_draw", "seat": seat})
        return events

    def _check_turn(self, player: int) -> None:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        if player != self.turn:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")

    def _is_cancel(self, player: int, move: Move) -> bool:
        return (move.kind == "not" and self.pending is not None
                and position_of(self.n, player, self.pending[0]) == move.pos)

    def _check(self, player: int, move: Move) -> Move:
        """Refuse, with what was expected, anything ``player`` may not do now; return the
        move completed (a typed ``cancel`` gets its start card)."""
        hand = self.hands[player]
        if move.kind == "accept":
            if self.phase != "claim":
                raise IllegalMove("booleo.error.no_claim",
                                  "There is no completed pyramid to accept.")
            return move
        if self.phase == "claim" and move.kind != "challenge":
            raise IllegalMove("booleo.error.answer_claim",
                              "Your opponent has completed their pyramid: challenge one of "
                              "its gates, or accept.")
        if move.kind == "challenge":
            self._check_challenge(player, move.slot)
            return move
        if move.kind == "pass":
            if hand:
                raise IllegalMove("booleo.error.no_pass",
                                  "You may pass only with an empty hand; discard a card "
                                  "instead.")
            return move
        if self.phase == "discard" and move.kind != "discard":
            raise IllegalMove("booleo.error.must_discard",
                              "Your challenge failed, so you lose this turn's action: "
                              "discard a card.")
        card = NOT_CARD if move.kind == "not" else move.card
        if card not in CARD_RANK or (gate_of(card) in EXTENDED_GATES and not self.extended):
            raise IllegalMove("booleo.error.no_such_card",
                              "There is no {card} card in this game.", card=card_label(card))
        if card not in hand:
            raise IllegalMove("booleo.error.not_in_hand", "You hold no {card} card.",
                              card=card_label(card))
        if move.kind == "not":
            if move.pos == -1:
                if self.pending is None:
                    raise IllegalMove("booleo.error.nothing_to_cancel",
                                      "No flip is pending, so there is nothing to cancel.")
                return Move("not", pos=position_of(self.n, player, self.pending[0]))
            if not 1 <= move.pos <= self.n:
                raise IllegalMove("booleo.error.no_start_card",
                                  "There is no start card {card}; they are numbered 1 to "
                                  "{count} from your left.", card=move.pos, count=self.n)
        elif move.kind == "gate":
            pyramids, _ = self.resolved_pyramids()
            self._check_gate(player, pyramids[player], move)
        return move

    def _check_challenge(self, player: int, slot: Slot) -> None:
        if self.referee:
            raise IllegalMove("booleo.error.referee_on",
                              "Challenges belong to games with referee=off; here the referee "
                              "refuses invalid gates as they are played.")
        if self.phase == "discard":
            raise IllegalMove("booleo.error.must_discard",
                              "Your challenge failed, so you lose this turn's action: "
                              "discard a card.")
        if self.challenged:
            raise IllegalMove("booleo.error.one_challenge",
                              "You have already challenged this turn; now play your action.")
        if not slot_exists(self.n, slot):
            raise IllegalMove("booleo.error.no_slot_to_challenge",
                              "A pyramid has no slot {slot}: rows run from 1 to {rows}, and "
                              "row r has {n} − r slots.", slot=slot_name(slot),
                              rows=self.n - 1, n=self.n)
        opponent = 1 - player
        if slot not in self.pyramids[opponent]:
            raise IllegalMove("booleo.error.nothing_to_challenge",
                              "Your opponent has no gate on {slot} to challenge.",
                              slot=slot_name(slot))
        pyramids, _ = self.resolved_pyramids()
        if slot not in pyramids[opponent]:
            raise IllegalMove("booleo.error.goes_anyway",
                              "The gate on {slot} is discarded anyway when the pending flip "
                              "resolves.", slot=slot_name(slot))

    def _check_gate(self, player: int, pyramid: Pyramid, move: Move) -> None:
        slot, card, n = move.slot, move.card, self.n
        if not slot_exists(n, slot):
            raise IllegalMove("booleo.error.no_such_slot",
                              "Your pyramid has no slot {slot}: rows run from 1 to {rows}, "
                              "and row r has {n} − r slots.", slot=slot_name(slot),
                              rows=n - 1, n=n)
        old = pyramid.get(slot)
        if move.verb == "place" and old is not None:
            raise IllegalMove("booleo.error.slot_taken",
                              "Slot {slot} already holds {old}: a gate is placed on an empty "
                              "slot (to swap it, replace it).",
                              slot=slot_name(slot), old=card_label(old))
        if move.verb == "replace" and old is None:
            raise IllegalMove("booleo.error.nothing_to_replace",
                              "Slot {slot} is empty, so there is nothing to replace: place "
                              "the gate there instead.", slot=slot_name(slot))
        if old == card:
            raise IllegalMove("booleo.error.same_gate",
                              "Slot {slot} already holds {card}; replacing it with the same "
                              "card changes nothing.", slot=slot_name(slot), card=card_label(card))
        blocked = blocked_input(pyramid, slot, inactive_gates(pyramid, n))
        if blocked is not None and blocked[0] == "missing":
            raise IllegalMove("booleo.error.missing_input",
                              "Slot {slot} needs both inputs first: slot {below} below it is "
                              "still empty.", slot=slot_name(slot), below=slot_name(blocked[1]))
        if blocked is not None:
            raise IllegalMove("booleo.error.inactive_input",
                              "Slot {slot} would take an input from the inactive gate on "
                              "{below}; fill the missing slot beneath it first.",
                              slot=slot_name(slot), below=slot_name(blocked[1]))
        if not self.referee:
            return
        a, b = input_values(pyramid, self.row(player), slot)
        assert a is not None and b is not None
        out = output_of(card)
        if slot == (n - 1, 1) and out != self.slot_bit(player):
            raise IllegalMove("booleo.error.top_slot_bit", TOP_LESSON,
                              slot_bit=self.slot_bit(player), out=out, slot=slot_name(slot))
        if not gate_gives(card, a, b):
            raise gate_refusal(NAME, card, a, b, slot_name(slot))

    # -- contract --
    def to_move(self) -> list[int]:
        return [] if self._outcome is not None else [self.turn]

    def legal_actions(self, player: int) -> list[Action]:
        if self._outcome is not None or player != self.turn:
            return []
        hand = self.hands[player]
        if self.phase == "claim":
            claimed = self.pyramids[1 - player]
            targets = [f"challenge {slot_name(s)}" for s in pyramid_slots(self.n) if s in claimed]
            return [*targets, "accept"]
        if not hand:
            return ["pass", *self._challenges(player)]
        kinds = list(dict.fromkeys(hand))
        discards = [f"discard {card}" for card in kinds]
        if self.phase == "discard":
            return discards
        pyramid = self.resolved_pyramids()[0][player]
        actions = [f"{card} {slot_name(slot)}" for card in kinds if card != NOT_CARD
                   for slot, _ in self._targets(pyramid, card)
                   if self._fits(player, pyramid, card, slot)]
        if NOT_CARD in hand:
            actions += [f"NOT {pos}" for pos in range(1, self.n + 1)]
        return actions + discards + self._challenges(player)

    def fitting_cards(self, seat: int) -> list[str] | None:
        """The kinds of ``seat``'s cards that fit validly somewhere on their pyramid now
        (a NOT always may be played), for the hand's "no place now" marks; None without
        the referee, where judging a gate is the player's own task (and a challenge's)."""
        if not self.referee:
            return None
        pyramid = self.resolved_pyramids()[0][seat]
        return [card for card in dict.fromkeys(self.hands[seat])
                if card == NOT_CARD or any(self._fits(seat, pyramid, card, slot)
                                           for slot, _ in self._targets(pyramid, card))]

    def _challenges(self, player: int) -> list[Action]:
        return [f"challenge {slot_name(slot)}" for slot in self._challenge_targets(player)]

    def _challenge_targets(self, player: int) -> list[Slot]:
        if self.referee or self.challenged or self.phase == "discard":
            return []
        pyramids, _ = self.resolved_pyramids()
        return [slot for slot in pyramid_slots(self.n) if slot in pyramids[1 - player]]

    def _targets(self, pyramid: Pyramid, card: str) -> list[tuple[Slot, str | None]]:
        """Slots of the (resolved) ``pyramid`` where ``card`` physically fits, valid or not,
        with the gate it would replace."""
        inactive = inactive_gates(pyramid, self.n)
        return [(slot, pyramid.get(slot)) for slot in pyramid_slots(self.n)
                if pyramid.get(slot) != card and blocked_input(pyramid, slot, inactive) is None]

    def _fits(self, player: int, pyramid: Pyramid, card: str, slot: Slot) -> bool:
        if not self.referee:
            return True
        try:
            self._check_gate(player, pyramid, Move("gate", card, slot))
        except IllegalMove:
            return False
        return True

    def parse_action(self, text: str, player: int) -> Action:
        self._check_turn(player)
        return self._check(player, parse_move(text)).canonical()

    def action_text(self, action: Action) -> str:
        try:
            move = parse_move(action)
        except InvalidMove:
            return action
        if move.kind == "gate":
            return Message("booleo.move.gate", "{card} on {slot}", card=card_label(move.card),
                           slot=slot_name(move.slot))
        if move.kind == "not":
            return (Message("booleo.move.not", "NOT on start card {pos}", pos=move.pos)
                    if move.pos > 0 else Message("booleo.move.cancel", "cancel"))
        if move.kind == "discard":
            return Message("booleo.move.discard", "discard {card}", card=card_label(move.card))
        if move.kind == "accept":
            return Message("booleo.move.accept", "accept the claim")
        return move.canonical()

    def apply(self, player: int, action: Action) -> list[Event]:
        self._check_turn(player)
        move = self._check(player, parse_move(action))
        events: list[Event] = []
        if move.kind == "challenge":
            events += self._challenge(player, move.slot)
        elif move.kind == "accept":
            assert self.claimant is not None
            events += self._finish(Outcome((self.claimant,), "booleo_pyramid",
                                           {"loser": player, "accepted": True}))
        else:
            cancel = self._is_cancel(player, move)
            if self.pending is not None and not cancel:
                events += self._resolve()
            events += self._act(player, move, cancel)
            events += self._end_turn(player)
        self.actions.append(move.canonical())
        self.last_events = [{k: v for k, v in e.items() if k != "private"} for e in events]
        return events

    def _discard_cards(self, cards: Iterable[str]) -> None:
        self.discard.extend(cards)

    def _resolve(self) -> list[Event]:
        assert self.pending is not None
        card, by = self.pending
        self.pending = None
        removed = resolve_flip(self.pyramids, self.bits, self.n, card, self.inactive)
        for seat_removed in removed:
            self._discard_cards(c for _, c in seat_removed)
        return [{"type": "flip_resolved", "card": card, "by": by,
                 "removed": [[{"slot": slot_name(s), "card": c} for s, c in seat_removed]
                             for seat_removed in removed]}]

    def _act(self, player: int, move: Move, cancel: bool) -> list[Event]:
        n = self.n
        if move.kind == "pass":
            return [{"type": "passed", "seat": player}]
        if move.kind == "discard":
            self.hands[player].remove(move.card)
            self._discard_cards([move.card])
            return [{"type": "discarded", "seat": player, "card": move.card}]
        if move.kind == "not":
            self.hands[player].remove(NOT_CARD)
            card = position_of(n, player, move.pos)
            self.bits[card - 1] ^= 1
            if cancel:
                self.nots[card - 1] -= 1
                self.pending = None
                self._discard_cards([NOT_CARD, NOT_CARD])
                return [{"type": "flip_cancelled", "seat": player, "card": card,
                         "position": move.pos}]
            self.nots[card - 1] += 1
            self.pending = (card, player)
            _, removes = self.resolved_pyramids()
            return [{"type": "not_played", "seat": player, "card": card, "position": move.pos,
                     "would_remove": [[slot_name(s) for s, _ in r] for r in removes]}]
        pyramid = self.pyramids[player]
        old = pyramid.get(move.slot)
        self.hands[player].remove(move.card)
        pyramid[move.slot] = move.card
        event: Event = {"type": "placed" if old is None else "replaced", "seat": player,
                        "card": move.card, "slot": slot_name(move.slot)}
        removed: list[tuple[Slot, str]] = []
        if old is not None:
            self._discard_cards([old])
            event["old"] = old
        if old is None or output_of(old) != output_of(move.card):
            removed = settle(pyramid, self.row(player), n, fed_slots(n, move.slot),
                             self.inactive)
            self._discard_cards(c for _, c in removed)
        event["removed"] = [{"slot": slot_name(s), "card": c} for s, c in removed]
        return [event]

    def _challenge(self, player: int, slot: Slot) -> list[Event]:
        events: list[Event] = []
        if self.pending is not None:
            events += self._resolve()
        opponent = 1 - player
        pyramid = self.pyramids[opponent]
        card = pyramid[slot]
        invalid = is_invalid(pyramid, self.row(opponent), self.n, slot)
        event: Event = {"type": "challenge", "seat": player, "target": opponent,
                        "slot": slot_name(slot), "card": card,
                        "result": "invalid" if invalid else "valid"}
        events.append(event)
        if invalid:
            del pyramid[slot]
            removed = settle(pyramid, self.row(opponent), self.n, fed_slots(self.n, slot),
                             self.inactive)
            self._discard_cards([card, *(c for _, c in removed)])
            event["removed"] = [{"slot": slot_name(s), "card": c} for s, c in removed]
            answered_claim = self.phase == "claim"
            self.phase, self.claimant, self.challenged = "play", None, True
            if answered_claim and self.turns >= self.options["max_turns"]:
                # The claim that held the game open past its last turn is answered: it ends.
                events += self._finish(Outcome((), "booleo_max_turns", {"turns": self.turns}))
        elif self.phase == "claim":
            assert self.claimant is not None
            events += self._finish(Outcome((self.claimant,), "booleo_pyramid",
                                           {"loser": player, "challenge_failed": slot_name(slot)}))
        else:
            self.phase = "discard"
        return events

    def _finish(self, outcome: Outcome) -> list[Event]:
        self._outcome = outcome
        return [{"type": "game_over", **outcome.to_dict()}]

    def _end_turn(self, player: int) -> list[Event]:
        events: list[Event] = []
        pyramid, row = self.pyramids[player], self.row(player)
        if len(pyramid) == pyramid_size(self.n):
            if not self.referee:
                self.phase, self.claimant = "claim", player
                events.append({"type": "claim", "seat": player})
            elif complete_and_valid(pyramid, row, self.n):
                return self._finish(Outcome((player,), "booleo_pyramid",
                                            {"loser": 1 - player, "slot_bit": row[-1]}))
        if self.phase == "discard":
            self.phase = "play"
        self.turns += 1
        self.turn = 1 - player
        self.challenged = False
        if self.turns >= self.options["max_turns"] and self.phase != "claim":
            return events + self._finish(Outcome((), "booleo_max_turns",
                                                 {"turns": self.turns}))
        events += self._draw_for(self.turn)
        if (not self.draw and not self.discard and not any(self.hands)
                and self.phase != "claim"):
            events += self._finish(Outcome((), "booleo_no_cards", {"turns": self.turns}))
        return events

    def resign(self, player: int) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        return self._finish(Outcome((1 - player,), "resigned", {"loser": player}))

    def abandon(self) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        return self._finish(Outcome((), "abandoned"))

    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- menus --
    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        self._check_turn(player)
        return follow_menu(path, 3, lambda: self._top_menu(player),
                           lambda steps: self._submenu(player, steps))

    def _top_menu(self, player: int) -> list[Choice]:
        hand = self.hands[player]
        if self.phase == "claim":
            return [Choice("C", "Challenge"), Choice("OK", "Accept", "accept")]
        counts = Counter(hand)
        kinds = list(dict.fromkeys(hand))
        labels = {card: card_label(card) + (f" ×{counts[card]}" if counts[card] > 1 else "")
                  for card in kinds}
        if self.phase == "discard":
            choices = [Choice(CARD_TOKENS[c],
                              Message("booleo.menu.discard", "Discard {card}", card=labels[c]),
                              f"discard {c}")
                       for c in kinds]
        else:
            # A card that fits nowhere stays offered (its step holds its discard), marked.
            fitting = self.fitting_cards(player)
            choices = [Choice(CARD_TOKENS[c], labels[c] if fitting is None or c in fitting
                              else f"{NO_PLACE_MARK} {labels[c]}") for c in kinds]
            if self._challenge_targets(player):
                choices.append(Choice("C", "Challenge"))
        if not hand:
            choices.append(Choice("P", "Pass", "pass"))
        return choices

    def _submenu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        head = path[0]
        if head == "C":
            opponent = 1 - player
            pyramid = self.pyramids[opponent]
            row = self.row(opponent)
            slots = ([s for s in pyramid_slots(self.n) if s in pyramid] if self.phase == "claim"
                     else self._challenge_targets(player))
            options = [(slot, Choice(f"{slot[0]}{slot[1]}",
                                     f"{slot_name(slot)} {card_label(pyramid[slot])}"
                                     f" ({self._inputs_text(pyramid, row, slot)})",
                                     f"challenge {slot_name(slot)}")) for slot in slots]
            return self._paged(options, None, path[1:])
        card = CARD_BY_TOKEN[head]
        discard = Choice("D", "Discard", f"discard {card}")
        if card == NOT_CARD:
            if len(path) > 1:
                raise not_in_menu()
            row = self.row(player)
            choices = []
            for pos in range(1, self.n + 1):
                cancel = (self.pending is not None
                          and position_of(self.n, player, self.pending[0]) == pos)
                label = (Message("booleo.menu.cancel_flip", "{pos}: cancel the flip", pos=pos)
                         if cancel else f"{pos}: {row[pos - 1]}→{1 - row[pos - 1]}")
                choices.append(Choice(str(pos), label, f"NOT {pos}"))
            return [*choices, discard]
        pyramid = self.resolved_pyramids()[0][player]
        row = self.row(player)
        options = []
        for slot, old in self._targets(pyramid, card):
            label = f"{slot_name(slot)} ({self._inputs_text(pyramid, row, slot)})"
            if old is not None:
                # The inputs are the old gate's, so the slot and what goes are enough.
                label = Message("booleo.menu.replaces", "{slot} replaces {card}",
                                slot=slot_name(slot), card=card_label(old))
            options.append((slot, Choice(f"{slot[0]}{slot[1]}", label,
                                         f"{card} {slot_name(slot)}")))
        return self._paged(options, discard, path[1:])

    @staticmethod
    def _inputs_text(pyramid: Pyramid, row: list[int], slot: Slot) -> str:
        return " ".join("-" if v is None else str(v) for v in input_values(pyramid, row, slot))

    @staticmethod
    def _paged(options: list[tuple[Slot, Choice]], extra: Choice | None,
               rest: tuple[str, ...]) -> list[Choice]:
        """Options as one step, or rows first when there are more than the menu limit."""
        tail = [extra] if extra is not None else []
        if len(options) + len(tail) <= MENU_LIMIT:
            if rest:
                raise not_in_menu()
            return [c for _, c in options] + tail
        rows = list(dict.fromkeys(slot[0] for slot, _ in options))
        if not rest:
            return [Choice(f"R{r}", Message("booleo.menu.row", "Row {row}", row=r))
                    for r in rows] + tail
        if len(rest) > 1 or rest[0] not in {f"R{r}" for r in rows}:
            raise not_in_menu()
        return [c for slot, c in options if f"R{slot[0]}" == rest[0]]

    # -- views --
    def _gate_view(self, seat: int, slot: Slot, inactive: set[Slot]) -> JSON:
        pyramid = self.pyramids[seat]
        card = pyramid[slot]
        a, b = input_values(pyramid, self.row(seat), slot)
        gate: JSON = {"slot": slot_name(slot), "card": card, "gate": gate_of(card),
                      "out": output_of(card), "inputs": [a, b]}
        if self.inactive:
            gate["inactive"] = slot in inactive
        return gate

    def invalid_gates(self) -> list[list[str]]:
        return [[slot_name(s) for s in pyramid_slots(self.n) if s in self.pyramids[seat]
                 and is_invalid(self.pyramids[seat], self.row(seat), self.n, s)]
                for seat in range(SEATS)]

    def view(self, player: int | None) -> JSON:
        if player is not None and player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        n = self.n
        pyramids = []
        for seat in range(SEATS):
            inactive = inactive_gates(self.pyramids[seat], n) if self.inactive else set()
            pyramids.append([self._gate_view(seat, s, inactive) for s in pyramid_slots(n)
                             if s in self.pyramids[seat]])
        pending: JSON | None = None
        if self.pending is not None:
            card, by = self.pending
            _, removes = self.resolved_pyramids()
            pending = {"card": card, "positions": [position_of(n, s, card) for s in range(SEATS)],
                       "by": by, "would_remove": [[slot_name(s) for s, _ in r] for r in removes]}
        view: JSON = {
            "game": NAME,
            "viewer": player,
            "options": dict(self.options),
            "bits": n,
            "start_row": list(self.bits),
            "rows": [self.row(seat) for seat in range(SEATS)],
            "not_counts": [list(self.nots), list(reversed(self.nots))],
            "slot_bits": [self.slot_bit(seat) for seat in range(SEATS)],
            "pyramids": pyramids,
            "pyramid_size": pyramid_size(n),
            "hand_sizes": [len(hand) for hand in self.hands],
            "draw_pile": len(self.draw),
            "discard_pile": len(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            "pending": pending,
            "to_move": self.turn if self._outcome is None else None,
            "phase": self.phase,
            "claimant": self.claimant,
            "challenged": self.challenged,
            "first_player": self.first,
            "turns": self.turns,
            "max_turns": self.options["max_turns"],
            "last_events": copy_json(self.last_events),
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }
        if self._outcome is not None:
            view["invalid_gates"] = self.invalid_gates()
        if player is not None:
            view["seat"] = player
            view["hand"] = list(self.hands[player])
            fitting = self.fitting_cards(player)
            if fitting is not None:
                view["fits"] = fitting
        return view

    # -- serialisation --
    def to_dict(self) -> JSON:
        # Every part is built fresh here except the options and events the state keeps,
        # which alone need a deep copy (``engines.json_copy``).
        return {
            "game": NAME,
            "schema": self.schema_version,
            "options": copy_json(self.options),
            "seed": self.seed,
            "start": list(self.bits),
            "nots": list(self.nots),
            "hands": [list(hand) for hand in self.hands],
            "draw": list(self.draw),
            "discard": list(self.discard),
            "pyramids": [{slot_name(s): p[s] for s in pyramid_slots(self.n) if s in p}
                         for p in self.pyramids],
            "first": self.first,
            "turn": self.turn,
            "turns": self.turns,
            "phase": self.phase,
            "challenged": self.challenged,
            "claimant": self.claimant,
            "pending": None if self.pending is None else {"card": self.pending[0],
                                                          "by": self.pending[1]},
            "reshuffles": self.reshuffles,
            "actions": list(self.actions),
            "last_events": copy_json(self.last_events),
            "outcome": copy_json(self._outcome.to_dict()) if self._outcome else None,
        }

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        return load_checked("bOOleO", data, cls._load)

    @classmethod
    def _load(cls, data: JSON) -> Self:
        options = check_header(data, NAME, cls.schema_version, "bOOleO")
        state = cls(options, checked_int(data["seed"], "seed"))
        # Every stored option as the canonical set has it; an option added after the game
        # was saved (``danger``, a learner's aid the rules ignore) takes its default.
        stored = data["options"]
        if (not isinstance(stored, dict) or set(stored) - set(state.options)
                or any(state.options[key] != value for key, value in stored.items())
                or set(state.options) - set(stored) - LATER_OPTIONS):
            raise StateError("options are not complete")
        n = state.n
        state.bits = checked_int_list(data["start"], "start", n, 0, 1)
        state.nots = checked_int_list(data["nots"], "nots", n, 0, COPIES)
        known = set(deck_cards(state.extended))
        state.hands = [checked_cards(h, known, "a hand")
                       for h in checked_list(data["hands"], "hands", SEATS)]
        if any(hand != sort_cards(hand) or len(hand) > HAND_SIZE + 1 for hand in state.hands):
            raise StateError("hands are sorted and hold at most 5 cards")
        state.draw = checked_cards(data["draw"], known, "the draw pile")
        state.discard = checked_cards(data["discard"], known, "the discard pile")
        state.pyramids = []
        for raw in checked_list(data["pyramids"], "pyramids", SEATS):
            if not isinstance(raw, dict):
                raise StateError("a pyramid is an object of slot: card")
            pyramid = {parse_slot_name(k): v for k, v in raw.items()}
            if any(not slot_exists(n, s) for s in pyramid) or any(
                    c not in known or c == NOT_CARD for c in pyramid.values()):
                raise StateError("a pyramid holds gate cards on its own slots")
            state.pyramids.append(pyramid)
        state.first = checked_int(data["first"], "first", 0, 1)
        state.turn = checked_int(data["turn"], "turn", 0, 1)
        state.turns = checked_int(data["turns"], "turns", 0, None)
        state.reshuffles = checked_int(data["reshuffles"], "reshuffles", 0, None)
        if data["phase"] not in PHASES or not isinstance(data["challenged"], bool):
            raise StateError("bad phase")
        state.phase, state.challenged = data["phase"], data["challenged"]
        state.claimant = (None if data["claimant"] is None
                          else checked_int(data["claimant"], "claimant", 0, 1))
        pending = data["pending"]
        state.pending = None if pending is None else (
            checked_int(pending["card"], "pending card", 1, n),
            checked_int(pending["by"], "pending by", 0, 1))
        actions = data["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise StateError("actions must be a list of strings")
        state.actions = list(actions)
        events = data["last_events"]
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise StateError("last_events must be a list of objects")
        state.last_events = copy_json(events)
        state._outcome = checked_outcome(data["outcome"])
        state._validate()
        return state

    def _validate(self) -> None:
        """Every card exactly once; pyramids that the rules could have produced."""
        n = self.n
        everywhere = Counter(self.draw) + Counter(self.discard) + Counter(self.hands[0]) \
            + Counter(self.hands[1]) + Counter({NOT_CARD: sum(self.nots)})
        for pyramid in self.pyramids:
            everywhere += Counter(pyramid.values())
        if everywhere != Counter(deck_cards(self.extended)):
            raise StateError("the cards do not add up to the deck")
        over = self._outcome is not None
        if self.pending is not None:
            card, by = self.pending
            if self.nots[card - 1] < 1 or (by == self.turn and not over):
                raise StateError("a pending flip lies on a card without NOT, or is the mover's")
        if (self.phase == "claim") != (self.claimant is not None):
            raise StateError("a claim needs a claimant and the claim phase")
        if self.claimant is not None and (
                len(self.pyramids[self.claimant]) != pyramid_size(n)
                or (self.claimant == self.turn and not over) or self.referee):
            raise StateError("only a complete pyramid of the other player is claimed")
        if self.phase == "claim" and self.pending is not None:
            raise StateError("a claim cannot have a pending flip")
        bits = list(self.bits)
        if self.pending is not None:
            bits[self.pending[0] - 1] ^= 1  # as the gates were laid, before the flip
        for seat, pyramid in enumerate(self.pyramids):
            for slot in pyramid:
                present = 2 if slot[0] == 1 else sum(b in pyramid for b in inputs_below(slot))
                if present < (1 if self.inactive else 2):
                    raise StateError(f"gate {slot_name(slot)} has lost its inputs")
                if self.referee and is_invalid(pyramid, reading(bits, seat), n, slot):
                    raise StateError(f"gate {slot_name(slot)} is invalid with the referee on")


State = BooleoState


def new_game(options: JSON, players: int, seed: int) -> BooleoState:
    if players != SEATS:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return BooleoState(options, seed)


def replay(options: JSON, seed: int, actions: list[Action]) -> BooleoState:
    return play_actions(new_game(options, SEATS, seed), actions)

