"""bOOleO's ladder of computer players (``engines/booleo/agents.py``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engines import booleo
from engines.booleo import BooleoState
from engines.booleo import agents as booleo_agents
from engines.booleo.agents import BooleoAgent, make_agent
from engines.booleo.cards import deck_cards, sort_cards
from engines.booleo.notation import parse_move

SOUTH, NORTH = 0, 1
OPTIONS: dict[str, Any] = {"bits": 4, "extended": False, "inactive": False, "referee": True,
                           "max_turns": 200}


def position(start: list[int], south: dict[str, str], hands: tuple[list[str], list[str]],
             turn: int = SOUTH, phase: str = "play", claimant: int | None = None,
             north: dict[str, str] | None = None, **options: Any) -> BooleoState:
    """A position written out by hand; the cards not placed anywhere form the draw pile."""
    opts = {**OPTIONS, "bits": len(start), **options}
    north = north or {}
    used = (Counter(hands[0]) + Counter(hands[1]) + Counter(south.values())
            + Counter(north.values()))
    rest = sorted((Counter(deck_cards(False)) - used).elements())
    data = {
        "game": "booleo", "schema": 1, "options": opts, "seed": 7, "start": list(start),
        "nots": [0] * len(start), "hands": [sort_cards(hands[0]), sort_cards(hands[1])],
        "draw": rest, "discard": [], "pyramids": [south, north], "first": SOUTH, "turn": turn,
        "turns": 0, "phase": phase, "challenged": False, "claimant": claimant,
        "pending": None, "reshuffles": 0, "actions": [], "last_events": [], "outcome": None,
    }
    return BooleoState.from_dict(data)


# South reads 1 1 0 0 (slot bit 0); rows 1 and 2 are done and the top sees 1 and 1.
ALMOST = {"1.1": "AND1", "1.2": "OR1", "1.3": "AND0", "2.1": "AND1", "2.2": "OR1"}


def test_easy_completes_its_pyramid_when_it_can() -> None:
    state = position([1, 1, 0, 0], ALMOST, (["AND1", "XOR0", "OR1", "NOT", "OR0"], []))
    for seed in range(10):
        child = BooleoState.from_dict(state.to_dict())
        child.apply(SOUTH, make_agent("easy", random.Random(seed)).choose(child, SOUTH))
        outcome = child.outcome()
        assert outcome is not None and outcome.winners == (SOUTH,)


def test_easy_does_not_accept_a_claim_it_can_prove_wrong() -> None:
    # South claims with AND1 on top (AND(1, 1) is 1, but its slot bit is 0): North holds
    # the proof, so accepting would throw the game.
    claimed = {"1.1": "XOR1", "1.2": "XOR1", "1.3": "XOR1", "2.1": "AND0", "2.2": "AND0"}
    state = position([1, 0, 1, 0], claimed, (["AND1", "NOT", "XOR1", "OR0"],
                                              ["NOT", "AND1", "OR1", "OR0"]), referee=False)
    state.apply(SOUTH, "AND1 3.1")
    assert state.phase == "claim"
    for seed in range(10):
        action = make_agent("easy", random.Random(seed)).choose(state, NORTH)
        assert action.startswith("challenge"), action
        child = BooleoState.from_dict(state.to_dict())
        child.apply(NORTH, action)
        assert child.outcome() is None


def test_easy_never_completes_the_opponents_pyramid() -> None:
    # North reads 1 1 0 0 like South; its pyramid is full, but its top gives 1 and its slot
    # bit (not b1) is 0. A NOT on South's start card 1 turns that slot bit to 1 and leaves
    # every gate valid (1.3 is AND(0, x) = 0), so it hands North the game. South holds only
    # NOTs: no gate to build with, so easy chooses among the NOTs and the discard. (The
    # referee would not allow North's wrong top, so it is off.)
    north = {"1.1": "AND1", "1.2": "OR1", "1.3": "AND0", "2.1": "AND1", "2.2": "AND0",
             "3.1": "OR1"}
    state = position([1, 1, 0, 0], {}, (["NOT"] * 5, ["OR0", "OR0", "XOR0", "XOR0"]),
                     north=north, referee=False)
    assert "NOT 1" in state.legal_actions(SOUTH)
    chosen = {make_agent("easy", random.Random(seed)).choose(state, SOUTH)
              for seed in range(30)}
    assert "NOT 1" not in chosen and len(chosen) > 1, chosen


def test_easy_cancels_a_flip_that_costs_it_gates() -> None:
    # North flipped start card 2: South's AND1 on 1.1 (inputs 1 and 1) would lose its input.
    state = position([1, 1, 0, 0], {"1.1": "AND1"}, (["NOT", "OR0", "OR0", "XOR0", "XOR0"],
                                                     ["OR1", "OR1", "AND1", "AND1"]))
    state.turn = NORTH
    state.hands[NORTH].append("NOT")
    state.apply(NORTH, "NOT 3")
    assert state.view(SOUTH)["pending"]["would_remove"][SOUTH] == ["1.1"]
    cancel = f"NOT {state.view(SOUTH)['pending']['positions'][SOUTH]}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(booleo_agents, "EASY_PLANS", 1.0)
        for seed in range(10):
            assert make_agent("easy", random.Random(seed)).choose(state, SOUTH) == cancel


def test_easys_plan_builds_when_a_gate_fits() -> None:
    state = position([1, 1, 0, 0], {"1.1": "AND1"}, (["NOT", "OR0", "AND1", "XOR1", "OR1"],
                                                     []))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(booleo_agents, "EASY_PLANS", 1.0)
        for seed in range(10):
            move = parse_move(make_agent("easy", random.Random(seed)).choose(state, SOUTH))
            assert move.kind == "gate" and move.slot in {(1, 2), (1, 3)}, move


def midgame(seed: int, turns: int) -> BooleoState:
    state = booleo.new_game({}, 2, seed)
    players = [make_agent("strong", random.Random(seed)), make_agent("easy", random.Random(1))]
    while state.outcome() is None and state.turns < turns:
        (seat,) = state.to_move()
        state.apply(seat, players[seat].choose(state, seat))
    return state


def redealt(state: BooleoState, seat: int, seed: int) -> BooleoState:
    """The same position for ``seat``, with the cards it cannot see dealt differently."""
    data = state.to_dict()
    other = 1 - seat
    unseen = data["hands"][other] + data["draw"]
    random.Random(seed).shuffle(unseen)
    size = len(data["hands"][other])
    data["hands"][other], data["draw"] = sort_cards(unseen[:size]), unseen[size:]
    return BooleoState.from_dict(data)


@pytest.mark.parametrize("level", ["easy", "medium", "strong", "expert"])
def test_every_level_reads_only_what_its_player_sees(level: str) -> None:
    """The same view with the hidden cards dealt otherwise: the same choice, from the same
    seed (so also replayable)."""
    differed = 0
    for game in range(4):
        state = midgame(game, 8 + 2 * game)
        if state.outcome() is not None:
            continue
        (seat,) = state.to_move()
        other = redealt(state, seat, 99)
        differed += other.hands[1 - seat] != state.hands[1 - seat]
        choices = {make_agent(level, random.Random(3), samples=1).choose(s, seat)
                   for s in (state, other)}
        assert len(choices) == 1, choices
    assert differed >= 2


def test_expert_stops_within_its_budget() -> None:
    class Clock:
        now = 0.0

        def __call__(self) -> float:
            self.now += 0.15
            return self.now

    clock = Clock()
    state = midgame(2, 10)
    (seat,) = state.to_move()
    agent = BooleoAgent("expert", random.Random(1), budget_seconds=0.5, clock=clock)
    assert agent.choose(state, seat) in state.legal_actions(seat)
    # Read once at the start and once after each world: it stops at the first read past 90%
    # of the budget, so it overshoots by at most one world (here a world costs 0.15 s).
    spent = clock.now - 0.15
    assert agent.last_samples == 4 and 0.9 * 0.5 < spent <= 0.9 * 0.5 + 0.15 + 1e-9


def test_the_levels_are_the_ladder() -> None:
    assert booleo.LEVELS == ("easy", "medium", "strong", "expert")
    assert frozenset({"easy"}) == booleo.QUICK_LEVELS
