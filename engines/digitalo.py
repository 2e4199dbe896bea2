"""Digitalo, the card game of logic-gate pyramids from inf-schule.de, played as a match.

Specification: ``shared/rules/digitalo.md`` (seed ``001_90130ba1dbeb3309.txt``). Two players:
seat 0 is South, seat 1 is North. The pyramid, the gate cards, their lessons, activity and the
cascade are bOOleO's too and live in ``engines/pyramid.py``; the inverter, its counter, the
equal-moves ending, scoring and rounds are Digitalo's own and live here.

Notation
--------
* **Cards**: ``AND0`` ``AND1`` ``OR0`` ``OR1`` ``XOR0`` ``XOR1`` ``NAND0`` ``NAND1``, the digit
  being the printed output, and ``INV`` (the inverter). Shown as ``AND→1``.
* **Bit cards**: ``1..N`` from the actor's own left. South reads ``b1..bN``, North reads
  ``¬bN..¬b1`` (a bit card shows 0 to one player and 1 to the other), so North's bit 1 is
  South's bit N.
* **Positions**: the seed's numbers. For four bits 1–3 are the first row (position ``i`` takes
  bits ``i`` and ``i+1``), 4–5 the second (4 stands on 1 and 2, 5 on 2 and 3), 6 the top; more
  bits continue the same way, row by row from the bits up, each row from the player's own
  left (N−1 positions in row 1, N(N−1)/2 in all: 28 for eight bits).
* **Canonical actions** (at most 20 ASCII characters, the actor's own numbering):
  ``AND1 4`` (a gate on position 4), ``INV 2`` (an inverter on bit card 2), ``counter`` (an
  inverter against the opponent's pending flip), ``discard XOR0``, ``discard INV``,
  and ``accept`` (let a last-move flip resolve, below).
  Typed text is looser: ``and→1 on 4``, ``and 1 4``, ``place AND1 4``, ``inv 2``,
  ``inverter 2``, ``flip 2``, ``cancel``, ``d xor0``, ``discard inverter``, ``ok``; an
  inverter typed on the pending bit (``INV 2``) is the counter.

Menus (tokens of at most 4 characters, at most 2 per path)
----------------------------------------------------------
Step 1: the hand's card kinds, identical cards grouped (``AND→1 ×2``, token ``A1``; ``INV``,
token ``I``); when a last-move flip waits for its answer, ``Counter`` (``C``, with an inverter
in hand) and ``Accept`` (``OK``) instead. Step 2 for a gate card: every empty position it
physically fits (both inputs present and active, token ``4``), judged after the pending flip
resolves, including positions where the gate is wrong, so that a learner's pick is refused with
the rule it breaks ("AND needs 1 and 1 to give 1; these inputs are 1 and 0."); then
``Discard`` (``D``) when discarding is allowed. Step 2 for an inverter: the bit cards ``1..N``
in the player's reading (the pending one as the counter), then ``Discard``. A step never holds
more than N+1 options: open positions stand on bit ranges of which none holds another, so at
most N−1 are open at once.

Decisions the rules leave open
------------------------------
* **Drawing.** Every action is followed by the actor's draw, so a player always acts with 4
  cards; the action that ends a round draws nothing (a new deal follows). When the draw pile is
  empty the discard pile is shuffled into a new one with ``random.Random`` seeded from the game
  seed and a reshuffle counter. The deck is never too small for that (see Limits), so every
  hand holds 4 cards whenever nobody is acting, and nobody ever has to pass.
* **Discarding.** Without ``free_discard`` a player may discard (any card, an inverter too)
  only when no gate card in hand fits validly on an open position; inverters never count as
  placeable. Playing an inverter is always allowed.
* **The inverter** may go on any bit card, also where it changes nothing (the seed's cases 1
  and 4). Its flip is *pending* until the opponent acts: ``counter`` undoes it; anything else
  resolves it first and is then judged on the resolved position (menus and legal actions
  already show it resolved). Resolution judges only the first-row gates on the flipped bit in
  both pyramids: invalid ones are discarded; a gate that lost one input turns inactive, one
  that lost both is discarded, and so on up. Placing a gate under an inactive gate restores
  its input: the gates above are judged again, an invalid one is discarded with the same
  cascade, the rest become active.
* **The counter** is the opponent's action for their turn and counts as their move. The
  inverter player drew after their inverter and the counterer draws after the counter, so both
  players drew one card and both hands are back at 4; both inverters lie on the discard pile,
  and the turn passes back to the original player. Flipping the pending bit once more as a
  fresh flip is not offered: an inverter on that bit is the counter.
* **Moves** are the actions place, inverter, counter and discard; ``accept`` is not a
  move. Turns alternate, so the round's first player has made as many moves as the other, or
  one more.
* **End of a round.** A placement that completes the actor's pyramid (every position filled,
  which makes every gate active) ends the round at once when both have moved equally often.
  Otherwise the other player gets one *last move* (phase ``last move``), any action. A
  placement or discard ends the round. An inverter flips a bit, which may break the completed
  pyramid: the completer answers (phase ``answer``) with ``counter`` (undoing it, after which
  the last move is taken again) or ``accept``: the flip resolves, and if the completer's pyramid
  is still complete the round ends; if not, the round goes on with the completer to move.
* **Scoring.** Both pyramids complete: a drawn round. Otherwise the completer scores one point
  per position of the opponent's pyramid that is empty or inactive. Only the completer scores
  in a round, so both players can never reach 8 together; the rule for that case (the higher
  score wins, equal scores draw) is ``match_winners`` and also decides a match cut short by
  ``max_rounds``.
* **Rounds.** Each round is a new deal: the bit row is laid anew and all cards are shuffled
  with ``random.Random`` seeded from the game seed and the round number. Round 1's first player
  is drawn from that shuffle; after that the first player alternates, so each player starts
  every other round.
* **Limits.** ``max_moves`` (both players' moves in a round; checked outside the last-move
  exchange) draws the round without points; ``max_rounds`` ends the match.
* **The deck** holds ``gates_each`` of each gate card, but never fewer than both pyramids and
  both hands need (8 × copies ≥ N(N−1) + 8; ``gate_copies``): the default 6 serves 4 to 6
  bits, 7 bits get at least 7 of each and 8 bits at least 8. With fewer the pyramids would
  swallow the deck, leaving rounds to inverter wars and empty hands; this way every option
  set plays, and every draw finds a card.

Views and events
----------------
``view(None)`` is public: ``bit_row`` (South's reading), ``rows`` (per seat, in that seat's
reading), ``pyramids`` (per seat, each gate ``{position, card, gate, out, inputs, inactive}`` in
that seat's reading, ``inputs`` being ``None`` where missing), ``open`` (per seat, the empty
positions a gate fits now), ``pyramid_size``, ``hand_sizes``, ``draw_pile`` and
``discard_pile`` sizes, ``discard_top``, ``gate_copies`` (of each gate card in the deck),
``inverters`` (in the deck; ``inverters_seen`` on the discard pile), ``pending`` (``bit`` in
South's numbering, ``positions`` per seat, ``by``, ``would_remove`` and ``would_deactivate``:
positions per seat), ``round``, ``round_starter``, ``first_player``, ``scores`` with
``scores_binary`` (at least four binary digits; ``target`` 8 is ``1000``), ``moves`` (per
seat, this round), ``max_moves``, ``max_rounds``, ``to_move``, ``phase`` (``play``, ``last
move``, ``answer``), ``completer``, ``last_round`` (the previous round's result: ``round``,
``reason`` (``complete``, ``both_complete`` or ``max_moves``), ``winner``, ``points``,
``empty``, ``inactive``, ``moves``, ``scores``, ``scores_binary``, and its final ``bit_row``,
``pyramids`` as ``{position: card}`` and ``inactive_positions`` per seat; for drawing them,
``rows`` and ``gates`` per seat, as the live ``rows`` and ``pyramids``, and ``unfit``: the
positions of gates the final bit row no longer gives, when the move limit struck with an
inverter pending), ``rounds`` (every
finished round's ``round``, ``reason``, ``winner`` and ``points``), ``options``,
``last_events`` (public) and ``outcome``. ``view(seat)`` adds ``seat`` and that seat's
``hand``. ``apply`` returns event dicts with a ``type``; the cards drawn and dealt are only
inside ``private`` parts (``{"seat", "card"}`` or ``{"seat", "cards"}``), never shown to
anyone else.
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
    Pyramid,
    Slot,
    bit_slots,
    blocked_input,
    card_label,
    fed_slots,
    fits_inputs,
    gate_cards,
    gate_gives,
    gate_of,
    gate_refusal,
    gate_token,
    inactive_gates,
    input_values,
    is_gate_card,
    is_invalid,
    open_slots,
    output_of,
    position_of,
    pyramid_size,
    pyramid_slots,
    reading,
    settle,
)
from engines.state_checks import (
    check_header,
    checked_cards,
    checked_int,
    checked_int_list,
    checked_list,
    checked_outcome,
    load_checked,
)

NAME = "digitalo"
ALIASES = ("digital", "digi")
TITLE = "Digitalo"
LEVELS = ("easy", "medium", "strong", "expert")
# Levels whose move takes a millisecond or so (a random legal move): the bot plays them
# on its event loop, where handing them to a worker process would cost more than the move
# (``benchmarks/quick_levels.py`` prints their timings).
QUICK_LEVELS = frozenset({"easy"})
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                hidden_information=True, agents="engines.digitalo_agents",
                beginner_options="danger=on")
OPTIONS = (
    OptionSpec("bits", int, 4, "bit cards in the row (4 is the seed's game)", minimum=4,
               maximum=8),
    OptionSpec("inverters", bool, True,
               "play with inverter cards; inf-schule suggests a first round without"),
    OptionSpec("free_discard", bool, False,
               "allow discarding at any time, not only when no card can be placed"),
    OptionSpec("gates_each", int, 6,
               "cards of each of the 8 gate cards (AND, OR, XOR, NAND with output 0 and 1); "
               "at least what both pyramids need: 7 with 7 bits, 8 with 8",
               minimum=3, maximum=16),
    OptionSpec("inverter_cards", int, 6, "inverter cards in the deck (with inverters on)",
               minimum=1, maximum=16),
    OptionSpec("max_moves", int, 500, "a round is drawn after this many moves (both players')",
               minimum=20, maximum=5000),
    OptionSpec("max_rounds", int, 20,
               "the match ends after this many rounds; the higher score wins",
               minimum=1, maximum=100),
    # A learner's aid the rules ignore: under the board, the gates of the player to move that
    # an inverter on one bit card would discard or make inactive (issue 27's danger marks).
    OptionSpec("danger", bool, False,
               "say which of your gates an inverter on a bit card would break (on against "
               "easy)"),
)

# Options added after games were first stored: a stored game without them loads with their
# defaults (none of them changes the rules).
LATER_OPTIONS = frozenset({"danger"})

SEATS = 2
SEAT_NAMES = ("South", "North")
HAND_SIZE = 4
TARGET = 8  # 1000 in binary
PHASES = ("play", "last move", "answer")

GATES = ("AND", "OR", "XOR", "NAND")
GATE_CARDS = gate_cards(GATES)
INVERTER = "INV"
NO_PLACE_MARK = "✖"  # on a menu's card that fits nowhere on its player's pyramid now
ALL_CARDS = (*GATE_CARDS, INVERTER)
CARD_RANK = {card: rank for rank, card in enumerate(ALL_CARDS)}
CARD_TOKENS = {**{card: gate_token(card) for card in GATE_CARDS}, INVERTER: "I"}
CARD_BY_TOKEN = {token: card for card, token in CARD_TOKENS.items()}


# --- cards, positions and the flip ----------------------------------------------------------


def deck_cards(options: JSON) -> list[str]:
    """The gate and inverter cards of a deck, in a fixed order (shuffled by the caller)."""
    cards = [card for card in GATE_CARDS for _ in range(gate_copies(options))]
    if options["inverters"]:
        cards += [INVERTER] * int(options["inverter_cards"])
    return cards


def least_gates_each(n: int) -> int:
    """The fewest copies of each gate card that fill both pyramids and both hands."""
    return -(-(2 * pyramid_size(n) + 2 * HAND_SIZE) // len(GATE_CARDS))


def gate_copies(options: JSON) -> int:
    """Copies of each gate card in the deck: ``gates_each``, or more when the bits need it."""
    return max(int(options["gates_each"]), least_gates_each(int(options["bits"])))


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=CARD_RANK.__getitem__)


def binary(points: int) -> str:
    """Points as the seed writes them: binary, at least four digits (8 is ``1000``)."""
    return format(points, "04b")


def slot_at(n: int, position: int) -> Slot:
    """The slot of the seed's position number (1..N(N−1)/2)."""
    if not 1 <= position <= pyramid_size(n):
        raise ValueError(f"no position {position} with {n} bits")
    return pyramid_slots(n)[position - 1]


