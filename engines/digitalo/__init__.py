"""Digitalo, the card game of logic-gate pyramids from inf-schule.de, played as a match.

Specification: ``shared/rules/digitalo.md`` (seed ``001_90130ba1dbeb3309.txt``). Two players:
seat 0 is South, seat 1 is North. The pyramid, the gate cards, their lessons, activity and the
cascade are bOOleO's too and live in ``engines/cards/pyramid.py``; the inverter, its counter, the
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

from engines.base import JSON, Action, GameInfo, InvalidMove, play_actions
from engines.digitalo.cards import SEATS
from engines.digitalo.rules import LEVELS, NAME, OPTIONS
from engines.digitalo.state import DigitaloState, State

ALIASES = ("digital", "digi")
TITLE = "Digitalo"
# Levels whose move takes a millisecond or so (a random legal move): the bot plays them
# on its event loop, where handing them to a worker process would cost more than the move
# (``benchmarks/quick_levels.py`` prints their timings).
QUICK_LEVELS = frozenset({"easy"})
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                hidden_information=True, agents="engines.digitalo.agents",
                beginner_options="danger=on")

# The game as the registry and the bot see it (``engines.base.GameModule``). Everything
# else is imported from the module it lives in: ``cards``, ``notation``, ``rules``,
# ``state``, ``menu``, ``views``, ``serial``, ``agents``.
__all__ = [
    "ALIASES",
    "INFO",
    "LEVELS",
    "NAME",
    "OPTIONS",
    "QUICK_LEVELS",
    "TITLE",
    "DigitaloState",
    "State",
    "new_game",
    "replay",
]


def new_game(options: JSON, players: int, seed: int) -> DigitaloState:
    if players != SEATS:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return DigitaloState(options, seed)


def replay(options: JSON, seed: int, actions: list[Action]) -> DigitaloState:
    return play_actions(new_game(options, SEATS, seed), actions)
