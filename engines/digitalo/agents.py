"""Computer players for Digitalo (``engines/digitalo/__init__.py``): a ladder a learner can climb.

Every level reads only what its player sees: ``view(seat)`` and its own legal actions, never
the other hand, the draw pile or the discards under the top card.

* ``easy``, a beginner: a random action in play, but it completes its pyramid when a gate
  does, and at the decisive moments it does not throw the round away: it counters a flip
  that breaks its completed pyramid, and its last move concedes as few points as it can
  (``strong``'s rules for those two moments).
* ``strong`` (``Planner``): plans one move ahead in play (progress weighted towards
  completion, robustness against every flip the opponent could make, with the odds that
  they hold an inverter to counter, open positions, the hand, an inverter kept for the
  ending); its last move takes a draw when it can, else whatever costs fewest points, or an
  inverter that breaks the completed pyramid when the round going on is worth more; as the
  completer it counters a flip that breaks its pyramid and accepts any other.
* ``medium``: ``strong``, except that a share ``MEDIUM_SLIPS`` of its actions in play are
  ``easy``'s.
* ``expert``: a determinised lookahead (``engines/cards/lookahead.py``, as bOOleO's) in play:
  ``strong``'s best few actions, each played in sampled worlds where the cards it cannot
  see are dealt again (the opponent's hand, the draw pile and the discard pile under its top
  card: their cards as a whole, their sizes and the inverters among the discards follow
  from what is in sight); the game then goes on as ``strong`` would play it, both seats,
  until it is its turn in play again or the round is over, and is scored by ``strong``'s
  best next action or the round's points. It samples until 90% of its 2 s are spent
  (``BUDGET_SECONDS``) or ``samples`` worlds are done. In the ending it plays as ``strong``.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from engines.base import JSON, Action, Agent, GameState, NotYourTurn, check_level
from engines.cards.lookahead import (
    BUDGET_SECONDS,
    Clock,
    SampleBudget,
    best_over_worlds,
    deal,
    played_out,
    shortlist,
)
from engines.cards.pyramid import (
    Pyramid,
    Slot,
    bit_slots,
    fed_slots,
    fits_inputs,
    gate_gives,
    inactive_gates,
    input_values,
    open_slots,
    position_of,
    pyramid_size,
    reading,
    settle,
)
from engines.digitalo.cards import INVERTER, complete, deck_cards, resolve_flip, slot_at, sort_cards
from engines.digitalo.notation import parse_move
from engines.digitalo.rules import LEVELS
from engines.digitalo.state import DigitaloState

# How many of ``strong``'s best actions ``expert`` weighs, the most worlds it samples per
# decision (its 2 s usually end it first), and the count the ladder's fast matches use
# instead of the clock (``benchmarks/ladder.py``).
CANDIDATES = 6
MAX_SAMPLES = 400
FAST_SAMPLES = 8
# What a won or lost match is worth on the planner's scale (a won round is 1 000 and more).
DECIDED = 100_000.0
# The most actions a sampled game goes on after ``expert``'s: the opponent's answer and an
# ending's last move, answer and counter fit easily.
MOST_REPLIES = 8


class Planner:
    """The strong agent's evaluation of a position seen by ``view["seat"]``; ``easy`` uses
    its rules for the decisive moments and ``medium`` all of it most of the time."""

    COMPLETE = 1000.0

    def __init__(self, view: JSON, legal: list[Action], rng: random.Random) -> None:
        self.n = int(view["bits"])
        self.size = pyramid_size(self.n)
        self.me = int(view["seat"])
        self.opp = 1 - self.me
        self.bits = list(view["bit_row"])
        self.hand = list(view["hand"])
        self.phase = str(view["phase"])
        self.legal = legal
        self.rng = rng
        self.pyramids: list[Pyramid] = [
            {slot_at(self.n, int(g["position"])): str(g["card"]) for g in p}
            for p in view["pyramids"]]
        pending = view["pending"]
        self.pending = None if pending is None else int(pending["bit"])
        self.resolved = [dict(p) for p in self.pyramids]
        if self.pending is not None:
            resolve_flip(self.resolved, self.bits, self.n, self.pending)
        self.flips = bool(view["options"]["inverters"])
        self.p_inverter = self._chance_of_inverter(view)
        self.unseen = self._unseen_gates(view)
        self._values: dict[tuple[int, tuple[int, ...], frozenset[tuple[Slot, str]]], float] = {}

    def _chance_of_inverter(self, view: JSON) -> float:
        """The chance that the opponent holds an inverter, from the inverters not yet seen:
        all of them but those on the discard pile and in my hand, spread over the opponent's
        hand and the draw pile."""
        unseen = max(0, int(view["inverters"]) - int(view["inverters_seen"])
                     - self.hand.count(INVERTER))
        held = int(view["hand_sizes"][self.opp])
        pool = held + int(view["draw_pile"])
        if unseen == 0 or held == 0:
            return 0.0
        none = 1.0
        for i in range(held):
            none *= max(0, pool - unseen - i) / max(1, pool - i)
        return 1.0 - none

    def _unseen_gates(self, view: JSON) -> Counter[str]:
        """The gate cards I cannot see (in the other hand, the draw and the discard pile)."""
        unseen = Counter(card for card in deck_cards(view["options"]) if card != INVERTER)
        unseen.subtract(card for card in self.hand if card != INVERTER)
        for pyramid in self.pyramids:
            unseen.subtract(pyramid.values())
        return +unseen

    def best(self) -> Action:
        if self.phase == "answer":
            return self.answer()
        if self.phase == "last move":
            scored = [(self._last_move(a), a) for a in self.legal]
        else:
            scored = [(self.score(a), a) for a in self.legal]
        top = max(score for score, _ in scored)
        return self.rng.choice([a for score, a in scored if score >= top - 1e-9])

    def best_score(self) -> float:
        """The position's worth in play: the score of my best action, or of the position as
        it stands when I have none to weigh."""
        if not self.legal:
            return self._evaluate(self.resolved, self.bits, self.hand)
        return max(self.score(a) for a in self.legal)

    # -- the equal-moves ending --
    def _flipped(self, pos: int) -> tuple[list[int], list[Pyramid]]:
        """Bits and (resolved) pyramids after my inverter on my bit card ``pos``."""
        bit = position_of(self.n, self.me, pos)
        bits = list(self.bits)
        bits[bit - 1] ^= 1
        pyramids = [dict(p) for p in self.resolved]
        resolve_flip(pyramids, bits, self.n, bit)
        return bits, pyramids

    def answer(self) -> Action:
        if "counter" in self.legal and not complete(self.resolved[self.me], self.n):
            return "counter"
        return "accept"

    def _missing(self, pyramid: Pyramid) -> int:
        """What the opponent would score on this pyramid: empty and inactive positions."""
        return self.size - len(pyramid) + len(inactive_gates(pyramid, self.n))

    def _last_move(self, action: Action) -> float:
        """Points I keep (negative: points I concede) after my last move."""
        move = parse_move(action)
        mine = self.resolved[self.me]
        if move.kind == "gate":
            trial = dict(mine)
            slot = slot_at(self.n, move.pos)
            trial[slot] = move.card
            settle(trial, reading(self.bits, self.me), self.n, fed_slots(self.n, slot),
                   inactive=True, judge=fits_inputs)
            return 0.0 if complete(trial, self.n) else -float(self._missing(trial))
        if move.kind != "inverter":
            return -float(self._missing(mine))
        _, pyramids = self._flipped(move.pos)
        if complete(pyramids[self.opp], self.n):
            return -float(self._missing(pyramids[self.me]))
        redo = 0.5 - self._missing(mine)  # countered: another last move, one card fresher
        mine_left, theirs_left = self._missing(pyramids[self.me]), self._missing(pyramids[self.opp])
        race = 1.0 / (1.0 + 2.0 ** (mine_left - theirs_left - 1))
        going_on = race * max(1.0, 0.6 * theirs_left) - (1 - race) * max(1.0, 0.6 * mine_left)
        return self.p_inverter * redo + (1 - self.p_inverter) * going_on

    def completes_mine(self, action: Action) -> bool:
        """Whether ``action`` (in play) completes my pyramid."""
        move = parse_move(action)
        if move.kind != "gate":
            return False
        trial = dict(self.resolved[self.me])
        slot = slot_at(self.n, move.pos)
        trial[slot] = move.card
        settle(trial, reading(self.bits, self.me), self.n, fed_slots(self.n, slot),
               inactive=True, judge=fits_inputs)
        return complete(trial, self.n)

    # -- ordinary play --
    def score(self, action: Action) -> float:
        """What ``action`` in ordinary play leads to, on the planner's scale."""
        move = parse_move(action)
        hand = list(self.hand)
        if move.kind in ("inverter", "counter"):
            hand.remove(INVERTER)
        elif move.kind in ("gate", "discard"):
            hand.remove(move.card)
        if move.kind == "counter":
            return self._evaluate(self.pyramids, self._unflipped(), hand)
        if move.kind == "inverter":
            bits, pyramids = self._flipped(move.pos)
            flipped = self._evaluate(pyramids, bits, hand)
            kept = self._evaluate(self.resolved, self.bits, hand)
            if flipped <= kept:  # the opponent would not counter a flip that helps them
                return flipped
            return self.p_inverter * kept + (1 - self.p_inverter) * flipped
        if move.kind != "gate":
            return self._evaluate(self.resolved, self.bits, hand)
        pyramids = [dict(p) for p in self.resolved]
        mine = pyramids[self.me]
        slot = slot_at(self.n, move.pos)
        mine[slot] = move.card
        settle(mine, reading(self.bits, self.me), self.n, fed_slots(self.n, slot),
               inactive=True, judge=fits_inputs)
        if complete(mine, self.n):
            return self.COMPLETE + 10.0 * self._missing(pyramids[self.opp])
        return self._evaluate(pyramids, self.bits, hand)

    def _unflipped(self) -> list[int]:
        bits = list(self.bits)
        if self.pending is not None:
            bits[self.pending - 1] ^= 1
        return bits

    def _evaluate(self, pyramids: list[Pyramid], bits: list[int], hand: list[str]) -> float:
        mine = self._value(pyramids[self.me], self.me, bits, self.p_inverter)
        theirs = self._value(pyramids[self.opp], self.opp, bits, 0.5)
        return mine - 0.9 * theirs + self._hand_value(pyramids, bits, hand)

    def _progress(self, pyramid: Pyramid) -> float:
        inactive = len(inactive_gates(pyramid, self.n))
        active = len(pyramid) - inactive
        return 10.0 * active * (1 + active / self.size) + 3.0 * inactive

    def _value(self, pyramid: Pyramid, seat: int, bits: list[int], threat: float) -> float:
        """Progress, less what flips would cost (weighted by the chance of a flip), plus the
        positions open for a gate."""
        key = (seat, tuple(bits), frozenset(pyramid.items()))
        cached = self._values.get(key)
        if cached is not None:
            return cached
        n = self.n
        value = self._progress(pyramid)
        losses = []
        for bit in range(1, n + 1):
            flipped = list(bits)
            flipped[bit - 1] ^= 1
            trial = dict(pyramid)
            settle(trial, reading(flipped, seat), n, bit_slots(n, position_of(n, seat, bit)),
                   inactive=True, judge=fits_inputs)
            losses.append(value - self._progress(trial))
        weight = max(threat, 0.25) if self.flips else 0.0
        value -= weight * (0.6 * sum(losses) / n + 0.4 * max(losses))
        value += 1.5 * len(open_slots(pyramid, n))
        self._values[key] = value
        return value

    def _hand_value(self, pyramids: list[Pyramid], bits: list[int], hand: list[str]) -> float:
        mine = pyramids[self.me]
        row = reading(bits, self.me)
        ready = open_slots(mine, self.n)
        value = 0.0
        seen: set[str] = set()
        stuck = True
        for card in hand:
            if card == INVERTER:
                continue
            fits = any(gate_gives(card, *self._inputs(mine, row, s)) for s in ready)
            stuck = stuck and not fits
            value += (3.0 if fits else 1.0) * (0.4 if card in seen else 1.0)
            seen.add(card)
        if stuck and ready:  # nothing to place next turn unless the draw fits
            fitting = sum(count for card, count in self.unseen.items()
                          if any(gate_gives(card, *self._inputs(mine, row, s)) for s in ready))
            value -= 8.0 * (1 - fitting / max(1, self.unseen.total()))
        inverters = hand.count(INVERTER)
        if inverters:
            ending = min(self._missing(mine), self._missing(pyramids[self.opp])) <= 2
            value += 4.0 + (8.0 if ending else 0.0) + 1.5 * (inverters - 1)
        return value

    @staticmethod
    def _inputs(pyramid: Pyramid, row: list[int], slot: Slot) -> tuple[int, int]:
        a, b = input_values(pyramid, row, slot)
        assert a is not None and b is not None
        return a, b