def position_at(n: int, slot: Slot) -> int:
    """The seed's position number of a slot: row by row from the bits up, left to right."""
    row, i = slot
    return (row - 1) * n - (row - 1) * row // 2 + i


def resolve_flip(pyramids: list[Pyramid], bits: list[int], n: int,
                 bit: int) -> list[list[tuple[Slot, str]]]:
    """Discard what a flip of seat 0's bit ``bit`` broke in both pyramids; ``bits`` already
    show it. Only the first-row gates on that bit are judged; what falls takes the gates
    above with it (one input lost: inactive; both: discarded)."""
    return [settle(pyramids[seat], reading(bits, seat), n, bit_slots(n, position_of(n, seat, bit)),
                   inactive=True, judge=fits_inputs)
            for seat in range(SEATS)]


def gate_view(pyramid: Pyramid, row: list[int], n: int, slot: Slot,
              inactive: set[Slot]) -> JSON:
    """A placed gate as views show it, its inputs read from ``row`` (a seat's reading)."""
    card = pyramid[slot]
    a, b = input_values(pyramid, row, slot)
    return {"position": position_at(n, slot), "card": card, "gate": gate_of(card),
            "out": output_of(card), "inputs": [a, b], "inactive": slot in inactive}


def complete(pyramid: Pyramid, n: int) -> bool:
    """Every position filled and every gate active (a full pyramid has no inactive gate)."""
    return len(pyramid) == pyramid_size(n) and not inactive_gates(pyramid, n)


