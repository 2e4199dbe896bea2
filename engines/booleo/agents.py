"""Computer players for bOOleO (``engines/booleo/__init__.py``): a ladder a learner can climb.

Every level reads only what its player sees: ``view(seat)`` and its own legal actions, never
the other hand or the order of the draw pile.

* ``easy``, a beginner: on most turns (``EASY_PLANS``) a beginner's plan (cancel a flip that
  costs it more gates than the opponent, else put a gate on an empty slot, else throw away a
  gate card and keep its NOTs), otherwise a random legal action; in either case it completes
  its own pyramid when it can, never plays an action that completes the opponent's (a NOT
  that turns their slot bit, say), and challenges a claimed pyramid it can prove wrong
  instead of accepting it.
* ``strong`` (``Planner``): scores each legal action one move ahead: progress weighted
  towards completion, robustness against every possible flip, open slots, the top gate's
  reachability and the hand's value; it challenges provably invalid gates, never bluffs.
* ``medium``: ``strong``, except that a share ``MEDIUM_SLIPS`` of its actions are ``easy``'s.
* ``expert``: a determinised lookahead. It takes ``strong``'s best few actions and plays each
  in sampled worlds: the cards it cannot see (the opponent's hand and the draw pile together,
  a multiset every player can work out from the cards in sight) dealt again at random; in
  each world both seats then play as ``strong`` would until its own ``LOOKAHEAD_TURNS``-th
  turn from here, and that position is scored by ``strong``'s best action. It samples worlds
  until its budget (``BUDGET_SECONDS``, 2 s) is 90% spent or ``samples`` worlds are done,
  whichever comes first. The sampling loop is ``engines/cards/lookahead.py``'s, shared with
  Digitalo.
"""

from __future__ import annotations

import random
import time

from engines.base import JSON, Action, Agent, GameState, NotYourTurn, check_level
from engines.booleo.cards import (
    BASIC_GATES,
    EXTENDED_GATES,
    NOT_CARD,
    complete_and_valid,
    flip_dirty,
    gate_fits,
    is_invalid,
    parse_slot_name,
    resolve_flip,
    settle,
    slot_name,
    sort_cards,
)
from engines.booleo.notation import parse_move
from engines.booleo.rules import LEVELS
from engines.booleo.state import BooleoState
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
    GATE_FUNCTIONS,
    Pyramid,
    Slot,
    fed_slots,
    gate_of,
    input_values,
    open_slots,
    output_of,
    position_of,
    pyramid_size,
    pyramid_slots,
    reading,
)

# The planner's values of pyramids already seen, by seat, start row and gates.
PyramidValues = dict[tuple[int, tuple[int, ...], frozenset[tuple[Slot, str]]], float]
# One branch of what an action leads to: its weight, both pyramids, the start row, the hand.
Outcome_ = tuple[float, list[Pyramid], list[int], list[str]]

# How many of ``strong``'s best actions ``expert`` weighs (its time: ``BUDGET_SECONDS``).
CANDIDATES = 6
# The most worlds ``expert`` samples per decision (its budget usually ends it first), and
# the count the ladder's fast matches use instead of the clock (``benchmarks/ladder.py``).
MAX_SAMPLES = 400
FAST_SAMPLES = 12
# How many of its own turns ahead ``expert`` scores a candidate: 1 is the turn right after
# the opponent's answer; 2 also plays its own next action and the opponent's second answer.
LOOKAHEAD_TURNS = 2
# What a won or lost game is worth on the planner's scale (a complete pyramid is 10 000).
DECIDED = 100_000.0
# The share of ``easy``'s actions that follow a beginner's plan (``beginners_plan``); the
# rest are random legal actions.
EASY_PLANS = 0.85