def sensible_action(state: DigitaloState, player: int, rng: random.Random) -> Action:
    """``easy``'s action (see the module docstring). In play only a pyramid one gate from
    complete can be completed, so the planner is consulted only then and at the decisive
    moments: elsewhere this is a random action, cheap enough for the event loop."""
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    view = state.view(player)
    size = pyramid_size(int(view["bits"]))
    if view["phase"] == "play" and len(view["pyramids"][player]) < size - 1:
        return rng.choice(legal)
    planner = Planner(view, legal, rng)
    if planner.phase != "play":
        return planner.best()
    completing = [a for a in legal if planner.completes_mine(a)]
    return rng.choice(completing or legal)


class DigitaloAgent(Agent):
    """The ladder's levels (see the module docstring). ``samples`` caps ``expert``'s sampled
    worlds and ``budget_seconds`` its time (``None``: the samples alone, deterministic)."""

    # The share of ``medium``'s actions that are ``easy``'s.
    MEDIUM_SLIPS = 0.35

    def __init__(self, level: str, rng: random.Random, samples: int = MAX_SAMPLES,
                 budget_seconds: float | None = BUDGET_SECONDS,
                 clock: Clock = time.perf_counter) -> None:
        super().__init__(level, rng)
        self.budget = SampleBudget(samples, budget_seconds, clock)
        self.last_samples = 0

    def choose(self, state: GameState, player: int) -> Action:
        assert isinstance(state, DigitaloState)
        if state.outcome() is not None or state.to_move() != [player]:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        if self.level == "easy" or (self.level == "medium"
                                    and self.rng.random() < self.MEDIUM_SLIPS):
            return sensible_action(state, player, self.rng)
        planner = Planner(state.view(player), legal, self.rng)
        if self.level != "expert" or planner.phase != "play":
            return planner.best()
        return self._look_ahead(state, player, planner)

    def _look_ahead(self, state: DigitaloState, player: int, planner: Planner) -> Action:
        candidates = shortlist(((planner.score(a), a) for a in planner.legal), CANDIDATES)
        if len(candidates) <= 1:
            return planner.best()
        action, self.last_samples = best_over_worlds(
            candidates, lambda: sampled_world(state, player, self.rng),
            lambda world, action: self._value(world, player, action), self.budget)
        return action

    def _value(self, world: DigitaloState, player: int, action: Action) -> float:
        """``action`` played in ``world`` and the game gone on as ``strong`` plays it, until
        ``player`` is to act in play again (scored by its planner's best action) or the
        round is over (scored by its points, on the planner's scale)."""
        round_ = world.round

        def settled(child: DigitaloState) -> bool:
            return child.round != round_ or (child.to_move() == [player]
                                             and child.phase == "play")

        child = played_out(world, player, action, self._strong_reply, settled, MOST_REPLIES)
        outcome = child.outcome()
        if outcome is not None:
            if outcome.is_draw:
                return 0.0
            return DECIDED if player in outcome.winners else -DECIDED
        if child.round != round_:
            result = child.round_results[-1]
            if result["winner"] is None:
                return 0.0
            won = Planner.COMPLETE + 10.0 * int(result["points"])
            return won if result["winner"] == player else -won
        legal = child.legal_actions(player) if child.to_move() == [player] else []
        return Planner(child.view(player), legal, self.rng).best_score()

    def _strong_reply(self, state: DigitaloState, seat: int) -> Action:
        return DigitaloAgent("strong", self.rng).choose(state, seat)


