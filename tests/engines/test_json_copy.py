"""``engines.json_copy.copy_json``, and the states that use it instead of ``copy.deepcopy``:
what a view or ``to_dict`` hands out is the caller's own, and a state never shares its
parts with the dict it was loaded from."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engines import booleo, digitalo, rithmomachia
from engines.base import GameModule, GameState, Message
from engines.json_copy import copy_json
from tests.helpers.engine_checks import random_playout

NESTED: dict[str, Any] = {
    "events": [{"type": "moved", "cells": ["a1", "b2"], "detail": {"taken": [1, 2]}}],
    "pair": (1, [2, 3]),
    "label": Message("test.key", "take {count}", count=2),
    "flags": [True, None, 1.5],
}


def test_a_copy_equals_the_original_and_shares_nothing_mutable() -> None:
    copied = copy_json(NESTED)
    assert copied == NESTED == copy.deepcopy(NESTED)
    assert type(copied["pair"]) is tuple
    copied["events"][0]["cells"].append("c3")
    copied["events"][0]["detail"]["taken"].clear()
    copied["pair"][1].append(4)
    assert NESTED["events"][0] == {"type": "moved", "cells": ["a1", "b2"],
                                   "detail": {"taken": [1, 2]}}
    assert NESTED["pair"] == (1, [2, 3])


def test_a_message_keeps_its_key_and_params() -> None:
    label = copy_json(NESTED)["label"]
    assert isinstance(label, Message) and label == "take 2"
    assert (label.key, label.default, label.params) == ("test.key", "take {count}", {"count": 2})


def test_other_types_are_still_copied_deeply() -> None:
    original = {"seen": {1, 2}}
    copied = copy_json(original)
    copied["seen"].add(3)
    assert original == {"seen": {1, 2}}


def vandalise(data: Any) -> None:
    """Change every list and dict inside ``data`` in place, except the outcome: its
    ``detail`` is shared by ``engines.base.Outcome`` itself (``to_dict`` and
    ``from_dict``), which no engine copies in its views."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key != "outcome":
                vandalise(value)
        data["vandal"] = True
    elif isinstance(data, list):
        for value in data:
            vandalise(value)
        data.append("vandal")


# Games long enough to have events, round results, a last move and, for some, an outcome.
@pytest.mark.parametrize("module", [booleo, digitalo, rithmomachia],
                         ids=["booleo", "digitalo", "rithmomachia"])
@pytest.mark.parametrize("seed", range(6))
def test_what_a_state_hands_out_or_loads_from_is_not_shared(module: GameModule,
                                                            seed: int) -> None:
    state = random_playout(module, {}, seed, 40 + 30 * seed)
    saved = json.dumps(state.to_dict(), sort_keys=True)
    views = [json.dumps(state.view(seat), sort_keys=True) for seat in (None, 0, 1)]
    vandalise(state.to_dict())
    for seat in (None, 0, 1):
        vandalise(state.view(seat))
    loaded_from = state.to_dict()
    loaded: GameState = module.State.from_dict(loaded_from)
    vandalise(loaded_from)
    for after in (state, loaded):
        assert json.dumps(after.to_dict(), sort_keys=True) == saved
        assert [json.dumps(after.view(seat), sort_keys=True) for seat in (None, 0, 1)] == views
