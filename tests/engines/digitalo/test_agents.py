"""Digitalo's ladder of computer players (``engines/digitalo/agents.py``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import digitalo
from engines.base import Event
from engines.digitalo import DigitaloState
from engines.digitalo.agents import DigitaloAgent, make_agent, sampled_world
from engines.digitalo.cards import INVERTER, sort_cards


def completes(events: list[Event], seat: int) -> bool:
    """Whether these events tell that ``seat`` completed its pyramid."""
    return any((e["type"] == "last_move" and e.get("completer") == seat)
               or (e["type"] == "round_over" and e.get("reason") == "complete")
               for e in events)


def test_easy_completes_its_pyramid_whenever_a_gate_does() -> None:
    """Seeded games of ``easy`` against ``strong``: wherever one of easy's gates would
    complete its pyramid, its choice does."""
    chances = 0
    for seed in range(4):
        state = digitalo.new_game({"bits": 4}, 2, seed)
        players = [make_agent("easy", random.Random(seed)), make_agent("strong",
                                                                        random.Random(seed))]
        while state.outcome() is None and state.round < 3:
            (seat,) = state.to_move()
            if seat == 0 and state.phase == "play":
                finishing = [a for a in state.legal_actions(seat)
                             if completes(DigitaloState.from_dict(state.to_dict())
                                          .apply(seat, a), seat)]
                if finishing:
                    chances += 1
                    choice = players[0].choose(state, seat)
                    assert choice in finishing
            state.apply(seat, players[seat].choose(state, seat))
    assert chances >= 2


def test_easy_counters_a_flip_that_breaks_its_completed_pyramid() -> None:
    """In the answer phase (its completed pyramid hit by the last move's inverter) ``easy``
    counters when it can and the flip breaks the pyramid."""
    answered = 0
    for seed in range(40):
        state = digitalo.new_game({"bits": 4}, 2, seed)
        players = [make_agent("strong", random.Random(seed)), make_agent("strong",
                                                                          random.Random(7))]
        while state.outcome() is None and state.round < 4:
            (seat,) = state.to_move()
            if state.phase == "answer" and "counter" in state.legal_actions(seat):
                accepted = DigitaloState.from_dict(state.to_dict())
                if not completes(accepted.apply(seat, "accept"), seat):
                    answered += 1
                    choice = make_agent("easy", random.Random(seed)).choose(state, seat)
                    assert choice == "counter"
            state.apply(seat, players[seat].choose(state, seat))
        if answered:
            break
    assert answered >= 1


def redealt(state: DigitaloState, seat: int, seed: int) -> DigitaloState:
    """The same position for ``seat`` with the cards it cannot see dealt otherwise: the
    opponent's hand, the draw pile and the discard pile under its top card. The discards'
    inverters stay there (the view counts them); their gates trade places with the others."""
    data = state.to_dict()
    rng = random.Random(seed)
    other = 1 - seat
    hand, draw, under = data["hands"][other], data["draw"], data["discard"][:-1]
    gates = [c for c in hand + draw + under if c != INVERTER]
    rng.shuffle(gates)
    gates_under = len(under) - under.count(INVERTER)
    elsewhere = gates[gates_under:] + [c for c in hand + draw if c == INVERTER]
    rng.shuffle(elsewhere)
    data["hands"][other] = sort_cards(elsewhere[:len(hand)])
    data["draw"] = elsewhere[len(hand):]
    data["discard"] = (gates[:gates_under] + [INVERTER] * under.count(INVERTER)
                       + data["discard"][-1:])
    return DigitaloState.from_dict(data)


def played(game: int, plies: int) -> DigitaloState:
    state = digitalo.new_game({}, 2, game)
    rng = random.Random(game)
    for _ in range(plies):
        (seat,) = state.to_move()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("level", ["easy", "medium", "strong", "expert"])
def test_every_level_reads_only_what_its_player_sees(level: str) -> None:
    """The same view with the hidden cards dealt otherwise: the same choice, from the same
    seed (so also replayable)."""
    differed = 0
    for game in range(6):
        state = played(game, 6 + 3 * game)
        (seat,) = state.to_move()
        other = redealt(state, seat, 5)
        assert other.view(seat) == state.view(seat)
        differed += other.hands[1 - seat] != state.hands[1 - seat]
        choices = {make_agent(level, random.Random(2), samples=2).choose(s, seat)
                   for s in (state, other)}
        assert len(choices) == 1
    assert differed >= 3


def all_cards(data: dict[str, Any]) -> list[str]:
    return sorted([*data["hands"][0], *data["hands"][1], *data["draw"], *data["discard"]])


def test_a_sampled_world_looks_the_same_to_the_player() -> None:
    """``expert``'s worlds change only what its player cannot see, and keep every card."""
    changed = 0
    for game in range(6):
        state = played(game, 10 + 4 * game)
        (seat,) = state.to_move()
        world = sampled_world(state, seat, random.Random(game))
        assert world.view(seat) == state.view(seat)
        before, after = state.to_dict(), world.to_dict()
        assert all_cards(before) == all_cards(after)
        changed += (before["hands"][1 - seat], before["draw"]) != (after["hands"][1 - seat],
                                                                   after["draw"])
    assert changed >= 5


def test_expert_stops_within_its_budget() -> None:
    class Clock:
        now = 0.0

        def __call__(self) -> float:
            self.now += 0.15
            return self.now

    clock = Clock()
    state = played(3, 12)
    while len(state.legal_actions(state.to_move()[0])) < 3 or state.phase != "play":
        (seat,) = state.to_move()
        state.apply(seat, state.legal_actions(seat)[0])
    (seat,) = state.to_move()
    agent = DigitaloAgent("expert", random.Random(1), budget_seconds=0.5, clock=clock)
    assert agent.choose(state, seat) in state.legal_actions(seat)
    # Read once at the start and once after each world: it stops at the first read past 90%
    # of the budget, so it overshoots by at most one world (here a world costs 0.15 s).
    spent = clock.now - 0.15
    assert agent.last_samples == 4 and 0.9 * 0.5 < spent <= 0.9 * 0.5 + 0.15 + 1e-9


def test_expert_completes_its_pyramid_whenever_a_gate_does() -> None:
    """Seeded games of ``expert`` against ``strong``: wherever one of its gates would
    complete its pyramid and end the round in its favour, its choice does (sampled worlds
    can only agree: the round's points are the same in all of them)."""
    chances = 0
    for seed in range(3):
        state = digitalo.new_game({"bits": 4}, 2, seed)
        players = [make_agent("expert", random.Random(seed), samples=2),
                   make_agent("strong", random.Random(seed))]
        while state.outcome() is None and state.round < 3:
            (seat,) = state.to_move()
            if seat == 0 and state.phase == "play" and state.moves[1] >= state.moves[0] + 1:
                finishing = [a for a in state.legal_actions(seat)
                             if completes(DigitaloState.from_dict(state.to_dict())
                                          .apply(seat, a), seat)]
                if finishing:
                    chances += 1
                    assert players[0].choose(state, seat) in finishing
            state.apply(seat, players[seat].choose(state, seat))
    assert chances >= 1


def test_the_levels_are_the_ladder() -> None:
    assert digitalo.LEVELS == ("easy", "medium", "strong", "expert")
    assert frozenset({"easy"}) == digitalo.QUICK_LEVELS
