"""The numbers the machine's searches share: the packed cost, its lower bounds from
counting codes, and the budgets and limits on the searches' work.

A cost packs (rounds, tests) into one int, ``rounds * _BIG + tests``, so that costs compare
as ints; ``_unpack`` gives the pair back. The exact search is in
``engines.turing.machine_exact``, the heuristic in ``engines.turing.machine_heuristic``.
"""

from __future__ import annotations

from engines.turing.puzzle import MAX_TESTS_PER_ROUND

_BIG = 1 << 20  # more tests than any plan makes, so rounds dominate the packed cost
_INF = 1 << 62
# Work before the exact search gives up, in nodes of a small universe (a node costs about
# one more unit per 2,048 candidates, as the sets' bitmasks grow, and four times that past
# ``_DELEGATE_MAX``, where an exact search never finished in the benchmarks): about 1.2 s
# on the 2-core machine of 2026 that the benchmarks ran on.
NODE_BUDGET = 200_000
# What the heuristic may spend on exact searches of its smaller sets, each at most
# ``_SUBSEARCH_BUDGET``.
_HEURISTIC_EXACT_BUDGET = 100_000
_SUBSEARCH_BUDGET = 20_000
_DELEGATE_MAX = 4096  # candidates up to which a set gets an exact machine of its own
_SHORTLIST = 12  # proposals whose whole round the heuristic plays out
_SHORTLIST_LARGE = 4  # the same in a large relabelling-closed universe, whose rounds are many
# Work (proposals judged, weighted by set size as nodes are) after which the heuristic
# judges a proposal by its first test alone: a bound for pathological universes.
_HEURISTIC_WALL = 50_000
Score = tuple[int, int]


def _unpack(value: int) -> Score:
    return divmod(value, _BIG)


def _log2_ceil(count: int) -> int:
    return (count - 1).bit_length()


def _rounds_bound(count: int) -> int:
    """Lower bound of ``R`` for a set with ``count`` ≥ 2 codes."""
    tests = _log2_ceil(count)
    return _BIG * -(-tests // MAX_TESTS_PER_ROUND) + tests


def _within_bound(count: int, left: int) -> int:
    """Lower bound of ``T`` with ``left`` tests left this round: the deepest path of the
    tree has ``ceil(log2 count)`` tests, and those past ``left`` need new rounds. When that
    path's rounds are the most of any path, its tests are the cost's second part."""
    tests = _log2_ceil(count)
    extra = max(0, tests - left)
    return _BIG * -(-extra // MAX_TESTS_PER_ROUND) + tests
