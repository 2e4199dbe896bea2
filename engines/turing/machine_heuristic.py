"""The machine's fallback past the exact search's budget: ``HeuristicMachine``.

It answers the same questions as ``Machine`` by a policy instead of the full minimax;
see the class for the policy, and ``engines.turing.machine`` for where it is used.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from engines.turing.machine_costs import (
    _BIG,
    _DELEGATE_MAX,
    _HEURISTIC_EXACT_BUDGET,
    _HEURISTIC_WALL,
    _INF,
    _SHORTLIST,
    _SHORTLIST_LARGE,
    _SUBSEARCH_BUDGET,
)
from engines.turing.machine_exact import Machine, SearchBudgetExceeded
from engines.turing.puzzle import MAX_TESTS_PER_ROUND

_Found = TypeVar("_Found")
# Candidates up to which a set of a large universe (past ``_DELEGATE_MAX``) is worked on
# with bitmasks of its own (``_Local``).
_LOCAL_MAX = 1024


class _Local:
    """A small set of a machine's candidates with bitmasks of its own length: bit ``i``
    is its ``i``-th member in the machine's order, so that members are sorted by code and
    codes are counted as the machine counts them (``Machine.code_count``)."""

    def __init__(self, machine: Machine, s: int, option_index: dict[int, int]) -> None:
        members = machine.members(s)
        self.universe = (1 << len(members)) - 1
        self.columns: list[dict[int, int]] = [{} for _ in range(machine.letters)]
        top = 0
        for position, candidate in enumerate(members):
            bit = 1 << position
            for column, criterion in zip(self.columns, candidate.criteria, strict=True):
                option = option_index[criterion.mask]
                column[option] = column.get(option, 0) | bit
            if position + 1 == len(members) or members[position + 1].code != candidate.code:
                top |= bit
        self._top_bits = top
        self._low_bits = self.universe & ~top
        self._rows: dict[int, tuple[int, ...]] = {}

    def code_count(self, s: int) -> int:
        return ((((s & self._low_bits) + self._low_bits) | s) & self._top_bits).bit_count()

    def row(self, accepted: int) -> tuple[int, ...]:
        """The members answering ✅ per letter to a proposal accepting ``accepted``."""
        found = self._rows.get(accepted)
        if found is None:
            found = self._rows[accepted] = tuple(
                sum(bits for option, bits in column.items() if accepted >> option & 1)
                for column in self.columns)
        return found


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
    never exceed the reported worst case; they bound the optimum from above. Choices do
    not depend on values, so play asks for choices alone (``round_start``,
    ``step_letter``), and the worst case is walked apart, skipping what cannot raise it.
    Choices are remembered as they are made, so that every later question (play, the
    worst case, the tree, ``next_step``) meets the same ones."""

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
        self._option_index = {mask: option for option, mask in enumerate(self.options)}
        self._pattern_groups: dict[int, list[tuple[int, int]]] = {}  # see _groups_of
        if self._canonical:
            self._may_delegate = False
        # Choices are remembered apart from values: play and ``next_step`` need only the
        # choices on their own path, and every later question must meet the same ones.
        self._proposal_of: dict[Hashable, int] = {}
        self._letter_of: dict[tuple[int, int, int, bool], int | None] = {}
        # Values are fail-soft (see ``_round_value``): (value, whether it is exact).
        self._round_values: dict[Hashable, tuple[int, bool]] = {}
        self._step_values: dict[tuple[Hashable, int, int, bool], tuple[int, bool]] = {}

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

    def _heuristic_proposal(self, s: int, options: tuple[int, ...],
                            local: _Local | None = None) -> int:
        # A round's worth is judged on the few proposals whose best first test is most
        # even: judging all of them costs more than the better choice saves. A test's
        # sizes come from per-option counts, as a proposal acts on a letter only through
        # the options it accepts there, and many proposals share those: a few big-int
        # operations per option rather than per proposal and letter.
        size = s.bit_count()
        # A small set is worked on with bitmasks of its own length (``_Local``): the
        # universe's are as long as the universe, whatever the set. ``s`` is one of
        # ``local``'s sets when given.
        if local is None and size <= _LOCAL_MAX and self.count > _DELEGATE_MAX:
            local, s = self._localise(s)
        view: Machine | _Local = self if local is None else local
        here = s
        columns = self._members if local is None else local.columns
        counts = [{option: count for option, members in column.items()
                   if allowed >> option & 1 and (count := (members & here).bit_count())}
                  for column, allowed in zip(columns, options, strict=True)]
        present = [sum(1 << option for option in column) for column in counts]
        # Past the wall, only the first test is judged: a plan must still be played out
        # to its every leaf, and some universes make that costly at any care per round.
        weight = 1 + size // 2048
        wide = self._work < _HEURISTIC_WALL
        shortlist = self._shortlist(counts, present, size,
                                    (_SHORTLIST_LARGE if self._canonical else _SHORTLIST)
                                    if wide else 1)
        self._work += weight * (1 + len(shortlist))
        ranked: list[tuple[tuple[int, int, int], int]] = []
        for proposal in shortlist:
            row = (self._answers[proposal] if local is None
                   else local.row(self._accept[proposal]))
            leaves = self._round_leaves(view, here, options, proposal, row,
                                        MAX_TESTS_PER_ROUND)
            ranked.append(((max(size for _, size in leaves),
                            max(codes for codes, _ in leaves),
                            sum(codes for codes, _ in leaves)), proposal))
        return min(ranked)[1]

    def _shortlist(self, counts: list[dict[int, int]], present: list[int], size: int,
                   limit: int) -> list[int]:
        """The first ``limit`` proposals that split the set, by their most even first
        test (the fewest candidates in its worse part), then by their order, one per
        signature (the splits they make at each letter, a pattern of options and its
        complement being one split): proposals alike in it test alike.

        Per letter, the proposals are grouped by the options they accept there (bitmasks
        over ``_proposals``, the groups remembered per set of options); each group's
        test gives its worse part. A proposal's best test is then reached at the lowest
        threshold where one of its groups is, so going up the thresholds yields the
        proposals in order, and only the few that make the shortlist need a signature."""
        by_worse: dict[int, int] = {}
        for letter, allowed in enumerate(present):
            column = counts[letter]
            for pattern, group in self._groups_of(allowed):
                yes = sum(count for option, count in column.items() if pattern >> option & 1)
                worse = yes if yes > size - yes else size - yes
                by_worse[worse] = by_worse.get(worse, 0) | group
        found: list[int] = []
        signatures: set[tuple[int, ...]] = set()
        reached = 0
        for worse in sorted(by_worse):
            fresh = by_worse[worse] & ~reached
            reached |= fresh
            while fresh:
                low = fresh & -fresh
                fresh ^= low
                proposal = self._proposals[low.bit_length() - 1]
                accepted = self._accept[proposal]
                signature = tuple(min(pattern, allowed ^ pattern)
                                  if (pattern := accepted & allowed) != allowed else 0
                                  for allowed in present)
                if signature not in signatures:
                    signatures.add(signature)
                    found.append(proposal)
                    if len(found) == limit:
                        return found
        return found

    def _groups_of(self, allowed: int) -> list[tuple[int, int]]:
        """The proposals that split a letter whose present options are ``allowed``,
        grouped by the options they accept there: (pattern, bitmask over
        ``_proposals``)."""
        found = self._pattern_groups.get(allowed)
        if found is None:
            groups: dict[int, int] = {}
            for index, proposal in enumerate(self._proposals):
                pattern = self._accept[proposal] & allowed
                if pattern and pattern != allowed:
                    groups[pattern] = groups.get(pattern, 0) | 1 << index
            found = self._pattern_groups[allowed] = list(groups.items())
        return found

    def _policy_letter(self, s: int, options: tuple[int, ...], row: tuple[int, ...],
                       left: int, view: Machine | _Local | None = None) -> int | None:
        """The letter the policy tests next, or None when no test is left or splits.
        When its memo is shared between relabellings (``_canonical``), ties go by the
        letters' options, which relabelling carries along, and only letters with equal
        options, which are interchangeable, by their order. ``s`` and ``row`` are
        bitmasks of ``view`` (by default this machine)."""
        count_codes = (view or self).code_count
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
        best = min((max(count_codes(yes), count_codes(s ^ yes)),
                    options[letter] if self._canonical else 0, letter)
                   for letter, yes in tied)
        return best[2]

    def _round_leaves(self, view: Machine | _Local, s: int, options: tuple[int, ...],
                      proposal: int, row: tuple[int, ...], left: int
                      ) -> list[tuple[int, int]]:
        """(codes, candidates) of each set the policy's tests leave at the round's end;
        ``s`` and ``row`` (the proposal's full row) are bitmasks of ``view``."""
        codes = view.code_count(s)
        letter = None if codes == 1 else self._policy_letter(s, options, row, left, view)
        if letter is None:
            return [(codes, s.bit_count())]
        yes = row[letter] & s
        accepted = self._accept[proposal]
        found = []
        for part, kept in ((yes, accepted), (s ^ yes, ~accepted)):
            part_options = (*options[:letter], options[letter] & kept, *options[letter + 1:])
            found += self._round_leaves(view, part, part_options, proposal, row, left - 1)
        return found

    # ------------------------------------------------------------------ choices
    # ``local``: when given, sets and rows are bitmasks of that ``_Local`` (only in a
    # ``_canonical`` machine, whose memo keys are options and whose choices need no
    # delegate), otherwise of this machine.

    def _localise(self, s: int) -> tuple[_Local, int]:
        local = _Local(self, s, self._option_index)
        return local, local.universe

    def _round_choice(self, s: int, options: tuple[int, ...], local: _Local | None = None
                      ) -> int:
        """The policy's proposal for a round starting on ``s`` (two codes or more)."""
        key = self._key(s, options) if self._canonical else s
        proposal = self._proposal_of.get(key)
        if proposal is None:
            if local is None:
                sub = self._delegate(s, create=True)
                if sub is not None:
                    sub_s = self._sub_set(sub, s)
                    exact = self._ask(sub, lambda: sub.best_proposal(sub_s,
                                                                     sub.options_of(sub_s)))
                    proposal = None if exact is None else exact[1]
            if proposal is None:
                proposal = self._heuristic_proposal(s, options, local)
            self._proposal_of[key] = proposal
        return proposal

    def _step_choice(self, s: int, options: tuple[int, ...], proposal: int,
                     row: tuple[int, ...], left: int, first: bool, memo: bool = True,
                     local: _Local | None = None) -> int | None:
        """The letter the policy tests next, or None to end the round (a first step that
        learns nothing is never reached: the round's proposal splits the set). ``memo``
        says that ``row`` tests ``s`` as the proposal's full row does."""
        if self._canonical:
            # No delegates here, and ``_policy_letter`` chooses alike for relabelled sets,
            # which is what lets them share values.
            return self._policy_letter(s, options, row, left, local)
        key = (s, proposal, left, first)
        if memo and key in self._letter_of:
            return self._letter_of[key]
        chosen, letter = self._delegate_letter(s, proposal, row, left, first)
        if not chosen:
            letter = self._policy_letter(s, options, row, left)
        if memo:
            self._letter_of[key] = letter
        return letter

    # ------------------------------------------------------------------ values
    # The policy's worst case is a maximum over its tree's leaves, and walking the whole
    # tree is what costs on the largest universes (nightmare hard: thousands of rounds on
    # sets of a few candidates). So the walk is fail-soft like the exact search, with
    # only a maximum to take: a value above ``alpha`` is exact, one at most ``alpha`` only
    # an upper bound. A part whose ``_generic`` bound is at most ``alpha`` cannot raise
    # the maximum and is not walked; the root, asked with ``alpha = -1``, still gets the
    # tree's exact worst case. Below a small round-starting set of a ``_canonical``
    # machine, the walk goes on in that set's own bitmasks (``_Local``).

    @staticmethod
    def _generic(s: int, first: bool) -> int:
        """An upper bound of the policy's cost from ``s`` whatever it chooses: every test
        it makes splits the set (``_policy_letter``, ``_heuristic_proposal`` and exact
        delegates alike), so a path from ``n`` candidates makes at most ``n - 1`` tests,
        and every round at least one of them (on a ``first`` step, in this round)."""
        most = s.bit_count() - 1
        return most * _BIG + most - (_BIG if first else 0)

    def _single_in(self, s: int, local: _Local | None) -> bool:
        return self.single(s) if local is None else local.code_count(s) == 1

    def _round_value(self, s: int, options: tuple[int, ...], alpha: int,
                     local: _Local | None = None) -> int:
        """The worst case of the policy's play from a round starting on ``s``: exact when
        above ``alpha``, otherwise an upper bound no more than ``alpha``."""
        if self._single_in(s, local):
            return 0
        generic = self._generic(s, False)
        if generic <= alpha:
            return generic
        key = self._key(s, options) if self._canonical else s
        known = self._round_values.get(key)
        if known is not None and (known[1] or known[0] <= alpha):
            return known[0]
        if local is None and self._canonical and s.bit_count() <= _LOCAL_MAX:
            local, s = self._localise(s)
        proposal = self._round_choice(s, options, local)
        row = (self._answers[proposal] if local is None
               else local.row(self._accept[proposal]))
        value = _BIG + self._step_value(s, options, proposal, row, MAX_TESTS_PER_ROUND,
                                        True, alpha - _BIG, local)
        self._round_values[key] = (value, value > alpha)
        return value

    def _step_value(self, s: int, options: tuple[int, ...], proposal: int,
                    row: tuple[int, ...], left: int, first: bool, alpha: int,
                    local: _Local | None = None) -> int:
        """``_round_value`` within a round: the policy's cost from this step on."""
        if self._single_in(s, local):
            return 0
        generic = self._generic(s, first)
        if generic <= alpha:
            return generic
        memo = local is not None or row == self._answers[proposal]
        key = (self._key(s, options) if self._canonical else s, proposal, left, first)
        known = self._step_values.get(key) if memo else None
        if known is not None and (known[1] or known[0] <= alpha):
            return known[0]
        letter = self._step_choice(s, options, proposal, row, left, first, memo, local)
        if letter is None:
            value = self._round_value(s, options, alpha, local)
        else:
            yes = row[letter] & s
            accepted = self._accept[proposal]
            parts = [(yes, accepted), (s ^ yes, ~accepted)]
            # The larger part first: its worst case is likelier the higher, and the higher
            # the bar, the more of the other part goes unwalked.
            if parts[1][0].bit_count() > yes.bit_count():
                parts.reverse()
            worst = 0
            bar = alpha - 1
            for part, kept in parts:
                part_options = (*options[:letter], options[letter] & kept,
                                *options[letter + 1:])
                found = self._step_value(part, part_options, proposal, row, left - 1, False,
                                         bar, local)
                worst = max(worst, found)
                bar = max(bar, found)
            value = 1 + worst
        if memo:
            self._step_values[key] = (value, value > alpha)
        return value

    # ------------------------------------------------------------------ questions
    # What play and ``next_step`` ask: choices only, so they walk their own path alone.
    def round_start(self, s: int, options: tuple[int, ...]) -> tuple[int, int]:
        return self._round_choice(s, options), 0

    def step_letter(self, s: int, options: tuple[int, ...], proposal: int,
                    row: tuple[int, ...], left: int, first: bool, target: int | None,
                    memo: bool = True) -> int | None:
        return self._step_choice(s, options, proposal, row, left, first, memo)

    def step_target(self, s: int, options: tuple[int, ...], proposal: int,
                    row: tuple[int, ...], left: int, target: int) -> int:
        return 0

    # What the decision tree asks: exact values of the policy's tree.
    def rounds_value(self, s: int, options: tuple[int, ...], alpha: int = -1,
                     beta: int = _INF, proposals: Sequence[int] | None = None) -> int:
        return self._round_value(s, options, -1)

    def exact_rounds_value(self, s: int, options: tuple[int, ...]) -> int:
        return self._round_value(s, options, -1)

    def best_proposal(self, s: int, options: tuple[int, ...]) -> tuple[int, int]:
        return self._round_value(s, options, -1), self._round_choice(s, options)

    def within_value(self, s: int, options: tuple[int, ...], proposal: int,
                     row: tuple[int, ...], left: int, first: bool, memo: bool = True) -> int:
        return self._step_value(s, options, proposal, row, left, first, -1)

    def decide(self, s: int, options: tuple[int, ...], proposal: int, row: tuple[int, ...],
               left: int, first: bool, target: int | None = None, memo: bool = True
               ) -> tuple[int, int | None]:
        return (self._step_value(s, options, proposal, row, left, first, -1),
                self._step_choice(s, options, proposal, row, left, first, memo))

    def child_value(self, s: int, options: tuple[int, ...], proposal: int,
                    row: tuple[int, ...], left: int, target: int, memo: bool = True) -> int:
        return self._step_value(s, options, proposal, row, left, False, -1)
