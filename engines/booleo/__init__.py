"""bOOleO, the card game of logic-gate pyramids (J. Brandt and C. Kampf, Tessera Games, 2009).

Specification: ``shared/rules/booleo.md`` (seed ``000_3fb50170c07fb1f1.txt``). Two players:
seat 0 is South, seat 1 is North. The pyramid's geometry, the gate cards and their lessons,
activity and the cascade are shared with Digitalo in ``engines/cards/pyramid.py``; the slot bit, the
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

from engines.base import JSON, Action, GameInfo, InvalidMove, play_actions
from engines.booleo.cards import SEATS
from engines.booleo.rules import LEVELS, NAME, OPTIONS
from engines.booleo.state import BooleoState, State

ALIASES = ("boole", "pyramid")
TITLE = "bOOleO"
# Levels whose move takes a millisecond or so (a random legal move): the bot plays them
# on its event loop, where handing them to a worker process would cost more than the move
# (``benchmarks/quick_levels.py`` prints their timings).
QUICK_LEVELS = frozenset({"easy"})
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, quick_levels=QUICK_LEVELS,
                hidden_information=True, agents="engines.booleo.agents",
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
    "BooleoState",
    "State",
    "new_game",
    "replay",
]


def new_game(options: JSON, players: int, seed: int) -> BooleoState:
    if players != SEATS:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return BooleoState(options, seed)


def replay(options: JSON, seed: int, actions: list[Action]) -> BooleoState:
    return play_actions(new_game(options, SEATS, seed), actions)
