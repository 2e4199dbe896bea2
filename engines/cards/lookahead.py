"""The determinised lookahead behind the card games' ``expert`` players (bOOleO, Digitalo).

The player cannot see some cards (the opponent's hand, the draw pile, in Digitalo also the
discard pile under its top card), but the cards in sight tell which cards those are as a
whole and how many lie in each place. So the lookahead deals them again at random (a
*world*), plays each candidate action in it with the opponent answering as the game's
``strong`` player would, scores what follows with ``strong``'s evaluation, and picks the
candidate with the best total over the worlds. Each game supplies the pieces: its
candidates, its way of dealing a world, its scoring; the loop and the budget live here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from engines.base import Action, GameState

Clock = Callable[[], float]
State = TypeVar("State", bound=GameState)

# The time an ``expert`` may take per decision as the bot plays it, and the share of it the
# sampling may spend (the rest covers the decision's set-up and one world's overshoot).
BUDGET_SECONDS = 2.0
SPEND = 0.9


@dataclass(frozen=True)
class SampleBudget:
    """At most ``samples`` worlds, and with ``seconds`` also a clock: sampling stops at the
    first world that ends past ``SPEND`` of it. ``seconds=None`` makes the choice depend on
    the random generator alone (tests, the ladder's fast matches)."""

    samples: int
    seconds: float | None = BUDGET_SECONDS
    clock: Clock = field(default=time.perf_counter)


def shortlist(scored: Iterable[tuple[float, Action]], count: int) -> list[Action]:
    """The ``count`` best-scored actions, best first; actions scored ``-inf`` (ones the
    planner would never play) are left out."""
    ranked = sorted(scored, reverse=True)
    return [action for score, action in ranked[:count] if score > float("-inf")]


def best_over_worlds(candidates: Sequence[Action], deal_world: Callable[[], State],
                     value: Callable[[State, Action], float],
                     budget: SampleBudget) -> tuple[Action, int]:
    """The candidate whose values summed over sampled worlds are highest, and how many
    worlds were sampled. Every candidate meets the same worlds, so the luck of a deal
    favours none of them; a tie goes to the earlier candidate (the planner's order)."""
    deadline = None if budget.seconds is None else budget.clock() + SPEND * budget.seconds
    totals = dict.fromkeys(candidates, 0.0)
    worlds = 0
    while worlds < budget.samples:
        world = deal_world()
        for action in candidates:
            totals[action] += value(world, action)
        worlds += 1
        if deadline is not None and budget.clock() > deadline:
            break
    top = max(totals.values())
    return next(a for a in candidates if totals[a] == top), worlds


def deal(cards: Iterable[str], sizes: Sequence[int], rng: random.Random) -> list[list[str]]:
    """``cards`` shuffled and dealt into piles of ``sizes``. They are sorted before the
    shuffle, so the piles depend on the cards as a whole and on ``rng``, never on the order
    in which they came (the hidden places they were taken from)."""
    shuffled = sorted(cards)
    rng.shuffle(shuffled)
    assert sum(sizes) == len(shuffled)
    piles, start = [], 0
    for size in sizes:
        piles.append(shuffled[start:start + size])
        start += size
    return piles


def played_out(world: State, player: int, action: Action,
               reply: Callable[[State, int], Action],
               settled: Callable[[State], bool], most: int) -> State:
    """A copy of ``world`` after ``player``'s ``action`` and the replies that follow, by
    whoever is to move, until the game ends, ``settled`` holds, or ``most`` replies were
    made."""
    child = type(world).from_dict(world.to_dict())
    child.apply(player, action)
    for _ in range(most):
        if child.outcome() is not None or settled(child):
            break
        (seat,) = child.to_move()
        child.apply(seat, reply(child, seat))
    return child
