"""The machine: a worst-case optimal player of a Turing Machine puzzle.

Specification: ``shared/rules/turing.md``, section "The machine". A round is one proposal
and up to three tests of distinct verifier letters, each chosen after seeing the previous
answers; the round may end after any test. The machine must reach a state where every
remaining candidate has the same code, and minimises, in the worst case over the
candidates, first the rounds and then the tests.

Model. A cost ``(rounds, tests)`` is packed into one int, ``rounds * _BIG + tests``, so that
lexicographic comparison is ``<`` and adding costs is ``+``. Adding a constant keeps the
lexicographic order, and so the worst case of a strategy is a plain minimax over answers:

* ``R(S) = (1, 0) + min over proposals p of T(S, p, 3, first=True)`` (``0`` if one code);
* ``T(S, p, k, first)`` = the best of ending the round (``R(S)``, not on the first step) and,
  for a letter ``v`` whose answer splits ``S``, ``(0, 1) + max(T(S_yes, ...), T(S_no, ...))``
  with ``k - 1`` tests left (``0`` for a part with one code).

A test that splits nothing is never worth making, and a letter already tested with the
round's proposal splits nothing any more, so "distinct letters" needs no bookkeeping.

Sets of candidates are bitmasks, candidates sorted by code so that each code owns one run
of bits. The search is alpha-beta over that recursion with memoised exact values and
lower bounds, proposals with identical splits merged, and lower bounds from counting codes:
a tree separating ``m`` codes has a path with at least ``ceil(log2 m)`` tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import JSON
from engines.turing.cards import CODE_INDEX, CODES, Code, code_text
from engines.turing.puzzle import LETTERS, MAX_TESTS_PER_ROUND, Candidate, Puzzle

_BIG = 1 << 20  # more tests than any plan makes, so rounds dominate the packed cost
_INF = 1 << 62
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


@dataclass(frozen=True)
class TestRecord:
    """One test the machine made: in which round, with which proposal, the answer."""

    round: int
    proposal: Code
    letter: int
    answer: bool

    def to_dict(self) -> JSON:
        return {"round": self.round, "proposal": code_text(self.proposal),
                "verifier": LETTERS[self.letter], "answer": self.answer}


@dataclass(frozen=True)
class MachineRun:
    """The machine playing against one actual secret."""

    code: Code
    rounds: int
    tests: int
    transcript: tuple[TestRecord, ...]

    @property
    def score(self) -> Score:
        return (self.rounds, self.tests)

    def to_dict(self) -> JSON:
        return {"code": code_text(self.code), "rounds": self.rounds, "tests": self.tests,
                "transcript": [record.to_dict() for record in self.transcript]}


class Machine:
    """The search over one universe of candidates; its memo serves every later question
    about subsets of that universe (plans, play, ``next_step``)."""

    def __init__(self, candidates: Sequence[Candidate], letters: int) -> None:
        if not candidates:
            raise ValueError("the machine needs at least one candidate")
        if any(len(c.criteria) != letters for c in candidates):
            raise ValueError(f"every candidate needs {letters} criteria")
        self.letters = letters
        # Candidates with the same masks answer every test alike, so they are one.
        unique: dict[tuple[int, ...], Candidate] = {}
        for candidate in candidates:
            unique.setdefault(candidate.masks, candidate)
        ordered = sorted(unique.values(), key=lambda c: (c.code, c.masks))
        self.candidates: tuple[Candidate, ...] = tuple(ordered)
        self._index = {c.masks: i for i, c in enumerate(ordered)}
        self.count = len(ordered)
        self.universe = (1 << self.count) - 1
        # Each code owns the bits [start, end) of its candidates; _block_end per candidate.
        codes: list[Code] = []
        ends: list[int] = []
        for position, candidate in enumerate(ordered):
            if not codes or codes[-1] != candidate.code:
                codes.append(candidate.code)
                ends.append(position + 1)
            else:
                ends[-1] = position + 1
        self._block_end: list[int] = []
        self._block_code: list[Code] = []
        for code, end in zip(codes, ends, strict=True):
            size = end - len(self._block_end)
            self._block_end.extend([end] * size)
            self._block_code.extend([code] * size)
        self._top_bits = 0
        for end in set(ends):
            self._top_bits |= 1 << (end - 1)
        self._low_bits = self.universe & ~self._top_bits
        self._answers = self._answer_masks()
        # Proposals whose answers are the same on every candidate are one proposal.
        first: dict[tuple[int, ...], int] = {}
        for index, row in enumerate(self._answers):
            first.setdefault(row, index)
        self._proposals = sorted(first.values())
        # Bounds of R per set: the lower, and the upper with a proposal reaching it.
        self._lower: dict[int, int] = {}
        self._upper: dict[int, tuple[int, int]] = {}
        self._option_cache: dict[int, list[tuple[int, int]]] = {}
        self._within_memo: dict[tuple[int, int, int], tuple[int, int]] = {}

    def _answer_masks(self) -> list[tuple[int, ...]]:
        """Per proposal (code index), per letter: the candidates answering ✅."""
        per_letter: list[list[int]] = []
        for letter in range(self.letters):
            groups: dict[int, bytearray] = {}
            size = (self.count + 7) // 8
            for position, candidate in enumerate(self.candidates):
                mask = candidate.criteria[letter].mask
                bits = groups.get(mask)
                if bits is None:
                    bits = groups[mask] = bytearray(size)
                bits[position >> 3] |= 1 << (position & 7)
            as_ints = [(mask, int.from_bytes(bits, "little")) for mask, bits in groups.items()]
            column: list[int] = []
            cache: dict[int, int] = {}
            for code_index in range(len(CODES)):
                # Which of the letter's criteria accept the proposal, as a small key.
                key = 0
                for slot, (mask, _) in enumerate(as_ints):
                    if mask >> code_index & 1:
                        key |= 1 << slot
                found = cache.get(key)
                if found is None:
                    found = 0
                    for slot, (_, members) in enumerate(as_ints):
                        if key >> slot & 1:
                            found |= members
                    cache[key] = found
                column.append(found)
            per_letter.append(column)
        return [tuple(per_letter[v][p] for v in range(self.letters)) for p in range(len(CODES))]

    # ------------------------------------------------------------------ sets
    def subset(self, candidates: Sequence[Candidate]) -> int:
        """The bitmask of ``candidates``; ``ValueError`` for one outside the universe."""
        found = 0
        for candidate in candidates:
            position = self._index.get(candidate.masks)
            if position is None:
                raise ValueError(f"candidate {candidate.ids} is not one the machine knows")
            found |= 1 << position
        return found

    def members(self, s: int) -> list[Candidate]:
        found = []
        while s:
            low = s & -s
            found.append(self.candidates[low.bit_length() - 1])
            s ^= low
        return found

    def single(self, s: int) -> bool:
        """Whether every candidate of the non-empty ``s`` has the same code."""
        low = (s & -s).bit_length() - 1
        return s >> self._block_end[low] == 0

    def code(self, s: int) -> Code:
        return self._block_code[(s & -s).bit_length() - 1]

    def code_count(self, s: int) -> int:
        """How many codes ``s`` holds: the code blocks it touches, all counted at once.
        Adding each block's low bits to their all-ones carries into the block's top bit
        exactly when the block has a member below it."""
        return ((((s & self._low_bits) + self._low_bits) | s) & self._top_bits).bit_count()

    def answer(self, proposal: Code, letter: int, s: int) -> int:
        """The members of ``s`` answering ✅ to ``proposal`` on ``letter``."""
        return self._answers[CODE_INDEX[proposal]][letter] & s

    # ------------------------------------------------------------------ search
    # Values follow fail-soft alpha-beta: a search with the window (alpha, beta) returns
    # the exact value when it lies inside, an upper bound ≤ alpha when the value is at most
    # alpha, and a lower bound ≥ beta when it is at least beta.

    def _options(self, s: int, proposals: Sequence[int]) -> list[tuple[int, int]]:
        """The proposals worth making on ``s``: (lower bound of R through it, proposal),
        one per distinct family of splits, the most promising first. ``proposals`` covers
        every family on a superset of ``s``, so it covers every family on ``s``."""
        cached = self._option_cache.get(s)
        if cached is not None:
            return cached
        count = self.code_count(s)
        families: dict[frozenset[int], int] = {}
        for proposal in proposals:
            splits = frozenset(min(y, s ^ y) for m in self._answers[proposal]
                               if (y := m & s) and y != s)
            if splits:
                families.setdefault(splits, proposal)
        # A proposal whose splits are all splits of another is never better: the other
        # can make the same tests. Larger families first, so dominators come first.
        kept: list[tuple[frozenset[int], int]] = []
        for splits, proposal in sorted(families.items(), key=lambda item: -len(item[0])):
            if not any(splits <= other for other, _ in kept):
                kept.append((splits, proposal))
        found: list[tuple[int, int, int, int]] = []
        for splits, proposal in kept:
            # The finest partition one round with this proposal can reach: a cell with
            # several codes means another round on a set holding it.
            cells = [s]
            for m in splits:
                cells = [part for cell in cells for part in (cell & m, cell & ~m) if part]
            worst = max(self.code_count(cell) for cell in cells)
            bound = _BIG + _within_bound(count, MAX_TESTS_PER_ROUND)
            if worst > 1:
                bound = max(bound, _BIG + 1 + _rounds_bound(worst))
            found.append((bound, worst, -len(cells), proposal))
        found.sort()
        options = [(bound, proposal) for bound, _, _, proposal in found]
        self._option_cache[s] = options
        return options

    def rounds_value(self, s: int, alpha: int = -1, beta: int = _INF,
                     proposals: Sequence[int] | None = None) -> int:
        """``R(s)``: the worst-case cost from the start of a round, within (alpha, beta)."""
        if self.single(s):
            return 0
        low = self._lower.get(s, 0)
        known = self._upper.get(s)
        high = known[0] if known is not None else _INF
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        static = _rounds_bound(self.code_count(s))
        if static >= beta:
            return static
        options = self._options(s, self._proposals if proposals is None else proposals)
        floor = max(low, static, options[0][0])
        if floor >= beta:
            self._lower[s] = floor
            return floor
        alpha = max(alpha, floor - 1)
        beta = min(beta, high + 1)
        inherited = [proposal for _, proposal in options]
        best = _INF
        best_proposal = -1
        for bound, proposal in options:
            limit = min(best, beta)
            if bound >= limit:
                best = min(best, bound)
                break
            row = tuple(m & s for m in self._answers[proposal])
            value = _BIG + self._within(s, proposal, row, MAX_TESTS_PER_ROUND, True,
                                        alpha - _BIG,
                                        limit - _BIG, inherited)
            if value < best:
                best, best_proposal = value, proposal
                if best <= alpha or best <= floor:
                    break
        if best < beta and best < high:
            self._upper[s] = (best, best_proposal)
        if best > alpha:
            self._lower[s] = max(low, best)
        return best

    def exact_rounds_value(self, s: int) -> int:
        """``R(s)`` exactly, by null-window searches upwards from the lower bound (MTD):
        each asks "is R(s) below beta?", which prunes far more than one open search, and
        the bounds each leaves in the memo speed up the next."""
        if self.single(s):
            return 0
        low = self._lower.get(s, _rounds_bound(self.code_count(s)))
        known = self._upper.get(s)
        high = known[0] if known is not None else _INF
        while low < high:
            beta = low + 1
            value = self.rounds_value(s, beta - 1, beta)
            if value < beta:
                high = value
            else:
                low = value
        return low

    def best_proposal(self, s: int) -> tuple[int, Code]:
        """``R(s)`` for ``s`` with two codes or more, and the proposal that achieves it."""
        value = self.exact_rounds_value(s)
        known = self._upper[s]
        assert known[0] == value
        return value, CODES[known[1]]

    def _within(self, s: int, proposal: int, row: tuple[int, ...], left: int, first: bool,
                alpha: int, beta: int, proposals: Sequence[int]) -> int:
        """``T(s, proposal, left, first)`` within (alpha, beta). ``row`` holds the round's
        proposal's ✅ sets per letter; letters tested this round split nothing in ``s``.
        ``proposals`` covers the families of splits of ``s``, for the rounds after.
        ``proposal`` keys the memo; -1 (a row not from a proposal) is not memoised."""
        bound = _within_bound(self.code_count(s), left)
        if bound >= beta:
            return bound
        if proposal < 0:
            return self._within_search(s, proposal, row, left, first, alpha, beta,
                                       self._proposals)
        key = (s, proposal, left + first * 4)
        low_known, high_known = self._within_memo.get(key, (bound, _INF))
        if low_known >= beta or low_known == high_known:
            return low_known
        if high_known <= alpha:
            return high_known
        window_alpha = max(alpha, low_known - 1)
        window_beta = min(beta, high_known + 1)
        best = self._within_search(s, proposal, row, left, first, window_alpha, window_beta,
                                   proposals)
        if best < window_beta:
            high_known = min(high_known, best)
        if best > window_alpha:
            low_known = max(low_known, best)
        self._within_memo[key] = (low_known, high_known)
        return best

    def _within_search(self, s: int, proposal: int, row: tuple[int, ...], left: int,
                       first: bool, alpha: int, beta: int, proposals: Sequence[int]) -> int:
        bound = _within_bound(self.code_count(s), left)
        best = _INF
        for split_bound, parts in self._splits(s, row, left):
            limit = min(best, beta)
            if split_bound >= limit:
                best = min(best, split_bound)
                break
            # The worse of the two answers counts; once one part reaches the limit the
            # other cannot help, and the second only matters above the first.
            low, high = alpha - 1, limit - 1
            worst = 0
            for part in parts:
                value = self._within(part, proposal, row, left - 1, False, low, high,
                                     proposals)
                worst = max(worst, value)
                if value >= high:
                    break
                low = max(low, value)
            best = min(best, 1 + worst)
            if best <= alpha or best <= bound:
                return best
        if not first:
            best = min(best, self.rounds_value(s, alpha, min(best, beta), proposals))
        return best

    def _splits(self, s: int, row: tuple[int, ...], left: int
                ) -> list[tuple[int, tuple[int, ...]]]:
        """The distinct splits of ``s`` by a letter, when a test is left: (lower bound of
        testing it, its parts with two codes or more, the likelier worse first)."""
        if not left:
            return []
        found: list[tuple[int, int, tuple[int, ...]]] = []
        seen: set[int] = set()
        for m in row:
            yes = m & s
            if not yes or yes == s or yes in seen:
                continue
            no = s ^ yes
            seen.add(yes)
            seen.add(no)
            counted = sorted(((self.code_count(part), part) for part in (yes, no)),
                             reverse=True)
            parts = tuple(part for count, part in counted if count > 1)
            split_bound = 1 + (_within_bound(counted[0][0], left - 1) if parts else 0)
            found.append((split_bound, counted[0][0], parts))
        found.sort(key=lambda item: item[:2])
        return [(split_bound, parts) for split_bound, _, parts in found]

    def within_value(self, s: int, proposal: int, row: tuple[int, ...], left: int,
                     first: bool) -> int:
        """``T`` exactly; ``proposal`` is the index of the code whose ✅ sets ``row``
        holds, or -1 when some were emptied."""
        if self.single(s):
            return 0
        return self._within(s, proposal, row, left, first, -1, _INF, self._proposals)

    def decide(self, s: int, proposal: int, row: tuple[int, ...], left: int, first: bool,
               target: int | None = None) -> tuple[int, int | None]:
        """The value of ``T`` and the choice achieving it: a letter, or None to end the
        round. ``target`` is the value when the caller already knows it."""
        if target is None:
            target = self.within_value(s, proposal, row, left, first)
        if left:
            for letter, m in enumerate(row):
                yes = m & s
                if not yes or yes == s:
                    continue
                worst = 0
                for part in (yes, s ^ yes):
                    if not self.single(part):
                        worst = max(worst, self._within(part, proposal, row, left - 1, False,
                                                        target - 2, target, self._proposals))
                if 1 + worst == target:
                    return target, letter
        if not first and self.rounds_value(s, target - 1, target + 1) == target:
            return target, None
        raise AssertionError("no choice reaches the machine's own value")  # pragma: no cover

    def child_value(self, s: int, proposal: int, row: tuple[int, ...], left: int,
                    target: int) -> int:
        """``T`` of a part after a test, knowing it is below ``target``."""
        if self.single(s):
            return 0
        return self._within(s, proposal, row, left, False, -1, target, self._proposals)

    def row(self, proposal: Code, s: int, tested: Sequence[int] = ()) -> tuple[int, ...]:
        """The ✅ sets of ``proposal`` per letter within ``s``; tested letters split
        nothing, so their sets are left empty."""
        masks = self._answers[CODE_INDEX[proposal]]
        return tuple(0 if v in tested else masks[v] & s for v in range(self.letters))

    # ------------------------------------------------------------------ questions
    def next_step(self, remaining: Sequence[Candidate], proposal: Code | None = None,
                  tested: Sequence[int] = (), tests_left: int | None = None) -> Step:
        """What the machine does now, given the candidates still possible, the round's
        proposal (None before it is chosen), the letters tested with it this round, and
        the tests left this round (``3 - len(tested)`` unless a handicap says fewer)."""
        s = self.subset(remaining)
        if not s:
            raise ValueError("no candidate remains: the answers contradict each other")
        if self.single(s):
            return Step("guess", code=self.code(s))
        if proposal is None:
            return Step("propose", code=self.best_proposal(s)[1])
        left = MAX_TESTS_PER_ROUND - len(tested) if tests_left is None else tests_left
        first = not tested
        if left <= 0:
            return Step("end_round")
        row = self.row(proposal, s, tested)
        if not any(m and m != s for m in row):
            if first:
                # A round needs a test before it may end; this proposal learns nothing.
                untested = [v for v in range(self.letters) if v not in tested]
                return Step("test", letter=untested[0])
            return Step("end_round")
        _, choice = self.decide(s, -1 if tested else CODE_INDEX[proposal], row, left, first)
        return Step("end_round") if choice is None else Step("test", letter=choice)


@dataclass
class Plan:
    """The machine's whole strategy from a set of candidates."""

    machine: Machine
    root: int
    value: int
    _tree: JSON | None = field(default=None, repr=False)

    @property
    def worst(self) -> Score:
        return _unpack(self.value)

    def tree(self) -> JSON:
        """The decision tree as nested JSON-safe dicts (see ``_round_node``)."""
        if self._tree is None:
            self._tree = _round_node(self.machine, self.root, 1, 0)
        return self._tree


