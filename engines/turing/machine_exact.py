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

Budget. An exact search can take minutes on the largest extreme and nightmare sets, so
it counts its nodes and gives up past ``NODE_BUDGET`` (a count, not a time, so that every
computer scores a puzzle alike and a game replays exactly).

Ties between equally good choices go to the first found: letters before ending a round,
proposals in the order of their bounds, then of ``_rank`` (on sets of more than
``_RANK_ABOVE`` codes), then of their index.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from math import factorial

from engines.turing.cards import CODE_INDEX, CODES, Code, code_text
from engines.turing.puzzle import LETTERS, MAX_TESTS_PER_ROUND, Candidate

_BIG = 1 << 20  # more tests than any plan makes, so rounds dominate the packed cost
_INF = 1 << 62
_RELAX_ALL_BELOW = 17  # codes up to which a proposal's bound looks at its whole round
_RANK_ABOVE = 16  # codes above which proposals of equal bounds are ordered by _rank
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


def _groups(column: Sequence[int], option_of: dict[int, int]) -> dict[int, int]:
    """Per option, the bitmask of the positions whose mask in ``column`` has it. Bit by bit
    that is a big-int operation per candidate; instead each position's option is a byte,
    and each option's bitmask is read from those bytes as a binary numeral (one C-speed
    pass per option)."""
    present = {option_of[mask]: mask for mask in dict.fromkeys(column)}
    if max(present) > 255:  # not one byte each
        groups: dict[int, int] = dict.fromkeys(present, 0)
        for position, mask in enumerate(column):
            groups[option_of[mask]] |= 1 << position
        return groups
    codes = bytes(map(option_of.__getitem__, reversed(column)))
    found = {}
    for option in present:
        digits = codes.translate(bytes(49 if byte == option else 48 for byte in range(256)))
        found[option] = int(digits, 2)
    return found


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


class SearchBudgetExceeded(Exception):
    """The exact search reached its node budget without an answer."""