def sampled_world(state: DigitaloState, player: int, rng: random.Random) -> DigitaloState:
    """A copy of ``state`` in which the cards ``player`` cannot see are dealt again: the
    opponent's hand, the draw pile and the discard pile under its top card, at their sizes,
    with as many inverters among those discards as lie there (the view counts them). The
    seed that deals later rounds and orders reshuffles is drawn afresh."""
    data = state.to_dict()
    other = 1 - player
    hand, draw, discard = data["hands"][other], data["draw"], data["discard"]
    under, top = discard[:-1], discard[-1:]
    hidden = [*hand, *draw, *under]
    inverters_under = under.count(INVERTER)
    inverters_elsewhere = hidden.count(INVERTER) - inverters_under
    gates = [card for card in hidden if card != INVERTER]
    gates_under, gates_elsewhere = deal(gates, [len(under) - inverters_under,
                                                len(gates) - len(under) + inverters_under], rng)
    new_hand, new_draw = deal([*gates_elsewhere, *[INVERTER] * inverters_elsewhere],
                              [len(hand), len(draw)], rng)
    data["hands"][other] = sort_cards(new_hand)
    data["draw"] = new_draw
    data["discard"] = [*gates_under, *[INVERTER] * inverters_under, *top]
    data["seed"] = rng.getrandbits(31)
    return DigitaloState.from_dict(data)


def make_agent(level: str, rng: random.Random, samples: int | None = None) -> DigitaloAgent:
    """A player at ``level`` as the bot makes it; with ``samples``, ``expert`` samples that
    many worlds with no clock at all (deterministic: tests and the ladder's fast matches)."""
    check_level(level, LEVELS)
    if samples is None:
        return DigitaloAgent(level, rng)
    return DigitaloAgent(level, rng, samples=samples, budget_seconds=None)