class Planner:
    """The strong agent's evaluation of a position seen by ``view["seat"]``: every level
    above ``easy`` builds on it, and ``easy`` uses it to see what an action leads to."""

    CANCEL_CHANCE = 0.3

    def __init__(self, view: JSON, legal: list[Action], rng: random.Random,
                 values: PyramidValues | None = None) -> None:
        self.n = int(view["bits"])
        self.me = int(view["seat"])
        self.opp = 1 - self.me
        self.inactive = bool(view["options"]["inactive"])
        gates = BASIC_GATES + (EXTENDED_GATES if view["options"]["extended"] else ())
        self.cards = [f"{g}{o}" for g in gates for o in (0, 1)]
        self.bits = list(view["start_row"])
        self.hand = list(view["hand"])
        self.phase = str(view["phase"])
        self.legal = legal
        self.rng = rng
        self.pyramids = [{parse_slot_name(g["slot"]): str(g["card"]) for g in p}
                         for p in view["pyramids"]]
        self.pending = None if view["pending"] is None else int(view["pending"]["card"])
        self.resolved = [dict(p) for p in self.pyramids]
        if self.pending is not None:
            resolve_flip(self.resolved, self.bits, self.n, self.pending, self.inactive)
        self.total = pyramid_size(self.n)
        # A pyramid's value depends on the game's options and the start row alone, not on
        # whose view this is, so ``expert`` shares one table among all its planners.
        self._values: PyramidValues = {} if values is None else values

    def best(self) -> Action:
        forced = self.forced()
        if forced is not None:
            return forced
        challenges = {a for a in self.legal if a.startswith("challenge")}
        scored = [(self.score(a), a) for a in self.legal if a not in challenges]
        top = max(score for score, _ in scored)
        return self.rng.choice([a for score, a in scored if score >= top - 1e-9])

    def forced(self) -> Action | None:
        """The strong player's rule for claims and challenges: in a claim, challenge a
        provably invalid gate or accept; otherwise challenge the provably invalid gate whose
        removal costs the opponent most, when challenges are allowed."""
        if self.phase == "claim":
            return self.invalid_claim_challenge() or "accept"
        challenges = {a for a in self.legal if a.startswith("challenge")}
        if challenges:
            bad = [(removed, slot) for removed, slot in self._invalid_targets(self.resolved)
                   if f"challenge {slot_name(slot)}" in challenges]
            if bad:
                return f"challenge {slot_name(max(bad)[1])}"
        return None

    def _invalid_targets(self, pyramids: list[Pyramid]) -> list[tuple[int, Slot]]:
        """The opponent's provably invalid gates, most gates lost by their removal first."""
        pyramid, row = pyramids[self.opp], reading(self.bits, self.opp)
        found = []
        for slot in list(pyramid):
            if is_invalid(pyramid, row, self.n, slot):
                trial = dict(pyramid)
                del trial[slot]
                found.append((1 + len(settle(trial, row, self.n, fed_slots(self.n, slot),
                                             self.inactive)), slot))
        return sorted(found, reverse=True)

    def outcomes(self, action: Action) -> list[Outcome_] | None:
        """What ``action`` leads to, as seen from here: (weight, pyramids, bits, hand) per
        branch (a flip is cancelled by the opponent with ``CANCEL_CHANCE``); ``None`` for a
        gate that does not fit (this planner never bluffs)."""
        move = parse_move(action)
        hand = list(self.hand)
        if move.kind in ("discard", "gate"):
            hand.remove(move.card)
        elif move.kind == "not":
            hand.remove(NOT_CARD)
        if move.kind == "not":
            card = position_of(self.n, self.me, move.pos)
            bits = list(self.bits)
            bits[card - 1] ^= 1
            if self.pending == card:  # cancel: back to the position before the flip
                return [(1.0, self.pyramids, bits, hand)]
            flipped = [dict(p) for p in self.resolved]
            resolve_flip(flipped, bits, self.n, card, self.inactive)
            return [(self.CANCEL_CHANCE, self.resolved, self.bits, hand),
                    (1 - self.CANCEL_CHANCE, flipped, bits, hand)]
        if move.kind != "gate":
            return [(1.0, self.resolved, self.bits, hand)]
        pyramids = [dict(p) for p in self.resolved]
        mine, row = pyramids[self.me], reading(self.bits, self.me)
        if self._blind(mine, row, move.slot, move.card):
            return None
        old = mine.get(move.slot)
        mine[move.slot] = move.card
        if old is None or output_of(old) != output_of(move.card):
            settle(mine, row, self.n, fed_slots(self.n, move.slot), self.inactive)
        return [(1.0, pyramids, self.bits, hand)]

    def score(self, action: Action) -> float:
        branches = self.outcomes(action)
        if branches is None:
            return float("-inf")
        return sum(weight * self._evaluate(pyramids, bits, hand)
                   for weight, pyramids, bits, hand in branches)

    def completes(self, action: Action, seat: int) -> bool:
        """Whether ``seat``'s pyramid is complete and valid in the branch where nobody
        cancels: for the opponent's seat, an action that throws the game; for one's own,
        one that wins it."""
        branches = self.outcomes(action)
        if branches is None:
            return False
        _, pyramids, bits, _ = branches[-1]
        return complete_and_valid(pyramids[seat], reading(bits, seat), self.n)

    def invalid_claim_challenge(self) -> Action | None:
        """In a claim: the challenge of a provably invalid gate, if there is one."""
        bad = self._invalid_targets(self.pyramids)
        return f"challenge {slot_name(bad[0][1])}" if bad else None

    def best_score(self) -> float:
        """The best evaluation among the legal actions that are not challenges."""
        scores = [self.score(a) for a in self.legal if not a.startswith("challenge")]
        return max(scores) if scores else self._evaluate(self.resolved, self.bits, self.hand)

    def _blind(self, pyramid: Pyramid, row: list[int], slot: Slot, card: str) -> bool:
        """True when the card does not fit (the strong agent never bluffs)."""
        a, b = input_values(pyramid, row, slot)
        return a is None or b is None or not gate_fits(card, a, b, slot == (self.n - 1, 1),
                                                       row[-1])

    def _evaluate(self, pyramids: list[Pyramid], bits: list[int], hand: list[str]) -> float:
        mine = self._value(pyramids[self.me], self.me, bits)
        theirs = self._value(pyramids[self.opp], self.opp, bits)
        return mine - 0.9 * theirs + self._hand_value(pyramids[self.me], bits, hand)

    def _progress(self, count: int) -> float:
        return 10.0 * count * (1 + count / self.total)

    def _value(self, pyramid: Pyramid, seat: int, bits: list[int]) -> float:
        key = (seat, tuple(bits), frozenset(pyramid.items()))
        cached = self._values.get(key)
        if cached is not None:
            return cached
        n, row = self.n, reading(bits, seat)
        count = len(pyramid)
        if complete_and_valid(pyramid, row, n):
            value = 10_000.0
        else:
            value = self._progress(count)
            losses = []
            for card in range(1, n + 1):
                flipped = list(bits)
                flipped[card - 1] ^= 1
                trial = dict(pyramid)
                lost = len(settle(trial, reading(flipped, seat), n, flip_dirty(n, seat, card),
                                  self.inactive))
                losses.append(value - self._progress(count - lost))
            value -= 0.35 * sum(losses) / n + 0.15 * max(losses)
            value += 1.5 * len(open_slots(pyramid, n))
            if row[-1] not in self._reachable(pyramid, row):
                value -= 25.0
        self._values[key] = value
        return value

    def _reachable(self, pyramid: Pyramid, row: list[int]) -> set[int]:
        """The outputs the top can still take with the gates in place kept: the seed's "think
        ahead" (AND, OR and XOR cannot make a 1 out of two 0s)."""
        n = self.n
        outputs: dict[Slot, set[int]] = {}
        for slot in pyramid_slots(n):
            if slot in pyramid:
                outputs[slot] = {output_of(pyramid[slot])}
                continue
            r, i = slot
            left = {row[i - 1]} if r == 1 else outputs[(r - 1, i)]
            right = {row[i]} if r == 1 else outputs[(r - 1, i + 1)]
            outputs[slot] = {GATE_FUNCTIONS[gate_of(c)](a, b) for c in self.cards
                             for a in left for b in right}
        return outputs[(n - 1, 1)]

    def _hand_value(self, pyramid: Pyramid, bits: list[int], hand: list[str]) -> float:
        row = reading(bits, self.me)
        ready = open_slots(pyramid, self.n)
        value = 0.0
        nots = hand.count(NOT_CARD)
        value += (0.0, 6.0, 9.0, 10.0, 10.5, 11.0)[min(nots, 5)]
        seen: set[str] = set()
        for card in hand:
            if card == NOT_CARD:
                continue
            fits = any(not self._blind(pyramid, row, s, card) for s in ready)
            value += (3.0 if fits else 1.0) * (0.4 if card in seen else 1.0)
            if gate_of(card) in ("OR", "AND", "NAND", "NOR"):
                value += 0.3
            seen.add(card)
        return value