class Machine:
    """The search over one universe of candidates; its memo serves every later question
    about subsets of that universe (plans, play, ``next_step``).

    A set of candidates travels with its *letter options*: per letter, a bitmask over the
    distinct criterion masks (``options``) that the tests so far allow there. Tests
    constrain one letter each, so the set is always the universe's members whose option
    at every letter is allowed. When the universe is closed under relabelling the letters
    (nightmare), relabelled sets cost the same, so the memo keys on the sorted options and
    letters with equal options are one choice."""

    proven = True  # its values are exact; see HeuristicMachine

    def __init__(self, candidates: Sequence[Candidate], letters: int,
                 node_budget: int | None = NODE_BUDGET) -> None:
        if not candidates:
            raise ValueError("the machine needs at least one candidate")
        if any(len(c.criteria) != letters for c in candidates):
            raise ValueError(f"every candidate needs {letters} criteria")
        self.letters = letters
        # Candidates with the same masks answer every test alike, so they are one.
        # ``Candidate.masks`` builds a tuple on every call: on the largest universes
        # (350,000 candidates) each is worth taking once.
        unique: dict[tuple[int, ...], Candidate] = {}
        for candidate in candidates:
            unique.setdefault(candidate.masks, candidate)
        pairs = sorted(unique.items(), key=lambda item: (item[1].code, item[0]))
        ordered = [candidate for _, candidate in pairs]
        self.candidates: tuple[Candidate, ...] = tuple(ordered)
        self._index = {masks: i for i, (masks, _) in enumerate(pairs)}
        self.count = len(ordered)
        self.universe = (1 << self.count) - 1
        self._blocks(ordered)
        self._letter_options([masks for masks, _ in pairs])
        # Proposals whose answers are the same on every candidate are one proposal.
        first: dict[tuple[int, ...], int] = {}
        for index, row in enumerate(self._answers):
            first.setdefault(row, index)
        self._proposals = sorted(first.values())
        self.symmetric = letters > 1 and self._closed_under_relabelling()
        # Bounds of R per key: the lower, and the upper with a proposal reaching it.
        self._lower: dict[Hashable, int] = {}
        self._upper: dict[Hashable, tuple[int, int]] = {}
        self._option_cache: dict[Hashable, tuple[int, list[tuple[int, int]],
                                                 dict[int, tuple[int, int]]]] = {}
        self._within_memo: dict[tuple[Hashable, int, int], tuple[int, int]] = {}
        self._pattern_cache: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        self.node_budget = node_budget
        self.width: int | None = None
        self.nodes = 0
        self._node_weight = (1 + self.count // 2048) * (4 if self.count > _DELEGATE_MAX else 1)
        self._fibers(ordered)

    def _fibers(self, ordered: Sequence[Candidate]) -> None:
        """Fibers for a lower bound on rounds: candidates that agree on every letter but
        ``v`` answer every other letter's tests alike, so only tests of ``v`` tell their
        codes apart, one a round. Kept as (codes in the universe, members), most codes
        first, and only for universes small enough for an exact search to finish."""
        self._fiber_groups: list[tuple[int, int]] = []
        if self.count > _DELEGATE_MAX:
            return
        groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for position, candidate in enumerate(ordered):
            masks = candidate.masks
            for letter in range(self.letters):
                key = (letter, masks[:letter] + masks[letter + 1:])
                groups.setdefault(key, []).append(position)
        for positions in groups.values():
            if len(positions) >= 3:
                bits = sum(1 << position for position in positions)
                if (count := self.code_count(bits)) >= 3:
                    self._fiber_groups.append((count, bits))
        self._fiber_groups.sort(key=lambda item: -item[0])

    def _spend(self) -> None:
        self.nodes += self._node_weight
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise SearchBudgetExceeded(f"the exact search passed {self.node_budget} nodes")

    def _blocks(self, ordered: Sequence[Candidate]) -> None:
        """Each code owns the bits [start, end) of its candidates. ``_top_bits`` marks each
        block's last bit and ``_low_bits`` the others, for ``code_count``."""
        ends: list[int] = []
        codes: list[Code] = []
        for position, candidate in enumerate(ordered):
            if codes and codes[-1] == candidate.code:
                ends[-1] = position + 1
            else:
                codes.append(candidate.code)
                ends.append(position + 1)
        self._block_end: list[int] = []
        self._block_code: list[Code] = []
        for code, end in zip(codes, ends, strict=True):
            size = end - len(self._block_end)
            self._block_end.extend([end] * size)
            self._block_code.extend([code] * size)
        self._top_bits = sum(1 << (end - 1) for end in ends)
        self._low_bits = self.universe & ~self._top_bits

    def _letter_options(self, masks: Sequence[tuple[int, ...]]) -> None:
        """``_members[v][o]``: the candidates with option ``o`` at letter ``v``;
        ``_answers[p][v]``: those answering ✅ to proposal ``p`` on ``v``;
        ``_accept[p]``: the options accepting ``p``; ``root_options`` per letter.
        ``masks`` are the candidates' criterion masks, in the machine's order."""
        option_of: dict[int, int] = {}
        members: list[dict[int, int]] = []
        for at_letter in zip(*masks, strict=True):
            for mask in dict.fromkeys(at_letter):
                option_of.setdefault(mask, len(option_of))
            members.append(_groups(at_letter, option_of))
        self._members = members
        self.options: tuple[int, ...] = tuple(option_of)
        self.root_options = tuple(sum(1 << o for o in column) for column in members)
        self._accept = [sum(1 << o for o, mask in enumerate(self.options)
                            if mask >> index & 1) for index in range(len(CODES))]
        # Many proposals accept the same options, so their answer sets are shared.
        cache: dict[tuple[int, int], int] = {}
        answers: list[tuple[int, ...]] = []
        for accepted in self._accept:
            row = []
            for letter, column in enumerate(members):
                key = (letter, accepted & self.root_options[letter])
                shared = cache.get(key)
                if shared is None:
                    shared = 0
                    for option, members_of in column.items():
                        if accepted >> option & 1:
                            shared |= members_of
                    cache[key] = shared
                row.append(shared)
            answers.append(tuple(row))
        self._answers = answers

    def _closed_under_relabelling(self) -> bool:
        """Whether every relabelling of the letters of a candidate is a candidate too: the
        candidates sharing a sorted mask tuple must be all of its distinct orders."""
        groups = Counter(map(tuple, map(sorted, self._index)))  # counted at C speed
        for key, count in groups.items():
            orders = factorial(len(key))
            for repeats in Counter(key).values():
                orders //= factorial(repeats)
            if count != orders:
                return False
        return True

    # ------------------------------------------------------------------ sets
    def subset(self, candidates: Sequence[Candidate]) -> int:
        """The bitmask of ``candidates``; ``ValueError`` for one outside the universe.
        Bits are set in a byte array: setting them one by one in a big int would cost
        a pass over the whole int each."""
        bits = bytearray((self.count + 7) // 8)
        for candidate in candidates:
            position = self._index.get(candidate.masks)
            if position is None:
                raise ValueError(f"candidate {candidate.ids} is not one the machine knows")
            bits[position >> 3] |= 1 << (position & 7)
        return int.from_bytes(bits, "little")

    def members(self, s: int) -> list[Candidate]:
        """The candidates of ``s``, in order, found in its binary numeral (one C-speed
        pass) rather than bit by bit (a pass over the whole big int each)."""
        digits = bin(s)[:1:-1]
        found = []
        position = digits.find("1")
        while position >= 0:
            found.append(self.candidates[position])
            position = digits.find("1", position + 1)
        return found

    def options_of(self, s: int) -> tuple[int, ...]:
        """The letter options of ``s``: those some member has, per letter."""
        return tuple(sum(1 << o for o, bits in column.items() if bits & s)
                     for column in self._members)

    def reachable(self, s: int) -> bool:
        """Whether ``s`` is the universe narrowed letter by letter, as tests narrow it:
        exactly the members whose option at each letter some member of ``s`` has. Only
        such sets may share memo entries with their relabellings."""
        rebuilt = self.universe
        for allowed, column in zip(self.options_of(s), self._members, strict=True):
            rebuilt &= sum(bits for o, bits in column.items() if allowed >> o & 1)
        return rebuilt == s

    def _present(self, s: int, options: tuple[int, ...]) -> tuple[int, ...]:
        """``options`` without those no member of ``s`` has."""
        present = []
        for allowed, column in zip(options, self._members, strict=True):
            kept = 0
            rest = allowed
            while rest:
                low = rest & -rest
                if column[low.bit_length() - 1] & s:
                    kept |= low
                rest ^= low
            present.append(kept)
        return tuple(present)

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

    def _key(self, s: int, options: tuple[int, ...]) -> Hashable:
        return tuple(sorted(options)) if self.symmetric else s

    def test(self, s: int, options: tuple[int, ...], proposal: int, letter: int,
             answer: bool) -> tuple[int, tuple[int, ...]]:
        """The set and letter options after ``letter`` answers ``answer`` to the proposal
        of index ``proposal``."""
        yes = self._answers[proposal][letter] & s
        accepted = self._accept[proposal]
        narrowed = options[letter] & (accepted if answer else ~accepted)
        return (yes if answer else s ^ yes,
                (*options[:letter], narrowed, *options[letter + 1:]))

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

    def _families(self, s: int, proposals: Sequence[int]) -> list[int]:
        """One proposal per family of splits of ``s`` (the first in ``proposals``),
        leaving out the dominated ones: a proposal whose splits are all splits of another
        is never better, as the other can make the same tests."""
        # A test acts on a letter through the options it accepts among those present
        # there, so proposals alike in those small ints are alike: only one of each
        # needs its splits computed on the big sets.
        present = self._present(s, self.root_options)
        patterns: dict[tuple[int, ...], int] = {}
        for proposal in proposals:
            accepted = self._accept[proposal]
            patterns.setdefault(tuple(accepted & allowed for allowed in present), proposal)
        families: dict[frozenset[int], int] = {}
        for proposal in patterns.values():
            splits = frozenset(min(y, s ^ y) for m in self._answers[proposal]
                               if (y := m & s) and y != s)
            if splits:
                families.setdefault(splits, proposal)
        # Larger families first, so dominators come first. ``having[split]`` marks the
        # kept families with that split: a family is dominated when one has them all.
        having: dict[int, int] = {}
        kept: list[int] = []
        for splits, proposal in sorted(families.items(), key=lambda item: -len(item[0])):
            common = -1
            for split in splits:
                common &= having.get(split, 0)
                if not common:
                    break
            if common:
                continue
            bit = 1 << len(kept)
            for split in splits:
                having[split] = having.get(split, 0) | bit
            kept.append(proposal)
        return kept

    def _rank(self, s: int, row: tuple[int, ...], left: int) -> tuple[int, int]:
        """How good a round of ``row`` looks on ``s``: the codes and candidates of its
        worst leaf when each test is the one whose worse part has the fewest codes."""
        if not left or self.single(s):
            return self.code_count(s), s.bit_count()
        best: tuple[int, int, int] | None = None
        for m in row:
            yes = m & s
            if not yes or yes == s:
                continue
            no = s ^ yes
            rank = max((self.code_count(yes), yes.bit_count()),
                       (self.code_count(no), no.bit_count()))
            if best is None or rank < best[:2]:
                best = (*rank, yes)
        if best is None:
            return self.code_count(s), s.bit_count()
        yes = best[2]
        return max(self._rank(yes, row, left - 1), self._rank(s ^ yes, row, left - 1))

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

    def _fiber_floor(self, s: int, static: int) -> int:
        """``static`` raised by the fibers (see ``_fibers``): one of ``f`` codes needs
        ``ceil(log2 f)`` tests of its letter, each in a round of its own."""
        best = static
        rounds = best // _BIG
        for count, bits in self._fiber_groups:
            if count <= 1 << rounds:
                break  # no fiber left can have more than 2 ** rounds codes
            part = bits & s
            if part:
                need = _log2_ceil(self.code_count(part))
                if need > rounds:
                    rounds = need
                    best = _BIG * need + need
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

    def _patterns(self, allowed: int) -> list[tuple[int, tuple[int, ...]]]:
        """The proposals grouped by the options among ``allowed`` they accept, leaving
        out the groups whose test on such a letter splits nothing."""
        found = self._pattern_cache.get(allowed)
        if found is None:
            groups: dict[int, list[int]] = {}
            for proposal in self._proposals:
                pattern = self._accept[proposal] & allowed
                if pattern and pattern != allowed:
                    groups.setdefault(pattern, []).append(proposal)
            found = [(pattern, tuple(members)) for pattern, members in groups.items()]
            self._pattern_cache[allowed] = found
        return found

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

    def row(self, proposal: int, tested: Sequence[int] = ()) -> tuple[int, ...]:
        """The ✅ sets of the proposal of index ``proposal`` per letter; letters tested
        this round may not be tested again, so their sets are left empty."""
        masks = self._answers[proposal]
        return tuple(0 if v in tested else masks[v] for v in range(self.letters))

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