def _leaf(machine: Machine, s: int, rounds: int, tests: int) -> JSON:
    return {"kind": "code", "code": code_text(machine.code(s)), "rounds": rounds,
            "tests": tests}


def _round_node(machine: Machine, s: int, number: int, tests: int) -> JSON:
    """``{"kind": "round", "round", "proposal", "candidates", "codes", "worst", "next"}``;
    below it ``{"kind": "test", "verifier", "yes", "no"}``, ``{"kind": "end_round",
    "next": <round>}`` and leaves ``{"kind": "code", "code", "rounds", "tests"}``. "worst"
    is the (rounds, tests) still to come in the worst case."""
    if machine.single(s):
        return _leaf(machine, s, number - 1, tests)
    value, proposal = machine.best_proposal(s)
    index = CODE_INDEX[proposal]
    row = machine.row(proposal, s)
    return {"kind": "round", "round": number, "proposal": code_text(proposal),
            "candidates": s.bit_count(), "codes": machine.code_count(s),
            "worst": list(_unpack(value)),
            "next": _step_node(machine, s, index, row, MAX_TESTS_PER_ROUND, True,
                               value - _BIG, number, tests)}


def _step_node(machine: Machine, s: int, index: int, row: tuple[int, ...], left: int,
               first: bool, target: int, number: int, tests: int) -> JSON:
    if machine.single(s):
        return _leaf(machine, s, number, tests)
    _, letter = machine.decide(s, index, row, left, first, target)
    if letter is None:
        return {"kind": "end_round", "next": _round_node(machine, s, number + 1, tests)}
    node: dict[str, Any] = {"kind": "test", "verifier": LETTERS[letter]}
    yes = row[letter] & s
    for answer, part in (("yes", yes), ("no", s ^ yes)):
        value = machine.child_value(part, index, row, left - 1, target)
        node[answer] = _step_node(machine, part, index, row, left - 1, False, value, number,
                                  tests + 1)
    return node


