"""The machine's fallback past the exact search's budget: ``HeuristicMachine``.

It answers the same questions as ``Machine`` by a policy instead of the full minimax;
see the class for the policy, and ``engines.turing.machine`` for where it is used.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from engines.turing.machine_exact import (
    _BIG,
    _DELEGATE_MAX,
    _HEURISTIC_EXACT_BUDGET,
    _HEURISTIC_WALL,
    _INF,
    _SHORTLIST,
    _SHORTLIST_LARGE,
    _SUBSEARCH_BUDGET,
    Machine,
    SearchBudgetExceeded,
)
from engines.turing.puzzle import MAX_TESTS_PER_ROUND

_Found = TypeVar("_Found")


class HeuristicMachine(Machine):
    """The machine's fallback when the exact search runs out of budget: the same tables,
    the same questions (``best_proposal``, ``decide``, ``next_step``, ...), answered by a
    policy instead of the full minimax.

    * A round starting on a small set gets an exact machine built on that set alone
      (a *delegate*), whose bitmasks are short; when it solves the set within a small
      budget (and the heuristic's share of exact work is not spent), the policy makes its
      choices from there on. Sets shrink fast, so later rounds are usually played exactly.
      A set its sub-budget does not solve is played by this policy on a machine of its
      own (short bitmasks again), but its subsets still get their chance of a delegate.
    * Otherwise, within a round it tests while some letter still splits the candidates: a
      test costs less than any round, and more answers never make a later round harder.
      The letter is the one whose worse part has the fewest candidates, then codes.
    * Otherwise a round's proposal is the one whose round, played that way, leaves the
      fewest candidates in its worst leaf, then the fewest codes there, then in all
      leaves together, among the proposals whose first test is most even. Candidates
      rather than codes: in nightmare the letters must be told apart before the codes.
    * A large relabelling-closed universe (nightmare) makes its choices alike for sets
      equal up to relabelling, which then share memo entries: its plan tree has far too
      many sets to play each one.
    * Past ``_HEURISTIC_WALL`` units of work, a proposal is judged by its first test
      alone, so that no universe makes the policy's care per round run away.

    Values are this policy's exact worst case, computed over its own tree, so scores
    never exceed the reported worst case; they bound the optimum from above."""

    proven = False

    def __init__(self, exact: Machine) -> None:
        # Shares the exact machine's tables rather than building them again.
        self.__dict__.update(exact.__dict__)
        self.node_budget = None
        self._exact_left = _HEURISTIC_EXACT_BUDGET
        self._delegates: dict[int, Machine] = {}  # exact machines of subsets
        self._fallbacks: dict[int, HeuristicMachine] = {}  # this policy on a subset
        self._delegate_of: dict[tuple[int, bool], Machine | None] = {}
        self._converted: dict[tuple[int, int], int] = {}
        self._may_delegate = True
        # A large relabelling-closed universe has too many sets to play the policy on
        # each: its choices are made alike for relabelled sets, which then share memo
        # entries (delegates, exact on sets of their own, would not choose alike).
        self._canonical = self.symmetric and self.count > _DELEGATE_MAX
        self._work = 0  # see _HEURISTIC_WALL
        if self._canonical:
            self._may_delegate = False
        self._policy_rounds: dict[Hashable, tuple[int, int]] = {}
        self._policy_within: dict[tuple[Hashable, int, int, bool],
                                  tuple[int, int | None]] = {}

    def _delegate(self, s: int, create: bool) -> Machine | None:
        """A machine for ``s`` alone, whose bitmasks are as short as ``s`` is: one made
        for a set holding ``s``, or, when ``create`` and ``s`` is small, a new one. It is
        exact if it solves ``s`` within a sub-budget (while the heuristic's share of exact
        work lasts), otherwise this same policy on the shorter bitmasks."""
        if not (self._may_delegate or self._delegates or self._fallbacks):
            return None  # and no big set kept as a key in memory
        if (s, create) in self._delegate_of:
            return self._delegate_of[s, create]
        found = self._find_delegate(s, create)
        self._delegate_of[s, create] = found
        return found

    def _find_delegate(self, s: int, create: bool) -> Machine | None:
        for root, sub in self._delegates.items():
            if s & root == s:
                return sub
        small = self._may_delegate and s.bit_count() <= _DELEGATE_MAX
        if create and small and self._exact_left > 0 and s not in self._fallbacks:
            sub = Machine(self.members(s), self.letters,
                          node_budget=max(0, min(_SUBSEARCH_BUDGET, self._exact_left)))
            try:
                sub.exact_rounds_value(sub.universe, sub.options_of(sub.universe))
                self._delegates[s] = sub
                self._delegate_of.clear()  # sets answered None before may have one now
                return sub
            except SearchBudgetExceeded:
                # A set too hard for its sub-budget: its subsets may still get exact
                # machines of their own, so it does not stand in for them.
                self._fallbacks[s] = self._policy_on(sub)
            finally:
                self._exact_left -= sub.nodes
        # Otherwise this same policy, on a machine for a set holding ``s``.
        for root, sub in self._fallbacks.items():
            if s & root == s:
                return sub
        if not create or not small:
            return None
        sub = self._fallbacks[s] = self._policy_on(Machine(self.members(s), self.letters,
                                                           node_budget=0))
        self._delegate_of.clear()
        return sub

    def _sub_set(self, sub: Machine, s: int) -> int:
        """``s`` as a set of ``sub``'s candidates, remembered: converting walks every
        member."""
        key = (id(sub), s)
        found = self._converted.get(key)
        if found is None:
            found = self._converted[key] = sub.subset(self.members(s))
        return found

    @staticmethod
    def _policy_on(sub: Machine) -> HeuristicMachine:
        heuristic = HeuristicMachine(sub)
        heuristic._may_delegate = False
        heuristic._exact_left = 0
        return heuristic

    def _ask(self, sub: Machine, search: Callable[[], _Found]) -> _Found | None:
        """A question to a delegate; its memo mostly answers it, within a sub-budget."""
        sub.nodes = 0
        sub.node_budget = _SUBSEARCH_BUDGET
        try:
            return search()
        except SearchBudgetExceeded:
            return None

    def _policy_round(self, s: int, options: tuple[int, ...]) -> tuple[int, int]:
        key = self._key(s, options) if self._canonical else s
        known = self._policy_rounds.get(key)
        if known is None:
            if self.single(s):
                return 0, -1
            proposal = None
            sub = self._delegate(s, create=True)
            if sub is not None:
                sub_s = self._sub_set(sub, s)
                exact = self._ask(sub, lambda: sub.best_proposal(sub_s, sub.options_of(sub_s)))
                proposal = None if exact is None else exact[1]
            if proposal is None:
                proposal = self._heuristic_proposal(s, options)
            value, _ = self._policy_step(s, options, proposal, self._answers[proposal],
                                         MAX_TESTS_PER_ROUND, True)
            known = self._policy_rounds[key] = (_BIG + value, proposal)
        return known

    def _delegate_letter(self, s: int, proposal: int, row: tuple[int, ...], left: int,
                         first: bool) -> tuple[bool, int | None]:
        """(whether a delegate chose, its choice: a letter or None to end the round)."""
        sub = self._delegate(s, create=False)
        if sub is None:
            return False, None
        full = self._answers[proposal]
        tested = [v for v in range(self.letters) if row[v] != full[v]]
        memo = all(not full[v] & s or full[v] & s == s for v in tested)
        sub_s = self._sub_set(sub, s)
        found = self._ask(sub, lambda: sub.decide(sub_s, sub.options_of(sub_s), proposal,
                                                  sub.row(proposal, tested), left, first,
                                                  memo=memo))
        return (False, None) if found is None else (True, found[1])

    def _heuristic_proposal(self, s: int, options: tuple[int, ...]) -> int:
        # A round's worth is judged on the few proposals whose best first test is most
        # even: judging all of them costs more than the better choice saves. A test's
        # sizes come from per-option counts, as a proposal acts on a letter only through
        # the options it accepts there, and many proposals share those: a few big-int
        # operations per option rather than per proposal and letter.
        size = s.bit_count()
        counts = [{option: count for option, members in column.items()
                   if allowed >> option & 1 and (count := (members & s).bit_count())}
                  for column, allowed in zip(self._members, options, strict=True)]
        present = [sum(1 << option for option in column) for column in counts]
        sizes: dict[tuple[int, int], int] = {}
        first_tests: dict[tuple[int, ...], tuple[int, int]] = {}
        for proposal in self._proposals:
            accepted = self._accept[proposal]
            patterns = []
            best = size
            for letter, allowed in enumerate(present):
                pattern = accepted & allowed
                if not pattern or pattern == allowed:
                    patterns.append(0)
                    continue
                pattern = min(pattern, allowed ^ pattern)
                patterns.append(pattern)
                yes = sizes.get((letter, pattern))
                if yes is None:
                    column = counts[letter]
                    yes = sizes[letter, pattern] = sum(
                        count for option, count in column.items() if pattern >> option & 1)
                best = min(best, max(yes, size - yes))
            signature = tuple(patterns)
            if best < size and signature not in first_tests:
                first_tests[signature] = (best, proposal)
        # Past the wall, only the first test is judged: a plan must still be played out
        # to its every leaf, and some universes make that costly at any care per round.
        weight = 1 + size // 2048
        wide = self._work < _HEURISTIC_WALL
        shortlist = sorted(first_tests.values())[
            :(_SHORTLIST_LARGE if self._canonical else _SHORTLIST) if wide else 1]
        self._work += weight * (1 + len(shortlist))
        ranked: list[tuple[tuple[int, int, int], int]] = []
        for _, proposal in shortlist:
            leaves = self._round_leaves(s, options, proposal, self._answers[proposal],
                                        MAX_TESTS_PER_ROUND)
            ranked.append(((max(size for _, size in leaves),
                            max(codes for codes, _ in leaves),
                            sum(codes for codes, _ in leaves)), proposal))
        return min(ranked)[1]

    def _policy_letter(self, s: int, options: tuple[int, ...], row: tuple[int, ...],
                       left: int) -> int | None:
        """The letter the policy tests next, or None when no test is left or splits.
        When its memo is shared between relabellings (``_canonical``), ties go by the
        letters' options, which relabelling carries along, and only letters with equal
        options, which are interchangeable, by their order."""
        if not left:
            return None
        # Sizes first; codes, which cost more to count, only between the letters whose
        # worse part is smallest.
        size = s.bit_count()
        tied: list[tuple[int, int]] = []
        smallest = size
        for letter, m in enumerate(row):
            yes = m & s
            if not yes or yes == s:
                continue
            count = yes.bit_count()
            worse = max(count, size - count)
            if worse < smallest:
                smallest, tied = worse, [(letter, yes)]
            elif worse == smallest:
                tied.append((letter, yes))
        if len(tied) <= 1:
            return tied[0][0] if tied else None
        best = min((max(self.code_count(yes), self.code_count(s ^ yes)),
                    options[letter] if self._canonical else 0, letter)
                   for letter, yes in tied)
        return best[2]

    def _round_leaves(self, s: int, options: tuple[int, ...], proposal: int,
                      row: tuple[int, ...], left: int) -> list[tuple[int, int]]:
        """(codes, candidates) of each set the policy's tests leave at the round's end."""
        letter = None if self.single(s) else self._policy_letter(s, options, row, left)
        if letter is None:
            return [(self.code_count(s), s.bit_count())]
        found = []
        for answer in (True, False):
            part, part_options = self.test(s, options, proposal, letter, answer)
            found += self._round_leaves(part, part_options, proposal, row, left - 1)
        return found

    def _policy_step(self, s: int, options: tuple[int, ...], proposal: int,
                     row: tuple[int, ...], left: int, first: bool) -> tuple[int, int | None]:
        if self.single(s):
            return 0, None
        memo = row == self._answers[proposal]
        key = (self._key(s, options) if self._canonical else s, proposal, left, first)
        known = self._policy_within.get(key) if memo else None
        if known is not None:
            if self._canonical:
                # The value holds for every relabelling, the letter only for the set
                # it was found on.
                return known[0], self._policy_letter(s, options, row, left)
            return known
        chosen, letter = self._delegate_letter(s, proposal, row, left, first)
        if not chosen:
            letter = self._policy_letter(s, options, row, left)
        found: tuple[int, int | None]
        if letter is None:
            # Nothing left to learn from this proposal: the round ends (a first step
            # that learns nothing is never chosen; ``next_step`` handles a player's).
            found = (self._policy_round(s, options)[0], None)
        else:
            worst = 0
            for answer in (True, False):
                part, part_options = self.test(s, options, proposal, letter, answer)
                worst = max(worst, self._policy_step(part, part_options, proposal, row,
                                                     left - 1, False)[0])
            found = (1 + worst, letter)
        if memo:
            self._policy_within[key] = found
        return found

    def rounds_value(self, s: int, options: tuple[int, ...], alpha: int = -1,
                     beta: int = _INF, proposals: Sequence[int] | None = None) -> int:
        return self._policy_round(s, options)[0]

    def exact_rounds_value(self, s: int, options: tuple[int, ...]) -> int:
        return self._policy_round(s, options)[0]

    def best_proposal(self, s: int, options: tuple[int, ...]) -> tuple[int, int]:
        return self._policy_round(s, options)

    def within_value(self, s: int, options: tuple[int, ...], proposal: int,
                     row: tuple[int, ...], left: int, first: bool, memo: bool = True) -> int:
        return self._policy_step(s, options, proposal, row, left, first)[0]

    def decide(self, s: int, options: tuple[int, ...], proposal: int, row: tuple[int, ...],
               left: int, first: bool, target: int | None = None, memo: bool = True
               ) -> tuple[int, int | None]:
        return self._policy_step(s, options, proposal, row, left, first)

    def child_value(self, s: int, options: tuple[int, ...], proposal: int,
                    row: tuple[int, ...], left: int, target: int, memo: bool = True) -> int:
        return self._policy_step(s, options, proposal, row, left, False)[0]
