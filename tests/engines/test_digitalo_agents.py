"""Digitalo's ladder of computer players (``engines/digitalo_agents.py``)."""

from __future__ import annotations

import random

import pytest

from engines import digitalo
from engines.base import Event
from engines.digitalo import DigitaloState, sort_cards
from engines.digitalo_agents import make_agent


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
    data = state.to_dict()
    other = 1 - seat
    unseen = data["hands"][other] + data["draw"]
    random.Random(seed).shuffle(unseen)
    size = len(data["hands"][other])
    data["hands"][other], data["draw"] = sort_cards(unseen[:size]), unseen[size:]
    return DigitaloState.from_dict(data)


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_every_level_reads_only_what_its_player_sees(level: str) -> None:
    differed = 0
    for game in range(6):
        state = digitalo.new_game({}, 2, game)
        rng = random.Random(game)
        for _ in range(6 + game):
            (seat,) = state.to_move()
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        (seat,) = state.to_move()
        other = redealt(state, seat, 5)
        differed += other.hands[1 - seat] != state.hands[1 - seat]
        choices = {make_agent(level, random.Random(2)).choose(s, seat) for s in (state, other)}
        assert len(choices) == 1
    assert differed >= 3


def test_the_levels_are_the_ladder() -> None:
    assert digitalo.LEVELS == ("easy", "medium", "strong")
    assert frozenset({"easy"}) == digitalo.QUICK_LEVELS