def solve(candidates: Sequence[Candidate], letters: int,
          machine: Machine | None = None) -> Plan:
    """The machine's worst-case optimal plan; ``machine`` reuses an earlier search over
    a universe holding these candidates."""
    if machine is None:
        machine = Machine(candidates, letters)
    root = machine.subset(candidates)
    return Plan(machine, root, machine.rounds_value(root))


def play(plan: Plan, actual: Candidate) -> MachineRun:
    """The machine following ``plan`` when the verifiers answer as ``actual`` does."""
    machine = plan.machine
    s = plan.root
    if not s & machine.subset([actual]):
        raise ValueError("the actual secret is not among the plan's candidates")
    rounds = tests = 0
    transcript: list[TestRecord] = []
    while not machine.single(s):
        value, proposal = machine.best_proposal(s)
        rounds += 1
        index = CODE_INDEX[proposal]
        row = machine.row(proposal, s)
        target = value - _BIG
        left, first = MAX_TESTS_PER_ROUND, True
        while not machine.single(s):
            _, letter = machine.decide(s, index, row, left, first, target)
            if letter is None:
                break
            answer = actual.criteria[letter].accepts(proposal)
            yes = row[letter] & s
            s = yes if answer else s ^ yes
            tests += 1
            left, first = left - 1, False
            transcript.append(TestRecord(rounds, proposal, letter, answer))
            target = machine.child_value(s, index, row, left, target)
    return MachineRun(machine.code(s), rounds, tests, tuple(transcript))


