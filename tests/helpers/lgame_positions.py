"""L-game positions for tests, reached by seeded random play through the engine."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engines import lgame
from engines.lgame import LGameState


def random_states(sudden_death: bool, count: int, seed: int,
                  max_plies: int = 40) -> Iterator[LGameState]:
    """``count`` running games after 0 to ``max_plies - 1`` random moves from the start."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        state = lgame.new_game({"sudden_death": sudden_death}, 2, rng.getrandbits(32))
        for _ in range(rng.randrange(0, max_plies)):
            if state.outcome() is not None:
                break
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
        if state.outcome() is None:
            produced += 1
            yield state
