"""Every error a player can cause (``GameError`` and each subclass in ``engines``) survives
pickling with its key, text and parameters: the computer's moves and the puzzle searches
run in worker processes, and a refusal raised there comes back pickled. One that could not
be rebuilt broke the whole worker pool (issue 40, defect 1: a mistyped puzzle code)."""

from __future__ import annotations

import copy
import importlib
import multiprocessing
import pickle
import pkgutil
from concurrent.futures import ProcessPoolExecutor

import pytest

import engines
from engines.base import GameError, IllegalMove, InvalidMove, NotYourTurn


def _every_game_error() -> list[type[GameError]]:
    """GameError and every subclass of it, after importing every module of ``engines``
    (a subclass defined in a module nobody imported yet would be missed)."""
    for module in pkgutil.walk_packages(engines.__path__, "engines."):
        importlib.import_module(module.name)
    found: list[type[GameError]] = []
    waiting: list[type[GameError]] = [GameError]
    while waiting:
        kind = waiting.pop()
        if kind not in found:
            found.append(kind)
            waiting.extend(kind.__subclasses__())
    return sorted(found, key=lambda kind: f"{kind.__module__}.{kind.__qualname__}")


def _refusal(kind: type[GameError]) -> GameError:
    return kind("test.refused", "{piece} cannot go to {square} ({n} tries)", piece="L",
                square="b2", n=3)


def _same(copied: GameError, original: GameError) -> None:
    assert type(copied) is type(original)
    assert copied.key == original.key
    assert copied.default == original.default
    assert copied.params == original.params
    assert str(copied) == str(original) and repr(copied) == repr(original)
    assert copied.args == original.args
    assert copied.render("{square}, {n}") == original.render("{square}, {n}")


def test_the_walk_finds_the_known_errors() -> None:
    assert {GameError, InvalidMove, IllegalMove, NotYourTurn} <= set(_every_game_error())


@pytest.mark.parametrize("kind", _every_game_error(), ids=lambda kind: kind.__name__)
def test_every_game_error_round_trips_through_pickle(kind: type[GameError]) -> None:
    refusal = _refusal(kind)
    assert str(refusal) == "L cannot go to b2 (3 tries)"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        _same(pickle.loads(pickle.dumps(refusal, protocol)), refusal)
    _same(copy.deepcopy(refusal), refusal)


def test_what_was_set_on_an_error_after_it_was_made_travels_too() -> None:
    refusal = _refusal(IllegalMove)
    refusal.args = ("a text of its own",)
    refusal.add_note("raised in a worker")
    copied = pickle.loads(pickle.dumps(refusal))
    _same(copied, refusal)
    assert copied.args == ("a text of its own",) and str(copied) == "a text of its own"
    assert copied.__notes__ == ["raised in a worker"]


def _refuse_in_a_worker(kind: type[GameError]) -> None:
    raise _refusal(kind)


def test_a_refusal_raised_in_a_worker_process_reaches_the_caller_whole() -> None:
    # spawn, as the bot's worker pool starts its processes (bot/limits.py).
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        with pytest.raises(IllegalMove) as caught:
            pool.submit(_refuse_in_a_worker, IllegalMove).result(timeout=60)
        _same(caught.value, _refusal(IllegalMove))
        # The pool still works: the refusal did not break it.
        assert pool.submit(str, 7).result(timeout=60) == "7"
