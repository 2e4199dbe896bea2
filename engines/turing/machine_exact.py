"""The machine's exact search: ``Machine``, worst-case optimal within a node budget.

The rules and the cost model are in ``engines.turing.machine``; here ``R`` and ``T`` are
searched. Sets of candidates are bitmasks, candidates sorted by code so that each code owns
one run of bits and counting codes is a handful of big-int operations. ``R`` and ``T`` are
fail-soft alpha-beta searches with memoised bounds; the root is found by null-window
searches upwards from its lower bound. What keeps them small:

* lower bounds from counting codes (``m`` codes need a path of ``ceil(log2 m)`` tests), and
  per proposal the relaxation of its round in which later rounds cost only that bound;
* fibers: candidates agreeing on every letter but one are told apart only by tests of
  that letter, one a round, so a fiber of ``f`` codes needs ``ceil(log2 f)`` rounds;
* proposals with the same splits are one, and one whose splits another has is dropped
  (found through the small ints of the options each proposal accepts per letter, and an
  index of the kept families' splits, rather than by comparing big sets pairwise);
* among proposals of equal bounds, the one whose round greedily leaves the fewest codes
  is tried first (``_rank``): finding a plan early spares refuting the proposals before it;
* when only a one-round plan could beat the bound, no later round is searched at all, and
  proposals accepting the same present options are judged once;
* nightmare candidates are closed under relabelling the letters, so sets equal up to
  relabelling share their memo entries and letters with equal options are one choice.

Sets and their tables (fibers, families, ``_rank``) are in ``engines.turing.machine_sets``;
the packed cost, its bounds from counting codes and the budgets in
``engines.turing.machine_costs``.

Budget. An exact search can take minutes on the largest extreme and nightmare sets, so
it counts its nodes and gives up past ``NODE_BUDGET`` (a count, not a time, so that every
computer scores a puzzle alike and a game replays exactly).

Ties between equally good choices go to the first found: letters before ending a round,
proposals in the order of their bounds, then of ``_rank`` (on sets of more than
``_RANK_ABOVE`` codes), then of their index.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from engines.turing.cards import CODE_INDEX, CODES, Code, code_text
from engines.turing.machine_costs import (
    _BIG,
    _DELEGATE_MAX,
    _INF,
    NODE_BUDGET,
    _rounds_bound,
    _within_bound,
)
from engines.turing.machine_sets import CandidateSets
from engines.turing.puzzle import LETTERS, MAX_TESTS_PER_ROUND, Candidate

_RELAX_ALL_BELOW = 17  # codes up to which a proposal's bound looks at its whole round
_RANK_ABOVE = 16  # codes above which proposals of equal bounds are ordered by _rank


@dataclass(frozen=True)
class Step:
    """The machine's next move: ``propose`` a code, ``test`` a letter, ``end_round``, or
    ``guess`` the code once every remaining candidate has it."""

    kind: str
    code: Code | None = None
    letter: int | None = None

    def text(self) -> str:
        if self.kind in ("propose", "guess") and self.code is not None:
            return f"{self.kind} {code_text(self.code)}"
        if self.kind == "test" and self.letter is not None:
            return f"test {LETTERS[self.letter]}"
        return self.kind


class SearchBudgetExceeded(Exception):
    """The exact search reached its node budget without an answer."""


class Machine(CandidateSets):
    """The search over one universe of candidates; its memo serves every later question
    about subsets of that universe (plans, play, ``next_step``). How a set travels with
    its letter options, and how relabelled sets share memo entries: ``CandidateSets``."""

    proven = True  # its values are exact; see HeuristicMachine

    def __init__(self, candidates: Sequence[Candidate], letters: int,
                 node_budget: int | None = NODE_BUDGET) -> None:
        super().__init__(candidates, letters)
        # Bounds of R per key: the lower, and the upper with a proposal reaching it.
        self._lower: dict[Hashable, int] = {}
        self._upper: dict[Hashable, tuple[int, int]] = {}
        self._option_cache: dict[Hashable, tuple[int, list[tuple[int, int]],
                                                 dict[int, tuple[int, int]]]] = {}
        self._within_memo: dict[tuple[Hashable, int, int], tuple[int, int]] = {}
        self.node_budget = node_budget
        self.width: int | None = None
        self.nodes = 0
        self._node_weight = (1 + self.count // 2048) * (4 if self.count > _DELEGATE_MAX else 1)

    def _spend(self) -> None:
        self.nodes += self._node_weight
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise SearchBudgetExceeded(f"the exact search passed {self.node_budget} nodes")

    # ------------------------------------------------------------------ search
    # Values follow fail-soft alpha-beta: a search with the window (alpha, beta) returns
    # the exact value when it lies inside, an upper bound ≤ alpha when the value is at most
    # alpha, and a lower bound ≥ beta when it is at least beta.

    def _options(self, s: int, key: Hashable, proposals: Sequence[int], beta: int
                 ) -> list[tuple[int, int]]:
        """The proposals worth making on ``s``: (lower bound of R through it, proposal),
        one per distinct family of splits, the most promising first. ``proposals`` covers
        every family on a superset of ``s``, so it covers every family on ``s``. Bounds of
        ``beta`` or more may be weaker than they could be."""
        cached = self._option_cache.get(key)
        if cached is not None:
            computed_below, found, ranks = cached
            if beta <= computed_below:
                return found
            # Bounds from a narrower search may be weak above where it stopped looking.
            found = [(bound if bound < computed_below else _BIG + self._relaxed(
                s, self._answers[proposal], MAX_TESTS_PER_ROUND, True, beta - _BIG),
                proposal) for bound, proposal in found]
        else:
            found = [(_BIG + self._relaxed(s, self._answers[proposal], MAX_TESTS_PER_ROUND,
                                           True, beta - _BIG), proposal)
                     for proposal in self._families(s, proposals)]
            ranks = {}
        # Among equal bounds, the proposal whose round looks best first: a plan is found
        # sooner, and each proposal tried before it costs a whole refutation. Only those
        # below ``beta`` may be tried, so only theirs are worth ranking.
        if self.code_count(s) > _RANK_ABOVE:
            for bound, proposal in found:
                if bound < beta and proposal not in ranks:
                    ranks[proposal] = self._rank(s, self._answers[proposal],
                                                 MAX_TESTS_PER_ROUND)
        found.sort(key=lambda item: (item[0], ranks.get(item[1], (0, 0)), item[1]))
        self._option_cache[key] = (beta, found, ranks)
        return found

    def _relaxed(self, s: int, row: tuple[int, ...], left: int, first: bool, beta: int,
                 depth: int | None = None) -> int:
        """A lower bound of ``T``: the same recursion with every later round replaced by
        the lower bound from counting codes, looking ``depth`` tests ahead (by default
        all of the round for a few codes, one test for many, where the full relaxation
        costs more than it prunes). Exact for that relaxation below ``beta``, otherwise
        some value from ``beta`` up to it."""
        count = self.code_count(s)
        bound = _within_bound(count, left)
        if bound >= beta:
            return bound
        self._spend()
        if depth is None:
            depth = left if count <= _RELAX_ALL_BELOW else 1
        if not depth:
            return bound
        best = _INF if first else _rounds_bound(count)
        if best <= bound or not left:
            return best
        seen: set[int] = set()
        for m in row:
            yes = m & s
            if not yes or yes == s or yes in seen:
                continue
            no = s ^ yes
            seen.add(yes)
            seen.add(no)
            limit = min(best, beta)
            worst = 0
            for part in (yes, no):
                if self.single(part):
                    continue
                value = self._relaxed(part, row, left - 1, False, limit - 1, depth - 1)
                worst = max(worst, value)
                if value >= limit - 1:
                    break
            best = min(best, 1 + worst)
            if best <= bound:
                break
        return best

    def rounds_value(self, s: int, options: tuple[int, ...], alpha: int = -1,
                     beta: int = _INF, proposals: Sequence[int] | None = None) -> int:
        """``R(s)``: the worst-case cost from the start of a round, within (alpha, beta)."""
        if self.single(s):
            return 0
        static = _rounds_bound(self.code_count(s))
        if static >= beta:
            return static
        key = self._key(s, options)
        low = self._lower.get(key)
        if low is None:
            low = self._lower[key] = self._fiber_floor(s, static)
        known = self._upper.get(key)
        high = known[0] if known is not None else _INF
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        self._spend()
        if proposals is None:
            proposals = self._proposals
        if beta <= 2 * _BIG:
            return self._one_round(s, options, key, low, high, alpha, beta)
        choices = self._options(s, key, proposals, beta)
        floor = max(low, choices[0][0])
        if floor >= beta:
            self._lower[key] = floor
            return floor
        alpha = max(alpha, floor - 1)
        beta = min(beta, high + 1)
        inherited = [proposal for _, proposal in choices]
        if self.width is not None and self.code_count(s) > 8:
            ranks = self._option_cache[key][2]
            top = sorted(choices, key=lambda c: (ranks[c[1]], c[1]))[:self.width]
            choices = sorted(top, key=lambda c: (c[0], ranks[c[1]], c[1]))
            floor = max(low, choices[0][0])
            if floor >= beta:
                self._lower[key] = floor
                return floor
            alpha = max(alpha, floor - 1)
        best = _INF
        best_proposal = -1
        for bound, proposal in choices:
            limit = min(best, beta)
            if bound >= limit:
                best = min(best, bound)
                break
            value = _BIG + self._within(s, options, proposal, self._answers[proposal],
                                        MAX_TESTS_PER_ROUND, True, alpha - _BIG,
                                        limit - _BIG, inherited)
            if value < best:
                best, best_proposal = value, proposal
                if best <= alpha or best <= floor:
                    break
        if best < beta and best < high:
            self._upper[key] = (best, best_proposal)
        if best > alpha:
            self._lower[key] = max(low, best)
        return best

    def _one_round(self, s: int, options: tuple[int, ...], key: Hashable, low: int,
                   high: int, alpha: int, beta: int) -> int:
        """``rounds_value`` when only a plan of one round can be below ``beta``: then no
        later round needs searching, only whether some proposal's tests separate the
        codes in time (``_finish``).

        A proposal acts on a letter through the options it accepts there, a small int,
        which many proposals share. A first test whose larger part alone needs too many
        more tests rules out every proposal making it, so only proposals with a
        promising first test are examined one by one."""
        options = self._present(s, self.root_options)
        limit = min(beta - _BIG, MAX_TESTS_PER_ROUND + 1)
        # After a first test, each part must fit in the tests then left.
        most = 1 << max(0, limit - 2)
        promising: dict[int, None] = {}
        counted: dict[tuple[int, int], bool] = {}
        for letter, allowed in enumerate(options):
            for pattern, proposals in self._patterns(allowed):
                # Relabelling-closed: letters with the same options split alike.
                place = allowed if self.symmetric else letter
                fits = counted.get((place, pattern))
                if fits is None:
                    yes = self._answers[proposals[0]][letter] & s
                    fits = counted[place, pattern] = limit >= 2 and \
                        self.code_count(yes) <= most and self.code_count(s ^ yes) <= most
                if fits:
                    promising.update(dict.fromkeys(proposals))
        best = _INF
        best_proposal = -1
        failed = limit  # what every proposal not examined needs at least
        # Proposals accepting the same present options at every letter test alike.
        signatures: set[tuple[int, ...]] = set()
        for proposal in sorted(promising):
            accepted = self._accept[proposal]
            signature = tuple(accepted & allowed for allowed in options)
            if signature in signatures:
                continue
            signatures.add(signature)
            bound = min(min(best, beta) - _BIG, MAX_TESTS_PER_ROUND + 1)
            tests = self._finish(s, self._answers[proposal], MAX_TESTS_PER_ROUND, bound)
            if tests < bound:
                best, best_proposal = _BIG + tests, proposal
                if best <= alpha or best <= low:
                    break
            else:
                failed = min(failed, tests)
        if best < beta:
            if best < high:
                self._upper[key] = (best, best_proposal)
            if best > alpha:
                self._lower[key] = max(low, best)
            return best
        if failed > MAX_TESTS_PER_ROUND:
            # No round separates the codes, so some path has a second round and a test in
            # each. Only that: the path with the most tests may end in the first round, and
            # a path of two rounds outweighs it whatever its tests.
            failed = 2 * _BIG + 2
        else:
            failed += _BIG
        self._lower[key] = max(low, failed)
        return self._lower[key]

    def _finish(self, s: int, row: tuple[int, ...], left: int, beta: int) -> int:
        """The fewest tests, in the worst case, that separate the codes of ``s`` with the
        letters of ``row`` and at most ``left`` tests; when that is ``beta`` or more (or
        impossible), any value from ``beta`` up."""
        need = (self.code_count(s) - 1).bit_length()
        if need > left or need >= beta:
            return max(need, beta)
        self._spend()
        best = beta
        for m in row:
            yes = m & s
            if not yes or yes == s:
                continue
            no = s ^ yes
            yes_count = self.code_count(yes)
            no_count = self.code_count(no)
            # The larger part alone needs this many more tests.
            if 1 + (max(yes_count, no_count) - 1).bit_length() >= best:
                continue
            limit = best - 1
            worst = 0
            for part, count in sorted(((yes, yes_count), (no, no_count)),
                                      key=lambda item: -item[1]):
                if count == 1:
                    continue
                value = self._finish(part, row, left - 1, limit)
                worst = max(worst, value)
                if value >= limit:
                    break
            if 1 + worst < best:
                best = 1 + worst
                if best <= need:
                    break
        return best

    def exact_rounds_value(self, s: int, options: tuple[int, ...]) -> int:
        """``R(s)`` exactly, by null-window searches upwards from the lower bound."""
        if self.single(s):
            return 0
        low = _rounds_bound(self.code_count(s))
        while True:
            value = self.rounds_value(s, options, low, low + 1)
            if value <= low:
                return value
            low = value

    def best_proposal(self, s: int, options: tuple[int, ...]) -> tuple[int, int]:
        """``R(s)`` for ``s`` with two codes or more, and the index of a proposal that
        achieves it."""
        value = self.rounds_value(s, options)
        known = self._upper[self._key(s, options)]
        if known[0] != value:  # pragma: no cover - the search stores what it returns
            raise AssertionError("the memo lost the best proposal")
        return value, known[1]

    def _within(self, s: int, options: tuple[int, ...], proposal: int, row: tuple[int, ...],
                left: int, first: bool, alpha: int, beta: int, proposals: Sequence[int],
                memo: bool = True) -> int:
        """``T(s, proposal, left, first)`` within (alpha, beta). ``row`` holds the round's
        proposal's ✅ sets per letter; letters tested this round split nothing in ``s``.
        ``proposals`` covers the families of splits of ``s``, for the rounds after."""
        bound = _within_bound(self.code_count(s), left)
        if bound >= beta:
            return bound
        if not memo:
            return self._within_search(s, options, proposal, row, left, first, alpha, beta,
                                       proposals, memo)
        key = (self._key(s, options), proposal, left + first * 4)
        low, high = self._within_memo.get(key, (bound, _INF))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha = max(alpha, low - 1)
        beta = min(beta, high + 1)
        best = self._within_search(s, options, proposal, row, left, first, alpha, beta,
                                   proposals, memo)
        if best < beta:
            high = min(high, best)
        if best > alpha:
            low = max(low, best)
        self._within_memo[key] = (low, high)
        return best

    def _within_search(self, s: int, options: tuple[int, ...], proposal: int,
                       row: tuple[int, ...], left: int, first: bool, alpha: int, beta: int,
                       proposals: Sequence[int], memo: bool) -> int:
        self._spend()
        bound = _within_bound(self.code_count(s), left)
        best = _INF
        for split_bound, _, parts in self._splits(s, options, proposal, row, left):
            limit = min(best, beta)
            if split_bound >= limit:
                best = min(best, split_bound)
                break
            # The worse of the two answers counts; once one part reaches the limit the
            # other cannot help, and the second only matters above the first.
            low, high = alpha - 1, limit - 1
            worst = 0
            for part, part_options in parts:
                value = self._within(part, part_options, proposal, row, left - 1, False, low,
                                     high, proposals, memo)
                worst = max(worst, value)
                if value >= high:
                    break
                low = max(low, value)
            best = min(best, 1 + worst)
            if best <= alpha or best <= bound:
                return best
        if not first:
            best = min(best, self.rounds_value(s, options, alpha, min(best, beta), proposals))
        return best

    def _splits(self, s: int, options: tuple[int, ...], proposal: int, row: tuple[int, ...],
                left: int) -> list[tuple[int, int, tuple[tuple[int, tuple[int, ...]], ...]]]:
        """The distinct tests of ``s``, when one is left: (lower bound of making it, its
        letter, its parts with two codes or more and their options, the likelier worse
        part first). Letters with equal options in a relabelling-closed universe are one
        test up to relabelling."""
        if not left:
            return []
        found: list[tuple[int, int, int, tuple[tuple[int, tuple[int, ...]], ...]]] = []
        seen: set[int] = set()
        seen_options: set[int] = set()
        accepted = self._accept[proposal]
        symmetric = self.symmetric
        code_count = self.code_count
        for letter, m in enumerate(row):
            yes = m & s
            if not yes or yes == s or yes in seen:
                continue
            no = s ^ yes
            if symmetric:
                here = options[letter]
                if here in seen_options:
                    continue
                seen_options.add(here)
                yes_options = (*options[:letter], here & accepted, *options[letter + 1:])
                no_options = (*options[:letter], here & ~accepted, *options[letter + 1:])
            else:
                # Only relabelling-closed machines key on options; others keep them as
                # they came, which costs nothing.
                yes_options = no_options = options
            seen.add(yes)
            seen.add(no)
            yes_count = code_count(yes)
            no_count = code_count(no)
            if yes_count < no_count:
                yes, no, yes_count, no_count = no, yes, no_count, yes_count
                yes_options, no_options = no_options, yes_options
            if yes_count == 1:
                found.append((1, 1, letter, ()))
                continue
            parts: tuple[tuple[int, tuple[int, ...]], ...] = (
                ((yes, yes_options), (no, no_options)) if no_count > 1
                else ((yes, yes_options),))
            found.append((1 + _within_bound(yes_count, left - 1), yes_count, letter, parts))
        found.sort(key=lambda item: item[:2])
        return [(split_bound, letter, parts) for split_bound, _, letter, parts in found]

    def within_value(self, s: int, options: tuple[int, ...], proposal: int,
                     row: tuple[int, ...], left: int, first: bool, memo: bool = True) -> int:
        """``T`` exactly."""
        if self.single(s):
            return 0
        return self._within(s, options, proposal, row, left, first, -1, _INF,
                            self._proposals, memo)

    def decide(self, s: int, options: tuple[int, ...], proposal: int, row: tuple[int, ...],
               left: int, first: bool, target: int | None = None, memo: bool = True
               ) -> tuple[int, int | None]:
        """The value of ``T`` and the choice achieving it: a letter, or None to end the
        round. ``target`` is the value when the caller already knows it."""
        if target is None:
            target = self.within_value(s, options, proposal, row, left, first, memo)
        if left:
            for letter, m in enumerate(row):
                yes = m & s
                if not yes or yes == s:
                    continue
                worst = 0
                for answer in (True, False):
                    part, part_options = self.test(s, options, proposal, letter, answer)
                    if not self.single(part):
                        worst = max(worst, self._within(
                            part, part_options, proposal, row, left - 1, False, target - 2,
                            target, self._proposals, memo))
                if 1 + worst == target:
                    return target, letter
        if not first and self.rounds_value(s, options, target - 1, target + 1) == target:
            return target, None
        raise AssertionError("no choice reaches the machine's own value")  # pragma: no cover

    def child_value(self, s: int, options: tuple[int, ...], proposal: int,
                    row: tuple[int, ...], left: int, target: int, memo: bool = True) -> int:
        """``T`` of a part after a test, knowing it is below ``target``."""
        if self.single(s):
            return 0
        return self._within(s, options, proposal, row, left, False, -1, target,
                            self._proposals, memo)

    # What play and ``next_step`` ask, step by step along one path. The exact search
    # follows its values: a round's proposal comes with the round's value, its target.
    def round_start(self, s: int, options: tuple[int, ...]) -> tuple[int, int]:
        """The proposal opening a round on ``s`` (two codes or more), and the target its
        steps follow: what the round may still cost."""
        value, proposal = self.best_proposal(s, options)
        return proposal, value - _BIG

    def step_letter(self, s: int, options: tuple[int, ...], proposal: int,
                    row: tuple[int, ...], left: int, first: bool, target: int | None,
                    memo: bool = True) -> int | None:
        """The letter to test next, or None to end the round."""
        return self.decide(s, options, proposal, row, left, first, target, memo)[1]

    def step_target(self, s: int, options: tuple[int, ...], proposal: int,
                    row: tuple[int, ...], left: int, target: int) -> int:
        """The target after a test answered, leaving ``s`` and ``left`` tests."""
        return self.child_value(s, options, proposal, row, left, target)

    # ------------------------------------------------------------------ questions
    def next_step(self, remaining: Sequence[Candidate], proposal: Code | None = None,
                  tested: Sequence[int] = (), tests_left: int | None = None) -> Step:
        """What the machine does now, given the candidates still possible, the round's
        proposal (None before it is chosen), the letters tested with it this round, and
        the tests left this round (``3 - len(tested)`` unless a handicap says fewer)."""
        s = self.subset(remaining)
        if not s:
            raise ValueError("no candidate remains: the answers contradict each other")
        if self.symmetric and not self.reachable(s):
            raise ValueError("these candidates are not what tests leave of the machine's "
                             "universe; use next_step(), which starts a machine for them")
        if self.single(s):
            return Step("guess", code=self.code(s))
        options = self.options_of(s)
        if proposal is None:
            return Step("propose", code=CODES[self.round_start(s, options)[0]])
        left = MAX_TESTS_PER_ROUND - len(tested) if tests_left is None else tests_left
        first = not tested
        if left <= 0:
            return Step("end_round")
        index = CODE_INDEX[proposal]
        row = self.row(index, tested)
        if all(not m & s or m & s == s for m in row):
            if first:
                # A round needs a test before it may end; this proposal learns nothing.
                untested = [v for v in range(self.letters) if v not in tested]
                return Step("test", letter=untested[0])
            return Step("end_round")
        # Letters tested this round split nothing in a consistent ``remaining``; if they
        # still do, the row differs from the proposal's and must not share its memo.
        memo = all(not self._answers[index][v] & s or self._answers[index][v] & s == s
                   for v in tested)
        choice = self.step_letter(s, options, index, row, left, first, None, memo)
        return Step("end_round") if choice is None else Step("test", letter=choice)