def sensible_action(state: BooleoState, player: int, rng: random.Random) -> Action:
    """``easy``'s action (see the module docstring). Only a pyramid one gate from complete
    can be completed by the next action, and a gate never adds to the opponent's pyramid, so
    the planner is consulted only near the end: elsewhere this is the beginner's plan or a
    random action, cheap enough for the event loop (``benchmarks/quick_levels.py``)."""
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    view = state.view(player)
    total = pyramid_size(int(view["bits"]))
    plans = rng.random() < EASY_PLANS
    if view["phase"] != "claim" and all(len(p) < total - 1 for p in view["pyramids"]):
        return (beginners_plan(state, player, legal, rng) if plans else None) or rng.choice(legal)
    planner = Planner(view, legal, rng)
    if planner.phase == "claim":
        return planner.invalid_claim_challenge() or "accept"
    playable = [a for a in legal if not a.startswith("challenge")]
    winning = [a for a in playable if planner.completes(a, planner.me)]
    if winning:
        return rng.choice(winning)
    safe = [a for a in playable if not planner.completes(a, planner.opp)] or legal
    return (beginners_plan(state, player, safe, rng) if plans else None) or rng.choice(safe)


def beginners_plan(state: BooleoState, player: int, actions: list[Action],
                   rng: random.Random) -> Action | None:
    """What a beginner who knows the rules does, among ``actions``: cancel a pending flip that
    costs it more gates than the opponent, else put a gate on an empty slot, else throw
    away a gate card (it keeps its NOTs); ``None`` if none of these is among ``actions``."""
    pending = state.view(player)["pending"]
    if pending is not None:
        removes = pending["would_remove"]
        cancel = f"NOT {pending['positions'][player]}"
        if len(removes[player]) > len(removes[1 - player]) and cancel in actions:
            return cancel
    builds = building_actions(state, player, actions)
    if builds:
        return rng.choice(builds)
    discards = [a for a in actions if a.startswith("discard") and not a.endswith(NOT_CARD)]
    return rng.choice(discards) if discards else None