def match_winners(scores: list[int]) -> tuple[int, ...]:
    """The match's winner by points: the higher score; equal scores make a draw."""
    if scores[0] == scores[1]:
        return ()
    return (0,) if scores[0] > scores[1] else (1,)


# --- parsing --------------------------------------------------------------------------------

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


# --- the game -------------------------------------------------------------------------------


class DigitaloState(GameState):
    game_name = NAME
    min_players = SEATS
    max_players = SEATS
    schema_version = 1

    def __init__(self, options: JSON, seed: int) -> None:
        self.options = validate_options(OPTIONS, options)
        self.seed = seed
        self.round = 1
        self.first = 0
        self.starter = 0
        self.scores = [0, 0]
        self.round_results: list[JSON] = []
        self.reshuffles = 0
        self.actions: list[Action] = []
        self.last_events: list[Event] = []
        self._outcome: Outcome | None = None
        self.bits: list[int] = []
        self.hands: list[list[str]] = [[], []]
        self.draw: list[str] = []  # the top is the end
        self.discard: list[str] = []
        self.pyramids: list[Pyramid] = [{}, {}]
        self.turn = 0
        self.moves = [0, 0]
        self.phase = "play"
        self.completer: int | None = None
        self.pending: tuple[int, int] | None = None  # (seat 0's bit, seat that flipped it)
        self._deal()

    def _deal(self) -> list[Event]:
        """Lay a new bit row and deal a new round; round 1 also draws the first player."""
        n = self.n
        rng = random.Random(f"digitalo-round:{self.seed}:{self.round}")
        self.bits = [rng.randrange(2) for _ in range(n)]
        cards = deck_cards(self.options)
        rng.shuffle(cards)
        if self.round == 1:
            self.first = rng.randrange(SEATS)
        self.starter = self.first if self.round % 2 == 1 else 1 - self.first
        hands: list[list[str]] = [[], []]
        for _ in range(HAND_SIZE):
            for seat in (self.starter, 1 - self.starter):
                hands[seat].append(cards.pop())
        self.hands = [sort_cards(hand) for hand in hands]
        self.draw, self.discard = cards, []
        self.pyramids = [{}, {}]
        self.turn = self.starter
        self.moves = [0, 0]
        self.phase, self.completer, self.pending = "play", None, None
        events: list[Event] = [{"type": "new_round", "round": self.round,
                                "starter": self.starter, "bit_row": list(self.bits)}]
        events += [{"type": "dealt", "seat": seat,
                    "private": {"seat": seat, "cards": list(self.hands[seat])}}
                   for seat in range(SEATS)]
        return events

    # -- options and readings --
    @property
    def n(self) -> int:
        return int(self.options["bits"])

    @property
    def size(self) -> int:
        return pyramid_size(self.n)

    def row(self, seat: int) -> list[int]:
        return reading(self.bits, seat)

    def resolved_pyramids(self) -> tuple[list[Pyramid], list[list[tuple[Slot, str]]]]:
        """Both pyramids as they will be once the pending flip resolves, and what it removes."""
        pyramids = [dict(p) for p in self.pyramids]
        if self.pending is None:
            return pyramids, [[], []]
        return pyramids, resolve_flip(pyramids, self.bits, self.n, self.pending[0])

    def flip_threats(self, seat: int) -> list[JSON]:
        """For each bit card an inverter could flip next, what the flip would do to
        ``seat``'s pyramid once it resolves (the cascade included, by ``resolve_flip``):
        ``{"bit", "position", "removed", "inactive"}``, the bit in South's numbering and as
        ``seat`` reads it, and the positions discarded and newly made inactive; bits that
        change nothing are left out. Public information only: whether the opponent holds an
        inverter is not known, so these are what could happen, not what will. Nothing is
        marked while a flip is pending (the board shows what it does), outside the play
        phase (the opponent does not act after a last move), without inverters, or when
        every inverter lies on the discard pile."""
        if (self.pending is not None or self.phase != "play" or self._outcome is not None
                or not self.options["inverters"]
                or self.discard.count(INVERTER) >= int(self.options["inverter_cards"])):
            return []
        n = self.n
        before = inactive_gates(self.pyramids[seat], n)
        threats: list[JSON] = []
        for bit in range(1, n + 1):
            bits = list(self.bits)
            bits[bit - 1] ^= 1
            pyramids = [dict(p) for p in self.pyramids]
            removed = resolve_flip(pyramids, bits, n, bit)[seat]
            newly = inactive_gates(pyramids[seat], n) - before
            if removed or newly:
                threats.append({"bit": bit, "position": position_of(n, seat, bit),
                                "removed": self._positions(slot for slot, _ in removed),
                                "inactive": self._positions(newly)})
        return threats

    def _placeable(self, player: int, pyramid: Pyramid) -> list[tuple[str, Slot]]:
        """Every (card kind, slot) of the hand that fits validly on ``pyramid`` now."""
        row = self.row(player)
        found = []
        kinds = [card for card in dict.fromkeys(self.hands[player]) if card != INVERTER]
        for card in kinds:
            for slot in open_slots(pyramid, self.n):
                a, b = input_values(pyramid, row, slot)
                assert a is not None and b is not None
                if gate_gives(card, a, b):
                    found.append((card, slot))
        return found

    def fitting_cards(self, seat: int) -> list[str]:
        """The kinds of ``seat``'s cards that fit validly somewhere on their pyramid now
        (an inverter always may be played), for the hand's "no place now" marks."""
        pyramid = self.resolved_pyramids()[0][seat]
        fitting = {card for card, _ in self._placeable(seat, pyramid)}
        return [card for card in dict.fromkeys(self.hands[seat])
                if card == INVERTER or card in fitting]

    def may_discard(self, player: int) -> bool:
        if self.options["free_discard"]:
            return True
        return not self._placeable(player, self.resolved_pyramids()[0][player])

    # -- turn flow --
    def _draw_for(self, seat: int) -> list[Event]:
        events: list[Event] = []
        if not self.draw and self.discard:
            pile = self.discard
            random.Random(f"digitalo-reshuffle:{self.seed}:{self.reshuffles}").shuffle(pile)
            self.reshuffles += 1
            self.draw, self.discard = pile, []
            events.append({"type": "reshuffled", "cards": len(pile)})
        card = self.draw.pop()  # the deck is large enough that a card is always there
        self.hands[seat] = sort_cards([*self.hands[seat], card])
        events.append({"type": "drew", "seat": seat, "private": {"seat": seat, "card": card}})
        return events

    def _check_turn(self, player: int) -> None:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        if player != self.turn:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")

    def _check(self, player: int, move: Move) -> Move:
        """Refuse, with what was expected, anything ``player`` may not do now; return the
        move completed (an inverter on the pending bit is the counter)."""
        hand = self.hands[player]
        if (move.kind == "inverter" and self.pending is not None
                and position_of(self.n, player, self.pending[0]) == move.pos):
            move = Move("counter")
        if self.phase == "answer" and move.kind not in ("counter", "accept"):
            raise IllegalMove("digitalo.error.answer",
                              "Your opponent's last move flipped a bit card: counter it with "
                              "an inverter, or accept it.")
        if move.kind == "accept":
            if self.phase != "answer":
                raise IllegalMove("digitalo.error.nothing_to_accept",
                                  "There is no last-move flip to accept.")
            return move
        card = INVERTER if move.kind in ("inverter", "counter") else move.card
        if card not in CARD_RANK or (card == INVERTER and not self.options["inverters"]):
            raise IllegalMove("digitalo.error.no_such_card",
                              "There is no {card} card in this game.", card=card_label(card))
        if card not in hand:
            raise IllegalMove("digitalo.error.not_in_hand", "You hold no {card} card.",
                              card=card_label(card))
        if move.kind == "counter":
            if self.pending is None:
                raise IllegalMove("digitalo.error.nothing_to_counter",
                                  "No flip is pending, so there is nothing to counter.")
        elif move.kind == "inverter":
            if not 1 <= move.pos <= self.n:
                raise IllegalMove("digitalo.error.no_bit_card",
                                  "There is no bit card {card}; they are numbered 1 to {count} "
                                  "from your left.", card=move.pos, count=self.n)
        elif move.kind == "gate":
            self._check_gate(player, self.resolved_pyramids()[0][player], move)
        elif move.kind == "discard" and not self.may_discard(player):
            fits, slot = self._placeable(player, self.resolved_pyramids()[0][player])[0]
            raise IllegalMove("digitalo.error.must_place",
                              "You may discard only when none of your cards can be placed: "
                              "{card} fits on position {position}.", card=card_label(fits),
                              position=position_at(self.n, slot))
        return move

    def _check_gate(self, player: int, pyramid: Pyramid, move: Move) -> None:
        n, card, pos = self.n, move.card, move.pos
        if not 1 <= pos <= self.size:
            raise IllegalMove("digitalo.error.no_such_position",
                              "Your pyramid has no position {position}: they are numbered 1 to "
                              "{size}, from the bits up.", position=pos, size=self.size)
        slot = slot_at(n, pos)
        if slot in pyramid:
            raise IllegalMove("digitalo.error.position_taken",
                              "Position {position} already holds {card}.", position=pos,
                              card=card_label(pyramid[slot]))
        blocked = blocked_input(pyramid, slot, inactive_gates(pyramid, n))
        if blocked is not None and blocked[0] == "missing":
            raise IllegalMove("digitalo.error.missing_input",
                              "Position {position} needs both inputs first: position {below} "
                              "below it is still empty.", position=pos,
                              below=position_at(n, blocked[1]))
        if blocked is not None:
            raise IllegalMove("digitalo.error.inactive_input",
                              "Position {position} would take an input from the inactive gate "
                              "on {below}; restore its missing input first.", position=pos,
                              below=position_at(n, blocked[1]))
        a, b = input_values(pyramid, self.row(player), slot)
        assert a is not None and b is not None
        if not gate_gives(card, a, b):
            raise gate_refusal(NAME, card, a, b, str(pos))

    # -- contract --
    def to_move(self) -> list[int]:
        return [] if self._outcome is not None else [self.turn]

    def legal_actions(self, player: int) -> list[Action]:
        if self._outcome is not None or player != self.turn:
            return []
        hand = self.hands[player]
        if self.phase == "answer":
            return ["counter", "accept"] if INVERTER in hand else ["accept"]
        actions = [f"{card} {position_at(self.n, slot)}"
                   for card, slot in self._placeable(player, self.resolved_pyramids()[0][player])]
        if INVERTER in hand:
            actions += [self._inverter_action(player, pos) for pos in range(1, self.n + 1)]
        if self.may_discard(player):
            actions += [f"discard {card}" for card in dict.fromkeys(hand)]
        return actions

    def _inverter_action(self, player: int, pos: int) -> Action:
        if self.pending is not None and position_of(self.n, player, self.pending[0]) == pos:
            return "counter"
        return f"{INVERTER} {pos}"

    def parse_action(self, text: str, player: int) -> Action:
        self._check_turn(player)
        return self._check(player, parse_move(text)).canonical()

    def action_text(self, action: Action) -> str:
        try:
            move = parse_move(action)
        except InvalidMove:
            return action
        if move.kind == "gate":
            return Message("digitalo.move.gate", "{card} on position {pos}",
                           card=card_label(move.card), pos=move.pos)
        if move.kind == "inverter":
            return Message("digitalo.move.inverter", "inverter on bit card {pos}", pos=move.pos)
        if move.kind == "counter":
            return Message("digitalo.move.counter", "counter the inverter")
        if move.kind == "discard":
            return Message("digitalo.move.discard", "discard {card}", card=card_label(move.card))
        if move.kind == "accept":
            return Message("digitalo.move.accept", "accept the flip")
        return move.canonical()

    def apply(self, player: int, action: Action) -> list[Event]:
        self._check_turn(player)
        move = self._check(player, parse_move(action))
        events: list[Event] = []
        if move.kind == "accept":
            events += self._accept(player)
        elif move.kind == "counter":
            events += self._counter(player)
            if self.phase == "answer":
                self.phase = "last move"  # the original player takes the last move again
            events += self._pass_turn(player)
        else:
            if self.pending is not None:
                events += self._resolve()
            events += self._act(player, move)
            if self.phase == "last move":
                events += self._after_last_move(player, move)
            else:
                events += self._after_move(player, move)
        self.actions.append(move.canonical())
        self.last_events = [{k: v for k, v in e.items() if k != "private"} for e in events]
        return events

    def _pass_turn(self, player: int) -> list[Event]:
        events = self._draw_for(player)
        self.turn = 1 - player
        return events

    def _resolve(self) -> list[Event]:
        assert self.pending is not None
        bit, by = self.pending
        before = [inactive_gates(p, self.n) for p in self.pyramids]
        self.pending = None
        removed = resolve_flip(self.pyramids, self.bits, self.n, bit)
        for seat_removed in removed:
            self.discard.extend(c for _, c in seat_removed)
        return [{"type": "flip_resolved", "bit": bit, "by": by,
                 "removed": [self._positions_of(r) for r in removed],
                 "inactive": [self._positions(inactive_gates(p, self.n) - old)
                              for p, old in zip(self.pyramids, before, strict=True)]}]

    def _positions_of(self, removed: list[tuple[Slot, str]]) -> list[JSON]:
        return [{"position": position_at(self.n, s), "card": c} for s, c in removed]

    def _positions(self, slots: Iterable[Slot]) -> list[int]:
        return sorted(position_at(self.n, s) for s in slots)

    def _counter(self, player: int) -> list[Event]:
        assert self.pending is not None
        bit, _ = self.pending
        self.pending = None
        self.bits[bit - 1] ^= 1
        self.hands[player].remove(INVERTER)
        self.discard.append(INVERTER)
        self.moves[player] += 1
        return [{"type": "countered", "seat": player, "bit": bit,
                 "position": position_of(self.n, player, bit)}]

    def _act(self, player: int, move: Move) -> list[Event]:
        self.moves[player] += 1
        if move.kind == "discard":
            self.hands[player].remove(move.card)
            self.discard.append(move.card)
            return [{"type": "discarded", "seat": player, "card": move.card}]
        if move.kind == "inverter":
            self.hands[player].remove(INVERTER)
            self.discard.append(INVERTER)
            bit = position_of(self.n, player, move.pos)
            self.bits[bit - 1] ^= 1
            self.pending = (bit, player)
            pending = self._pending_view()
            assert pending is not None
            return [{"type": "inverted", "seat": player, "bit": bit, "position": move.pos,
                     "would_remove": pending["would_remove"],
                     "would_deactivate": pending["would_deactivate"]}]
        n = self.n
        pyramid = self.pyramids[player]
        slot = slot_at(n, move.pos)
        before = inactive_gates(pyramid, n)
        self.hands[player].remove(move.card)
        pyramid[slot] = move.card
        removed = settle(pyramid, self.row(player), n, fed_slots(n, slot), inactive=True,
                         judge=fits_inputs)
        self.discard.extend(c for _, c in removed)
        return [{"type": "placed", "seat": player, "card": move.card, "position": move.pos,
                 "removed": self._positions_of(removed),
                 "reactivated": self._positions(
                     (before - inactive_gates(pyramid, n)) & set(pyramid))}]

    def _after_move(self, player: int, move: Move) -> list[Event]:
        """After a move in ordinary play: a completed pyramid ends the round or gives the
        other player a last move; otherwise the limits, then the draw."""
        if move.kind == "gate" and complete(self.pyramids[player], self.n):
            if self.moves[1 - player] < self.moves[player]:
                self.phase, self.completer = "last move", player
                return [{"type": "last_move", "seat": 1 - player, "completer": player},
                        *self._pass_turn(player)]
            return self._end_round("complete", player)
        if sum(self.moves) >= self.options["max_moves"]:
            return self._end_round("max_moves", None)
        return self._pass_turn(player)

    def _after_last_move(self, player: int, move: Move) -> list[Event]:
        assert self.completer is not None
        if move.kind == "inverter":
            self.phase = "answer"
            return self._pass_turn(player)
        return self._end_round("complete", self.completer)

    def _accept(self, player: int) -> list[Event]:
        events: list[Event] = [{"type": "accepted", "seat": player}, *self._resolve()]
        if complete(self.pyramids[player], self.n):
            return events + self._end_round("complete", player)
        self.phase, self.completer = "play", None
        return [*events, {"type": "round_goes_on", "seat": player}]

    def _end_round(self, reason: str, completer: int | None) -> list[Event]:
        n = self.n
        winner, points, empty, inactive = None, 0, 0, 0
        if completer is not None:
            other = self.pyramids[1 - completer]
            if complete(other, n):
                reason = "both_complete"
            else:
                empty = self.size - len(other)
                inactive = len(inactive_gates(other, n))
                winner, points = completer, empty + inactive
                self.scores[completer] += points
        result: JSON = {
            "round": self.round, "reason": reason, "winner": winner, "points": points,
            "empty": empty, "inactive": inactive, "moves": list(self.moves),
            "scores": list(self.scores),
            "scores_binary": [binary(s) for s in self.scores], "bit_row": list(self.bits),
            "pyramids": [{str(position_at(n, s)): p[s] for s in pyramid_slots(n) if s in p}
                         for p in self.pyramids],
            "inactive_positions": [self._positions(inactive_gates(p, n))
                                   for p in self.pyramids],
        }
        self.round_results.append(result)
        events: list[Event] = [{"type": "round_over", **copy_json(result)}]
        if max(self.scores) >= TARGET:
            return events + self._finish(Outcome(match_winners(self.scores), "digitalo_points",
                                                 self._score_detail()))
        if self.round >= self.options["max_rounds"]:
            return events + self._finish(Outcome(match_winners(self.scores),
                                                 "digitalo_max_rounds", self._score_detail()))
        self.round += 1
        return events + self._deal()

    def _score_detail(self) -> JSON:
        return {"scores": list(self.scores), "scores_binary": [binary(s) for s in self.scores],
                "rounds": self.round}

    def _finish(self, outcome: Outcome) -> list[Event]:
        self._outcome = outcome
        return [{"type": "game_over", **outcome.to_dict()}]

    def resign(self, player: int) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        return self._finish(Outcome((1 - player,), "resigned",
                                    {"loser": player, **self._score_detail()}))

    def abandon(self) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        return self._finish(Outcome((), "abandoned"))

    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- menus --
    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        self._check_turn(player)
        return follow_menu(path, 2, lambda: self._top_menu(player),
                           lambda steps: self._submenu(player, steps))

    def _top_menu(self, player: int) -> list[Choice]:
        hand = self.hands[player]
        if self.phase == "answer":
            counter = ([Choice("C", Message("digitalo.menu.counter_flip", "Counter the flip"),
                               "counter")] if INVERTER in hand else [])
            return [*counter, Choice("OK", "Accept the flip", "accept")]
        counts = Counter(hand)
        fitting = self.fitting_cards(player)
        # A card that fits nowhere is marked; unless it may be discarded (its step holds
        # the discard), nothing under it can be played, so it is also unavailable.
        discard = self.may_discard(player)
        return [Choice(CARD_TOKENS[card],
                       ("" if card in fitting else f"{NO_PLACE_MARK} ") + card_label(card)
                       + (f" ×{counts[card]}" if counts[card] > 1 else ""),
                       unavailable=None if card in fitting or discard else Message(
                           "digitalo.menu.no_place",
                           "{card} fits nowhere on your pyramid now: no slot has inputs "
                           "its gate turns into {output}.", card=card_label(card),
                           output=card[-1]))
                for card in dict.fromkeys(hand)]

    def _submenu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        if len(path) > 1:
            raise not_in_menu()
        card = CARD_BY_TOKEN[path[0]]
        tail = ([Choice("D", "Discard", f"discard {card}")] if self.may_discard(player)
                else [])
        if card == INVERTER:
            row = self.row(player)
            choices = []
            for pos in range(1, self.n + 1):
                action = self._inverter_action(player, pos)
                label = (Message("digitalo.menu.undo_flip", "{pos}: undo the flip", pos=pos)
                         if action == "counter" else f"{pos}: {row[pos - 1]}→{1 - row[pos - 1]}")
                choices.append(Choice(str(pos), label, action))
            return choices + tail
        pyramid = self.resolved_pyramids()[0][player]
        row = self.row(player)
        choices = []
        for slot in open_slots(pyramid, self.n):
            a, b = input_values(pyramid, row, slot)
            pos = position_at(self.n, slot)
            choices.append(Choice(str(pos), f"{pos} ({a} {b})", f"{card} {pos}"))
        return choices + tail

    # -- views --
    def _gate_view(self, seat: int, slot: Slot, inactive: set[Slot]) -> JSON:
        return gate_view(self.pyramids[seat], self.row(seat), self.n, slot, inactive)

    def _last_round_view(self) -> JSON | None:
        """The previous round's result, with its final pyramids drawable like the live ones:
        ``rows`` (each seat's reading of its final bit row) and ``gates`` (per seat, as in
        the view's ``pyramids``). A stored result without a well-formed bit row and
        pyramids (written by hand, or by an older version) is handed over as it is."""
        if not self.round_results:
            return None
        last = copy_json(self.round_results[-1])
        n, bits, placed = self.n, last.get("bit_row"), last.get("pyramids")
        if not (isinstance(bits, list) and len(bits) == n and all(b in (0, 1) for b in bits)
                and isinstance(placed, list) and len(placed) == SEATS
                and all(isinstance(p, dict) for p in placed)):
            return last
        try:
            pyramids = [{slot_at(n, int(position)): str(card) for position, card in p.items()}
                        for p in placed]
        except ValueError:
            return last
        if not all(is_gate_card(card) for p in pyramids for card in p.values()):
            return last
        rows = [reading(bits, seat) for seat in range(SEATS)]
        last["rows"] = rows
        last["gates"] = [
            [gate_view(p, row, n, s, inactive_gates(p, n)) for s in pyramid_slots(n) if s in p]
            for p, row in zip(pyramids, rows, strict=True)]
        # The move limit can end a round while an inverter is pending: the bit row is
        # flipped, the gates it would have felled still stand. Named, so that no board
        # prints them as if they computed.
        last["unfit"] = [self._positions(s for s in p if is_invalid(p, row, s, fits_inputs))
                         for p, row in zip(pyramids, rows, strict=True)]
        return last

    def _pending_view(self) -> JSON | None:
        if self.pending is None:
            return None
        bit, by = self.pending
        pyramids, removes = self.resolved_pyramids()
        newly = [(inactive_gates(after, self.n) - inactive_gates(before, self.n))
                 for after, before in zip(pyramids, self.pyramids, strict=True)]
        return {"bit": bit, "positions": [position_of(self.n, s, bit) for s in range(SEATS)],
                "by": by, "would_remove": [self._positions(s for s, _ in r) for r in removes],
                "would_deactivate": [self._positions(s) for s in newly]}

    def view(self, player: int | None) -> JSON:
        if player is not None and player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        n = self.n
        pyramids = []
        for seat in range(SEATS):
            inactive = inactive_gates(self.pyramids[seat], n)
            pyramids.append([self._gate_view(seat, s, inactive) for s in pyramid_slots(n)
                             if s in self.pyramids[seat]])
        view: JSON = {
            "game": NAME,
            "viewer": player,
            "options": dict(self.options),
            "bits": n,
            "bit_row": list(self.bits),
            "rows": [self.row(seat) for seat in range(SEATS)],
            "pyramids": pyramids,
            "open": [self._positions(open_slots(p, n)) for p in self.pyramids],
            "pyramid_size": self.size,
            "hand_sizes": [len(hand) for hand in self.hands],
            "draw_pile": len(self.draw),
            "discard_pile": len(self.discard),
            "discard_top": self.discard[-1] if self.discard else None,
            "gate_copies": gate_copies(self.options),
            "inverters": self.options["inverter_cards"] if self.options["inverters"] else 0,
            "inverters_seen": self.discard.count(INVERTER),
            "pending": self._pending_view(),
            "round": self.round,
            "round_starter": self.starter,
            "first_player": self.first,
            "scores": list(self.scores),
            "scores_binary": [binary(s) for s in self.scores],
            "target": TARGET,
            "target_binary": binary(TARGET),
            "moves": list(self.moves),
            "max_moves": self.options["max_moves"],
            "max_rounds": self.options["max_rounds"],
            "to_move": self.turn if self._outcome is None else None,
            "phase": self.phase,
            "completer": self.completer,
            "last_round": self._last_round_view(),
            "rounds": [{k: r[k] for k in ("round", "reason", "winner", "points")}
                       for r in self.round_results],
            "last_events": copy_json(self.last_events),
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }
        if player is not None:
            view["seat"] = player
            view["hand"] = list(self.hands[player])
            view["fits"] = self.fitting_cards(player)
        return view

    # -- serialisation --
    def to_dict(self) -> JSON:
        n = self.n
        # Every part is built fresh here except the options, results and events the state
        # keeps, which alone need a deep copy (``engines.json_copy``).
        return {
            "game": NAME,
            "schema": self.schema_version,
            "options": copy_json(self.options),
            "seed": self.seed,
            "round": self.round,
            "first": self.first,
            "starter": self.starter,
            "bits": list(self.bits),
            "hands": [list(hand) for hand in self.hands],
            "draw": list(self.draw),
            "discard": list(self.discard),
            "pyramids": [{str(position_at(n, s)): p[s] for s in pyramid_slots(n) if s in p}
                         for p in self.pyramids],
            "turn": self.turn,
            "moves": list(self.moves),
            "phase": self.phase,
            "completer": self.completer,
            "pending": None if self.pending is None else {"bit": self.pending[0],
                                                          "by": self.pending[1]},
            "scores": list(self.scores),
            "round_results": copy_json(self.round_results),
            "reshuffles": self.reshuffles,
            "actions": list(self.actions),
            "last_events": copy_json(self.last_events),
            "outcome": copy_json(self._outcome.to_dict()) if self._outcome else None,
        }

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        return load_checked("Digitalo", data, cls._load)

    @classmethod
    def _load(cls, data: JSON) -> Self:
        options = check_header(data, NAME, cls.schema_version, "Digitalo")
        state = cls(options, checked_int(data["seed"], "seed"))
        # Every stored option as the canonical set has it; an option added after the game
        # was saved (``danger``, a learner's aid the rules ignore) takes its default.
        stored = data["options"]
        if (not isinstance(stored, dict) or set(stored) - set(state.options)
                or any(state.options[key] != value for key, value in stored.items())
                or set(state.options) - set(stored) - LATER_OPTIONS):
            raise StateError("options are not complete")
        n = state.n
        state.round = checked_int(data["round"], "round", 1, state.options["max_rounds"])
        state.first = checked_int(data["first"], "first", 0, 1)
        state.starter = checked_int(data["starter"], "starter", 0, 1)
        state.bits = checked_int_list(data["bits"], "bits", n, 0, 1)
        known = set(ALL_CARDS)
        state.hands = [checked_cards(h, known, "a hand")
                       for h in checked_list(data["hands"], "hands", SEATS)]
        if any(hand != sort_cards(hand) for hand in state.hands):
            raise StateError("hands are sorted")
        state.draw = checked_cards(data["draw"], known, "the draw pile")
        state.discard = checked_cards(data["discard"], known, "the discard pile")
        state.pyramids = []
        for raw in checked_list(data["pyramids"], "pyramids", SEATS):
            if not isinstance(raw, dict):
                raise StateError("a pyramid is an object of position: card")
            pyramid: Pyramid = {}
            for key, card in raw.items():
                if not (isinstance(key, str) and key.isdigit()
                        and 1 <= int(key) <= state.size and card in GATE_CARDS):
                    raise StateError("a pyramid holds gate cards on its own positions")
                pyramid[slot_at(n, int(key))] = card
            state.pyramids.append(pyramid)
        state.turn = checked_int(data["turn"], "turn", 0, 1)
        state.moves = checked_int_list(data["moves"], "moves", SEATS, 0, state.options["max_moves"])
        if data["phase"] not in PHASES:
            raise StateError("bad phase")
        state.phase = data["phase"]
        state.completer = (None if data["completer"] is None
                           else checked_int(data["completer"], "completer", 0, 1))
        pending = data["pending"]
        state.pending = None if pending is None else (
            checked_int(pending["bit"], "pending bit", 1, n),
            checked_int(pending["by"], "pending by", 0, 1))
        state.scores = checked_int_list(data["scores"], "scores", SEATS, 0, None)
        results = data["round_results"]
        if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
            raise StateError("round_results must be a list of objects")
        state.round_results = copy_json(results)
        state.reshuffles = checked_int(data["reshuffles"], "reshuffles", 0, None)
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
        """Every card exactly once; pyramids, phases and move counts the rules could have
        produced."""
        n = self.n
        everywhere = Counter(self.draw) + Counter(self.discard) + Counter(self.hands[0]) \
            + Counter(self.hands[1])
        for pyramid in self.pyramids:
            everywhere += Counter(pyramid.values())
        if everywhere != Counter(deck_cards(self.options)):
            raise StateError("the cards do not add up to the deck")
        over = self._outcome is not None
        # Between actions both hands hold 4; the action that ends the match draws nothing.
        if any(len(hand) not in ((HAND_SIZE - 1, HAND_SIZE) if over else (HAND_SIZE,))
               for hand in self.hands):
            raise StateError(f"both hands hold {HAND_SIZE} cards")
        if len(self.round_results) != self.round - (0 if over else 1):
            raise StateError("one result per finished round")
        if self.starter != (self.first if self.round % 2 == 1 else 1 - self.first):
            raise StateError("the first player alternates from round to round")
        if self.pending is not None and self.pending[1] == self.turn and not over:
            raise StateError("a pending flip is the other seat's")
        lead = self.moves[self.starter] - self.moves[1 - self.starter]
        if lead not in (0, 1):
            raise StateError("the round's first player moves first, then turns alternate")
        if (self.phase == "play") != (self.completer is None):
            raise StateError("a completer belongs to the last-move phases")
        if not over:
            self._validate_turn(lead)
        bits = list(self.bits)
        if self.pending is not None:
            bits[self.pending[0] - 1] ^= 1  # as the gates were laid, before the flip
        for seat, pyramid in enumerate(self.pyramids):
            row = reading(bits, seat)
            for slot in pyramid:
                if slot[0] > 1 and all(below not in pyramid for below in
                                       ((slot[0] - 1, slot[1]), (slot[0] - 1, slot[1] + 1))):
                    raise StateError(f"gate {position_at(n, slot)} has lost both inputs")
                if is_invalid(pyramid, row, slot, fits_inputs):
                    raise StateError(f"gate {position_at(n, slot)} does not fit its inputs")
        if self.completer is not None and not over:
            if len(self.pyramids[self.completer]) != self.size:
                raise StateError("the completer's pyramid is complete")
            if complete(self.pyramids[1 - self.completer], n):
                raise StateError("with both pyramids complete the round is over")

    def _validate_turn(self, lead: int) -> None:
        if self.phase == "answer":
            if (self.turn != self.completer or self.pending is None or lead != 0
                    or self.pending[1] == self.completer):
                raise StateError("the completer answers the other's last-move flip")
        elif self.phase == "last move":
            if self.completer != self.starter or self.turn == self.completer or lead != 1 \
                    or self.pending is not None:
                raise StateError("the last move belongs to the player who moved less")
        elif (self.turn == self.starter) != (lead == 0):
            raise StateError("turns alternate from the round's first player")


State = DigitaloState


def new_game(options: JSON, players: int, seed: int) -> DigitaloState:
    if players != SEATS:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return DigitaloState(options, seed)


def replay(options: JSON, seed: int, actions: list[Action]) -> DigitaloState:
    return play_actions(new_game(options, SEATS, seed), actions)