def next_step(remaining: Sequence[Candidate], proposal: Code | None = None,
              tested: Sequence[int] = (), tests_left: int | None = None,
              machine: Machine | None = None) -> Step:
    """The machine's decision in a situation; pass the ``machine`` of an earlier search
    (for example ``plan.machine``) to reuse what it already computed."""
    if machine is None:
        if not remaining:
            raise ValueError("no candidate remains: the answers contradict each other")
        machine = Machine(remaining, len(remaining[0].criteria))
    return machine.next_step(remaining, proposal, tested, tests_left)


@dataclass(frozen=True)
class MachineResult:
    """The machine on a puzzle: its score against the real secret, its worst case."""

    level: str
    score: Score
    worst: Score
    plan: Plan
    run: MachineRun

    def to_dict(self) -> JSON:
        return {"level": self.level, "score": list(self.score), "worst": list(self.worst),
                "run": self.run.to_dict()}


def actual_candidate(puzzle: Puzzle) -> Candidate:
    return Candidate(puzzle.secret_criteria, puzzle.code)


def machine_score(puzzle: Puzzle, level: str = "optimal") -> MachineResult:
    """The machine's plan for ``puzzle`` at ``level`` and its play against the secret."""
    plan = solve(puzzle.candidates(level), puzzle.size)
    run = play(plan, actual_candidate(puzzle))
    return MachineResult(level, run.score, plan.worst, plan, run)