def building_actions(state: BooleoState, player: int, actions: list[Action]) -> list[Action]:
    """The ``actions`` that put a gate on an empty slot of ``player``'s pyramid (as it stands
    once a pending flip is resolved, which both players see)."""
    pyramid = state.resolved_pyramids()[0][player]
    return [a for a in actions
            if (move := parse_move(a)).kind == "gate" and move.slot not in pyramid]


class BooleoAgent(Agent):
    """The ladder's levels (see the module docstring). ``samples`` caps ``expert``'s sampled
    worlds and ``budget_seconds`` its time (``None``: the samples alone, deterministic)."""

    # The share of ``medium``'s actions that are ``easy``'s.
    MEDIUM_SLIPS = 0.65

    def __init__(self, level: str, rng: random.Random, samples: int = MAX_SAMPLES,
                 budget_seconds: float | None = BUDGET_SECONDS,
                 clock: Clock = time.perf_counter) -> None:
        super().__init__(level, rng)
        self.samples = samples
        self.budget_seconds = budget_seconds
        self.clock = clock
        self.last_samples = 0

    def choose(self, state: GameState, player: int) -> Action:
        assert isinstance(state, BooleoState)
        if state.outcome() is not None or state.to_move() != [player]:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        if self.level == "easy" or (self.level == "medium"
                                    and self.rng.random() < self.MEDIUM_SLIPS):
            return sensible_action(state, player, self.rng)
        if self.level != "expert":
            return Planner(state.view(player), legal, self.rng).best()
        # One table of pyramid values for the whole decision: the sampled worlds share most
        # of their pyramids, and a value never depends on who looks.
        values: PyramidValues = {}
        return self._look_ahead(state, player, Planner(state.view(player), legal, self.rng,
                                                       values), values)

    def _look_ahead(self, state: BooleoState, player: int, planner: Planner,
                    values: PyramidValues) -> Action:
        forced = planner.forced()
        if forced is not None:
            return forced
        candidates = shortlist(((planner.score(a), a) for a in planner.legal
                                if not a.startswith("challenge")), CANDIDATES)
        if len(candidates) <= 1:
            return planner.best()
        budget = SampleBudget(self.samples, self.budget_seconds, self.clock)
        action, self.last_samples = best_over_worlds(
            candidates, lambda: sampled_world(state, player, self.rng),
            lambda world, action: self._value(world, player, action, values), budget)
        return action

    def _value(self, world: BooleoState, player: int, action: Action,
               values: PyramidValues) -> float:
        """``action`` played in ``world``, then both seats as ``strong`` would play them
        until ``player``'s ``LOOKAHEAD_TURNS``-th turn from here, which ``player``'s planner
        scores by its best action."""
        turns_seen = 0

        def settled(child: BooleoState) -> bool:
            nonlocal turns_seen
            turns_seen += child.to_move() == [player]
            return turns_seen >= LOOKAHEAD_TURNS

        def strong_action(child: BooleoState, seat: int) -> Action:
            legal = child.legal_actions(seat)
            if len(legal) == 1:
                return legal[0]
            return Planner(child.view(seat), legal, self.rng, values).best()

        child = played_out(world, player, action, strong_action, settled,
                           most=4 * LOOKAHEAD_TURNS)
        outcome = child.outcome()
        if outcome is not None:
            if outcome.is_draw:
                return 0.0
            return DECIDED if player in outcome.winners else -DECIDED
        legal = child.legal_actions(player) if child.to_move() == [player] else []
        return Planner(child.view(player), legal, self.rng, values).best_score()


def sampled_world(state: BooleoState, player: int, rng: random.Random) -> BooleoState:
    """A copy of ``state`` in which the cards ``player`` cannot see are dealt again: the
    opponent's hand and the draw pile are shuffled together and split at their sizes (only
    their union and sizes are used, which the cards in sight determine), and the seed that
    orders later reshuffles is drawn afresh."""
    data = state.to_dict()
    other = 1 - player
    hidden = data["hands"][other], data["draw"]
    hand, draw = deal([*hidden[0], *hidden[1]], [len(pile) for pile in hidden], rng)
    data["hands"][other], data["draw"] = sort_cards(hand), draw
    data["seed"] = rng.getrandbits(31)
    return BooleoState.from_dict(data)


def make_agent(level: str, rng: random.Random, samples: int | None = None) -> BooleoAgent:
    """A player at ``level`` as the bot makes it; with ``samples``, ``expert`` samples that
    many worlds with no clock at all (deterministic: tests and the ladder's fast matches)."""
    check_level(level, LEVELS)
    if samples is None:
        return BooleoAgent(level, rng)
    return BooleoAgent(level, rng, samples=samples, budget_seconds=None)
